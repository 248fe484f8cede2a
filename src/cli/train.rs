//! `pbrain-bango train classic|selfplay|fit|score|import-classical`: the hand-set evaluation as a weights file,
//! labelled self-play positions, and the fit of the evaluation and policy weights
//! ([`bango::front::train`]) that the build embeds (`src/evaluation/weights/freestyle.txt`).

use super::data_dir;
use bango::engine::config::Config;
use bango::evaluation::weights::Weights;
use bango::front::teacher::{self, Labelled};
use bango::front::train::{self, FitConfig, FitOptions, Model, PolicyFit, SelfplayConfig, Targets};
use bango::game::board::Color;
use bango::game::rules::Rule;
use bango::knowledge::book::play::BookMode;
use std::path::{Path, PathBuf};

/// What `train` makes.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Write the hand-set evaluation as a weights file.
    Classic {
        /// Output file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Play and label self-play positions (teacher file format, with the game's result).
    Selfplay(SelfplayArgs),
    /// Fit evaluation and policy weights and write them.
    Fit(FitArgs),
    /// Score a weights file on a split of the teacher file (or of self-play files): the
    /// figures a fit reports, for any file, and the only reader of the test split.
    Score(ScoreArgs),
    /// Import a classical evaluation model of the strongest open engine (Rapfi's
    /// `model*.bin`, CC0) as a weights file, with a bango file's move policy.
    ImportClassical(ImportArgs),
}

/// Options of `train import-classical`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The model file (an LZ4 frame, as published).
    #[arg(long)]
    model: PathBuf,
    /// The rule whose tables to read (caro reads freestyle's).
    #[arg(long, value_parser = super::parse_rule, default_value = "freestyle")]
    rule: Rule,
    /// The side to move whose file this is (renju's tables differ by colour).
    #[arg(long, value_parser = parse_colour, default_value = "black")]
    to_move: Color,
    /// The weights file whose move policy the imported file keeps.
    #[arg(long)]
    policy: PathBuf,
    /// Units a logit of the written file.
    #[arg(long, default_value_t = 900)]
    scale: i32,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
}

/// Options of `train score`.
#[derive(clap::Args, Debug)]
pub struct ScoreArgs {
    /// The weights file to score.
    #[arg(long)]
    weights: PathBuf,
    /// The split: valid (what choices are made on), test (only to report a finished change),
    /// train or all.
    #[arg(long, value_enum, default_value = "valid")]
    split: super::teacher::SplitArg,
    /// The teacher file (default: the shared positions-teacher-15.txt).
    #[arg(long)]
    teacher: Option<PathBuf>,
    /// The opening file that groups the teacher positions for the split.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Score on these self-play files' games instead of the teacher file (repeat).
    #[arg(long)]
    selfplay: Vec<PathBuf>,
    /// With --selfplay: the positions with this side to move only.
    #[arg(long, value_parser = parse_colour)]
    to_move: Option<Color>,
}

/// Options of `train selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// Output file.
    #[arg(long)]
    out: PathBuf,
    /// Games.
    #[arg(long, default_value_t = 400)]
    games: usize,
    /// Nodes a game move.
    #[arg(long, default_value_t = 30_000)]
    move_nodes: u64,
    /// Nodes a label search.
    #[arg(long, default_value_t = 150_000)]
    label_nodes: u64,
    /// Labelled positions a game.
    #[arg(long, default_value_t = 10)]
    per_game: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rule of the games: freestyle, standard, renju, caro, or INFO rule bits.
    #[arg(long, default_value = "freestyle", value_parser = super::parse_rule)]
    rule: Rule,
    /// Search units per logit of the playing engine (default: the scale of the weights it
    /// plays with, `BANGO_WEIGHTS`).
    #[arg(long)]
    scale: Option<f64>,
    /// Make only shard K/N of the run (games K*G/N..(K+1)*G/N) into the run folder --out, for
    /// `pbrain-bango merge` (see `farm`); `--shards N` takes K from SLURM_ARRAY_TASK_ID.
    #[arg(long, value_name = "K/N", conflicts_with = "shards")]
    shard: Option<String>,
    /// Shards of the run, this one's index from SLURM_ARRAY_TASK_ID (see --shard).
    #[arg(long, value_name = "N")]
    shards: Option<usize>,
}

/// `train selfplay ARGS` parsed alone, as a farm shard parses its run's arguments.
#[derive(clap::Parser, Debug)]
#[command(name = "selfplay")]
struct SelfplayLine {
    #[command(flatten)]
    args: SelfplayArgs,
}

/// A self-play run ready to make: its settings, the engines' configuration and the data
/// file's header.
pub struct Selfplay {
    /// The run's settings.
    pub cfg: SelfplayConfig,
    /// The configuration every engine plays and labels with (no book, no detail).
    pub config: Config,
    /// The data file's comment lines.
    pub header: String,
}

impl Selfplay {
    /// The run `a` describes, with engines configured by `config`.
    fn of(a: &SelfplayArgs, config: &Config) -> Selfplay {
        let cfg = SelfplayConfig {
            games: a.games,
            move_nodes: a.move_nodes,
            label_nodes: a.label_nodes,
            per_game: a.per_game,
            seed: a.seed,
            opening_stones: 3,
            opening_radius: 3,
            scale: a
                .scale
                .unwrap_or(config.search.weights.weights(a.rule, Color::Black).scale as f64),
            rule: a.rule,
        };
        let mut config = config.clone();
        config.brain.book = BookMode::Off;
        config.brain.show_detail = 0;
        let header = format!(
            "# bango self-play positions: pbrain-bango train selfplay --games {} \
             --move-nodes {} --label-nodes {} --per-game {} --seed {}{} (scale {})\n# eval: the \
             {}-node search's score in the teacher scale (win rate 1/(1+exp(-E/250))); result: \
             the game's for the side to move\n",
            a.games,
            a.move_nodes,
            a.label_nodes,
            a.per_game,
            a.seed,
            // Freestyle runs keep the header they always had.
            match a.rule {
                Rule::Freestyle => String::new(),
                r => format!(" --rule {r}"),
            },
            cfg.scale,
            a.label_nodes
        );
        Selfplay {
            cfg,
            config,
            header,
        }
    }

    /// Parses a farm run's arguments (`train selfplay`'s options without --out).
    pub fn parse(args: &[String], config: &Config) -> Result<Selfplay, String> {
        let line = <SelfplayLine as clap::Parser>::try_parse_from(
            ["selfplay", "--out", "-"]
                .into_iter()
                .map(String::from)
                .chain(args.iter().cloned()),
        )
        .map_err(|e| format!("the run's selfplay arguments: {e}"))?;
        Ok(Selfplay::of(&line.args, config))
    }
}

/// Options of `train fit`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// Output weights file.
    #[arg(long)]
    out: PathBuf,
    /// The rule the weights are for: every self-play file must be of it; the teacher file
    /// (freestyle) is read for freestyle only, and other rules hold out self-play games
    /// for validation instead.
    #[arg(long, default_value = "freestyle", value_parser = super::parse_rule)]
    rule: Rule,
    /// Fit to the positions with this side to move only (black or white): the file a rule
    /// whose colours differ reads while that side is to move (renju).
    #[arg(long, value_parser = parse_colour)]
    to_move: Option<Color>,
    /// The teacher file (default: the shared positions-teacher-15.txt; freestyle only).
    #[arg(long)]
    teacher: Option<PathBuf>,
    /// Self-play files (repeat).
    #[arg(long)]
    selfplay: Vec<PathBuf>,
    /// The opening file that groups the teacher positions for the split.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Search units per logit of the written evaluation.
    #[arg(long, default_value_t = train::classic::SCALE)]
    scale: i32,
    /// Weight of a forced-result label.
    #[arg(long, default_value_t = 0.25)]
    mate_weight: f64,
    /// Share of the game result in a self-play target.
    #[arg(long, default_value_t = 0.5)]
    result_share: f64,
    /// Weight of a self-play position.
    #[arg(long, default_value_t = 0.5)]
    selfplay_weight: f64,
    /// Gradient steps.
    #[arg(long, default_value_t = FitConfig::default().steps)]
    steps: usize,
    /// Adam's step size at the last step (it decays geometrically from the first's, 0.02).
    #[arg(long, default_value_t = FitConfig::default().final_lr)]
    final_lr: f64,
    /// L2 on the evaluation residuals.
    #[arg(long, default_value_t = FitConfig::default().eval_resid_l2)]
    eval_l2: f64,
    /// L2 on the policy residuals.
    #[arg(long, default_value_t = FitConfig::default().policy_resid_l2)]
    policy_l2: f64,
    /// Keep the hand-set move order (write the hand-set values as the policy).
    #[arg(long, conflicts_with = "policy_selfplay")]
    classic_policy: bool,
    /// Fit the policy to the self-play files' moves too (default: the teacher's only).
    #[arg(long)]
    policy_selfplay: bool,
    /// Fit a term per pair of rung masks beside the top-rung term (`mask` lines).
    #[arg(long)]
    threat_mask: bool,
    /// L2 on the rung-mask terms.
    #[arg(long, default_value_t = FitConfig::default().mask_l2, requires = "threat_mask")]
    mask_l2: f64,
    /// Start from this weights file (a warm start: the L2 pulls back toward its values, so
    /// the data refine it); default: the hand-set additive values.
    #[arg(long)]
    init: Option<PathBuf>,
}

/// Runs `command`; returns the exit code.
pub fn run(command: Command, config: &Config) -> u8 {
    match run_command(command, config) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("train: {e}");
            1
        }
    }
}

fn parse_colour(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Color::Black),
        "white" | "w" => Ok(Color::White),
        _ => Err(format!("{s:?} is not black or white")),
    }
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_labelled(path: &Path) -> Result<Vec<Labelled>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    teacher::parse_file(&text)
}

/// The teacher file at `path` and each position's group by the opening file `openings` (see
/// [`teacher::group_of`]).
fn read_grouped(path: &Path, openings: &Path) -> Result<(Vec<Labelled>, Vec<usize>), String> {
    let labelled = read_labelled(path)?;
    let opening_list = teacher::read_openings(openings, 15)?;
    let groups = labelled
        .iter()
        .map(|p| teacher::group_of(&p.puzzle, &opening_list))
        .collect();
    Ok((labelled, groups))
}

fn run_command(command: Command, config: &Config) -> Result<(), String> {
    match command {
        Command::Classic { out } => write(
            &out,
            &train::classic_weights()
                .to_text("the hand-set evaluation (pbrain-bango train classic)"),
        ),
        Command::Selfplay(args) => selfplay(args, config),
        Command::Fit(args) => fit(args),
        Command::Score(args) => score(args),
        Command::ImportClassical(args) => import_classical(args),
    }
}

/// `train import-classical`: the model's tables for one rule and side to move, beside the
/// policy of another file.
fn import_classical(a: ImportArgs) -> Result<(), String> {
    let bytes = std::fs::read(&a.model).map_err(|e| format!("{}: {e}", a.model.display()))?;
    let model = train::ClassicalModel::parse(&bytes)?;
    let policy_text =
        std::fs::read_to_string(&a.policy).map_err(|e| format!("{}: {e}", a.policy.display()))?;
    let policy = Weights::parse(&policy_text)?;
    if a.scale <= 0 {
        return Err("--scale must be positive".into());
    }
    let w = model.weights(a.rule, a.to_move, a.scale, &policy);
    let name = |p: &Path| {
        p.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    };
    let header = format!(
        "the classical evaluation of Rapfi's {} (dhbloo/rapfi-networks, CC0 1.0: public domain),\n\
         {} tables for {} to move, rescaled from {} to {} units a logit; the move policy of {}\n\
         pbrain-bango train import-classical --model {} --rule {} --to-move {} --policy {} --scale {}",
        name(&a.model),
        a.rule.name(),
        colour_name(a.to_move),
        model.scale,
        a.scale,
        name(&a.policy),
        name(&a.model),
        a.rule.name(),
        colour_name(a.to_move),
        a.policy.display(),
        a.scale
    );
    write(&a.out, &w.to_text(&header))
}

/// `train selfplay`: plays and labels the games, then writes the file (or, with `--shard`,
/// makes one shard of a farm run).
fn selfplay(mut a: SelfplayArgs, config: &Config) -> Result<(), String> {
    let started = std::time::Instant::now();
    let shard = (a.shard.take(), a.shards.take());
    let sp = Selfplay::of(&a, config);
    if shard != (None, None) {
        return super::farm::selfplay_shard(&a.out, sp, shard);
    }
    let mut text = sp.header.clone();
    let progress = super::progress_bar(a.games, "selfplay games");
    let mut positions = 0usize;
    train::selfplay(&sp.cfg, &sp.config, &mut |game, p| {
        text.push_str(&p.to_line());
        text.push('\n');
        positions += 1;
        // A game's positions come together, after it is played: it is done with its first.
        progress.set_position(game as u64 + 1);
        progress.set_message(format!("{positions} positions"));
    });
    progress.finish_and_clear();
    write(&a.out, &text)?;
    let seconds = started.elapsed().as_secs_f64();
    // The rate that sizes a data run (issue 45: 10^6 positions a rule a day on two cores).
    eprintln!(
        "selfplay: {positions} positions from {} games in {seconds:.0} s, {:.0} positions an hour on one core at {} label nodes",
        a.games,
        positions as f64 * 3600.0 / seconds.max(1e-9),
        a.label_nodes
    );
    Ok(())
}

/// `train score`: the fit's figures of one weights file on one split.
fn score(a: ScoreArgs) -> Result<(), String> {
    let text =
        std::fs::read_to_string(&a.weights).map_err(|e| format!("{}: {e}", a.weights.display()))?;
    let weights = Weights::parse(&text).map_err(|e| format!("{}: {e}", a.weights.display()))?;
    let split = teacher::Split::from(a.split);
    let (positions, groups, selfplay) = if a.selfplay.is_empty() {
        let path = a
            .teacher
            .unwrap_or_else(|| data_dir().join("positions-teacher-15.txt"));
        let openings = a
            .openings
            .unwrap_or_else(|| data_dir().join("openings-freestyle-15.txt"));
        let (labelled, groups) = read_grouped(&path, &openings)?;
        (labelled, groups, false)
    } else {
        let mut played = Vec::new();
        for path in &a.selfplay {
            played.extend(read_labelled(path)?);
        }
        if let Some(side) = a.to_move {
            played.retain(|p| p.puzzle.side == side);
        }
        let groups = played
            .iter()
            .map(|p| teacher::group_of(&p.puzzle, &[]))
            .collect();
        (played, groups, true)
    };
    let chosen = teacher::select(&positions, &groups, split, false, 1, usize::MAX);
    let samples = train::samples(&chosen, &Targets::AS_LABELLED, false);
    let s = train::score(&train::Model::of_weights(&weights), &samples);
    println!(
        "{}: {:?} split of the {}: {} samples: non-mate cross-entropy {:.4}, pearson non-mate {:.3}, all {:.3}, move order top-1 {:.1}% (within class {:.1}%, quiet {:.1}%)",
        a.weights.display(),
        a.split,
        if selfplay { "self-play files" } else { "teacher file" },
        s.n,
        s.quiet_loss,
        s.quiet_r,
        s.all_r,
        100.0 * s.policy_top1,
        100.0 * s.class_top1,
        100.0 * s.quiet_top1
    );
    Ok(())
}

/// `train fit`: reads the teacher file and the self-play files, fits, writes the weights with
/// a header that records the command and the fit's figures.
fn fit(args: FitArgs) -> Result<(), String> {
    let started = std::time::Instant::now();
    let FitArgs {
        out,
        rule,
        to_move,
        teacher: teacher_path,
        selfplay,
        openings,
        scale,
        mate_weight,
        result_share,
        selfplay_weight,
        steps,
        final_lr,
        eval_l2,
        policy_l2,
        classic_policy,
        policy_selfplay,
        threat_mask,
        mask_l2,
        init,
    } = args;
    let teacher_given = teacher_path.is_some();
    let teacher_path = teacher_path.unwrap_or_else(|| data_dir().join("positions-teacher-15.txt"));
    let openings = openings.unwrap_or_else(|| data_dir().join("openings-freestyle-15.txt"));
    let opts = FitOptions {
        scale,
        targets: Targets {
            mate_weight,
            result_share,
            selfplay_weight,
        },
        fit: FitConfig {
            steps,
            final_lr,
            eval_resid_l2: eval_l2,
            policy_resid_l2: policy_l2,
            threat_mask,
            mask_l2,
            ..FitConfig::default()
        },
        policy: if classic_policy {
            PolicyFit::Classic
        } else if policy_selfplay {
            PolicyFit::WithSelfplay
        } else {
            PolicyFit::Teacher
        },
        warm: match &init {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let w = Weights::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
                Some(Model::of_weights(&w))
            }
            None => None,
        },
    };
    // The teacher file labels freestyle positions: under another rule its values are not the
    // rule's, so that rule's fit reads its self-play alone.
    let (mut labelled, mut groups) = if rule == Rule::Freestyle {
        read_grouped(&teacher_path, &openings)?
    } else if teacher_given {
        return Err(format!(
            "the teacher file is freestyle; a {rule} fit reads self-play files only"
        ));
    } else {
        (Vec::new(), Vec::new())
    };
    let mut played = Vec::new();
    for path in &selfplay {
        let positions = read_labelled(path)?;
        if let Some(p) = positions.iter().find(|p| p.puzzle.rule != rule) {
            return Err(format!(
                "{}: a {} position in a {rule} fit: {}",
                path.display(),
                p.puzzle.rule,
                p.to_line()
            ));
        }
        played.extend(positions);
    }
    if let Some(side) = to_move {
        let keep = |p: &Labelled| p.puzzle.side == side;
        let (labelled_kept, groups_kept): (Vec<Labelled>, Vec<usize>) = labelled
            .into_iter()
            .zip(groups)
            .filter(|(p, _)| keep(p))
            .unzip();
        (labelled, groups) = (labelled_kept, groups_kept);
        played.retain(keep);
    }
    let log = |s: &str| eprintln!("fit: {s}");
    let outcome = train::fit_weights(&labelled, &groups, &played, &opts, &log);
    eprintln!("{}\n{}", outcome.before, outcome.after);
    let header = format!(
        "bango evaluation and policy weights, {rule}, fitted by\n  pbrain-bango train fit --out {}{} --scale {scale} --mate-weight {mate_weight} --result-share {result_share} --selfplay-weight {selfplay_weight} --steps {steps} --final-lr {final_lr} --eval-l2 {eval_l2} --policy-l2 {policy_l2}{}{}{}\nto {} and {} self-play positions.\n{}\n{}",
        out.display(),
        match rule {
            Rule::Freestyle => String::new(),
            r => format!(" --rule {r}"),
        } + &to_move.map_or(String::new(), |c| format!(" --to-move {}", colour_name(c))),
        match opts.policy {
            PolicyFit::Classic => " --classic-policy",
            PolicyFit::WithSelfplay => " --policy-selfplay",
            PolicyFit::Teacher => "",
        },
        if threat_mask {
            format!(" --threat-mask --mask-l2 {mask_l2}")
        } else {
            String::new()
        } + &init.map_or(String::new(), |p| format!(" --init {}", p.display())),
        selfplay
            .iter()
            .map(|p| format!(" --selfplay {}", p.display()))
            .collect::<String>(),
        if rule == Rule::Freestyle {
            format!(
                "{} ({} teacher positions)",
                teacher_path
                    .file_name()
                    .map_or("?".into(), |f| f.to_string_lossy()),
                outcome.teacher_samples
            )
        } else {
            "no teacher positions".to_string()
        },
        outcome.selfplay_samples,
        outcome.before,
        outcome.after,
    );
    write(&out, &outcome.weights.to_text(&header))?;
    eprintln!("fit: done in {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}
