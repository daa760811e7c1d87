//! The affine-aggregatable encodings (AFEs) the standard lacks, as `prio` 0.16.8 FLP validity
//! types: mean and variance, boolean OR and AND, MIN and MAX over a small domain, and
//! least-squares linear regression on up to eight features (the seed's §3.5 and Table 1; the Prio
//! paper's §5).
//!
//! Each AFE is an [`Afe`], a `prio::flp::Type` whose validity circuit is a random linear
//! combination (powers of the joint randomness) of multiplication checks, all evaluated by one
//! `ParallelSum<Mul>` gadget of about √M calls for M checks (the SumVec construction of
//! [BBCG+19] Cor. 4.9):
//!
//! * a **bit check** `x·(x − 1) = 0` on every element that encodes a bit of an integer;
//! * a **product check** `a·b − z = 0` where `a`, `b` are integers decoded (affinely) from bits
//!   and `z` an element of the encoding: `x²` for variance, `xᵢxⱼ` and `xᵢy` for regression.
//!
//! The encodings and their decodings:
//!
//! | AFE | encoding (Field128) | truncated to (summed) | statistic |
//! |---|---|---|---|
//! | `MeanVariance {bits}` | bits of x, x² | x, x² | mean Σx/n, variance Σx²/n − mean² |
//! | `Or` / `And` | 0, or a uniformly random nonzero element when x = 1 (Or) / x = 0 (And) | itself | OR: sum ≠ 0; AND: sum = 0 |
//! | `Max {domain}` | for j in 1..k: random nonzero if x ≥ j, else 0 | itself | the largest j whose sum ≠ 0 (else 0) |
//! | `Min {domain}` | for j in 0..k−1: random nonzero if x ≤ j, else 0 | itself | the smallest j whose sum ≠ 0 (else k−1) |
//! | `LinearRegression {features d, bits}` | bits of x₁..x_d and y; xᵢxⱼ (i ≤ j), xᵢy, y² | x, y, the products | the normal equations' solution |
//! | `SetUnion` / `SetIntersection {universe k}` | per element: random nonzero if a member (union) / not a member (intersection), else 0 | itself | union: elements whose sum ≠ 0; intersection: elements whose sum = 0 |
//!
//! Or/And/Min/Max/SetUnion/SetIntersection are the prime-field form of the seed's λ-bit random strings: the sum of
//! uniformly random nonzero elements is uniformly random (zero with probability 1/p ≈ 2⁻¹²⁸), so
//! the aggregate reveals the OR of each position and nothing of the count. Every vector is a valid
//! encoding of *some* claim (a nonzero position is the claim "x = 1" / "x ≥ j"), so these have no
//! validity checks, as in the seed ("Valid is always true"); a client can lie about its value but
//! cannot hide another client's. Decoding is over the collector's sums (Python:
//! `zeenot.prio.afe`), exact rationals where the statistic has a division.
//!
//! These are Prio3 instances with private algorithm ids (VDAF-08 reserves `0xFFFF0000` and up for
//! private use): only zeenot's own aggregators run them, never Janus.

use prio::field::{random_vector, Field128, FieldElement};
use prio::flp::gadgets::{Mul, ParallelSum, ParallelSumGadget};
use prio::flp::{FlpError, Gadget, Type};

use crate::{Error, Result};

/// The field every AFE encodes into (p ≈ 2¹²⁸: sums of 64-bit products of up to 2⁶⁰ reports do
/// not wrap).
pub type F = Field128;

/// The most bits of one integer in [`AfeKind::MeanVariance`] and [`AfeKind::LinearRegression`]
/// (products are below 2⁶⁴).
pub const MAX_BITS: usize = 32;
/// The largest domain [`AfeKind::Max`] and [`AfeKind::Min`] take (the encoding has `domain − 1`
/// elements).
pub const MAX_DOMAIN: usize = 1 << 12;
/// The most features [`AfeKind::LinearRegression`] takes.
pub const MAX_FEATURES: usize = 8;

/// The first of our private VDAF algorithm ids (VDAF-08 §10: `0xFFFF0000`–`0xFFFFFFFF` is for
/// private use); each AFE adds its own offset.
pub const ALGORITHM_ID_BASE: u32 = 0xFFFF_5A00;

/// Which AFE, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AfeKind {
    /// x in `[0, 2^bits)`: the count, Σx and Σx² (mean, variance, standard deviation).
    MeanVariance { bits: usize },
    /// x a bit: whether any report is 1.
    Or,
    /// x a bit: whether every report is 1.
    And,
    /// x in `[0, domain)`: the largest x.
    Max { domain: usize },
    /// x in `[0, domain)`: the smallest x.
    Min { domain: usize },
    /// `features` integers x and a target y, each in `[0, 2^bits)`: the least-squares fit
    /// y ≈ c₀ + Σ cᵢxᵢ.
    LinearRegression { features: usize, bits: usize },
    /// A subset of `[0, universe)` as `universe` membership bits: the union of the reports'
    /// sets (an OR per element).
    SetUnion { universe: usize },
    /// As [`AfeKind::SetUnion`]: the intersection (an AND per element).
    SetIntersection { universe: usize },
}

impl AfeKind {
    /// The description's type name.
    pub fn name(&self) -> &'static str {
        match self {
            AfeKind::MeanVariance { .. } => "AfeMeanVariance",
            AfeKind::Or => "AfeOr",
            AfeKind::And => "AfeAnd",
            AfeKind::Max { .. } => "AfeMax",
            AfeKind::Min { .. } => "AfeMin",
            AfeKind::LinearRegression { .. } => "AfeLinearRegression",
            AfeKind::SetUnion { .. } => "AfeSetUnion",
            AfeKind::SetIntersection { .. } => "AfeSetIntersection",
        }
    }

    /// This AFE's private Prio3 algorithm id.
    pub fn algorithm_id(&self) -> u32 {
        ALGORITHM_ID_BASE
            + match self {
                AfeKind::MeanVariance { .. } => 1,
                AfeKind::Or => 2,
                AfeKind::And => 3,
                AfeKind::Max { .. } => 4,
                AfeKind::Min { .. } => 5,
                AfeKind::LinearRegression { .. } => 6,
                AfeKind::SetUnion { .. } => 7,
                AfeKind::SetIntersection { .. } => 8,
            }
    }

    /// How many integers one measurement has.
    pub fn measurement_len(&self) -> usize {
        match self {
            AfeKind::LinearRegression { features, .. } => features + 1,
            AfeKind::SetUnion { universe } | AfeKind::SetIntersection { universe } => *universe,
            _ => 1,
        }
    }

    /// Our bounds on the parameters.
    pub fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Description(m));
        match *self {
            AfeKind::MeanVariance { bits } | AfeKind::LinearRegression { bits, .. }
                if !(1..=MAX_BITS).contains(&bits) =>
            {
                bad(format!("{} bits must be in 1..={MAX_BITS}, got {bits}", self.name()))
            }
            AfeKind::LinearRegression { features, .. } if !(1..=MAX_FEATURES).contains(&features) => {
                bad(format!("AfeLinearRegression features must be in 1..={MAX_FEATURES}, got {features}"))
            }
            AfeKind::Max { domain } | AfeKind::Min { domain } if !(2..=MAX_DOMAIN).contains(&domain) => {
                bad(format!("{} domain must be in 2..={MAX_DOMAIN}, got {domain}", self.name()))
            }
            AfeKind::SetUnion { universe } | AfeKind::SetIntersection { universe }
                if !(1..=MAX_DOMAIN).contains(&universe) =>
            {
                bad(format!("{} universe must be in 1..={MAX_DOMAIN}, got {universe}", self.name()))
            }
            _ => Ok(()),
        }
    }
}

/// An integer of the encoding, read affinely from the (shared) input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    /// Σ 2ⁱ·input[start + i] for i < len (an integer encoded as bits, least significant first).
    Bits { start: usize, len: usize },
    /// input[i] itself.
    Elem(usize),
}

impl Value {
    fn eval(&self, input: &[F]) -> F {
        match *self {
            Value::Bits { start, len } => {
                let mut acc = F::zero();
                let mut pow = F::one();
                let two = F::from(2u128);
                for x in &input[start..start + len] {
                    acc += pow * *x;
                    pow *= two;
                }
                acc
            }
            Value::Elem(i) => input[i],
        }
    }
}

/// An AFE's validity circuit and truncation, as a `prio::flp::Type` over [`F`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Afe {
    kind: AfeKind,
    input_len: usize,
    /// Ranges of `input` whose every element is a bit.
    bit_ranges: Vec<(usize, usize)>,
    /// `a · b = input[z]`.
    products: Vec<(Value, Value, usize)>,
    /// What is summed (the truncation), in order.
    outputs: Vec<Value>,
    /// Multiplications per gadget call, and gadget calls.
    chunk_length: usize,
    gadget_calls: usize,
}

impl Afe {
    /// The circuit for `kind` (its parameters checked).
    pub fn new(kind: AfeKind) -> Result<Self> {
        kind.check()?;
        let bits = |i: usize, b: usize| Value::Bits { start: i * b, len: b };
        let (input_len, bit_ranges, products, outputs) = match kind {
            AfeKind::MeanVariance { bits: b } => {
                let x = bits(0, b);
                (b + 1, vec![(0, b)], vec![(x, x, b)], vec![x, Value::Elem(b)])
            }
            AfeKind::Or | AfeKind::And => (1, vec![], vec![], vec![Value::Elem(0)]),
            AfeKind::SetUnion { universe: k } | AfeKind::SetIntersection { universe: k } => {
                (k, vec![], vec![], (0..k).map(Value::Elem).collect())
            }
            AfeKind::Max { domain } | AfeKind::Min { domain } => {
                (domain - 1, vec![], vec![], (0..domain - 1).map(Value::Elem).collect())
            }
            AfeKind::LinearRegression { features: d, bits: b } => {
                // x₁..x_d then y, each as b bits; then the products, each one element.
                let ints: Vec<Value> = (0..=d).map(|i| bits(i, b)).collect();
                let mut next = (d + 1) * b;
                let mut products = Vec::new();
                for (i, j) in regression_pairs(d) {
                    products.push((ints[i], ints[j], next));
                    next += 1;
                }
                let mut outputs = ints.clone();
                outputs.extend(products.iter().map(|&(_, _, z)| Value::Elem(z)));
                (next, vec![(0, (d + 1) * b)], products, outputs)
            }
        };
        let checks = bit_ranges.iter().map(|r| r.1).sum::<usize>() + products.len();
        // ≈ √M multiplications per call and as many calls: the proof is O(√M) elements.
        let chunk_length = (checks as f64).sqrt().ceil().max(1.0) as usize;
        let gadget_calls = checks.div_ceil(chunk_length).max(1);
        Ok(Afe { kind, input_len, bit_ranges, products, outputs, chunk_length, gadget_calls })
    }

    pub fn kind(&self) -> AfeKind {
        self.kind
    }

    fn checks(&self) -> usize {
        self.bit_ranges.iter().map(|r| r.1).sum::<usize>() + self.products.len()
    }
}

/// The products a regression on `d` features sums, as indices into (x₁..x_d, y): xᵢxⱼ for
/// i ≤ j, then xᵢy, then y·y.
pub fn regression_pairs(d: usize) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for i in 0..d {
        for j in i..d {
            pairs.push((i, j));
        }
    }
    pairs.extend((0..d).map(|i| (i, d)));
    pairs.push((d, d));
    pairs
}

/// `len` uniformly random nonzero elements (the OS's randomness, through the crate's PRNG).
fn random_nonzero(len: usize) -> std::result::Result<Vec<F>, FlpError> {
    let mut v = random_vector::<F>(len).map_err(|e| FlpError::Encode(format!("randomness: {e}")))?;
    for x in v.iter_mut() {
        while *x == F::zero() {
            *x = random_vector::<F>(1).map_err(|e| FlpError::Encode(format!("randomness: {e}")))?[0];
        }
    }
    Ok(v)
}

fn push_bits(out: &mut Vec<F>, x: u64, bits: usize) {
    out.extend((0..bits).map(|i| F::from(u128::from((x >> i) & 1))));
}

impl Type for Afe {
    /// The integers of one report: `[x]` (a bit for Or/And), `[x₁, …, x_d, y]` for regression.
    type Measurement = Vec<u64>;
    /// The sums of the truncated encoding, as integers below the modulus.
    type AggregateResult = Vec<u128>;
    type Field = F;

    fn encode_measurement(&self, m: &Vec<u64>) -> std::result::Result<Vec<F>, FlpError> {
        let want = self.kind.measurement_len();
        if m.len() != want {
            return Err(FlpError::Encode(format!(
                "{} takes {want} integers, got {}",
                self.kind.name(),
                m.len()
            )));
        }
        let below = |x: u64, bound: u128, what: &str| {
            if u128::from(x) < bound {
                Ok(x)
            } else {
                Err(FlpError::Encode(format!("{} {what} must be below {bound}, got {x}", self.kind.name())))
            }
        };
        let mut out = Vec::with_capacity(self.input_len);
        match self.kind {
            AfeKind::MeanVariance { bits } => {
                let x = below(m[0], 1u128 << bits, "x")?;
                push_bits(&mut out, x, bits);
                out.push(F::from(u128::from(x) * u128::from(x)));
            }
            AfeKind::Or | AfeKind::And => {
                let x = below(m[0], 2, "x")? == 1;
                let marked = if self.kind == AfeKind::Or { x } else { !x };
                out.push(if marked { random_nonzero(1)?[0] } else { F::zero() });
            }
            AfeKind::SetUnion { .. } | AfeKind::SetIntersection { .. } => {
                let union = matches!(self.kind, AfeKind::SetUnion { .. });
                let r = random_nonzero(m.len())?;
                for (&bit, r) in m.iter().zip(r) {
                    // Union: a member marks its element; intersection: a non-member does.
                    let member = below(bit, 2, "membership bit")? == 1;
                    out.push(if member == union { r } else { F::zero() });
                }
            }
            AfeKind::Max { domain } | AfeKind::Min { domain } => {
                let x = below(m[0], domain as u128, "x")? as usize;
                let r = random_nonzero(domain - 1)?;
                let max = matches!(self.kind, AfeKind::Max { .. });
                // Max: position p stands for threshold j = p + 1, marked when x ≥ j.
                // Min: position p stands for j = p, marked when x ≤ j.
                out.extend(r.into_iter().enumerate().map(|(p, r)| {
                    let marked = if max { x > p } else { x <= p };
                    if marked {
                        r
                    } else {
                        F::zero()
                    }
                }));
            }
            AfeKind::LinearRegression { features: d, bits } => {
                let ints = m
                    .iter()
                    .map(|&x| below(x, 1u128 << bits, "value"))
                    .collect::<std::result::Result<Vec<_>, _>>()?;
                for &x in &ints {
                    push_bits(&mut out, x, bits);
                }
                for (i, j) in regression_pairs(d) {
                    out.push(F::from(u128::from(ints[i]) * u128::from(ints[j])));
                }
            }
        }
        debug_assert_eq!(out.len(), self.input_len);
        Ok(out)
    }

    fn decode_result(
        &self,
        data: &[F],
        _num_measurements: usize,
    ) -> std::result::Result<Vec<u128>, FlpError> {
        if data.len() != self.outputs.len() {
            return Err(FlpError::Decode(format!("{} sums, expected {}", data.len(), self.outputs.len())));
        }
        Ok(data.iter().map(|&x| u128::from(x)).collect())
    }

    fn gadget(&self) -> Vec<Box<dyn Gadget<F>>> {
        vec![Box::new(ParallelSum::<F, Mul<F>>::new(Mul::new(self.gadget_calls), self.chunk_length))]
    }

    fn valid(
        &self,
        g: &mut Vec<Box<dyn Gadget<F>>>,
        input: &[F],
        joint_rand: &[F],
        num_shares: usize,
    ) -> std::result::Result<F, FlpError> {
        self.valid_call_check(input, joint_rand)?;
        let gadget = g.first_mut().ok_or_else(|| FlpError::Valid("no gadget".into()))?;
        let r = joint_rand.first().copied().unwrap_or(F::zero());
        // Each share subtracts 1/num_shares, so the shares of (x − 1) sum to x − 1.
        let shares = u128::try_from(num_shares).map_err(|_| FlpError::Valid("num_shares".into()))?;
        let share_of_one = F::from(shares).inv();

        // The Mul arguments, two per check: (rᵏ·a, b), checked as Σ rᵏ·a·b − (affine part) = 0.
        let mut args = Vec::with_capacity(2 * self.chunk_length * self.gadget_calls);
        let mut affine = F::zero();
        let mut rk = r;
        for &(start, len) in &self.bit_ranges {
            for x in &input[start..start + len] {
                args.push(rk * *x);
                args.push(*x - share_of_one);
                rk *= r;
            }
        }
        for (a, b, z) in &self.products {
            args.push(rk * a.eval(input));
            args.push(b.eval(input));
            affine -= rk * input[*z];
            rk *= r;
        }
        // Unused multiplications take (0, 0): their product is 0.
        args.resize(2 * self.chunk_length * self.gadget_calls, F::zero());
        let mut out = affine;
        for chunk in args.chunks(2 * self.chunk_length) {
            out += gadget.call(chunk)?;
        }
        Ok(out)
    }

    fn truncate(&self, input: Vec<F>) -> std::result::Result<Vec<F>, FlpError> {
        self.truncate_call_check(&input)?;
        Ok(self.outputs.iter().map(|v| v.eval(&input)).collect())
    }

    fn input_len(&self) -> usize {
        self.input_len
    }

    fn proof_len(&self) -> usize {
        // The gadget's arity (its wire seeds), then its output polynomial: degree 2 over
        // (1 + calls).next_power_of_two() − 1 points plus one.
        2 * self.chunk_length + 2 * ((1 + self.gadget_calls).next_power_of_two() - 1) + 1
    }

    fn verifier_len(&self) -> usize {
        2 * self.chunk_length + 2
    }

    fn output_len(&self) -> usize {
        self.outputs.len()
    }

    fn joint_rand_len(&self) -> usize {
        // Without checks there is nothing to combine (as the crate's Count).
        usize::from(self.checks() > 0)
    }

    fn prove_rand_len(&self) -> usize {
        2 * self.chunk_length
    }

    fn query_rand_len(&self) -> usize {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prio::flp::Type;

    /// The FLP alone (no Prio3): prove and query an encoding with one share, then decide.
    fn flp_accepts(t: &Afe, input: &[F]) -> bool {
        let jr = random_vector::<F>(t.joint_rand_len()).unwrap();
        let pr = random_vector::<F>(t.prove_rand_len()).unwrap();
        let qr = random_vector::<F>(t.query_rand_len()).unwrap();
        let proof = t.prove(input, &pr, &jr).unwrap();
        let verifier = t.query(input, &proof, &qr, &jr, 1).unwrap();
        t.decide(&verifier).unwrap()
    }

    #[test]
    fn valid_encodings_pass_the_flp() {
        for (kind, m) in [
            (AfeKind::MeanVariance { bits: 8 }, vec![200]),
            (AfeKind::Or, vec![1]),
            (AfeKind::And, vec![0]),
            (AfeKind::Max { domain: 5 }, vec![3]),
            (AfeKind::Min { domain: 5 }, vec![0]),
            (AfeKind::LinearRegression { features: 2, bits: 6 }, vec![5, 63, 17]),
            (AfeKind::LinearRegression { features: 4, bits: 16 }, vec![5, 65_535, 17, 0, 900]),
            (AfeKind::SetUnion { universe: 3 }, vec![1, 0, 1]),
            (AfeKind::SetIntersection { universe: 3 }, vec![0, 0, 1]),
        ] {
            let t = Afe::new(kind).unwrap();
            let input = t.encode_measurement(&m).unwrap();
            assert_eq!(input.len(), t.input_len());
            assert!(flp_accepts(&t, &input), "{kind:?}");
        }
    }

    #[test]
    fn invalid_encodings_fail_the_flp() {
        let t = Afe::new(AfeKind::MeanVariance { bits: 8 }).unwrap();
        let mut input = t.encode_measurement(&vec![9]).unwrap();
        input[8] += F::one(); // x² wrong
        assert!(!flp_accepts(&t, &input));
        let mut input = t.encode_measurement(&vec![9]).unwrap();
        input[1] = F::from(2u128); // a bit that is 2
        assert!(!flp_accepts(&t, &input));
        let t = Afe::new(AfeKind::LinearRegression { features: 1, bits: 4 }).unwrap();
        let mut input = t.encode_measurement(&vec![3, 5]).unwrap();
        // (x·x, x·y, y·y) follow the 8 bits: x·y is element 9.
        input[9] += F::one();
        assert!(!flp_accepts(&t, &input));
    }

    #[test]
    fn parameters_and_measurements_are_bounded() {
        for bad in [
            AfeKind::MeanVariance { bits: 0 },
            AfeKind::MeanVariance { bits: 33 },
            AfeKind::Max { domain: 1 },
            AfeKind::Min { domain: MAX_DOMAIN + 1 },
            AfeKind::LinearRegression { features: MAX_FEATURES + 1, bits: 8 },
            AfeKind::LinearRegression { features: 0, bits: 8 },
            AfeKind::LinearRegression { features: 1, bits: 0 },
            AfeKind::SetUnion { universe: 0 },
            AfeKind::SetIntersection { universe: MAX_DOMAIN + 1 },
        ] {
            assert!(Afe::new(bad).is_err(), "{bad:?}");
        }
        let t = Afe::new(AfeKind::MeanVariance { bits: 8 }).unwrap();
        assert!(t.encode_measurement(&vec![256]).is_err());
        assert!(t.encode_measurement(&vec![1, 2]).is_err());
        let t = Afe::new(AfeKind::Or).unwrap();
        assert!(t.encode_measurement(&vec![2]).is_err());
        let t = Afe::new(AfeKind::Max { domain: 4 }).unwrap();
        assert!(t.encode_measurement(&vec![4]).is_err());
    }
}
