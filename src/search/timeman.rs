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
//!   is time for later moves, so no iteration starts after [`SOFT_PERCENT`] of the budget, since
//!   it would rarely finish.
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
/// When the match clock binds, no new iteration starts after this share of the budget, in
/// percent.
pub const SOFT_PERCENT: u32 = 45;

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
            ..Plan::UNLIMITED
        }
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

/// The budget in milliseconds for `limits` (`None` = unlimited; `Some(0)` = answer at once).
pub fn budget_ms(limits: &Limits) -> Option<u64> {
    budget(limits).map(|(ms, _)| ms)
}

/// The budget in milliseconds for `limits` and what its unspent time is worth: [`Spend::Turn`]
/// when the turn limit is the smaller, [`Spend::Banked`] when the match clock is.
pub fn budget(limits: &Limits) -> Option<(u64, Spend)> {
    let t = limits.time;
    let turn = t.turn_ms.map(|turn| {
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
    });
    let match_clock = match (t.left_ms, t.match_ms) {
        (_, Some(0)) | (None, _) => None,
        (Some(left), _) if left >= UNLIMITED_LEFT => None,
        (Some(left), _) => {
            let usable = left - MATCH_RESERVE_MS.min(left / 4);
            let share = (usable / MATCH_MOVES_AHEAD).max(0) as u64;
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
        Some((ms, spend)) => Plan::spending(limits.started, Duration::from_millis(ms), spend),
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
        // The match clock caps the turn.
        assert_eq!(
            budget_ms(&limits(Some(5000), Some(60_000), Some(20_200))),
            Some(1000)
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
        // The match clock binds: no iteration starts after SOFT_PERCENT of the budget.
        let p = plan(&limits(Some(5000), Some(60_000), Some(20_200)));
        assert_eq!(p.spend(), Spend::Banked);
        let (soft, hard) = (p.soft.unwrap(), p.hard.unwrap());
        let second = Duration::from_millis(1000);
        assert_eq!(hard - soft, second - second * SOFT_PERCENT / 100);
        // Whichever binds decides, however close the other.
        assert_eq!(
            budget(&limits(Some(1000), Some(60_000), Some(18_600))),
            Some((920, Spend::Turn))
        );
        assert_eq!(
            budget(&limits(Some(1000), Some(60_000), Some(18_000))),
            Some((890, Spend::Banked))
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
        // The match clock's share loses the lag too, down to answering at once.
        assert_eq!(with(ReplyLag::default(), None, Some(20_200)), 1000);
        let mut some = ReplyLag::default();
        some.observe(0, Duration::from_millis(120));
        assert_eq!(with(some, None, Some(20_200)), 880);
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
        assert!(first <= 300 / 20, "first move gets {first} ms");
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
}
