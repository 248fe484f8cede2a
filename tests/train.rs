//! The weight fit on the shared teacher file: what `pbrain-bango train fit` relies on.

use bango::front::teacher::{self, Labelled};
use bango::front::train::{classic_additive, fit_eval, samples, score, FitConfig, Targets};
use bango_testkit::read_data;

/// The decaying step size settles where a constant one circles: on real labelled positions,
/// the same number of steps ends at a lower training loss.
#[test]
fn decaying_step_size_ends_lower_than_a_constant_one() {
    let text = read_data("positions-teacher-15.txt");
    let ls: Vec<Labelled> = text
        .lines()
        .enumerate()
        .filter_map(|(n, l)| teacher::parse_line(l, n + 1).ok().flatten())
        .filter(|l| !l.label.is_mate())
        .step_by(40)
        .take(60)
        .collect();
    let refs: Vec<&Labelled> = ls.iter().collect();
    let s = samples(&refs, &Targets::AS_LABELLED, false);
    assert!(s.len() >= 50, "{} samples", s.len());
    let (pattern, rung, tempo) = classic_additive();
    let loss = |final_lr: f64| {
        let cfg = FitConfig {
            steps: 400,
            final_lr,
            ..FitConfig::default()
        };
        let m = fit_eval(&s, &pattern, &rung, tempo, &cfg, &|_| {});
        score(&m, &s).quiet_loss
    };
    let (constant, decayed) = (loss(FitConfig::default().lr), loss(0.0005));
    assert!(decayed < constant - 0.01, "{constant} -> {decayed}");
}
