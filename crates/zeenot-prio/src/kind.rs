//! Which Prio3 instance a task uses, from the small JSON description both the VDAF layer and the
//! DAP layer read. Names follow `janus_core::vdaf::VdafInstance` (0.7.145): `Prio3Count`,
//! `Prio3Sum { bits }`, `Prio3SumVec { bits, length, chunk_length }`,
//! `Prio3Histogram { length, chunk_length }`.
//!
//! Accepted forms: `{"type": "Prio3Sum", "bits": 32}` (flat), and Janus's own serde forms
//! `"Prio3Count"` and `{"Prio3Sum": {"bits": 32}}` (externally tagged). Unknown keys are errors.

use crate::afe::AfeKind;
use crate::{Error, Result};
use serde_json::{Map, Value};

/// The largest number of field elements a measurement may encode into (bits × length for
/// SumVec, length for Histogram): bounds every allocation a task's parameters can cause.
pub const MAX_ENCODED_LENGTH: usize = 1 << 20;

/// A Prio3 instance with two aggregators, as `janus_core::vdaf::VdafInstance` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VdafKind {
    Prio3Count,
    Prio3Sum {
        bits: usize,
    },
    Prio3SumVec {
        bits: usize,
        length: usize,
        chunk_length: usize,
    },
    Prio3Histogram {
        length: usize,
        chunk_length: usize,
    },
    /// One of zeenot's AFEs ([`crate::afe`]): a Prio3 instance with a private algorithm id, run
    /// only between zeenot's own aggregators.
    Afe(AfeKind),
}

impl VdafKind {
    /// Parse a description (see the module documentation) and check its parameters.
    pub fn from_json(text: &str) -> Result<Self> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| Error::Description(format!("not JSON: {e}")))?;
        Self::from_value(&v)
    }

    /// As [`VdafKind::from_json`], from a parsed value.
    pub fn from_value(v: &Value) -> Result<Self> {
        let (name, params) = match v {
            Value::String(s) => (s.as_str(), Map::new()),
            Value::Object(m) if m.contains_key("type") => {
                let name = m["type"]
                    .as_str()
                    .ok_or_else(|| Error::Description("\"type\" must be a string".into()))?;
                let mut params = m.clone();
                params.remove("type");
                (name, params)
            }
            Value::Object(m) if m.len() == 1 => {
                let (name, inner) = m.iter().next().expect("one entry");
                let params = inner.as_object().cloned().ok_or_else(|| {
                    Error::Description(format!("the parameters of {name} must be an object"))
                })?;
                (name.as_str(), params)
            }
            _ => {
                return Err(Error::Description(
                    "expected {\"type\": \"Prio3…\", …}, \"Prio3Count\" or {\"Prio3…\": {…}}".into(),
                ))
            }
        };
        let kind = match name {
            "Prio3Count" => {
                fields(name, &params, &[])?;
                VdafKind::Prio3Count
            }
            "Prio3Sum" => {
                let [bits] = fields(name, &params, &["bits"])?;
                VdafKind::Prio3Sum { bits }
            }
            "Prio3SumVec" => {
                let [bits, length, chunk_length] =
                    fields(name, &params, &["bits", "length", "chunk_length"])?;
                VdafKind::Prio3SumVec { bits, length, chunk_length }
            }
            "Prio3Histogram" => {
                let [length, chunk_length] = fields(name, &params, &["length", "chunk_length"])?;
                VdafKind::Prio3Histogram { length, chunk_length }
            }
            "AfeMeanVariance" => {
                let [bits] = fields(name, &params, &["bits"])?;
                VdafKind::Afe(AfeKind::MeanVariance { bits })
            }
            "AfeOr" | "AfeAnd" => {
                fields(name, &params, &[])?;
                VdafKind::Afe(if name == "AfeOr" { AfeKind::Or } else { AfeKind::And })
            }
            "AfeMax" | "AfeMin" => {
                let [domain] = fields(name, &params, &["domain"])?;
                VdafKind::Afe(if name == "AfeMax" {
                    AfeKind::Max { domain }
                } else {
                    AfeKind::Min { domain }
                })
            }
            "AfeLinearRegression" => {
                let [features, bits] = fields(name, &params, &["features", "bits"])?;
                VdafKind::Afe(AfeKind::LinearRegression { features, bits })
            }
            "AfeSetUnion" | "AfeSetIntersection" => {
                let [universe] = fields(name, &params, &["universe"])?;
                VdafKind::Afe(if name == "AfeSetUnion" {
                    AfeKind::SetUnion { universe }
                } else {
                    AfeKind::SetIntersection { universe }
                })
            }
            other => {
                return Err(Error::Description(format!(
                    "unsupported VDAF {other:?} (Prio3Count, Prio3Sum, Prio3SumVec, Prio3Histogram, \
                     AfeMeanVariance, AfeOr, AfeAnd, AfeMax, AfeMin, AfeLinearRegression, AfeSetUnion, \
                     AfeSetIntersection)"
                )))
            }
        };
        kind.check()?;
        Ok(kind)
    }

    /// The flat JSON description (`{"type": …, …}`), which [`VdafKind::from_json`] reads back.
    pub fn to_json(&self) -> String {
        let v = match *self {
            VdafKind::Prio3Count => serde_json::json!({"type": "Prio3Count"}),
            VdafKind::Prio3Sum { bits } => serde_json::json!({"type": "Prio3Sum", "bits": bits}),
            VdafKind::Prio3SumVec { bits, length, chunk_length } => serde_json::json!({
                "type": "Prio3SumVec", "bits": bits, "length": length, "chunk_length": chunk_length
            }),
            VdafKind::Prio3Histogram { length, chunk_length } => serde_json::json!({
                "type": "Prio3Histogram", "length": length, "chunk_length": chunk_length
            }),
            VdafKind::Afe(a) => match a {
                AfeKind::MeanVariance { bits } => serde_json::json!({"type": a.name(), "bits": bits}),
                AfeKind::Or | AfeKind::And => serde_json::json!({"type": a.name()}),
                AfeKind::Max { domain } | AfeKind::Min { domain } => {
                    serde_json::json!({"type": a.name(), "domain": domain})
                }
                AfeKind::LinearRegression { features, bits } => {
                    serde_json::json!({"type": a.name(), "features": features, "bits": bits})
                }
                AfeKind::SetUnion { universe } | AfeKind::SetIntersection { universe } => {
                    serde_json::json!({"type": a.name(), "universe": universe})
                }
            },
        };
        v.to_string()
    }

    /// The VDAF-08 algorithm identifier.
    pub fn algorithm_id(&self) -> u32 {
        match self {
            VdafKind::Prio3Count => 0,
            VdafKind::Prio3Sum { .. } => 1,
            VdafKind::Prio3SumVec { .. } => 2,
            VdafKind::Prio3Histogram { .. } => 3,
            VdafKind::Afe(a) => a.algorithm_id(),
        }
    }

    /// Our bounds, checked before the crate sees the parameters (the crate checks its own too).
    fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Description(m));
        match *self {
            VdafKind::Prio3Count => Ok(()),
            VdafKind::Prio3Sum { bits } if !(1..=64).contains(&bits) => {
                bad(format!("Prio3Sum bits must be in 1..=64, got {bits}"))
            }
            VdafKind::Prio3Sum { .. } => Ok(()),
            VdafKind::Prio3SumVec { bits, length, chunk_length } => {
                if !(1..=64).contains(&bits) {
                    return bad(format!("Prio3SumVec bits must be in 1..=64, got {bits}"));
                }
                vector(length.checked_mul(bits), length, chunk_length, "Prio3SumVec")
            }
            VdafKind::Prio3Histogram { length, chunk_length } => {
                vector(Some(length), length, chunk_length, "Prio3Histogram")
            }
            VdafKind::Afe(a) => a.check(),
        }
    }
}

fn vector(encoded: Option<usize>, length: usize, chunk: usize, name: &str) -> Result<()> {
    if length == 0 {
        return Err(Error::Description(format!("{name} length must be at least 1")));
    }
    match encoded {
        Some(n) if n <= MAX_ENCODED_LENGTH => {}
        _ => {
            return Err(Error::Description(format!(
                "{name} encodes into more than {MAX_ENCODED_LENGTH} field elements"
            )))
        }
    }
    // The crate accepts a chunk longer than the measurement (one gadget call); the gadget's
    // arity grows with it, so it is bounded like the measurement.
    if chunk == 0 || chunk > MAX_ENCODED_LENGTH {
        return Err(Error::Description(format!(
            "{name} chunk_length must be in 1..={MAX_ENCODED_LENGTH}, got {chunk}"
        )));
    }
    Ok(())
}

/// Exactly the keys `names` (each a non-negative integer), in that order.
fn fields<const N: usize>(vdaf: &str, params: &Map<String, Value>, names: &[&str; N]) -> Result<[usize; N]> {
    if let Some(extra) = params.keys().find(|k| !names.contains(&k.as_str())) {
        return Err(Error::Description(format!("{vdaf} has no parameter {extra:?}")));
    }
    let mut out = [0usize; N];
    for (slot, name) in out.iter_mut().zip(names) {
        let v = params.get(*name).ok_or_else(|| Error::Description(format!("{vdaf} needs {name:?}")))?;
        *slot = v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| Error::Description(format!("{vdaf} {name} must be a non-negative integer")))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let sum = VdafKind::Prio3Sum { bits: 32 };
        assert_eq!(VdafKind::from_json(r#"{"type":"Prio3Sum","bits":32}"#).unwrap(), sum);
        assert_eq!(VdafKind::from_json(r#"{"Prio3Sum":{"bits":32}}"#).unwrap(), sum);
        assert_eq!(VdafKind::from_json(r#""Prio3Count""#).unwrap(), VdafKind::Prio3Count);
        let h = VdafKind::Prio3Histogram { length: 10, chunk_length: 3 };
        assert_eq!(VdafKind::from_json(&h.to_json()).unwrap(), h);
        for a in [
            AfeKind::MeanVariance { bits: 16 },
            AfeKind::Or,
            AfeKind::And,
            AfeKind::Max { domain: 8 },
            AfeKind::Min { domain: 8 },
            AfeKind::LinearRegression { features: 2, bits: 8 },
            AfeKind::SetUnion { universe: 5 },
            AfeKind::SetIntersection { universe: 5 },
        ] {
            let k = VdafKind::Afe(a);
            assert_eq!(VdafKind::from_json(&k.to_json()).unwrap(), k);
            assert!(k.algorithm_id() >= 0xFFFF_0000, "a private algorithm id");
        }
    }

    #[test]
    fn rejects() {
        for bad in [
            r#"{"type":"Prio3Sum"}"#,
            r#"{"type":"Prio3Sum","bits":0}"#,
            r#"{"type":"Prio3Sum","bits":65}"#,
            r#"{"type":"Prio3Sum","bits":-1}"#,
            r#"{"type":"Prio3Sum","bits":8,"x":1}"#,
            r#"{"type":"Prio3SumVec","bits":8,"length":0,"chunk_length":1}"#,
            r#"{"type":"Prio3SumVec","bits":64,"length":1000000000000,"chunk_length":1}"#,
            r#"{"type":"Prio3Histogram","length":4,"chunk_length":0}"#,
            r#"{"type":"Prio3Histogram","length":4,"chunk_length":1048577}"#,
            r#"{"type":"Poplar1","bits":8}"#,
            r#"{"type":"AfeMeanVariance","bits":33}"#,
            r#"{"type":"AfeOr","bits":1}"#,
            r#"{"type":"AfeMax","domain":1}"#,
            r#"{"type":"AfeLinearRegression","features":9,"bits":8}"#,
            r#"[1]"#,
            "{",
        ] {
            assert!(VdafKind::from_json(bad).is_err(), "{bad}");
        }
    }
}
