//! The AFEs through `zeenot_prio::Vdaf` end to end (client → DAP-09 ping-pong → collector): the
//! sums a valid input aggregates to, and invalid encodings (x² wrong, a non-bit, a wrong
//! product) rejected by the aggregators' preparation. Invalid encodings come from an honest
//! prover over a tampered encoding: a `Type` that wraps the AFE and changes its encoding before
//! the crate's Prio3 proves it, so the shares are well-formed and only the proof can fail.

use prio::codec::Encode;
use prio::field::FieldElement;
use prio::flp::{FlpError, Gadget, Type};
use prio::vdaf::prio3::Prio3;
use prio::vdaf::xof::XofTurboShake128;
use prio::vdaf::Client;
use zeenot_prio::afe::{Afe, AfeKind, F};
use zeenot_prio::{AggregateResult, Error, Measurement, Vdaf, VdafKind};

const VK: [u8; 16] = [9; 16];

fn nonce(i: usize) -> [u8; 16] {
    let mut n = [0u8; 16];
    n[..8].copy_from_slice(&(i as u64).to_le_bytes());
    n
}

/// DAP's ping-pong preparation for each report, then the collector's sums.
fn run(vdaf: &Vdaf, ms: &[Vec<u64>]) -> Vec<u128> {
    let (mut leader, mut helper) = (Vec::new(), Vec::new());
    for (i, m) in ms.iter().enumerate() {
        let n = nonce(i);
        let s = vdaf.shard(&Measurement::Afe(m.clone()), &n).unwrap();
        let (state, msg) = vdaf.leader_initialized(&VK, &n, &s.public_share, &s.input_shares[0]).unwrap();
        let (h_out, reply) =
            vdaf.helper_initialized(&VK, &n, &s.public_share, &s.input_shares[1], &msg).unwrap();
        leader.push(vdaf.leader_continued(&state, &reply).unwrap());
        helper.push(h_out);
    }
    let agg = |v: &Vec<Vec<u8>>| vdaf.aggregate(&v.iter().map(Vec::as_slice).collect::<Vec<_>>()).unwrap();
    match vdaf.unshard(&[&agg(&leader), &agg(&helper)], ms.len()).unwrap() {
        AggregateResult::Afe(sums) => sums,
        other => panic!("{other:?}"),
    }
}

fn afe(kind: AfeKind) -> Vdaf {
    Vdaf::new(VdafKind::Afe(kind)).unwrap()
}

#[test]
fn mean_variance_sums_x_and_x_squared() {
    let xs = [3u64, 10, 255, 0, 77];
    let sums = run(&afe(AfeKind::MeanVariance { bits: 8 }), &xs.map(|x| vec![x]));
    let (s1, s2): (u128, u128) =
        (xs.iter().map(|&x| x as u128).sum(), xs.iter().map(|&x| (x * x) as u128).sum());
    assert_eq!(sums, vec![s1, s2]);
    // 32-bit values: x² needs 64 bits and still sums exactly.
    let big = [u32::MAX as u64, 1 << 31];
    let sums = run(&afe(AfeKind::MeanVariance { bits: 32 }), &big.map(|x| vec![x]));
    assert_eq!(sums[1], big.iter().map(|&x| (x as u128) * (x as u128)).sum::<u128>());
}

#[test]
fn or_and_reveal_only_whether_a_report_is_marked() {
    let or = afe(AfeKind::Or);
    assert_eq!(run(&or, &[vec![0], vec![0], vec![0]]), vec![0]);
    assert_ne!(run(&or, &[vec![0], vec![1], vec![0]]), vec![0]);
    let and = afe(AfeKind::And);
    assert_eq!(run(&and, &[vec![1], vec![1]]), vec![0]);
    assert_ne!(run(&and, &[vec![1], vec![0], vec![1]]), vec![0]);
    // Two marked reports do not cancel (their sum is a random element, not a count of 2).
    let sums = run(&or, &[vec![1], vec![1]]);
    assert!(sums[0] != 0 && sums[0] != 2);
}

#[test]
fn max_and_min_over_a_small_domain() {
    let k = 6;
    let xs = [2u64, 4, 1].map(|x| vec![x]);
    let max = run(&afe(AfeKind::Max { domain: k }), &xs);
    // Position p (threshold p + 1) is nonzero exactly up to the largest value, 4.
    let marked: Vec<bool> = max.iter().map(|&s| s != 0).collect();
    assert_eq!(marked, vec![true, true, true, true, false]);
    let min = run(&afe(AfeKind::Min { domain: k }), &xs);
    // Position p (threshold p) is nonzero from the smallest value, 1, on.
    let marked: Vec<bool> = min.iter().map(|&s| s != 0).collect();
    assert_eq!(marked, vec![false, true, true, true, true]);
}

#[test]
fn set_union_and_intersection_over_a_small_universe() {
    let sets = [vec![1, 0, 1, 1, 0], vec![0, 0, 1, 1, 0], vec![1, 0, 0, 1, 0]];
    let marked = |sums: Vec<u128>| sums.iter().map(|&s| s != 0).collect::<Vec<_>>();
    let union = run(&afe(AfeKind::SetUnion { universe: 5 }), &sets);
    assert_eq!(marked(union), vec![true, false, true, true, false]);
    // Intersection: an element is in every set exactly when its sum is zero.
    let inter = run(&afe(AfeKind::SetIntersection { universe: 5 }), &sets);
    assert_eq!(marked(inter), vec![true, true, true, false, true]);
}

#[test]
fn linear_regression_sums_the_normal_equations() {
    let pts: [[u64; 3]; 4] = [[1, 2, 7], [3, 0, 9], [5, 5, 30], [2, 7, 25]];
    let sums = run(&afe(AfeKind::LinearRegression { features: 2, bits: 6 }), &pts.map(|p| p.to_vec()));
    let s = |f: &dyn Fn(&[u64; 3]) -> u64| pts.iter().map(|p| f(p) as u128).sum::<u128>();
    let want = vec![
        s(&|p| p[0]),
        s(&|p| p[1]),
        s(&|p| p[2]),
        s(&|p| p[0] * p[0]),
        s(&|p| p[0] * p[1]),
        s(&|p| p[1] * p[1]),
        s(&|p| p[0] * p[2]),
        s(&|p| p[1] * p[2]),
        s(&|p| p[2] * p[2]),
    ];
    assert_eq!(sums, want);
}

#[test]
fn out_of_range_measurements_are_input_errors() {
    let v = afe(AfeKind::MeanVariance { bits: 4 });
    assert!(matches!(v.shard(&Measurement::Afe(vec![16]), &nonce(0)), Err(Error::Input(_))));
    assert!(matches!(v.shard(&Measurement::Sum(1), &nonce(0)), Err(Error::Input(_))));
    let v = afe(AfeKind::LinearRegression { features: 1, bits: 4 });
    assert!(matches!(v.shard(&Measurement::Afe(vec![1]), &nonce(0)), Err(Error::Input(_))));
}

// ---- invalid encodings ------------------------------------------------------------------------

/// How the tampered client changes its encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tamper {
    /// Add 1 to element `i`.
    AddOne(usize),
    /// Set element `i` to 2 (a "bit" that is not one).
    Two(usize),
}

/// The AFE with a tampered encoding; everything else (circuit, lengths) is the AFE's.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tampered(Afe, Tamper);

impl Type for Tampered {
    type Measurement = Vec<u64>;
    type AggregateResult = Vec<u128>;
    type Field = F;

    fn encode_measurement(&self, m: &Vec<u64>) -> Result<Vec<F>, FlpError> {
        let mut v = self.0.encode_measurement(m)?;
        match self.1 {
            Tamper::AddOne(i) => v[i] += F::one(),
            Tamper::Two(i) => v[i] = F::one() + F::one(),
        }
        Ok(v)
    }
    fn decode_result(&self, d: &[F], n: usize) -> Result<Vec<u128>, FlpError> {
        self.0.decode_result(d, n)
    }
    fn gadget(&self) -> Vec<Box<dyn Gadget<F>>> {
        self.0.gadget()
    }
    fn valid(&self, g: &mut Vec<Box<dyn Gadget<F>>>, i: &[F], j: &[F], n: usize) -> Result<F, FlpError> {
        self.0.valid(g, i, j, n)
    }
    fn truncate(&self, i: Vec<F>) -> Result<Vec<F>, FlpError> {
        self.0.truncate(i)
    }
    fn input_len(&self) -> usize {
        self.0.input_len()
    }
    fn proof_len(&self) -> usize {
        self.0.proof_len()
    }
    fn verifier_len(&self) -> usize {
        self.0.verifier_len()
    }
    fn output_len(&self) -> usize {
        self.0.output_len()
    }
    fn joint_rand_len(&self) -> usize {
        self.0.joint_rand_len()
    }
    fn prove_rand_len(&self) -> usize {
        self.0.prove_rand_len()
    }
    fn query_rand_len(&self) -> usize {
        self.0.query_rand_len()
    }
}

/// Shard `m` with the tampered encoding (the crate's Prio3, our algorithm id) and prepare it with
/// zeenot's aggregators: the helper's preparation must reject it.
fn assert_rejected(kind: AfeKind, m: Vec<u64>, tamper: Tamper) {
    let vdaf = afe(kind);
    let cheat = Prio3::<_, XofTurboShake128, 16>::new(
        2,
        1,
        kind.algorithm_id(),
        Tampered(Afe::new(kind).unwrap(), tamper),
    )
    .unwrap();
    let n = nonce(7);
    let (public, inputs) = cheat.shard(&m, &n).unwrap();
    let (public, leader_in, helper_in) =
        (public.get_encoded().unwrap(), inputs[0].get_encoded().unwrap(), inputs[1].get_encoded().unwrap());
    let (_, msg) = vdaf.leader_initialized(&VK, &n, &public, &leader_in).unwrap();
    let r = vdaf.helper_initialized(&VK, &n, &public, &helper_in, &msg);
    assert!(matches!(r, Err(Error::Rejected(_))), "{kind:?} {tamper:?}: {r:?}");
    // The VDAF's own preparation (no ping-pong) rejects it too.
    let (s0, p0) = vdaf.prepare_init(&VK, 0, &n, &public, &leader_in).unwrap();
    let (_, p1) = vdaf.prepare_init(&VK, 1, &n, &public, &helper_in).unwrap();
    let r = vdaf.prepare_shares_to_prepare_message(0, &s0, &[&p0, &p1]);
    assert!(matches!(r, Err(Error::Rejected(_))), "{kind:?} {tamper:?}: {r:?}");
    // The untampered report of the same shape is accepted (the harness itself is sound).
    assert_eq!(run(&vdaf, &[m]).len(), Afe::new(kind).unwrap().output_len());
}

#[test]
fn invalid_encodings_are_rejected_at_preparation() {
    let mv = AfeKind::MeanVariance { bits: 8 };
    assert_rejected(mv, vec![9], Tamper::AddOne(8)); // x² ≠ x·x
    assert_rejected(mv, vec![9], Tamper::Two(2)); // a bit that is 2
    assert_rejected(mv, vec![9], Tamper::AddOne(0)); // a bit 1 → 2 (and x·x ≠ x² after it)
    let lr1 = AfeKind::LinearRegression { features: 1, bits: 4 };
    // Layout: x (4 bits), y (4 bits), then x·x, x·y, y·y.
    assert_rejected(lr1, vec![3, 5], Tamper::AddOne(8)); // x·x
    assert_rejected(lr1, vec![3, 5], Tamper::AddOne(9)); // x·y
    assert_rejected(lr1, vec![3, 5], Tamper::AddOne(10)); // y·y
    assert_rejected(lr1, vec![3, 5], Tamper::Two(5)); // a bit of y
    let lr2 = AfeKind::LinearRegression { features: 2, bits: 3 };
    // x₁, x₂, y (3 bits each), then x₁x₁, x₁x₂, x₂x₂, x₁y, x₂y, yy.
    assert_rejected(lr2, vec![1, 6, 7], Tamper::AddOne(10)); // x₁·x₂
    assert_rejected(lr2, vec![1, 6, 7], Tamper::AddOne(13)); // x₂·y
}

#[test]
fn or_max_min_accept_every_vector_by_design() {
    // No validity checks: any element is "marked"; a tampered encoding is just another claim.
    for kind in [AfeKind::Or, AfeKind::Max { domain: 4 }] {
        let vdaf = afe(kind);
        let cheat = Prio3::<_, XofTurboShake128, 16>::new(
            2,
            1,
            kind.algorithm_id(),
            Tampered(Afe::new(kind).unwrap(), Tamper::Two(0)),
        )
        .unwrap();
        let n = nonce(3);
        let (public, inputs) = cheat.shard(&vec![0], &n).unwrap();
        let (public, l, h) = (
            public.get_encoded().unwrap(),
            inputs[0].get_encoded().unwrap(),
            inputs[1].get_encoded().unwrap(),
        );
        let (_, msg) = vdaf.leader_initialized(&VK, &n, &public, &l).unwrap();
        assert!(vdaf.helper_initialized(&VK, &n, &public, &h, &msg).is_ok(), "{kind:?}");
    }
}
