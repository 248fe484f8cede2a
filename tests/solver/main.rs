//! The proof layer: the VCF and VCT solvers against the shared puzzles and independent
//! verifiers, and the proofs the brain runs at the root.

mod dfpn;
mod proofs;
mod vcf;
