//! Shared pieces of the interop binaries: command-line flags and the task's VDAF.
//!
//! A VDAF is described as one argument, either as words (`Prio3Count`, `Prio3Sum bits=32`,
//! `Prio3SumVec bits=8 length=10 chunk_length=3`, `Prio3Histogram length=4 chunk_length=2`) or
//! as zeenot's task file writes it (`{"type": "Prio3Sum", "bits": 32}`). Every party must build
//! the identical VDAF.

use anyhow::{anyhow, bail, Context, Result};
use std::collections::HashMap;

/// `--name value` pairs of the command line; every flag takes a value.
pub struct Flags(HashMap<String, String>);

impl Flags {
    pub fn from_env() -> Result<Self> {
        let mut map = HashMap::new();
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let name = arg.strip_prefix("--").ok_or_else(|| anyhow!("expected --flag, got {arg:?}"))?;
            let value = args.next().ok_or_else(|| anyhow!("--{name} needs a value"))?;
            if map.insert(name.to_string(), value).is_some() {
                bail!("--{name} given twice");
            }
        }
        Ok(Self(map))
    }

    pub fn get(&self, name: &str) -> Result<&str> {
        self.0.get(name).map(String::as_str).ok_or_else(|| anyhow!("missing --{name}"))
    }

    pub fn opt(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    pub fn u64(&self, name: &str) -> Result<u64> {
        self.get(name)?.parse().with_context(|| format!("--{name} must be an unsigned integer"))
    }

    pub fn u64_or(&self, name: &str, default: u64) -> Result<u64> {
        match self.opt(name) {
            None => Ok(default),
            Some(_) => self.u64(name),
        }
    }
}

/// The task's VDAF, parsed from its one-argument description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VdafSpec {
    Count,
    Sum { bits: usize },
    SumVec { bits: usize, length: usize, chunk_length: usize },
    Histogram { length: usize, chunk_length: usize },
}

impl VdafSpec {
    pub fn parse(description: &str) -> Result<Self> {
        if description.trim_start().starts_with('{') {
            return Self::parse_json(description);
        }
        let mut words = description.split_whitespace();
        let name = words.next().ok_or_else(|| anyhow!("empty VDAF description"))?;
        let mut params = HashMap::new();
        for word in words {
            let (key, value) =
                word.split_once('=').ok_or_else(|| anyhow!("VDAF parameter {word:?} is not key=value"))?;
            let value: usize =
                value.parse().with_context(|| format!("VDAF parameter {key} must be an integer"))?;
            params.insert(key, value);
        }
        Self::from_parts(name, params)
    }

    /// `{"type": "Prio3Sum", "bits": 32}`: the form of zeenot's task file.
    fn parse_json(description: &str) -> Result<Self> {
        let value: serde_json::Value =
            serde_json::from_str(description).context("the VDAF description is not JSON")?;
        let object = value.as_object().ok_or_else(|| anyhow!("the VDAF description is a JSON object"))?;
        let name = object
            .get("type")
            .and_then(|v| v.as_str())
            .ok_or_else(|| anyhow!("the VDAF description needs \"type\""))?;
        let mut params = HashMap::new();
        for (key, value) in object.iter().filter(|(k, _)| k.as_str() != "type") {
            let value = value
                .as_u64()
                .and_then(|v| usize::try_from(v).ok())
                .ok_or_else(|| anyhow!("VDAF parameter {key} must be an unsigned integer"))?;
            params.insert(key.as_str(), value);
        }
        Self::from_parts(name, params)
    }

    fn from_parts(name: &str, mut params: HashMap<&str, usize>) -> Result<Self> {
        let mut take = |key: &str| params.remove(key).ok_or_else(|| anyhow!("{name} needs {key}=N"));
        let spec = match name {
            "Prio3Count" => Self::Count,
            "Prio3Sum" => Self::Sum { bits: take("bits")? },
            "Prio3SumVec" => Self::SumVec {
                bits: take("bits")?,
                length: take("length")?,
                chunk_length: take("chunk_length")?,
            },
            "Prio3Histogram" => {
                Self::Histogram { length: take("length")?, chunk_length: take("chunk_length")? }
            }
            other => bail!("unknown VDAF {other:?}"),
        };
        if let Some(key) = params.keys().next() {
            bail!("{name} takes no parameter {key}");
        }
        Ok(spec)
    }
}

/// One measurement per line: `0`/`1` (Count), an integer (Sum), a bucket index (Histogram), or
/// comma-separated integers (SumVec). Blank lines and `#` comments are skipped.
pub fn measurement_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

pub fn parse_count(line: &str) -> Result<bool> {
    match line {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => bail!("a Count measurement is 0 or 1, got {line:?}"),
    }
}

pub fn parse_u128(line: &str) -> Result<u128> {
    line.parse().with_context(|| format!("not an unsigned integer: {line:?}"))
}

pub fn parse_usize(line: &str) -> Result<usize> {
    line.parse().with_context(|| format!("not an unsigned integer: {line:?}"))
}

pub fn parse_vec(line: &str) -> Result<Vec<u128>> {
    line.split(',').map(|x| parse_u128(x.trim())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_descriptions() {
        assert_eq!(VdafSpec::parse("Prio3Count").unwrap(), VdafSpec::Count);
        assert_eq!(VdafSpec::parse("Prio3Sum bits=32").unwrap(), VdafSpec::Sum { bits: 32 });
        assert_eq!(
            VdafSpec::parse("Prio3Histogram length=4 chunk_length=2").unwrap(),
            VdafSpec::Histogram { length: 4, chunk_length: 2 }
        );
        assert!(VdafSpec::parse("Prio3Sum").is_err());
        assert!(VdafSpec::parse("Prio3Sum bits=32 extra=1").is_err());
        assert!(VdafSpec::parse("Prio3Average bits=8").is_err());
        assert_eq!(
            VdafSpec::parse(r#"{"type": "Prio3Sum", "bits": 32}"#).unwrap(),
            VdafSpec::Sum { bits: 32 }
        );
        assert!(VdafSpec::parse(r#"{"type": "Prio3Sum", "bits": -1}"#).is_err());
    }
}
