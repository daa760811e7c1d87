//! Exponential ElGamal on Baby Jubjub (zeenot-crypto's `PublicKey::encrypt_with`):
//! `Enc_pk(m; r) = (r·B8, m·B8 + r·pk)`; homomorphic addition, re-randomisation and key
//! switching (`SecretKey::key_switch_with`).
//!
//! # Costs (251-bit scalars, 32-bit messages, decompositions included)
//!
//! | gadget | `pk` input | `pk` constant |
//! |---|---|---|
//! | [`encrypt`] | 2,241 | 1,098 |
//! | [`rerandomize`] | 2,165 | 1,022 |
//! | [`key_switch`] (`pk2` input / constant) | 4,320 | 3,177 |
//! | [`add`] | 12 | |
//!
//! `encrypt` with `pk` an input: decompositions of `r` (252) and `m` (33), `r·B8`
//! ([`fixed_base::mul_plus`], 379), `r·pk` ([`variable_base::mul_offset`], 1,522), `m·B8`
//! (49) and the addition (6). With `pk` a constant, `r·B8` and `r·pk` are two fixed-base
//! products ([`fixed_base::mul_many`], 758).
//!
//! # Soundness
//!
//! Every multiplication determines its witnesses from the bits and points (see
//! [`fixed_base`] and [`variable_base`], which prove that their incomplete Montgomery
//! formulas meet no exceptional case), and the additions use the complete law. Points must be
//! on the curve ([`PointWire::witness`] checks a prover-chosen one). A variable `pk` (or `pk2`,
//! or `c1` in [`key_switch`]) of order at most 8 — the identity included — makes the circuit
//! unsatisfiable, as [`variable_base::mul_offset`] rejects it (no key `sk·B8` has such an order).

use super::super::{Builder, Result, Wire};
use super::fixed_base::{self, FixedBase};
use super::point::{self, PointWire};
use super::{scalar_bits, variable_base, SCALAR_BITS};
use ark_bn254::Fr;
use ark_ff::One;

/// Bits of the plaintext of [`encrypt`].
pub const MESSAGE_BITS: u32 = 32;

/// A ciphertext `(c1, c2)` in the circuit.
#[derive(Clone, Debug)]
pub struct CiphertextWire {
    /// `r·B8`.
    pub c1: PointWire,
    /// `m·B8 + r·pk`.
    pub c2: PointWire,
}

/// Homomorphic addition `Enc(m1; r1) + Enc(m2; r2) = Enc(m1 + m2; r1 + r2)`: two complete
/// additions (12 constraints, 6 per point; inputs must be on the curve).
pub fn add(b: &Builder, x: &CiphertextWire, y: &CiphertextWire) -> Result<CiphertextWire> {
    Ok(CiphertextWire { c1: point::add(b, &x.c1, &y.c1)?, c2: point::add(b, &x.c2, &y.c2)? })
}

/// Encryption from the bits of `k` (little-endian boolean wires, `n = k_bits.len() ≥ 1`;
/// booleanity is the caller's) and of `m`, with randomness **`r = k + 2^(n−1)`**:
/// `(r·B8, m·B8 + r·pk)`. The offset is what the fast variable-base multiplication
/// ([`variable_base::mul_offset`]) computes; for `r·B8` it joins the fixed-base constant at no
/// cost. With `pk` a circuit constant (prime-order subgroup, not the identity) `r·pk` is a
/// fixed-base multiplication ([`fixed_base::mul_many`]) like `r·B8`; otherwise `pk` must be
/// on the curve, and a `pk` of order at most 8 (the identity included) makes the circuit
/// unsatisfiable.
///
/// # Panics
///
/// If `pk` is a constant outside the prime-order subgroup or the identity
/// ([`FixedBase::new`]), or `k_bits` is empty.
pub fn encrypt_bits(b: &Builder, pk: &PointWire, k_bits: &[Wire], m_bits: &[Wire]) -> Result<CiphertextWire> {
    let e = variable_base::offset(k_bits.len());
    let b8 = FixedBase::base8();
    let (c1, rpk) = match pk.konst() {
        Some(k) => {
            let bases = [FixedBase::base8(), FixedBase::new(k)];
            let mut v = fixed_base::mul_many(b, &bases, k_bits, e)?;
            let rpk = v.pop().unwrap_or_else(PointWire::identity);
            (v.pop().unwrap_or_else(PointWire::identity), rpk)
        }
        None => (fixed_base::mul_plus(b, &b8, k_bits, e)?, variable_base::mul_offset(b, pk, k_bits)?),
    };
    let mb = fixed_base::mul(b, &b8, m_bits)?;
    Ok(CiphertextWire { c1, c2: point::add(b, &mb, &rpk)? })
}

/// `2^250`: the randomness of [`encrypt`] lies in `[2^250, 2^250 + 2^251)`.
pub fn randomness_offset() -> Fr {
    variable_base::offset(SCALAR_BITS as usize)
}

/// The representative in `[2^250, 2^250 + 2^251)` of a scalar `r ∈ [0, l)` (as a field
/// element): `r` itself, or `r + l` when `r < 2^250`. Every residue modulo `l` has one, as
/// `2^250 < l < 2^251`.
pub fn randomness_representative(r: Fr) -> Fr {
    if r < randomness_offset() {
        r + point::native::subgroup_order()
    } else {
        r
    }
}

/// Encryption of a 32-bit `m` with randomness `r ∈ [2^250, 2^250 + 2^251)` (an interval of
/// length `2^251 > l` that holds a representative of every scalar, see
/// [`randomness_representative`]): `r − 2^250` and `m` are decomposed and range-checked here
/// (252 + 33 constraints).
pub fn encrypt(b: &Builder, pk: &PointWire, r: &Wire, m: &Wire) -> Result<CiphertextWire> {
    let k = r.affine(Fr::one(), -randomness_offset());
    let k_bits = scalar_bits(b, &k, SCALAR_BITS)?;
    let m_bits = scalar_bits(b, m, MESSAGE_BITS)?;
    encrypt_bits(b, pk, &k_bits, &m_bits)
}

/// Re-randomisation `(c1 + r'·B8, c2 + r'·pk)` with `r' = k + 2^(n−1)` from the bits of `k`
/// (as in [`encrypt_bits`]): the addition of an encryption of 0 (12 constraints beyond it).
pub fn rerandomize_bits(
    b: &Builder,
    pk: &PointWire,
    ct: &CiphertextWire,
    k_bits: &[Wire],
) -> Result<CiphertextWire> {
    let zero = encrypt_bits(b, pk, k_bits, &[])?;
    add(b, ct, &zero)
}

/// Re-randomisation `(c1 + r'·B8, c2 + r'·pk)` with `r' ∈ [2^250, 2^250 + 2^251)` (see
/// [`randomness_representative`]), decomposed here (252 constraints): 2,165 constraints with
/// `pk` an input, 1,022 with `pk` a constant. `ct` must be on the curve.
pub fn rerandomize(b: &Builder, pk: &PointWire, ct: &CiphertextWire, r: &Wire) -> Result<CiphertextWire> {
    let k_bits = scalar_bits(b, &r.affine(Fr::one(), -randomness_offset()), SCALAR_BITS)?;
    rerandomize_bits(b, pk, ct, &k_bits)
}

/// Key switching from the key `pk = sk·B8` to `pk2` (UnLynx; zeenot-crypto's
/// `SecretKey::key_switch_with`): enforces `pk = sk·B8` and outputs
/// `(r'·B8, c2 − sk·c1 + r'·pk2)`. With `pk2 = pk` this is re-encryption under the same key.
///
/// `sk` and `r'` are given as their representatives in `[2^250, 2^250 + 2^251)`
/// ([`randomness_representative`]; every scalar has one) and decomposed here (252 each).
/// `sk·c1` is [`variable_base::mul_offset`] on the bits of `sk − 2^250`, exact for `c1` of
/// order `≥ l` (every ciphertext `r·B8` with `r ≢ 0`); a `c1` of order at most 8 (the
/// identity of a trivial ciphertext included) makes the circuit unsatisfiable. `pk`, `pk2` and
/// the ciphertext must be on the curve; `pk` may be a constant. Cost: 4,320 constraints with
/// `pk2` an input, 3,177 with `pk2` a constant (`r'·B8` and `r'·pk2` then both fixed-base).
pub fn key_switch(
    b: &Builder,
    pk: &PointWire,
    sk: &Wire,
    ct: &CiphertextWire,
    pk2: &PointWire,
    r: &Wire,
) -> Result<CiphertextWire> {
    let sk_bits = scalar_bits(b, &sk.affine(Fr::one(), -randomness_offset()), SCALAR_BITS)?;
    let e = randomness_offset();
    let sk_b = fixed_base::mul_plus(b, &FixedBase::base8(), &sk_bits, e)?;
    point::enforce_equal(b, &sk_b, pk)?;
    let sk_c1 = variable_base::mul_offset(b, &ct.c1, &sk_bits)?;
    let plain = point::add(b, &ct.c2, &sk_c1.neg())?;
    let r_bits = scalar_bits(b, &r.affine(Fr::one(), -randomness_offset()), SCALAR_BITS)?;
    let fresh = encrypt_bits(b, pk2, &r_bits, &[])?;
    Ok(CiphertextWire { c1: fresh.c1, c2: point::add(b, &plain, &fresh.c2)? })
}
