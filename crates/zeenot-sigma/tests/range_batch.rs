//! Batch verification of Bulletproofs range proofs: a batch of valid proofs passes; one false,
//! moved or swapped proof makes the batch fail and is the one named; malformed items are named
//! without hiding the others' verdicts.

use std::sync::OnceLock;

use ark_ff::{One, UniformRand};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::{Point, Scalar};
use zeenot_sigma::bulletproofs::{BulletproofGens, RangeItem, RangeProof};
use zeenot_sigma::Error;

fn gens() -> &'static BulletproofGens {
    static GENS: OnceLock<BulletproofGens> = OnceLock::new();
    GENS.get_or_init(|| BulletproofGens::new(128))
}

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

/// A proof, its commitments, bit length and context.
struct Case {
    proof: RangeProof,
    commitments: Vec<Point>,
    bits: usize,
    context: Vec<u8>,
}

impl Case {
    fn item(&self) -> RangeItem<'_> {
        RangeItem {
            proof: &self.proof,
            commitments: &self.commitments,
            bits: self.bits,
            context: &self.context,
        }
    }
}

fn case(bits: usize, values: &[u64], context: &[u8], r: &mut ChaCha20Rng) -> Case {
    let gammas: Vec<Scalar> = values.iter().map(|_| Scalar::rand(r)).collect();
    let (proof, commitments) =
        RangeProof::prove(gens(), values, &gammas, bits, context, r).expect("in range");
    Case { proof, commitments, bits, context: context.to_vec() }
}

/// `n` valid proofs of mixed shapes (8, 16 and 64 bits; one and two values), each with its own
/// context (as a provider's record and column would give).
fn valid_cases(n: usize, seed: u64) -> Vec<Case> {
    let mut r = rng(seed);
    (0..n)
        .map(|i| {
            let ctx = format!("record {i}");
            match i % 4 {
                0 => case(16, &[r.gen_range(0..1 << 16)], ctx.as_bytes(), &mut r),
                1 => case(8, &[r.gen_range(0..256)], ctx.as_bytes(), &mut r),
                2 => case(64, &[r.gen()], ctx.as_bytes(), &mut r),
                _ => case(16, &[r.gen_range(0..1 << 16), 65535], ctx.as_bytes(), &mut r),
            }
        })
        .collect()
}

fn items(cases: &[Case]) -> Vec<RangeItem<'_>> {
    cases.iter().map(Case::item).collect()
}

/// The indices `verify_each` finds false.
fn culprits(cases: &[Case], seed: u64) -> Vec<usize> {
    RangeProof::verify_each(gens(), &items(cases), &mut rng(seed))
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_err())
        .map(|(i, _)| i)
        .collect()
}

fn assert_batch_fails(cases: &[Case], what: &str) {
    assert_eq!(
        RangeProof::batch_verify(gens(), &items(cases), &mut rng(99)),
        Err(Error::InvalidProof),
        "a batch with {what} was accepted"
    );
}

#[test]
fn valid_batches_pass() {
    let cases = valid_cases(24, 1);
    for n in [0, 1, 2, 3, 24] {
        RangeProof::batch_verify(gens(), &items(&cases[..n]), &mut rng(2)).expect("valid batch");
        let each = RangeProof::verify_each(gens(), &items(&cases[..n]), &mut rng(3));
        assert_eq!(each.len(), n);
        assert!(each.iter().all(Result::is_ok), "{each:?}");
    }
}

#[test]
fn one_false_proof_fails_the_batch_and_is_named() {
    let mut r = rng(4);
    for bad in [0, 7, 15] {
        let mut cases = valid_cases(16, 5);
        // A false statement: a proof made from a non-binary "bit" vector for an out-of-range
        // value (2^16 in 16 bits) — the prover's arithmetic runs, the proof must not verify.
        let v = Scalar::from(1u64 << 16);
        let mut a_l = vec![Scalar::from(0u64); 16];
        a_l[15] = Scalar::from(2u64);
        let ctx = format!("record {bad}");
        let (proof, commitments) = RangeProof::prove_unchecked(
            gens(),
            &[v],
            &a_l,
            &[Scalar::rand(&mut r)],
            16,
            ctx.as_bytes(),
            &mut r,
        )
        .expect("shape is fine");
        assert!(proof.verify(gens(), &commitments, 16, ctx.as_bytes()).is_err());
        cases[bad] = Case { proof, commitments, bits: 16, context: ctx.into_bytes() };
        assert_batch_fails(&cases, "an out-of-range value");
        assert_eq!(culprits(&cases, 6), vec![bad]);
    }
}

#[test]
fn tampered_scalar_is_named() {
    let mut cases = valid_cases(9, 7);
    cases[4].proof.t_hat += Scalar::one();
    assert_batch_fails(&cases, "a tampered t_hat");
    assert_eq!(culprits(&cases, 8), vec![4]);
}

#[test]
fn proof_for_another_context_is_named() {
    let mut cases = valid_cases(8, 9);
    cases[3].context = b"record 5".to_vec();
    assert_batch_fails(&cases, "a proof under another context");
    assert_eq!(culprits(&cases, 10), vec![3]);
}

#[test]
fn proof_for_another_commitment_is_named() {
    let mut cases = valid_cases(8, 11);
    let mut r = rng(12);
    // A valid proof's commitment replaced by another commitment to a value in range.
    let other = case(16, &[5], b"elsewhere", &mut r);
    cases[4].commitments = other.commitments.clone();
    assert_batch_fails(&cases, "a proof for another commitment");
    assert_eq!(culprits(&cases, 13), vec![4]);
}

#[test]
fn proofs_swapped_between_commitments_are_both_named() {
    // Each proof is valid for its own commitment and context; swapped, neither verifies.
    let mut cases = valid_cases(8, 14);
    let (a, b) = (0, 4); // both 16-bit, one value
    let pa = cases[a].proof.clone();
    cases[a].proof = cases[b].proof.clone();
    cases[b].proof = pa;
    assert_batch_fails(&cases, "two swapped proofs");
    assert_eq!(culprits(&cases, 15), vec![a, b]);
    // Swapped together with their contexts (a proof moved whole to another ciphertext).
    let mut cases = valid_cases(8, 16);
    let ca = cases[a].commitments.clone();
    cases[a].commitments = cases[b].commitments.clone();
    cases[b].commitments = ca;
    assert_batch_fails(&cases, "proofs moved to other commitments");
    assert_eq!(culprits(&cases, 17), vec![a, b]);
}

#[test]
fn malformed_items_are_named_and_the_rest_still_judged() {
    let mut cases = valid_cases(8, 18);
    // A 16-bit proof claimed as 8 bits: the round count does not fit.
    cases[0].bits = 8;
    // An unsupported bit length.
    cases[1].bits = 12;
    let err = RangeProof::batch_verify(gens(), &items(&cases), &mut rng(19)).expect_err("malformed");
    assert!(matches!(&err, Error::Encoding(m) if m.starts_with("item 0:")), "{err:?}");
    let each = RangeProof::verify_each(gens(), &items(&cases), &mut rng(20));
    assert!(matches!(&each[0], Err(Error::Encoding(_))), "{:?}", each[0]);
    assert!(matches!(&each[1], Err(Error::Range(_))), "{:?}", each[1]);
    assert!(each[2..].iter().all(Result::is_ok), "{each:?}");
    // And a false proof among malformed ones is still found.
    cases[5].proof.tau_x += Scalar::one();
    let each = RangeProof::verify_each(gens(), &items(&cases), &mut rng(21));
    let bad: Vec<usize> = each.iter().enumerate().filter(|(_, v)| v.is_err()).map(|(i, _)| i).collect();
    assert_eq!(bad, vec![0, 1, 5]);
}

#[test]
fn generators_too_few_for_an_item() {
    let cases = valid_cases(3, 22); // item 2 is 64-bit
    let small = BulletproofGens::new(16);
    let each = RangeProof::verify_each(&small, &items(&cases), &mut rng(23));
    assert!(each[0].is_ok() && each[1].is_ok(), "{each:?}");
    assert!(matches!(&each[2], Err(Error::Range(_))), "{:?}", each[2]);
}
