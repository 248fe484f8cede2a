//! Time management: what one move may spend. The manager's terms come in as [`Limits`] (the
//! tournament clock of [`TimeControl`] and the depth and node caps a user may add); the search
//! gets them as one [`Plan`]: absolute deadlines and the same caps.
//!
//! # Rules
//! - The clock of a move starts when the command asking for it arrived (`Limits::started`), not
//!   when the engine got round to it: everything the move does (book, proof search, main search,
//!   output) shares that one start.
//! - `timeout_turn = 0` means answer at once: the plan is *instant* and the search plays the top
//!   of the threat ladder without searching.
//! - The budget is the smaller of the per-turn limit (minus a safety margin for the answer to
//!   travel back) and a share of what is left of the match clock (`time_left`, spread over the
//!   moves a game still tends to need, minus a reserve). Neither given: no deadline (analysis,
//!   fixed-depth and fixed-node searches).
//! - `hard` is the deadline the search polls (every few hundred nodes, with the `stop` flag);
//!   `soft` is when no new iteration starts. How late that is depends on what unspent time is
//!   worth ([`Spend`]): when the turn limit binds, time a move does not use is lost, so
//!   iterations start until the deadline (an abandoned iteration still improves the answer when
//!   a move beat the first one searched, see `search`); when the match clock binds, time saved
//!   is time for later moves, so no iteration starts after [`SOFT_PERCENT`] of the move's
//!   planned share, since it would rarely finish.
//! - Under the match clock a move's share follows the game's phase and the search's own doubt.
//!   Games are decided in the early middle game (a median 10-15 stones in the games lost to a
//!   stronger engine), so a move there is planned [`importance_percent`] of the even share and a
//!   late one less. The soft deadline then stretches or shrinks with the iterations ([`Stability`]):
//!   later when the best move keeps changing or the score falls, sooner when the answer has
//!   stood for several iterations; the hard deadline leaves room for that
//!   ([`HARD_STRETCH_PERCENT`] of the share, at most [`MAX_SHARE_DIVISOR`]th of the clock).
//! - A loaded machine answers late: the search sees the deadline only when it polls, and the
//!   threads that must stop and report may wait for a core. [`ReplyLag`] remembers how far past
//!   its planned budget each recent reply came, and the next budgets keep that much more back
//!   (`Limits::lag_ms`), so lateness the brain has seen is not repeated on the next move.

use std::time::{Duration, Instant};

/// The match clock as the manager announced it through `INFO`. Milliseconds; `None` = not sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    /// `timeout_turn`: the most one move may take; 0 = answer as fast as possible.
    pub turn_ms: Option<u64>,
    /// `timeout_match`: the whole match; 0 = unlimited.
    pub match_ms: Option<u64>,
    /// `time_left`: what remains of the match clock; may be negative; 2147483647 = unlimited.
    pub left_ms: Option<i64>,
}

/// The longest clock setting taken, in ms (`timeout_turn`, `timeout_match`): the protocol's
/// "unlimited" `time_left`, about 24.8 days. Longer values are clamped to it.
pub const MAX_CLOCK_MS: u64 = UNLIMITED_LEFT as u64;

/// The match clock as the brain keeps it: the last `time_left` the manager sent minus what our
/// own moves took since, or, when none was sent this game, `timeout_match` minus what our moves
/// took. So a manager that sets a match clock and never reports it is still obeyed, and a
/// report corrects our count whenever one arrives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchClock {
    /// `time_left` as last reported this game.
    reported_ms: Option<i64>,
    /// Our moves' time since that report (or since the game started), ms.
    used_ms: u64,
}

impl MatchClock {
    /// A new game: nothing reported, nothing used.
    pub fn new_game(&mut self) {
        *self = MatchClock::default();
    }

    /// The manager reports `ms` left (`INFO time_left`).
    pub fn report(&mut self, ms: i64) {
        self.reported_ms = Some(ms);
        self.used_ms = 0;
    }

    /// One of our moves took `took` (from the command that asked for it to our reply).
    pub fn moved(&mut self, took: Duration) {
        let ms = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
        self.used_ms = self.used_ms.saturating_add(ms);
    }

    /// What is left of the match clock for `time` (its `timeout_match`), by our count: `None`
    /// when there is no match clock.
    pub fn left_ms(&self, time: &TimeControl) -> Option<i64> {
        let used = i64::try_from(self.used_ms).unwrap_or(i64::MAX);
        match (self.reported_ms, time.match_ms) {
            (Some(left), _) if left >= UNLIMITED_LEFT => Some(left),
            (Some(left), _) => Some(left.saturating_sub(used)),
            (None, Some(m)) if m > 0 => {
                Some(i64::try_from(m).unwrap_or(i64::MAX).saturating_sub(used))
            }
            (None, _) => None,
        }
    }

    /// `time` with `left_ms` set from this clock (the time control a move is planned with).
    pub fn apply(&self, time: TimeControl) -> TimeControl {
        TimeControl {
            left_ms: self.left_ms(&time),
            ..time
        }
    }
}

/// The limits of one move.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// When the command asking for this move arrived.
    pub started: Instant,
    /// The tournament clock.
    pub time: TimeControl,
    /// `INFO max_depth`: stop iterating after this depth.
    pub max_depth: Option<u32>,
    /// `INFO max_node`: stop after about this many nodes.
    pub max_nodes: Option<u64>,
    /// How far past their budgets our recent replies came, in ms ([`ReplyLag`]): kept back
    /// from the budget on top of the fixed margins.
    pub lag_ms: u64,
    /// Stones on the board: the game's phase, which weighs the move's share of the match clock.
    pub stones: u32,
}

impl Limits {
    /// Limits for a move asked for now under `time`, with no depth or node cap.
    pub fn new(time: TimeControl) -> Limits {
        Limits {
            started: Instant::now(),
            time,
            max_depth: None,
            max_nodes: None,
            lag_ms: 0,
            stones: 0,
        }
    }

    /// A fixed-depth search with no clock (analysis, tests, bench).
    pub fn depth(depth: u32) -> Limits {
        Limits {
            max_depth: Some(depth),
            ..Limits::new(TimeControl::default())
        }
    }

    /// A fixed-node search with no clock.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            max_nodes: Some(nodes),
            ..Limits::new(TimeControl::default())
        }
    }

    /// A clock of `ms` per move and nothing else.
    pub fn per_move(ms: u64) -> Limits {
        Limits::new(TimeControl {
            turn_ms: Some(ms),
            ..TimeControl::default()
        })
    }
}

/// Milliseconds kept back from every turn limit (at most a quarter of it).
pub const TURN_MARGIN_MS: u64 = 30;
/// The share of the turn limit also kept back, in percent.
pub const TURN_MARGIN_PERCENT: u64 = 5;
/// How many more own moves the match clock is planned for.
pub const MATCH_MOVES_AHEAD: i64 = 20;
/// Milliseconds of the match clock never planned for.
pub const MATCH_RESERVE_MS: i64 = 200;
/// `time_left` at or above this means unlimited.
pub const UNLIMITED_LEFT: i64 = 2_147_483_647;
/// When the match clock binds, no new iteration starts after this share of the move's planned
/// time, in percent (before [`Stability`] stretches it).
pub const SOFT_PERCENT: u32 = 45;
/// Under the match clock the hard deadline is at most this share of the planned time, percent,
pub const HARD_STRETCH_PERCENT: u64 = 250;
/// and at most this fraction (one in so many) of the usable clock.
pub const MAX_SHARE_DIVISOR: i64 = 5;
/// A move's share of the match clock at most this many stones on the board is the most,
pub const IMPORTANT_UNTIL_STONES: u32 = 24;
/// and from this many on the least;
pub const LATE_FROM_STONES: u32 = 60;
/// the two weights, in percent of the even share (the usable clock over [`MATCH_MOVES_AHEAD`]).
pub const IMPORTANCE_PERCENT: (u64, u64) = (180, 80);

/// How much of the even share of the match clock a move with `stones` on the board is planned,
/// in percent: the most up to [`IMPORTANT_UNTIL_STONES`], falling linearly to the least at
/// [`LATE_FROM_STONES`].
pub fn importance_percent(stones: u32) -> u64 {
    let (most, least) = IMPORTANCE_PERCENT;
    if stones <= IMPORTANT_UNTIL_STONES {
        return most;
    }
    if stones >= LATE_FROM_STONES {
        return least;
    }
    let span = u64::from(LATE_FROM_STONES - IMPORTANT_UNTIL_STONES);
    let past = u64::from(stones - IMPORTANT_UNTIL_STONES);
    most - (most - least) * past / span
}

/// How settled the search's answer is, iteration by iteration, as a stretch of the soft
/// deadline under the match clock ([`Plan::stop_iterating`]). Three signals, each a factor:
/// - **doubt**: every change of the best move adds one, and each completed iteration halves
///   what was there (so a change two iterations ago counts a quarter);
/// - **a falling score**: the drop from the last score of the same parity (the evaluation
///   swings between odd and even depths), one [`Stability::FALL_UNIT`] doubling the time
///   before the clamp;
/// - **settledness**: a best move that has stood for more than two iterations takes a little
///   less each further iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stability {
    /// The last completed iteration's best move, as a cell index.
    best: Option<usize>,
    /// Best-move changes, in hundredths, halved every iteration.
    doubt: u32,
    /// Completed iterations since the best move last changed.
    stood: u32,
    /// The last score of each depth parity.
    by_parity: [Option<i32>; 2],
    /// The last iteration's drop from the score of its parity, evaluation units.
    drop: i32,
}

impl Stability {
    /// The evaluation units of a drop that doubles the time before the clamp (half a logit of
    /// the fitted scale, 900 a logit).
    pub const FALL_UNIT: i32 = 450;
    /// The stretch's bounds, percent.
    pub const BOUNDS: (u32, u32) = (50, 250);

    /// The iteration at `depth` completed with best move `best` (a cell index) and `score`.
    pub fn completed(&mut self, depth: u32, best: usize, score: i32) {
        self.doubt /= 2;
        match self.best {
            Some(b) if b != best => {
                self.doubt += 100;
                self.stood = 0;
            }
            Some(_) => self.stood += 1,
            None => {}
        }
        self.best = Some(best);
        let last = &mut self.by_parity[(depth % 2) as usize];
        self.drop = last.map_or(0, |l| l.saturating_sub(score));
        *last = Some(score);
    }

    /// The soft deadline's stretch, percent of the planned one.
    pub fn stretch_percent(&self) -> u32 {
        let doubt = 100 + self.doubt;
        let fall = (100
            + self.drop.clamp(-Self::FALL_UNIT, Self::FALL_UNIT) * 100 / Self::FALL_UNIT)
            .clamp(80, 150) as u32;
        let settled = 100u32
            .saturating_sub(5 * self.stood.saturating_sub(2))
            .max(70);
        let (low, high) = Self::BOUNDS;
        (doubt * fall / 100 * settled / 100).clamp(low, high)
    }
}

/// How far past its planned budget a reply of ours comes on this machine under its present load,
/// measured on our own moves: the largest recent overshoot, forgotten by a quarter a move, so a
/// burst of load is answered at once and a machine that calmed down gets its time back within a
/// few moves. Only what the brain itself sees counts (from reading the command to writing the
/// answer); the pipe's delay on the manager's side is the fixed margins' job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplyLag {
    /// The present estimate, ms.
    ms: u64,
}

impl ReplyLag {
    /// The estimate never grows past this (ms): a stall longer than any sane turn, such as a
    /// machine suspended mid-move, says nothing about the next move.
    pub const MAX_MS: u64 = 2000;

    /// A reply planned with a budget of `budget_ms` (0: answer at once) took `took`.
    pub fn observe(&mut self, budget_ms: u64, took: Duration) {
        let took_ms = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
        let over = took_ms.saturating_sub(budget_ms).min(Self::MAX_MS);
        self.ms = over.max(self.ms * 3 / 4);
    }

    /// The estimate to keep back from the next budget, ms.
    pub fn ms(&self) -> u64 {
        self.ms
    }
}

/// What a move's unspent time is worth, which decides when the last iteration starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spend {
    /// The budget is this turn's alone (`timeout_turn` binds): time not used is lost, so new
    /// iterations start until the deadline.
    Turn,
    /// The budget is a share of the match clock: time not used is kept for later moves, so no
    /// iteration starts after [`SOFT_PERCENT`] of the budget.
    Banked,
}

/// What one search may spend: its deadlines and its depth and node caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Answer at once without searching.
    pub instant: bool,
    /// The time budget, when there is one.
    pub budget: Option<Duration>,
    /// Do not start a new iteration after this.
    pub soft: Option<Instant>,
    /// Abandon the search at this instant.
    pub hard: Option<Instant>,
    /// When the move's clock started: the origin [`Stability`] stretches `soft` from.
    pub started: Option<Instant>,
    /// Stop iterating after this depth.
    pub max_depth: Option<u32>,
    /// Abandon the search after about this many nodes.
    pub max_nodes: Option<u64>,
}

impl Plan {
    /// No clock and no cap: the search ends at a proven score or the stop flag.
    pub const UNLIMITED: Plan = Plan {
        instant: false,
        budget: None,
        soft: None,
        hard: None,
        started: None,
        max_depth: None,
        max_nodes: None,
    };

    /// Answer at once (a 0 ms budget): the top of the threat ladder, no search.
    pub fn instant(started: Instant) -> Plan {
        Plan {
            instant: true,
            budget: Some(Duration::ZERO),
            soft: Some(started),
            hard: Some(started),
            started: Some(started),
            ..Plan::UNLIMITED
        }
    }

    /// A budget of `budget` from `started` kept for later moves when unspent ([`Spend::Banked`]):
    /// no new iteration after [`SOFT_PERCENT`] of it, and the search abandoned at its end.
    pub fn within(started: Instant, budget: Duration) -> Plan {
        Plan::spending(started, budget, Spend::Banked)
    }

    /// A budget of `budget` from `started` spent as `spend` says: the search abandoned at its
    /// end, and new iterations started until its end ([`Spend::Turn`]) or [`SOFT_PERCENT`] of it
    /// ([`Spend::Banked`]).
    pub fn spending(started: Instant, budget: Duration, spend: Spend) -> Plan {
        let soft = match spend {
            Spend::Turn => budget,
            Spend::Banked => budget * SOFT_PERCENT / 100,
        };
        // A budget beyond what an `Instant` can represent is no deadline at all.
        Plan {
            instant: false,
            budget: Some(budget),
            soft: started.checked_add(soft),
            hard: started.checked_add(budget),
            started: Some(started),
            ..Plan::UNLIMITED
        }
    }

    /// A move planned `planned` of the match clock from `started` ([`Spend::Banked`]): no new
    /// iteration after [`SOFT_PERCENT`] of the plan (as [`Stability`] stretches it), and the
    /// search abandoned at `hard` from `started` (never before the plan).
    pub fn banked(started: Instant, planned: Duration, hard: Duration) -> Plan {
        let hard = hard.max(planned);
        Plan {
            budget: Some(hard),
            hard: started.checked_add(hard),
            ..Plan::spending(started, planned, Spend::Banked)
        }
    }

    /// Whether the iterative deepening should start no new iteration at `now`, the answer so
    /// far being as settled as `stability` says: past the soft deadline, which under the match
    /// clock ([`Spend::Banked`]) moves by [`Stability::stretch_percent`] from the move's start
    /// (but never past the hard deadline). When the turn limit binds, unspent time is lost, so
    /// the deadline does not move.
    pub fn stop_iterating(&self, now: Instant, stability: &Stability) -> bool {
        let Some(soft) = self.soft else {
            return false;
        };
        let soft = match (self.spend(), self.started) {
            (Spend::Banked, Some(start)) if !self.instant => {
                let base = soft.saturating_duration_since(start);
                let stretched = start.checked_add(base * stability.stretch_percent() / 100);
                match (stretched, self.hard) {
                    (Some(s), Some(h)) => s.min(h),
                    (Some(s), None) => s,
                    (None, _) => return false,
                }
            }
            _ => soft,
        };
        now >= soft
    }

    /// How this plan values unspent time (a plan without a deadline banks it).
    pub fn spend(&self) -> Spend {
        match (self.soft, self.hard) {
            (Some(s), Some(h)) if s == h && !self.instant => Spend::Turn,
            _ => Spend::Banked,
        }
    }

    /// A search to depth `depth`, no clock.
    pub fn depth(depth: u32) -> Plan {
        Plan {
            max_depth: Some(depth),
            ..Plan::UNLIMITED
        }
    }

    /// A search of about `nodes` nodes, no clock.
    pub fn nodes(nodes: u64) -> Plan {
        Plan {
            max_nodes: Some(nodes),
            ..Plan::UNLIMITED
        }
    }

    /// This plan with its depth cap set to `depth`.
    pub fn with_depth(self, depth: u32) -> Plan {
        Plan {
            max_depth: Some(depth),
            ..self
        }
    }

    /// This plan with its node cap set to `nodes`.
    pub fn with_nodes(self, nodes: u64) -> Plan {
        Plan {
            max_nodes: Some(nodes),
            ..self
        }
    }
}

/// The most a move with `limits` may take, in milliseconds (`None` = unlimited; `Some(0)` =
/// answer at once).
pub fn budget_ms(limits: &Limits) -> Option<u64> {
    match budget(limits)? {
        (ms, Spend::Turn) => Some(ms),
        (planned, Spend::Banked) => Some(banked_hard_ms(limits, planned)),
    }
}

/// The hard deadline, in ms, of a move planned `planned` ms of the match clock: room for the
/// soft deadline to stretch, but never past the turn limit nor a [`MAX_SHARE_DIVISOR`]th of the
/// usable clock, and never short of the plan.
fn banked_hard_ms(limits: &Limits, planned: u64) -> u64 {
    let stretched = planned.saturating_mul(HARD_STRETCH_PERCENT) / 100;
    let clock_cap = limits.time.left_ms.map_or(u64::MAX, |left| {
        let usable = usable_ms(left);
        ((usable / MAX_SHARE_DIVISOR).max(0) as u64).saturating_sub(limits.lag_ms)
    });
    let turn_cap = turn_budget_ms(limits).unwrap_or(u64::MAX);
    stretched.min(clock_cap).min(turn_cap).max(planned)
}

/// What of `left` ms of match clock may be planned for: all but [`MATCH_RESERVE_MS`] (at most a
/// quarter of it).
fn usable_ms(left: i64) -> i64 {
    left - MATCH_RESERVE_MS.min(left / 4)
}

/// The turn limit's budget in ms, its margins and the lag kept back.
fn turn_budget_ms(limits: &Limits) -> Option<u64> {
    limits.time.turn_ms.map(|turn| {
        if turn == 0 {
            0
        } else {
            let fixed =
                (TURN_MARGIN_MS + turn.saturating_mul(TURN_MARGIN_PERCENT) / 100).min(turn / 4);
            // Lateness seen on earlier moves is kept back too, but never more than half the turn:
            // a move searched briefly still beats one played blind.
            let margin = fixed.saturating_add(limits.lag_ms).min(turn / 2).max(fixed);
            (turn - margin).max(1)
        }
    })
}

/// The planned time in milliseconds for `limits` and what its unspent time is worth:
/// [`Spend::Turn`] when the turn limit is the smaller (the plan is then also the most the move
/// may take), [`Spend::Banked`] when the match clock's share is (the move may stretch past it,
/// up to [`budget_ms`]).
pub fn budget(limits: &Limits) -> Option<(u64, Spend)> {
    let t = limits.time;
    let turn = turn_budget_ms(limits);
    let match_clock = match (t.left_ms, t.match_ms) {
        (_, Some(0)) | (None, _) => None,
        (Some(left), _) if left >= UNLIMITED_LEFT => None,
        (Some(left), _) => {
            let usable = usable_ms(left);
            let even = (usable / MATCH_MOVES_AHEAD).max(0) as u64;
            let share = even.saturating_mul(importance_percent(limits.stones)) / 100;
            Some(share.saturating_sub(limits.lag_ms))
        }
    };
    match (turn, match_clock) {
        (Some(a), Some(b)) if a <= b => Some((a, Spend::Turn)),
        (_, Some(b)) => Some((b, Spend::Banked)),
        (Some(a), None) => Some((a, Spend::Turn)),
        (None, None) => None,
    }
}

/// The plan for a move with `limits`: its deadlines and its caps.
pub fn plan(limits: &Limits) -> Plan {
    let clock = match budget(limits) {
        None => Plan::UNLIMITED,
        Some((0, _)) => Plan::instant(limits.started),
        Some((ms, Spend::Turn)) => {
            Plan::spending(limits.started, Duration::from_millis(ms), Spend::Turn)
        }
        Some((planned, Spend::Banked)) => Plan::banked(
            limits.started,
            Duration::from_millis(planned),
            Duration::from_millis(banked_hard_ms(limits, planned)),
        ),
    };
    Plan {
        max_depth: limits.max_depth,
        max_nodes: limits.max_nodes,
        ..clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(turn: Option<u64>, m: Option<u64>, left: Option<i64>) -> Limits {
        Limits::new(TimeControl {
            turn_ms: turn,
            match_ms: m,
            left_ms: left,
        })
    }

    #[test]
    fn budgets() {
        assert_eq!(budget_ms(&limits(None, None, None)), None);
        assert_eq!(budget_ms(&limits(Some(0), None, None)), Some(0));
        assert_eq!(budget_ms(&limits(Some(1000), None, None)), Some(1000 - 80));
        assert_eq!(budget_ms(&limits(Some(10), None, None)), Some(8));
        assert_eq!(budget_ms(&limits(Some(1), None, None)), Some(1));
        // The match clock caps the turn: an early move is planned 180% of the even share
        // (20000 usable over 20 moves), and may stretch to 250% of that, but not past a fifth
        // of the usable clock.
        assert_eq!(
            budget(&limits(Some(5000), Some(60_000), Some(20_200))),
            Some((1800, Spend::Banked))
        );
        assert_eq!(
            budget_ms(&limits(Some(5000), Some(60_000), Some(20_200))),
            Some(4000)
        );
        // Unlimited match clock and timeout_match 0 are ignored.
        assert_eq!(budget_ms(&limits(Some(1000), Some(0), Some(10))), Some(920));
        assert_eq!(
            budget_ms(&limits(Some(1000), Some(1), Some(UNLIMITED_LEFT))),
            Some(920)
        );
        // Out of time: answer at once.
        assert_eq!(
            budget_ms(&limits(Some(1000), Some(1000), Some(-5))),
            Some(0)
        );
        assert!(plan(&limits(Some(0), None, None)).instant);
        let capped = plan(&Limits::depth(7));
        assert_eq!((capped.max_depth, capped.hard), (Some(7), None));
        assert_eq!(plan(&Limits::nodes(500)).max_nodes, Some(500));
        // The turn limit binds: iterations start until the deadline.
        let p = plan(&limits(Some(1000), None, None));
        assert_eq!((p.soft, p.spend()), (p.hard, Spend::Turn));
        // The match clock binds: no iteration starts after SOFT_PERCENT of the plan (before
        // the stretch), and the search is abandoned at the hard budget.
        let p = plan(&limits(Some(5000), Some(60_000), Some(20_200)));
        assert_eq!(p.spend(), Spend::Banked);
        let (start, soft, hard) = (p.started.unwrap(), p.soft.unwrap(), p.hard.unwrap());
        assert_eq!(
            soft - start,
            Duration::from_millis(1800) * SOFT_PERCENT / 100
        );
        assert_eq!(hard - start, Duration::from_millis(4000));
        assert_eq!(p.budget, Some(Duration::from_millis(4000)));
        // Whichever binds decides, however close the other.
        assert_eq!(
            budget(&limits(Some(1000), Some(60_000), Some(18_600))),
            Some((920, Spend::Turn))
        );
        assert_eq!(
            budget(&limits(Some(1000), Some(60_000), Some(10_000))),
            Some((9800 / 20 * 180 / 100, Spend::Banked))
        );
        assert_eq!(
            budget_ms(&limits(Some(1000), Some(60_000), Some(10_000))),
            Some(920),
            "the stretch stops at the turn limit"
        );
        // Absurd clocks neither overflow nor panic.
        assert!(budget_ms(&limits(Some(u64::MAX), None, None)).unwrap() > u64::MAX / 2);
        let huge = plan(&limits(Some(u64::MAX), None, None));
        assert!(huge
            .hard
            .is_none_or(|h| h > Instant::now() + Duration::from_secs(1 << 40)));
        assert_eq!(
            budget_ms(&limits(Some(1000), Some(1), Some(i64::MIN))),
            Some(0)
        );
    }

    /// Lateness seen on a move is kept back from the next budgets, fades when replies come on
    /// time again, and never takes more than half the turn.
    #[test]
    fn reply_lag() {
        let mut lag = ReplyLag::default();
        let with = |lag: ReplyLag, turn: Option<u64>, left: Option<i64>| {
            let mut l = limits(turn, Some(60_000), left);
            l.lag_ms = lag.ms();
            budget_ms(&l).unwrap()
        };
        let calm = with(lag, Some(300), None);
        assert_eq!(calm, 300 - TURN_MARGIN_MS - 15);
        // On time: nothing learnt.
        lag.observe(calm, Duration::from_millis(calm - 10));
        assert_eq!(lag.ms(), 0);
        // 40 ms late: the next budget is 40 ms shorter.
        lag.observe(calm, Duration::from_millis(calm + 40));
        assert_eq!(lag.ms(), 40);
        assert_eq!(with(lag, Some(300), None), calm - 40);
        // A smaller overshoot does not hide the larger one at once; it fades by a quarter a move.
        lag.observe(calm - 40, Duration::from_millis(calm - 40 + 5));
        assert_eq!(lag.ms(), 30);
        for _ in 0..20 {
            lag.observe(calm, Duration::from_millis(calm));
        }
        assert_eq!(lag.ms(), 0, "forgotten after 20 calm moves");
        // A huge stall: at most half the turn is kept back, and the stall itself is capped.
        lag.observe(calm, Duration::from_secs(3600));
        assert_eq!(lag.ms(), ReplyLag::MAX_MS);
        assert_eq!(with(lag, Some(300), None), 150);
        assert_eq!(with(lag, Some(1), None), 1);
        assert_eq!(with(lag, Some(0), None), 0);
        // The match clock's share and its stretch lose the lag too, down to answering at once.
        assert_eq!(with(ReplyLag::default(), None, Some(20_200)), 4000);
        let mut some = ReplyLag::default();
        some.observe(0, Duration::from_millis(120));
        assert_eq!(with(some, None, Some(20_200)), 3880);
        let mut l = limits(None, Some(60_000), Some(20_200));
        l.lag_ms = some.ms();
        assert_eq!(budget(&l), Some((1680, Spend::Banked)));
        assert_eq!(with(lag, None, Some(20_200)), 0);
    }

    /// With a match clock and no `time_left`, the brain counts its own time; a report resets
    /// the count (the case: 300 ms for the game, 2000 ms a turn).
    #[test]
    fn own_match_clock() {
        let turn = TimeControl {
            turn_ms: Some(2000),
            match_ms: Some(300),
            left_ms: None,
        };
        let mut clock = MatchClock::default();
        let first = budget_ms(&Limits::new(clock.apply(turn))).unwrap();
        assert!(first <= 300 / 5, "first move gets {first} ms");
        clock.moved(Duration::from_millis(100));
        assert_eq!(clock.left_ms(&turn), Some(200));
        clock.moved(Duration::from_millis(150));
        assert_eq!(clock.left_ms(&turn), Some(50));
        // The manager's report wins, and our moves count from it.
        clock.report(250);
        assert_eq!(clock.left_ms(&turn), Some(250));
        clock.moved(Duration::from_millis(10));
        assert_eq!(clock.left_ms(&turn), Some(240));
        // Overspent: answer at once, never a negative budget.
        clock.moved(Duration::from_millis(1000));
        assert_eq!(budget_ms(&Limits::new(clock.apply(turn))), Some(0));
        // No match clock: nothing to count; unlimited reports stay unlimited.
        let free = TimeControl {
            match_ms: Some(0),
            ..turn
        };
        clock.new_game();
        assert_eq!(clock.left_ms(&free), None);
        clock.report(UNLIMITED_LEFT);
        clock.moved(Duration::from_millis(10));
        assert_eq!(clock.left_ms(&free), Some(UNLIMITED_LEFT));
        assert_eq!(
            budget_ms(&Limits::new(clock.apply(free))),
            Some(2000 - TURN_MARGIN_MS - 2000 * TURN_MARGIN_PERCENT / 100)
        );
    }

    /// A move's planned share follows the phase: the most up to 24 stones, falling to the
    /// least from 60, never rising.
    #[test]
    fn importance_follows_the_phase() {
        let (most, least) = IMPORTANCE_PERCENT;
        assert_eq!(importance_percent(0), most);
        assert_eq!(importance_percent(IMPORTANT_UNTIL_STONES), most);
        assert_eq!(importance_percent(LATE_FROM_STONES), least);
        assert_eq!(importance_percent(400), least);
        let mid = importance_percent((IMPORTANT_UNTIL_STONES + LATE_FROM_STONES) / 2);
        assert_eq!(mid, (most + least) / 2);
        for s in 0..100 {
            assert!(
                importance_percent(s + 1) <= importance_percent(s),
                "at {s} stones"
            );
        }
        let at = |stones: u32| {
            let mut l = limits(None, Some(60_000), Some(20_200));
            l.stones = stones;
            budget(&l).unwrap()
        };
        assert_eq!(at(10), (1800, Spend::Banked));
        assert_eq!(at(42), (1300, Spend::Banked));
        assert_eq!(at(70), (800, Spend::Banked));
    }

    /// The stretch: 100% for a fresh search, more for a changing best move or a falling score,
    /// less for an answer that has stood, always inside its bounds.
    #[test]
    fn stability_stretches_the_soft_deadline() {
        let a = 17;
        let b = 40;
        let mut fresh = Stability::default();
        assert_eq!(fresh.stretch_percent(), 100);
        fresh.completed(1, a, 0);
        assert_eq!(fresh.stretch_percent(), 100, "one iteration says nothing");

        // A change of the best move doubles the time; it fades by half an iteration.
        let mut changed = fresh;
        changed.completed(2, b, 0);
        assert_eq!(changed.stretch_percent(), 200);
        changed.completed(3, b, 0);
        assert_eq!(changed.stretch_percent(), 150);

        // A score falling by half a logit from the last of its parity: half as much again.
        let mut falling = fresh;
        falling.completed(2, a, 100);
        falling.completed(3, a, -225);
        assert_eq!(falling.stretch_percent(), 150);
        let mut rising = fresh;
        rising.completed(2, a, 0);
        rising.completed(3, a, 900);
        assert_eq!(rising.stretch_percent(), 80);

        // An answer that stands shortens the move, to 70% at the least.
        let mut settled = fresh;
        for depth in 2..20 {
            settled.completed(depth, a, 0);
        }
        assert_eq!(settled.stretch_percent(), 70);

        // Every iteration a new move and a falling score: the upper bound.
        let mut chaos = fresh;
        for depth in 2..12 {
            chaos.completed(depth, depth as usize, -300 * depth as i32);
        }
        assert_eq!(chaos.stretch_percent(), Stability::BOUNDS.1);
    }

    /// Under the match clock the soft deadline moves with the stretch and never past the hard
    /// one; under the turn limit it does not move.
    #[test]
    fn stop_iterating_follows_the_stretch() {
        let start = Instant::now();
        let ms = Duration::from_millis;
        let banked = Plan::banked(start, ms(1000), ms(2000));
        assert_eq!(banked.spend(), Spend::Banked);
        let fresh = Stability::default();
        let mut doubt = fresh;
        doubt.completed(1, 1, 0);
        doubt.completed(2, 2, 0);
        let mut settled = fresh;
        for depth in 1..20 {
            settled.completed(depth, 1, 0);
        }
        // Planned soft deadline: 450 ms; doubled: 900 ms; 70%: 315 ms.
        assert!(!banked.stop_iterating(start + ms(449), &fresh));
        assert!(banked.stop_iterating(start + ms(450), &fresh));
        assert!(!banked.stop_iterating(start + ms(899), &doubt));
        assert!(banked.stop_iterating(start + ms(900), &doubt));
        assert!(banked.stop_iterating(start + ms(315), &settled));
        assert!(!banked.stop_iterating(start + ms(314), &settled));
        // Stretched past the hard deadline: stops there.
        let tight = Plan::banked(start, ms(1000), ms(600));
        assert_eq!(tight.hard, Some(start + ms(1000)), "never before the plan");
        let short = Plan {
            hard: Some(start + ms(600)),
            ..tight
        };
        assert!(short.stop_iterating(start + ms(600), &doubt));
        // The turn limit binds: the deadline is the turn's, whatever the search's doubt.
        let turn = Plan::spending(start, ms(1000), Spend::Turn);
        assert!(!turn.stop_iterating(start + ms(999), &settled));
        assert!(turn.stop_iterating(start + ms(1000), &doubt));
        // No clock: never.
        assert!(!Plan::depth(9).stop_iterating(start + ms(1 << 30), &settled));
    }

    /// However the clock and the phase combine, a move never plans past the turn's budget nor
    /// a fifth of the usable match clock, and its hard budget never falls short of its plan.
    #[test]
    fn budgets_stay_inside_both_clocks() {
        for turn in [
            None,
            Some(0),
            Some(1),
            Some(100),
            Some(1000),
            Some(5000),
            Some(u64::MAX),
        ] {
            for left in [-100, 0, 1, 300, 5000, 20_000, 180_000, UNLIMITED_LEFT - 1] {
                for stones in [0, 5, 24, 30, 59, 60, 200] {
                    for lag_ms in [0, 50, 3000] {
                        let mut l = limits(turn, Some(1 << 50), Some(left));
                        l.stones = stones;
                        l.lag_ms = lag_ms;
                        let Some((planned, _)) = budget(&l) else {
                            panic!("a match clock always plans");
                        };
                        let hard = budget_ms(&l).unwrap();
                        assert!(hard >= planned, "{turn:?} {left} {stones}");
                        if let Some(t) = turn_budget_ms(&l) {
                            assert!(hard <= t, "{turn:?} {left} {stones}: {hard} > {t}");
                        }
                        let usable = usable_ms(left);
                        let fifth = (usable / MAX_SHARE_DIVISOR).max(0) as u64;
                        assert!(hard <= fifth, "{turn:?} {left} {stones}: {hard} > {fifth}");
                    }
                }
            }
        }
    }
}
