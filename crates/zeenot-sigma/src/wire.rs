//! The JSON form of statements and witnesses: what the Python proof language (and any other
//! front end) hands to the prover and verifier.
//!
//! ```json
//! {
//!   "secrets": ["x", "r"],
//!   "elements": [{"name": "G", "point": "<64 hex>"}, {"name": "H", "point": "…"},
//!                {"name": "C", "point": "…"}],
//!   "equations": [{"lhs": 2, "terms": [[0, 0], [1, 1]]}],
//!   "root": {"and": [{"eq": 0}]}
//! }
//! ```
//!
//! * `secrets`: the secrets' names (labels only: they are not bound by proofs).
//! * `elements`: public points, each the 32-byte packed encoding of [`Point::encode`] as 64 hex
//!   digits. Every point is decoded with [`Point::decode`] (canonical, on the curve, in the
//!   prime-order subgroup); an error names the element.
//! * `equations`: `elements[lhs] = Σ secrets[s]·elements[e]` over `terms` = `[[s, e], …]`.
//! * `root`: the tree over the equations: `{"eq": i}`, `{"and": [...]}`, `{"or": [...]}`.
//!
//! Unknown fields are rejected, and the statement is validated by [`Statement::new`] (indices,
//! each equation exactly once in the tree, no secret shared across OR branches, size limits).
//! Nesting deeper than `serde_json`'s recursion limit (128) is rejected while parsing.
//!
//! A **witness** on the wire is one entry per secret, in order: the secret as 64 hex digits of
//! [`encode_scalar`] (little-endian, canonical: below the subgroup order `l`), or `null` for a
//! secret of an OR branch the prover cannot open.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use zeenot_crypto::{decode_scalar, encode_scalar, Point, Scalar};

use crate::error::{Error, Result};
use crate::statement::{Equation, Node, Statement};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireStatement {
    secrets: Vec<String>,
    elements: Vec<WireElement>,
    equations: Vec<Equation>,
    root: Node,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireElement {
    name: String,
    point: String,
}

/// 32 bytes from exactly 64 hex digits (either case).
fn hex32(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    hex::decode_to_slice(s, &mut out).ok()?;
    Some(out)
}

/// Parses and validates a statement from its JSON form.
pub fn statement_from_json(json: &str) -> Result<Statement> {
    statement_from_json_cached(json, &mut PointCache::default())
}

/// Decoded points by their 32-byte encoding, shared by the statements of one batch
/// ([`statement_from_json_cached`]): the generators, keys and other elements that many
/// statements repeat are decoded and checked once. Only checked points enter it.
#[derive(Default)]
pub struct PointCache {
    points: HashMap<[u8; 32], Point>,
}

impl PointCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many distinct points it holds.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

/// [`statement_from_json`], decoding only the elements `cache` does not hold yet (all of those
/// with one batched decode, [`Point::decode_batch`]) and adding them to it.
pub fn statement_from_json_cached(json: &str, cache: &mut PointCache) -> Result<Statement> {
    let wire: WireStatement =
        serde_json::from_str(json).map_err(|e| Error::Statement(format!("invalid statement JSON: {e}")))?;
    let mut names = Vec::with_capacity(wire.elements.len());
    let mut encodings = Vec::with_capacity(wire.elements.len());
    for (i, el) in wire.elements.into_iter().enumerate() {
        let bytes = hex32(&el.point).ok_or_else(|| {
            Error::Statement(format!("element {i} ({:?}): the point is not 64 hex digits", el.name))
        })?;
        names.push(el.name);
        encodings.push(bytes);
    }
    // The first element with each encoding the cache lacks, decoded together.
    let mut missing: Vec<usize> = Vec::new();
    let mut seen = HashSet::new();
    for (i, bytes) in encodings.iter().enumerate() {
        if !cache.points.contains_key(bytes) && seen.insert(*bytes) {
            missing.push(i);
        }
    }
    let packed: Vec<u8> = missing.iter().flat_map(|&i| encodings[i]).collect();
    let decoded = Point::decode_batch(&packed).map_err(|(j, e)| {
        let i = missing[j];
        Error::Statement(format!("element {i} ({:?}): not a valid point: {e}", names[i]))
    })?;
    for (&i, p) in missing.iter().zip(decoded) {
        cache.points.insert(encodings[i], p);
    }
    let points = encodings.iter().map(|b| cache.points[b]).collect();
    Statement::new(wire.secrets, names, points, wire.equations, wire.root)
}

/// The JSON form of a statement (points as lowercase hex); [`statement_from_json`] reads it
/// back to an equal statement.
pub fn statement_to_json(statement: &Statement) -> String {
    let elements = statement
        .element_names()
        .iter()
        .zip(statement.elements())
        .map(|(name, p)| WireElement { name: name.clone(), point: hex::encode(p.encode()) })
        .collect();
    let wire = WireStatement {
        secrets: statement.secret_names().to_vec(),
        elements,
        equations: statement.equations().to_vec(),
        root: statement.root().clone(),
    };
    serde_json::to_string(&wire).expect("a statement serializes to JSON")
}

/// Decodes a witness for `statement`: one entry per secret, each 64 hex digits of a canonical
/// scalar or `None`. Errors name the secret.
pub fn witness_from_hex<S: AsRef<str>>(
    statement: &Statement,
    witness: &[Option<S>],
) -> Result<Vec<Option<Scalar>>> {
    let names = statement.secret_names();
    if witness.len() != names.len() {
        return Err(Error::Witness(format!(
            "{} witness entries given, the statement has {} secrets",
            witness.len(),
            names.len()
        )));
    }
    witness
        .iter()
        .zip(names)
        .map(|(w, name)| {
            w.as_ref()
                .map(|s| {
                    hex32(s.as_ref()).and_then(|b| decode_scalar(&b).ok()).ok_or_else(|| {
                        Error::Witness(format!(
                            "secret {name:?}: not 64 hex digits of a canonical scalar (little-endian, below l)"
                        ))
                    })
                })
                .transpose()
        })
        .collect()
}

/// One scalar in the witness format: 64 hex digits, little-endian, below `l`.
pub fn scalar_from_hex(text: &str) -> Result<Scalar> {
    hex32(text).and_then(|b| decode_scalar(&b).ok()).ok_or_else(|| {
        Error::Encoding("not 64 hex digits of a canonical scalar (little-endian, below l)".into())
    })
}

/// The wire form of a witness (lowercase hex, `None` kept).
pub fn witness_to_hex(witness: &[Option<Scalar>]) -> Vec<Option<String>> {
    witness.iter().map(|w| w.as_ref().map(|s| hex::encode(encode_scalar(s)))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::{prove, verify, Proof};
    use crate::statement::Builder;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    fn s(v: u64) -> Scalar {
        Scalar::from(v)
    }

    /// `C = x·G + r·H`, and `Y = x2·G2` or `Z = y·G` (the prover knows `x2 = x`, not `y`).
    fn sample() -> (Statement, Vec<Option<Scalar>>) {
        let g = Point::generator();
        let h = g.mul_vartime(&s(7919));
        let g2 = g.mul_vartime(&s(104729));
        let (x, r) = (s(5), s(11));
        let mut b = Builder::new();
        let (sx, sr, sx2, sy) = (b.secret("x"), b.secret("r"), b.secret("x2"), b.secret("y"));
        let (eg, eh, eg2) = (b.element("G", g), b.element("H", h), b.element("G2", g2));
        let ec = b.element("C", g.mul_vartime(&x) + h.mul_vartime(&r));
        let ey = b.element("Y", g2.mul_vartime(&x));
        let ez = b.element("Z", g.mul_vartime(&s(99)));
        let e0 = b.equation(ec, &[(sx, eg), (sr, eh)]);
        let e1 = b.equation(ey, &[(sx2, eg2)]);
        let e2 = b.equation(ez, &[(sy, eg)]);
        let st = b.build(Node::And(vec![e0, Node::Or(vec![e1, e2])])).unwrap();
        (st, vec![Some(x), Some(r), Some(x), None])
    }

    #[test]
    fn round_trip_and_prove_through_json() {
        let (st, w) = sample();
        let json = statement_to_json(&st);
        let back = statement_from_json(&json).unwrap();
        assert_eq!(back, st);
        assert_eq!(statement_to_json(&back), json);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["secrets"][0], "x");
        assert_eq!(v["elements"][0]["name"], "G");
        assert_eq!(v["elements"][0]["point"], hex::encode(Point::generator().encode()));
        assert_eq!(v["equations"][0], serde_json::json!({"lhs": 3, "terms": [[0, 0], [1, 1]]}));
        assert_eq!(v["root"], serde_json::json!({"and": [{"eq": 0}, {"or": [{"eq": 1}, {"eq": 2}]}]}));

        let hex_w = witness_to_hex(&w);
        assert_eq!(hex_w[3], None);
        let w2 = witness_from_hex(&back, &hex_w).unwrap();
        assert_eq!(w2, w);
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let proof = prove(&back, &w2, b"ctx", &mut rng).unwrap();
        let bytes = proof.encode();
        verify(&st, &Proof::decode(&st, &bytes).unwrap(), b"ctx").unwrap();
    }

    #[test]
    fn hand_written_json_is_accepted() {
        let g = hex::encode(Point::generator().encode());
        let y = hex::encode(Point::generator().mul_vartime(&s(42)).encode());
        let json = format!(
            r#"{{"secrets": ["k"], "elements": [{{"name": "G", "point": "{g}"}}, {{"name": "Y", "point": "{}"}}],
                "equations": [{{"lhs": 1, "terms": [[0, 0]]}}], "root": {{"eq": 0}}}}"#,
            y.to_uppercase()
        );
        let st = statement_from_json(&json).unwrap();
        let w = witness_from_hex(&st, &[Some(hex::encode(encode_scalar(&s(42))))]).unwrap();
        let proof = prove(&st, &w, b"", &mut ChaCha20Rng::seed_from_u64(2)).unwrap();
        verify(&st, &proof, b"").unwrap();
    }

    fn err(json: &str) -> String {
        match statement_from_json(json) {
            Err(Error::Statement(m)) => m,
            other => panic!("expected a statement error, got {other:?}"),
        }
    }

    #[test]
    fn malformed_statements_are_errors_naming_the_cause() {
        let (st, _) = sample();
        let good: serde_json::Value = serde_json::from_str(&statement_to_json(&st)).unwrap();
        let with = |f: &dyn Fn(&mut serde_json::Value)| {
            let mut v = good.clone();
            f(&mut v);
            err(&v.to_string())
        };

        // a point off the curve / outside the subgroup / not hex / too short
        let mut off = Point::generator().encode();
        off[0] ^= 1;
        let m = with(&|v| v["elements"][2]["point"] = hex::encode(off).into());
        assert!(m.contains("element 2 (\"G2\")"), "{m}");
        // (0, -1) has order 2: on the curve, outside the subgroup; its y = p - 1, sign bit clear
        let order2 = "000000f093f5e1439170b97948e833285d588181b64550b829a031e1724e6430".to_string();
        let m = with(&|v| v["elements"][0]["point"] = order2.clone().into());
        assert!(m.contains("element 0 (\"G\")") && m.contains("subgroup"), "{m}");
        let m = with(&|v| v["elements"][1]["point"] = "zz".repeat(32).into());
        assert!(m.contains("element 1 (\"H\")") && m.contains("hex"), "{m}");
        let m = with(&|v| v["elements"][1]["point"] = "00".into());
        assert!(m.contains("hex"), "{m}");

        // dangling indices, duplicated equations, shared secrets across OR, unknown fields
        assert!(with(&|v| v["equations"][0]["lhs"] = 99.into()).contains("element 99"));
        assert!(with(&|v| v["equations"][1]["terms"][0][0] = 9.into()).contains("secret 9"));
        assert!(with(&|v| v["root"] = serde_json::json!({"and": [{"eq": 0}, {"eq": 0}]})).contains("twice"));
        assert!(with(&|v| v["equations"][1]["terms"][0][0] = 0.into()).contains("OR"));
        assert!(with(&|v| v["extra"] = 1.into()).contains("unknown field"));
        assert!(with(&|v| v["root"] = serde_json::json!({"xor": []})).contains("invalid statement JSON"));
        assert!(with(&|v| v["equations"][0]["lhs"] = (-1).into()).contains("invalid statement JSON"));
        assert!(err("").contains("invalid statement JSON"));
        assert!(err("[]").contains("invalid statement JSON"));

        // nesting beyond the parser's recursion limit is an error, not a stack overflow
        let deep = format!(
            r#"{{"secrets": [], "elements": [], "equations": [], "root": {}{}{}}}"#,
            r#"{"and": ["#.repeat(100_000),
            r#"{"eq": 0}"#,
            "]}".repeat(100_000)
        );
        assert!(err(&deep).contains("invalid statement JSON"));
    }

    #[test]
    fn a_cache_decodes_each_shared_point_once_and_names_bad_elements() {
        let (st, _) = sample();
        let json = statement_to_json(&st);
        let mut cache = PointCache::new();
        assert!(cache.is_empty());
        assert_eq!(statement_from_json_cached(&json, &mut cache).unwrap(), st);
        assert_eq!(cache.len(), st.elements().len());
        // a second statement sharing G, H and G2 with new C, Y, Z: three new entries
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        for (i, k) in [(3, 8u64), (4, 9), (5, 10)] {
            v["elements"][i]["point"] = hex::encode(Point::generator().mul_vartime(&s(k)).encode()).into();
        }
        let other = statement_from_json_cached(&v.to_string(), &mut cache).unwrap();
        assert_eq!(other, statement_from_json(&v.to_string()).unwrap());
        assert_eq!(cache.len(), st.elements().len() + 3);
        // repeated encodings inside one statement share an entry too
        v["elements"][5]["point"] = v["elements"][0]["point"].clone();
        statement_from_json_cached(&v.to_string(), &mut cache).unwrap();
        assert_eq!(cache.len(), st.elements().len() + 3);
        // a bad point is named, whether or not others come from the cache; nothing bad is kept
        let mut off = Point::generator().encode();
        off[0] ^= 1;
        v["elements"][4]["point"] = hex::encode(off).into();
        let m = match statement_from_json_cached(&v.to_string(), &mut cache) {
            Err(Error::Statement(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(m.contains("element 4 (\"Y\")"), "{m}");
        assert_eq!(cache.len(), st.elements().len() + 3);
    }

    #[test]
    fn witnesses_are_checked() {
        let (st, w) = sample();
        let mut hex_w = witness_to_hex(&w);
        assert!(matches!(witness_from_hex(&st, &hex_w[..3]), Err(Error::Witness(_))));
        // l (little-endian) is not canonical; l - 1 is
        let l = "f1262139dc9772670aee2039b8ed3eab0b2b30d0b6080a370534265cce890c06";
        hex_w[1] = Some(l.into());
        match witness_from_hex(&st, &hex_w) {
            Err(Error::Witness(m)) => assert!(m.contains("\"r\""), "{m}"),
            other => panic!("{other:?}"),
        }
        hex_w[1] = Some(l.replacen("f1", "f0", 1));
        assert_eq!(witness_from_hex(&st, &hex_w).unwrap()[1], Some(-Scalar::from(1u64)));
        hex_w[1] = Some("ff".repeat(32));
        assert!(witness_from_hex(&st, &hex_w).is_err());
        hex_w[1] = Some("0".repeat(63));
        assert!(witness_from_hex(&st, &hex_w).is_err());
        hex_w[1] = Some("g".repeat(64));
        assert!(witness_from_hex(&st, &hex_w).is_err());
    }
}
