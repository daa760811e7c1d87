//! Keyed-verification credential showings (`zeenot.cashlib.kvac`) proved in one native call:
//! the presentation's points and its sigma proof, for a policy that reveals some attributes
//! and hides the others (no ranges, no equalities: those take the Python path).
//!
//! The statement is the one `kvac._show_statement` writes in the proof language, built here
//! element for element and equation for equation (`kvac.py` stays its specification: the tests
//! compare the two statements' JSON and verify these proofs with the ordinary verifier):
//!
//! ```text
//! ⋀_j C_j = m_j·U + z_j·H  ∧  V = r·(−G) + Σ_j z_j·X_j
//! ```
//!
//! What is faster than the general engine: no JSON and no point decoding (every point is
//! computed here or decoded once), and every multiplication by a secret goes through a
//! constant-time fixed-base comb ([`FixedBaseTable`]): the issuer's `X_j` (tables kept with the
//! key), `G`, `H`, and the credential's own `U` (one table per showing: `U_s = a·U`, so
//! `m_j·U_s = (a·m_j)·U` and the commitments' `k·U_s = (k·a)·U`). The proof is the sigma
//! engine's format (`zeenot_sigma::Proof`), its challenge the engine's transcript.
//!
//! The verifier's side (the bank's deposits): [`KvacVerifyKey`] decodes a message's points once
//! and computes the MAC check's `V` from them; [`bj_unpack_many`] decodes a message's points in
//! one call. Not timed by the planner's cost models.

use std::collections::HashMap;
use std::sync::OnceLock;

use ark_ff::{UniformRand, Zero};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand::rngs::OsRng;
use rand::{CryptoRng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::ct::FixedBaseTable;
use zeenot_crypto::{decode_scalar, encode_base, Point, Scalar, Sha256Transcript, Transcript};
use zeenot_sigma::{Builder, Node, Proof, Statement, SIGMA_DOMAIN};
use zeroize::Zeroize;

/// At most this many attributes (`kvac.MAX_ATTRIBUTES`).
const MAX_ATTRIBUTES: usize = 64;
/// The header's tail and the context's prefix are bounded before use.
const MAX_BYTES: usize = 1 << 16;

/// What `show` answers: the points (`x ‖ y`), the proof, the context, the statement's JSON.
type ShowOut<'py> = (Vec<Bound<'py, PyBytes>>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Option<String>);
/// The points, the encoded proof, the context and the statement of one showing.
type Proved = (Vec<Point>, Vec<u8>, Vec<u8>, Statement);

fn h_table() -> &'static (Point, FixedBaseTable) {
    static H: OnceLock<(Point, FixedBaseTable)> = OnceLock::new();
    H.get_or_init(|| {
        let h = zeenot_crypto::pedersen::blinding_generator();
        (h, FixedBaseTable::new(&h))
    })
}

fn bad(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

fn point(bytes: &[u8], what: &str) -> PyResult<Point> {
    Point::decode_slice(bytes).map_err(|e| bad(format!("{what}: not a point of the subgroup: {e}")))
}

/// An issuer's public `X_i = x_i·H` with a constant-time comb each: what a holder keeps to
/// show credentials of this issuer (`kvac.IssuerParams.xs`, packed).
#[pyclass(frozen, module = "zeenot._native")]
pub(crate) struct KvacShowKey {
    xs: Vec<Point>,
    encoded: Vec<[u8; 32]>,
    tables: Vec<FixedBaseTable>,
}

/// The points of one showing and the witness behind them (zeroized when dropped).
struct Showing {
    us: Point,
    cu: Point,
    commitments: Vec<Point>,
    v: Point,
    secrets: Vec<Scalar>,
}

impl Drop for Showing {
    fn drop(&mut self) {
        self.secrets.zeroize();
    }
}

#[pymethods]
impl KvacShowKey {
    /// `xs`: the issuer's `X_i`, packed (32 bytes each, checked on the curve and in the
    /// subgroup), 1 to 64 of them.
    #[new]
    fn new(py: Python<'_>, xs: Vec<Vec<u8>>) -> PyResult<Self> {
        if xs.is_empty() || xs.len() > MAX_ATTRIBUTES {
            return Err(bad(format!("1 to {MAX_ATTRIBUTES} attribute keys, got {}", xs.len())));
        }
        let points =
            xs.iter().enumerate().map(|(i, b)| point(b, &format!("X{i}"))).collect::<PyResult<Vec<_>>>()?;
        let tables = py.detach(|| points.iter().map(FixedBaseTable::new).collect());
        Ok(KvacShowKey { encoded: Point::encode_batch(&points), xs: points, tables })
    }

    /// How many attributes.
    fn __len__(&self) -> usize {
        self.xs.len()
    }

    /// A showing of the credential `(u, u_prime)` on `attributes` (32-byte little-endian
    /// canonical scalars), hiding the attributes `hidden` (increasing indices) and revealing
    /// the others. The context is `ctx_prefix ‖ len(header) (8 bytes LE) ‖ header`, the header
    /// `U_s ‖ C_U' ‖ u8(#hidden) ‖ (u8(j) ‖ C_j)* ‖ header_tail` (`kvac.show_context`).
    /// Returns the points `[U_s, C_U', C_j…, V]` as affine `x ‖ y` (64 bytes, little-endian
    /// coordinates), the sigma proof, the context and, with
    /// `statement=True`, the statement's wire JSON (tests). `seed`: deterministic randomness,
    /// tests only.
    #[pyo3(signature = (u, u_prime, attributes, hidden, header_tail, ctx_prefix, seed=None, statement=false))]
    #[allow(clippy::too_many_arguments)]
    fn show<'py>(
        &self,
        py: Python<'py>,
        u: &[u8],
        u_prime: &[u8],
        attributes: Vec<Vec<u8>>,
        hidden: Vec<usize>,
        header_tail: &[u8],
        ctx_prefix: &[u8],
        seed: Option<u64>,
        statement: bool,
    ) -> PyResult<ShowOut<'py>> {
        let n = self.xs.len();
        if attributes.len() != n {
            return Err(bad(format!("{} attributes for a key of {n}", attributes.len())));
        }
        if hidden.windows(2).any(|w| w[0] >= w[1]) || hidden.iter().any(|&j| j >= n) {
            return Err(bad("hidden indices must increase and be below the number of attributes"));
        }
        if header_tail.len() > MAX_BYTES || ctx_prefix.len() > MAX_BYTES {
            return Err(bad("the header's tail or the context's prefix is too long"));
        }
        let u = point(u, "U")?;
        if u.is_identity() {
            return Err(bad("the credential's U is the identity"));
        }
        let u_prime = point(u_prime, "U'")?;
        let mut ms = Vec::with_capacity(hidden.len());
        for &j in &hidden {
            let b: [u8; 32] =
                attributes[j].as_slice().try_into().map_err(|_| bad(format!("attribute {j}: 32 bytes")))?;
            ms.push(decode_scalar(&b).map_err(|e| bad(format!("attribute {j}: {e}")))?);
        }
        let out = py.detach(|| match seed {
            Some(s) => self.prove(
                &mut ChaCha20Rng::seed_from_u64(s),
                &u,
                &u_prime,
                &hidden,
                &ms,
                header_tail,
                ctx_prefix,
            ),
            None => self.prove(&mut OsRng, &u, &u_prime, &hidden, &ms, header_tail, ctx_prefix),
        });
        ms.zeroize();
        let (points, proof, ctx, json) = out.map_err(|e| bad(format!("kvac show: {e}")))?;
        let json = statement.then(|| zeenot_sigma::wire::statement_to_json(&json));
        Ok((
            points.iter().map(|p| PyBytes::new(py, &xy_bytes(p))).collect(),
            PyBytes::new(py, &proof),
            PyBytes::new(py, &ctx),
            json,
        ))
    }
}

impl KvacShowKey {
    /// The showing's points from fresh `a, r, z_j`, all through combs.
    fn points<R: RngCore + CryptoRng>(
        &self,
        rng: &mut R,
        u_table: &FixedBaseTable,
        u_prime: &Point,
        hidden: &[usize],
        ms: &[Scalar],
    ) -> Showing {
        let (_, h) = h_table();
        let mut a = Scalar::rand(rng);
        while a.is_zero() {
            a = Scalar::rand(rng);
        }
        let r = Scalar::rand(rng);
        let us = u_table.mul(&a);
        let cu = u_prime.mul_ct(&a) + Point::mul_base(&r);
        let mut secrets = Vec::with_capacity(2 * hidden.len() + 2);
        let mut commitments = Vec::with_capacity(hidden.len());
        let mut v = -Point::mul_base(&r);
        for (&j, m) in hidden.iter().zip(ms) {
            let z = Scalar::rand(rng);
            let mut am = a * m;
            commitments.push(u_table.mul(&am) + h.mul(&z));
            am.zeroize();
            v += self.tables[j].mul(&z);
            secrets.push(*m);
            secrets.push(z);
        }
        secrets.push(r);
        secrets.push(a);
        Showing { us, cu, commitments, v, secrets }
    }

    #[allow(clippy::too_many_arguments)]
    fn prove<R: RngCore + CryptoRng>(
        &self,
        rng: &mut R,
        u: &Point,
        u_prime: &Point,
        hidden: &[usize],
        ms: &[Scalar],
        header_tail: &[u8],
        ctx_prefix: &[u8],
    ) -> zeenot_sigma::Result<Proved> {
        let u_table = FixedBaseTable::new(u);
        let show = self.points(rng, &u_table, u_prime, hidden, ms);
        let k = hidden.len();
        let mut all = vec![show.us, show.cu];
        all.extend_from_slice(&show.commitments);
        all.push(show.v);
        let packed = Point::encode_batch(&all);

        // the context: kvac.show_context's last part is the header
        let mut header = Vec::with_capacity(65 + 33 * k + header_tail.len());
        header.extend_from_slice(&packed[0]);
        header.extend_from_slice(&packed[1]);
        header.push(k as u8);
        for (i, &j) in hidden.iter().enumerate() {
            header.push(j as u8);
            header.extend_from_slice(&packed[2 + i]);
        }
        header.extend_from_slice(header_tail);
        let mut ctx = Vec::with_capacity(ctx_prefix.len() + 8 + header.len());
        ctx.extend_from_slice(ctx_prefix);
        ctx.extend_from_slice(&(header.len() as u64).to_le_bytes());
        ctx.extend_from_slice(&header);

        let st = self.statement(&show, &packed, hidden)?;

        // Maurer's prover over the same nonces the engine would draw per secret: m_j, z_j, r.
        let (_, h) = h_table();
        let mut a = show.secrets[2 * k + 1];
        let mut nonces: Vec<Scalar> = (0..2 * k + 1).map(|_| Scalar::rand(rng)).collect();
        let mut t_v = -Point::mul_base(&nonces[2 * k]);
        let mut commitments = Vec::with_capacity(k + 1);
        for (i, &j) in hidden.iter().enumerate() {
            let mut ka = nonces[2 * i] * a;
            commitments.push(u_table.mul(&ka) + h.mul(&nonces[2 * i + 1]));
            ka.zeroize();
            t_v += self.tables[j].mul(&nonces[2 * i + 1]);
        }
        commitments.push(t_v);
        let mut t = Sha256Transcript::new(SIGMA_DOMAIN);
        t.append_message(b"sigma/context", &ctx);
        st.absorb(&mut t);
        t.append_message(b"sigma/commitments", &Point::encode_batch(&commitments).concat());
        let c = t.challenge_scalar(b"sigma/challenge");
        let responses: Vec<Scalar> =
            nonces.iter().zip(&show.secrets[..2 * k + 1]).map(|(kk, x)| *kk + c * x).collect();
        nonces.zeroize();
        a.zeroize();
        let proof = Proof { commitments, challenges: Vec::new(), responses };
        Ok((all, proof.encode(), ctx, st))
    }

    /// `kvac._show_statement` for this policy: elements in order of first use, one per distinct
    /// point (as the Python compiler merges them), secrets `m_j, z_j` per hidden `j`, then `r`.
    fn statement(
        &self,
        show: &Showing,
        packed: &[[u8; 32]],
        hidden: &[usize],
    ) -> zeenot_sigma::Result<Statement> {
        let (h, _) = h_table();
        let k = hidden.len();
        let mut b = Builder::new();
        let mut index: HashMap<[u8; 32], zeenot_sigma::Element> = HashMap::new();
        let mut el = |b: &mut Builder, name: String, enc: [u8; 32], p: Point| {
            *index.entry(enc).or_insert_with(|| b.element(name, p))
        };
        let h_enc = h.encode();
        let neg_g = -Point::generator();
        let mut roots = Vec::with_capacity(k + 1);
        let mut zs = Vec::with_capacity(k);
        for (i, &j) in hidden.iter().enumerate() {
            let m = b.secret(format!("m{j}"));
            let z = b.secret(format!("z{j}"));
            zs.push(z);
            let c = el(&mut b, format!("C{j}"), packed[2 + i], show.commitments[i]);
            let ue = el(&mut b, "U".into(), packed[0], show.us);
            let he = el(&mut b, "H".into(), h_enc, *h);
            roots.push(b.equation(c, &[(m, ue), (z, he)]));
        }
        let r = b.secret("r");
        let ve = el(&mut b, "V".into(), packed[2 + k], show.v);
        let ge = el(&mut b, "-G".into(), neg_g.encode(), neg_g);
        let mut terms = vec![(r, ge)];
        for (&j, &z) in hidden.iter().zip(&zs) {
            terms.push((z, el(&mut b, format!("X{j}"), self.encoded[j], self.xs[j])));
        }
        roots.push(b.equation(ve, &terms));
        b.build(Node::And(roots))
    }
}

fn xy_bytes(p: &Point) -> [u8; 64] {
    let (x, y) = p.xy();
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(&encode_base(&x));
    out[32..].copy_from_slice(&encode_base(&y));
    out
}

/// Decodes packed points (32 bytes each, at most 4,096) with every check of `Point::decode`
/// (canonical, on the curve, in the prime-order subgroup), sharing one field inversion among
/// them: the points of a message read at once (`zeenot.cashlib.group.Reader`). Returns each
/// as affine `x ‖ y` (64 bytes, little-endian); `ValueError` naming the first bad one.
#[pyfunction]
pub(crate) fn bj_unpack_many<'py>(
    py: Python<'py>,
    packed: Vec<Vec<u8>>,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    const MAX: usize = 4096;
    if packed.len() > MAX {
        return Err(bad(format!("bj_unpack_many: at most {MAX} points")));
    }
    let mut bytes = Vec::with_capacity(32 * packed.len());
    for (i, p) in packed.iter().enumerate() {
        if p.len() != 32 {
            return Err(bad(format!("point {i}: 32 bytes, got {}", p.len())));
        }
        bytes.extend_from_slice(p);
    }
    let points = py
        .detach(|| Point::decode_batch(&bytes))
        .map_err(|(i, e)| bad(format!("point {i}: not a point of the subgroup: {e}")))?;
    Ok(points.iter().map(|p| PyBytes::new(py, &xy_bytes(p))).collect())
}

/// The issuer's secret `x0, x_1 … x_n` (zeroized when dropped), for the verifier's side of
/// showings and spends: decodes a message's points once and computes the MAC check's
/// `V = (x0 + Σ_revealed x_i·m_i)·U + Σ_hidden x_j·C_j − C_U'` from them (constant time in
/// the key), so that the points are not decoded again for it.
#[pyclass(frozen, module = "zeenot._native")]
pub(crate) struct KvacVerifyKey {
    x0: Scalar,
    xs: Vec<Scalar>,
}

impl Drop for KvacVerifyKey {
    fn drop(&mut self) {
        self.x0.zeroize();
        self.xs.zeroize();
    }
}

fn scalar32(b: &[u8], what: &str) -> PyResult<Scalar> {
    let b: [u8; 32] = b.try_into().map_err(|_| bad(format!("{what}: 32 bytes")))?;
    decode_scalar(&b).map_err(|e| bad(format!("{what}: {e}")))
}

/// One message for [`KvacVerifyKey::open_many`]: its packed points, where `U` and `C_U'` are
/// among them, the hidden attributes' `(j, index of C_j)`, the revealed `(i, m_i)`, public
/// scalars `k` whose `k·G` the caller needs, and differences `A − P_i` it needs (`A` a packed
/// public point, decoded once per call; `i` the index of one of the message's points).
type OpenItem = (
    Vec<Vec<u8>>,
    usize,
    usize,
    Vec<(usize, usize)>,
    Vec<(usize, Vec<u8>)>,
    Vec<Vec<u8>>,
    Vec<(Vec<u8>, usize)>,
);
/// Its answer: every point decoded (`x ‖ y`), `V`, each `k·G`, each difference.
type Opened<'py> = Option<(
    Vec<Bound<'py, PyBytes>>,
    Bound<'py, PyBytes>,
    Vec<Bound<'py, PyBytes>>,
    Vec<Bound<'py, PyBytes>>,
)>;

/// The points of one message decoded, its `V`, the `k·G` and the differences asked for.
type OpenedPoints = (Vec<Point>, Point, Vec<Point>, Vec<Point>);

/// The public points `A` of the messages' differences, each decoded once (`None`: not a point
/// of the subgroup, and every message asking for it fails).
type Constants = HashMap<Vec<u8>, Option<Point>>;

#[pymethods]
impl KvacVerifyKey {
    /// `x0` and each `x_i`: 32-byte little-endian canonical scalars (1 to 64 attributes).
    #[new]
    fn new(x0: &[u8], xs: Vec<Vec<u8>>) -> PyResult<Self> {
        if xs.is_empty() || xs.len() > MAX_ATTRIBUTES {
            return Err(bad(format!("1 to {MAX_ATTRIBUTES} attribute keys, got {}", xs.len())));
        }
        let x0 = scalar32(x0, "x0")?;
        let xs =
            xs.iter().enumerate().map(|(i, b)| scalar32(b, &format!("x{i}"))).collect::<PyResult<_>>()?;
        Ok(KvacVerifyKey { x0, xs })
    }

    /// For each message (at most 4,096; at most 256 points each): `None` if one of its points
    /// is not a point of the subgroup (or an index, scalar or public point is bad), else its
    /// points decoded, `V`, the `k·G` and the differences asked for; and all those points by
    /// their encoding, for [`kvac_sigma_batch_verify`] and [`kvac_range_verify_batch`].
    fn open_many<'py>(
        &self,
        py: Python<'py>,
        items: Vec<OpenItem>,
    ) -> PyResult<(Vec<Opened<'py>>, CheckedPoints)> {
        if items.len() > 4096 {
            return Err(bad("open_many: at most 4,096 messages"));
        }
        if items.iter().any(|it| it.6.len() > 256) {
            return Err(bad("open_many: at most 256 differences a message"));
        }
        let (done, known) = py.detach(|| {
            let mut constants = Constants::new();
            for (a, _) in items.iter().flat_map(|it| &it.6) {
                if !constants.contains_key(a) {
                    constants.insert(a.clone(), Point::decode_slice(a).ok());
                }
            }
            let done: Vec<Option<OpenedPoints>> = items.iter().map(|it| self.open(it, &constants)).collect();
            let all: Vec<Point> = done
                .iter()
                .flatten()
                .flat_map(|(p, v, gs, ds)| p.iter().chain([v]).chain(gs).chain(ds))
                .copied()
                .collect();
            let known = Point::encode_batch(&all).into_iter().zip(all).collect();
            (done, CheckedPoints { points: known })
        });
        let answers = done
            .into_iter()
            .map(|o| {
                o.map(|(pts, v, gs, ds)| {
                    (
                        pts.iter().map(|p| PyBytes::new(py, &xy_bytes(p))).collect(),
                        PyBytes::new(py, &xy_bytes(&v)),
                        gs.iter().map(|p| PyBytes::new(py, &xy_bytes(p))).collect(),
                        ds.iter().map(|p| PyBytes::new(py, &xy_bytes(p))).collect(),
                    )
                })
            })
            .collect();
        Ok((answers, known))
    }
}

impl KvacVerifyKey {
    fn open(&self, item: &OpenItem, constants: &Constants) -> Option<OpenedPoints> {
        let (packed, u, cu, hidden, revealed, gs, diffs) = item;
        if packed.len() > 256 || packed.iter().any(|p| p.len() != 32) {
            return None;
        }
        let points = Point::decode_batch(&packed.concat()).ok()?;
        let mut first = self.x0;
        for (i, m) in revealed {
            first += *self.xs.get(*i)? * scalar32(m, "m").ok()?;
        }
        let mut bases = vec![*points.get(*u)?];
        let mut scalars = vec![first];
        for &(j, c) in hidden {
            bases.push(*points.get(c)?);
            scalars.push(*self.xs.get(j)?);
        }
        let v = Point::msm_ct(&bases, &scalars) - *points.get(*cu)?;
        first.zeroize();
        scalars.zeroize();
        let gs =
            gs.iter().map(|k| scalar32(k, "k").ok().map(|k| Point::mul_base(&k))).collect::<Option<_>>()?;
        let ds = diffs
            .iter()
            .map(|(a, i)| Some((*constants.get(a)?)? - *points.get(*i)?))
            .collect::<Option<_>>()?;
        Some((points, v, gs, ds))
    }
}

/// Points of the subgroup by their encoding: decoded with every check, or computed from such
/// points, by [`KvacVerifyKey::open_many`]. Python cannot make one.
#[pyclass(frozen, module = "zeenot._native")]
pub(crate) struct CheckedPoints {
    points: HashMap<[u8; 32], Point>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct WireStatement {
    secrets: Vec<String>,
    elements: Vec<WireElement>,
    equations: Vec<zeenot_sigma::Equation>,
    root: Node,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct WireElement {
    name: String,
    point: String,
}

/// `sigma_batch_verify` for statements (wire JSON, docs/sigma.md) whose points `known` mostly
/// holds: those are not decoded again, the others are decoded with every check (once per
/// batch). `True` when every proof verifies (one multi-exponentiation with random weights);
/// `False` when one does not, or a statement or proof is malformed — the caller then checks
/// them one by one with the engine's verifier. At most 4,096 items.
#[pyfunction]
pub(crate) fn kvac_sigma_batch_verify(
    py: Python<'_>,
    known: &CheckedPoints,
    items: Vec<(String, Vec<u8>, Vec<u8>)>,
) -> PyResult<bool> {
    if items.len() > 4096 {
        return Err(bad("kvac_sigma_batch_verify: at most 4,096 items"));
    }
    Ok(py.detach(|| batch_verify_known(&known.points, &items).unwrap_or(false)))
}

/// One Bulletproof of [`kvac_range_verify_batch`]: packed commitments, proof, bits, context.
type RangeItemWire = (Vec<Vec<u8>>, Vec<u8>, usize, Vec<u8>);

/// `bp_range_verify_batch` for proofs whose commitments `known` mostly holds: those are not
/// decoded again (the others, and every point of the proofs, are decoded with every check).
/// Each item's verdict in order: `True` if it verifies, `False` if it does not or is malformed;
/// the well-formed ones checked as one batch (random 128-bit weights), one by one only if the
/// batch fails. At most 4,096 items of at most 4,096 bits each.
#[pyfunction]
pub(crate) fn kvac_range_verify_batch(
    py: Python<'_>,
    known: &CheckedPoints,
    items: Vec<RangeItemWire>,
) -> PyResult<Vec<bool>> {
    use zeenot_sigma::bulletproofs::{BulletproofGens, RangeItem, RangeProof, MAX_ENCODED_ITEM_BITS};
    if items.len() > 4096 {
        return Err(bad("kvac_range_verify_batch: at most 4,096 items"));
    }
    Ok(py.detach(|| {
        let decoded: Vec<Option<(RangeProof, Vec<Point>)>> = items
            .iter()
            .map(|(cs, proof, bits, _)| {
                if bits.checked_mul(cs.len()).is_none_or(|nn| nn > MAX_ENCODED_ITEM_BITS) {
                    return None;
                }
                let points = cs
                    .iter()
                    .map(|c| {
                        let enc: [u8; 32] = c.as_slice().try_into().ok()?;
                        known.points.get(&enc).copied().or_else(|| Point::decode(&enc).ok())
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some((RangeProof::decode(proof).ok()?, points))
            })
            .collect();
        let widest = decoded
            .iter()
            .zip(&items)
            .filter(|(d, _)| d.is_some())
            .map(|(_, (cs, _, bits, _))| bits * cs.len())
            .max()
            .unwrap_or(0);
        let gens = BulletproofGens::shared(widest);
        let (mut index, mut good) = (Vec::new(), Vec::new());
        for (i, (d, (_, _, bits, context))) in decoded.iter().zip(&items).enumerate() {
            if let Some((proof, commitments)) = d {
                index.push(i);
                good.push(RangeItem { proof, commitments, bits: *bits, context });
            }
        }
        let mut out = vec![false; items.len()];
        for (i, verdict) in index.into_iter().zip(RangeProof::verify_each(&gens, &good, &mut OsRng)) {
            out[i] = verdict.is_ok();
        }
        out
    }))
}

fn batch_verify_known(
    known: &HashMap<[u8; 32], Point>,
    items: &[(String, Vec<u8>, Vec<u8>)],
) -> Option<bool> {
    let mut decoded: HashMap<[u8; 32], Point> = HashMap::new();
    let mut parsed = Vec::with_capacity(items.len());
    for (json, proof, _) in items {
        let wire: WireStatement = serde_json::from_str(json).ok()?;
        let mut names = Vec::with_capacity(wire.elements.len());
        let mut points = Vec::with_capacity(wire.elements.len());
        for el in wire.elements {
            let mut enc = [0u8; 32];
            if el.point.len() != 64 {
                return None;
            }
            hex::decode_to_slice(&el.point, &mut enc).ok()?;
            let p = match known.get(&enc).or_else(|| decoded.get(&enc)) {
                Some(p) => *p,
                None => {
                    let p = Point::decode(&enc).ok()?;
                    decoded.insert(enc, p);
                    p
                }
            };
            names.push(el.name);
            points.push(p);
        }
        let st = Statement::new(wire.secrets, names, points, wire.equations, wire.root).ok()?;
        let proof = Proof::decode(&st, proof).ok()?;
        parsed.push((st, proof));
    }
    let refs: Vec<(&Statement, &Proof, &[u8])> =
        parsed.iter().zip(items).map(|((s, p), (_, _, c))| (s, p, c.as_slice())).collect();
    Some(zeenot_sigma::batch_verify(&refs, &mut OsRng).is_ok())
}
