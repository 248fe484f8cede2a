//! Elo, error bar and SPRT of the arena against hand-computed cases. The arithmetic is in the
//! comments; logs are natural unless written log10.

use bango::front::arena::stats::{elo_to_score, score_to_elo};
use bango::front::arena::{Sprt, SprtDecision, Wdl};

fn wdl(wins: u32, losses: u32, draws: u32) -> Wdl {
    Wdl {
        wins,
        losses,
        draws,
    }
}

fn close(a: f64, b: f64, eps: f64) {
    assert!((a - b).abs() < eps, "{a} vs {b}");
}

#[test]
fn elo_of_a_score() {
    // s = 0.5 -> 0; s = 0.75 -> -400·log10(1/3) = 400·0.477121 = 190.849;
    // s = 0.25 -> -190.849 (the model is symmetric).
    close(score_to_elo(0.5), 0.0, 1e-12);
    assert!(
        score_to_elo(0.5).is_sign_positive(),
        "reports say 0.0, not -0.0"
    );
    close(score_to_elo(0.75), 190.848_501_9, 1e-6);
    close(score_to_elo(0.25), -190.848_501_9, 1e-6);
    // elo_to_score inverts it: 1 / (1 + 10^(-190.8485/400)) = 1 / (1 + 1/3) = 0.75.
    close(elo_to_score(190.848_501_9), 0.75, 1e-9);
    assert_eq!(score_to_elo(1.0), f64::INFINITY);
    assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
}

#[test]
fn elo_and_error_bar_without_draws() {
    // +60 -40 =0: s = 0.6, Elo = -400·log10(1/0.6 - 1) = -400·log10(0.666667) = 70.4365.
    // var = (60·0.4² + 40·0.6²)/100 = (9.6 + 14.4)/100 = 0.24.
    // d = 1.959964·sqrt(0.24/100) = 1.959964·0.0489898 = 0.0960182.
    // Elo(0.6960182) = 143.9092, Elo(0.5039818) = 2.7669; half the spread = 70.5712.
    let w = wdl(60, 40, 0);
    close(w.score(), 0.6, 1e-12);
    close(w.variance(), 0.24, 1e-12);
    close(w.elo(), 70.436_503_6, 1e-6);
    close(w.elo_error95(), 70.571_18, 1e-4);
}

#[test]
fn draws_narrow_the_error_bar() {
    // +30 -10 =60: s = (30 + 30)/100 = 0.6, the same Elo 70.4365.
    // var = (30·0.4² + 60·0.1² + 10·0.6²)/100 = (4.8 + 0.6 + 3.6)/100 = 0.09.
    // d = 1.959964·sqrt(0.0009) = 1.959964·0.03 = 0.0587989.
    // Elo(0.6587989) = 114.2970, Elo(0.5412011) = 28.6945; half the spread = 42.8012.
    let w = wdl(30, 10, 60);
    close(w.variance(), 0.09, 1e-12);
    close(w.elo(), 70.436_503_6, 1e-6);
    close(w.elo_error95(), 42.801_24, 1e-4);
    // Seen from the other side everything mirrors.
    close(w.flipped().elo(), -70.436_503_6, 1e-6);
    close(w.flipped().elo_error95(), 42.801_24, 1e-4);
}

#[test]
fn sprt_bounds() {
    // alpha = beta = 0.05: lower = ln(0.05/0.95) = -2.944439, upper = ln(0.95/0.05) = 2.944439.
    let s = Sprt::parse("0,10").unwrap();
    assert_eq!((s.alpha, s.beta), (0.05, 0.05));
    let (lo, hi) = s.bounds();
    close(lo, -2.944_438_98, 1e-8);
    close(hi, 2.944_438_98, 1e-8);
    // alpha = 0.05, beta = 0.1: lower = ln(0.1/0.95) = -2.251292, upper = ln(0.9/0.05) = 2.890372.
    let s = Sprt::parse("0,10,0.05,0.1").unwrap();
    let (lo, hi) = s.bounds();
    close(lo, -2.251_291_80, 1e-8);
    close(hi, 2.890_371_76, 1e-8);
    assert!(Sprt::parse("10,0").is_err());
    assert!(Sprt::parse("0,10,0.05").is_err());
    assert!(Sprt::parse("a,b").is_err());
}

#[test]
fn sprt_llr_and_decisions() {
    // elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.5143872.
    // +30 -10 =60: N = 100, s = 0.6, var = 0.09;
    // LLR = 100·(0.5143872 - 0.5)·(1.2 - 0.5 - 0.5143872)/(2·0.09)
    //     = 100·0.0143872·0.1856128/0.18 = 1.483581 -> inside (-2.944, 2.944): continue.
    let s = Sprt::parse("0,10").unwrap();
    close(s.llr(&wdl(30, 10, 60)), 1.483_581, 1e-5);
    assert_eq!(s.decide(&wdl(30, 10, 60)), SprtDecision::Continue);
    // Ten times the games with the same proportions: LLR scales with N -> 14.83581 -> H1.
    close(s.llr(&wdl(300, 100, 600)), 14.835_81, 1e-4);
    assert_eq!(s.decide(&wdl(300, 100, 600)), SprtDecision::H1);
    // +10 -30 =60: s = 0.4, var = 0.09;
    // LLR = 100·0.0143872·(0.8 - 1.0143872)/0.18 = -1.713571 -> continue; x10 -> H0.
    close(s.llr(&wdl(10, 30, 60)), -1.713_571, 1e-5);
    assert_eq!(s.decide(&wdl(10, 30, 60)), SprtDecision::Continue);
    assert_eq!(s.decide(&wdl(100, 300, 600)), SprtDecision::H0);
}

#[test]
fn sprt_says_nothing_without_spread() {
    // All wins: var = 0, the normal approximation is undefined; LLR stays 0 (cutechess also
    // waits for mixed results).
    let s = Sprt::parse("0,10").unwrap();
    assert_eq!(s.llr(&wdl(20, 0, 0)), 0.0);
    assert_eq!(s.decide(&wdl(20, 0, 0)), SprtDecision::Continue);
    assert_eq!(s.llr(&Wdl::default()), 0.0);
}
