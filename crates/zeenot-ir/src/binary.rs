//! The binary form of an IR document (docs/ir.md, "Binary form"): what `compile` writes beside
//! the JSON so that a prover loads a large program without parsing JSON.
//!
//! It is a second encoding of the same document, not a second language: [`decode`] runs every
//! rule of [`Builder`] (the JSON reader's), and recomputes the program hash — the SHA-256 of
//! the document's canonical JSON — from what it decoded, streaming, so a binary file can never
//! name a program other than the one it holds. Every length is bounded by the bytes left before
//! anything is allocated.

use crate::ir::{canonical_json, Builder, InstFields, IrError, Op, Program, Ty, IR_VERSION, MAX_SIZE};
use sha2::{Digest, Sha256};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"ZNIRBIN\0";
/// The version of the binary form this build reads and writes.
pub const BINARY_VERSION: u32 = 1;
/// The most bytes the head (the document's JSON without its body) may have.
pub const MAX_HEAD_BYTES: usize = 1 << 26;

// Presence flags of an instruction record: which keys the JSON object has.
const HAS_ID: u8 = 1;
const HAS_TY: u8 = 2;
const HAS_ARGS: u8 = 4;
const HAS_GUARD: u8 = 8;
const HAS_VALUE: u8 = 16;
const HAS_LOC: u8 = 32;
const HAS_MSG: u8 = 64;
/// A second byte follows the flags: which of the present keys are `null`.
const HAS_NULLS: u8 = 128;

/// The keys an instruction object may have and their flags, in canonical (byte) order (`op`
/// is always there).
const INST_KEYS: [(&str, u8); 8] = [
    ("args", HAS_ARGS),
    ("guard", HAS_GUARD),
    ("id", HAS_ID),
    ("loc", HAS_LOC),
    ("msg", HAS_MSG),
    ("op", 0),
    ("ty", HAS_TY),
    ("value", HAS_VALUE),
];

/// Operation codes: the position in this table. Part of the format: append only.
const OPS: [Op; 27] = [
    Op::Const,
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Neg,
    Op::FloorDiv,
    Op::Mod,
    Op::Eq,
    Op::Ne,
    Op::Lt,
    Op::Le,
    Op::Gt,
    Op::Ge,
    Op::And,
    Op::Or,
    Op::Not,
    Op::Select,
    Op::Cast,
    Op::Check,
    Op::Index,
    Op::Poseidon,
    Op::PointAddX,
    Op::PointAddY,
    Op::PointMulX,
    Op::PointMulY,
    Op::PointCheck,
    Op::EddsaCheck,
];

/// Type codes: the position in [`Ty::ALL`].
const TYS: [Ty; 10] = Ty::ALL;

fn code<T: PartialEq>(table: &[T], x: T) -> u8 {
    // every Op and Ty is in its table (tested), and the tables are shorter than 256
    table.iter().position(|t| *t == x).unwrap_or(0) as u8
}

fn malformed(m: impl Into<String>) -> IrError {
    IrError::Binary(m.into())
}

/// A program read from its binary form.
#[derive(Debug)]
pub struct Decoded {
    /// The validated program (its hash recomputed from the decoded document).
    pub program: Program,
    /// The head: the document's JSON without `body` (name, source, signature, inputs, outputs),
    /// for readers that need the signature but not the instructions.
    pub head: String,
    /// The SHA-256 of the JSON file this form was written from, as the writer recorded it: a
    /// reader holding that file compares to tell a stale binary form (the JSON edited after).
    pub source_digest: [u8; 32],
}

/// Writes the binary form of an IR document (`text`, JSON), recording `source_digest` (the
/// SHA-256 of the file `text` came from). The document is validated first; one the binary form
/// cannot hold exactly (an instruction key it does not know) is refused, so that [`decode`]
/// always gives back the program hash of `text`.
pub fn encode(text: &str, source_digest: [u8; 32]) -> Result<Vec<u8>, IrError> {
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| IrError::Json(e.to_string()))?;
    let program = Program::from_document(&doc)?;
    let mut head = doc; // the document without its body
    let body = match head.as_object_mut().and_then(|m| m.remove("body")) {
        Some(serde_json::Value::Array(body)) => body,
        _ => return Err(IrError::Json("`body` must be an array of instructions".into())),
    };
    let head_text = canonical_json(&head);
    let mut out = Vec::with_capacity(64 + head_text.len() + 8 * body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&BINARY_VERSION.to_le_bytes());
    out.extend_from_slice(&(IR_VERSION as u32).to_le_bytes());
    let hash = hex::decode(program.hash()).map_err(|e| malformed(e.to_string()))?;
    out.extend_from_slice(&hash);
    out.extend_from_slice(&source_digest);
    out.extend_from_slice(&(head_text.len() as u32).to_le_bytes());
    out.extend_from_slice(head_text.as_bytes());
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    for (i, v) in body.iter().enumerate() {
        let (mut flags, mut nulls) = (0u8, 0u8);
        for (k, val) in v.as_object().map(|m| m.iter()).into_iter().flatten() {
            let Some(&(_, bit)) = INST_KEYS.iter().find(|(n, _)| n == k) else {
                return Err(malformed(format!("instruction {i}: key `{k}` has no binary form")));
            };
            flags |= bit;
            if val.is_null() {
                nulls |= bit;
            }
        }
        if nulls != 0 {
            flags |= HAS_NULLS;
        }
        write_inst(&mut out, flags, nulls, &InstFields::from_json(i, v)?);
    }
    let back = decode(&out)?;
    if back.program.hash() != program.hash() {
        return Err(malformed("the binary form does not hold this document exactly"));
    }
    Ok(out)
}

fn write_inst(out: &mut Vec<u8>, flags: u8, nulls: u8, f: &InstFields) {
    out.push(code(&OPS, f.op));
    out.push(flags);
    if flags & HAS_NULLS != 0 {
        out.push(nulls);
    }
    let has = |bit: u8| flags & bit != 0 && nulls & bit == 0;
    if has(HAS_ID) {
        put_varint(out, f.id.unwrap_or_default());
    }
    if has(HAS_TY) {
        out.push(f.ty.map_or(0, |t| code(&TYS, t)));
    }
    if has(HAS_ARGS) {
        put_varint(out, f.args.len() as u64);
        for &a in &f.args {
            put_varint(out, a);
        }
    }
    if has(HAS_GUARD) {
        put_varint(out, f.guard.unwrap_or_default());
    }
    if has(HAS_VALUE) {
        put_bytes(out, f.value.as_deref().unwrap_or_default().as_bytes());
    }
    if has(HAS_LOC) {
        let (line, col) = f.loc.unwrap_or_default();
        put_varint(out, line.into());
        put_varint(out, col.into());
    }
    if has(HAS_MSG) {
        put_bytes(out, f.msg.as_deref().unwrap_or_default().as_bytes());
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_varint(out, b.len() as u64);
    out.extend_from_slice(b);
}

/// Reads and validates a program's binary form.
pub fn decode(bytes: &[u8]) -> Result<Decoded, IrError> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(MAGIC.len())? != MAGIC {
        return Err(malformed("not a zeenot binary IR (bad magic)"));
    }
    let version = r.u32()?;
    if version != BINARY_VERSION {
        return Err(malformed(format!(
            "binary IR version {version} (this build reads version {BINARY_VERSION})"
        )));
    }
    let ir_version = r.u32()?;
    if u64::from(ir_version) != IR_VERSION {
        return Err(IrError::Version(ir_version.into()));
    }
    let hash: [u8; 32] = r.array()?;
    let source_digest: [u8; 32] = r.array()?;
    let head_len = r.u32()? as usize;
    if head_len > MAX_HEAD_BYTES {
        return Err(malformed(format!("head of {head_len} bytes (limit {MAX_HEAD_BYTES})")));
    }
    let head = std::str::from_utf8(r.take(head_len)?).map_err(|_| malformed("head is not UTF-8"))?;
    let doc: serde_json::Value = serde_json::from_str(head).map_err(|e| IrError::Json(e.to_string()))?;
    let Some(top) = doc.as_object() else {
        return Err(IrError::Json("an IR document must be a JSON object".into()));
    };
    if top.contains_key("body") {
        return Err(malformed("the head holds a `body`"));
    }
    let n = r.u32()? as usize;
    // a record takes at least two bytes: a count the rest cannot hold is refused before
    // anything is allocated for it
    if n > r.left() / 2 {
        return Err(malformed(format!("{n} instructions in {} bytes", r.left())));
    }
    let mut b = Builder::begin(&doc, n)?;
    let mut hasher = CanonicalHasher::new(top);
    for i in 0..n {
        let (flags, nulls, fields) = r.inst().map_err(|m| malformed(format!("instruction {i}: {m}")))?;
        hasher.inst(i, flags, nulls, &fields);
        b.push(i, fields)?;
    }
    if r.left() != 0 {
        return Err(malformed(format!("{} bytes after the last instruction", r.left())));
    }
    let computed = hasher.finish(top);
    let program = b.finish(hex::encode(computed))?;
    if computed[..] != hash[..] {
        return Err(malformed("the program hash it records is not the hash of what it holds"));
    }
    Ok(Decoded { program, head: head.to_owned(), source_digest })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], IrError> {
        if n > self.left() {
            return Err(malformed(format!("truncated: {n} bytes wanted, {} left", self.left())));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], IrError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u32(&mut self) -> Result<u32, IrError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("truncated")?;
        self.at += 1;
        Ok(b)
    }

    /// An unsigned LEB128 integer of at most 64 bits.
    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let part = u64::from(b & 0x7f);
            if shift == 63 && part > 1 {
                return Err("integer over 64 bits".into());
            }
            v |= part << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("integer over 64 bits".into())
    }

    fn u32_varint(&mut self) -> Result<u32, String> {
        u32::try_from(self.varint()?).map_err(|_| "integer over 32 bits".to_string())
    }

    fn string(&mut self) -> Result<String, String> {
        let len = self.varint()?;
        if len > self.left() as u64 {
            return Err(format!("a string of {len} bytes, {} left", self.left()));
        }
        let raw = self.take(len as usize).map_err(|e| e.to_string())?;
        String::from_utf8(raw.to_vec()).map_err(|_| "a string is not UTF-8".into())
    }

    /// One instruction record: its presence flags, its `null` flags and its fields.
    fn inst(&mut self) -> Result<(u8, u8, InstFields), String> {
        let op_code = self.byte()?;
        let op = *OPS.get(op_code as usize).ok_or_else(|| format!("unknown operation code {op_code}"))?;
        let flags = self.byte()?;
        let nulls = if flags & HAS_NULLS != 0 { self.byte()? } else { 0 };
        if nulls & !flags != 0
            || nulls & (HAS_ARGS | HAS_NULLS) != 0
            || (flags & HAS_NULLS != 0 && nulls == 0)
        {
            return Err(format!("null flags {nulls:#04x} for present keys {flags:#04x}"));
        }
        let has = |bit: u8| flags & bit != 0 && nulls & bit == 0;
        let id = if has(HAS_ID) { Some(self.varint()?) } else { None };
        let ty = if has(HAS_TY) {
            let t = self.byte()?;
            Some(*TYS.get(t as usize).ok_or_else(|| format!("unknown type code {t}"))?)
        } else {
            None
        };
        let mut args = Vec::new();
        if has(HAS_ARGS) {
            let n = self.varint()?;
            // an argument takes at least a byte; no operation takes more than an `index`
            if n > self.left() as u64 || n > MAX_SIZE as u64 + 1 {
                return Err(format!("{n} arguments in {} bytes", self.left()));
            }
            args.reserve_exact(n as usize);
            for _ in 0..n {
                args.push(self.varint()?);
            }
        }
        let guard = if has(HAS_GUARD) { Some(self.varint()?) } else { None };
        let value = if has(HAS_VALUE) { Some(self.string()?) } else { None };
        let loc = if has(HAS_LOC) { Some((self.u32_varint()?, self.u32_varint()?)) } else { None };
        let msg = if has(HAS_MSG) { Some(self.string()?) } else { None };
        Ok((flags, nulls, InstFields { op, id, ty, args, guard, value, loc, msg }))
    }
}

/// The SHA-256 of the canonical JSON of a head plus a body, written as the body streams by
/// (the same bytes as [`canonical_json`] of the whole document, never held whole).
struct CanonicalHasher {
    sha: Sha256,
    buf: String,
}

impl CanonicalHasher {
    /// Starts the document: the head's members that sort before `body`, then `"body":[`.
    fn new(top: &serde_json::Map<String, serde_json::Value>) -> CanonicalHasher {
        let mut h = CanonicalHasher { sha: Sha256::new(), buf: String::with_capacity(1 << 16) };
        h.buf.push('{');
        let mut first = true;
        for (k, v) in sorted(top).into_iter().filter(|(k, _)| k.as_bytes() < b"body".as_slice()) {
            h.member(&mut first, k, v);
        }
        if !first {
            h.buf.push(',');
        }
        h.buf.push_str("\"body\":[");
        h
    }

    fn member(&mut self, first: &mut bool, k: &str, v: &serde_json::Value) {
        if !*first {
            self.buf.push(',');
        }
        *first = false;
        self.buf.push_str(&json_string(k));
        self.buf.push(':');
        self.buf.push_str(&canonical_json(v));
    }

    /// Instruction `i`: its present keys in canonical order.
    fn inst(&mut self, i: usize, flags: u8, nulls: u8, f: &InstFields) {
        use std::fmt::Write;
        if i > 0 {
            self.buf.push(',');
        }
        self.buf.push('{');
        let mut first = true;
        for (key, bit) in INST_KEYS {
            if bit != 0 && flags & bit == 0 {
                continue;
            }
            if !first {
                self.buf.push(',');
            }
            first = false;
            // `write!` into a String cannot fail
            let _ = write!(self.buf, "\"{key}\":");
            if nulls & bit != 0 {
                self.buf.push_str("null");
                continue;
            }
            let _ = match bit {
                HAS_ARGS => {
                    self.buf.push('[');
                    for (j, a) in f.args.iter().enumerate() {
                        let _ = write!(self.buf, "{}{a}", if j > 0 { "," } else { "" });
                    }
                    write!(self.buf, "]")
                }
                HAS_GUARD => write!(self.buf, "{}", f.guard.unwrap_or_default()),
                HAS_ID => write!(self.buf, "{}", f.id.unwrap_or_default()),
                HAS_LOC => {
                    let (line, col) = f.loc.unwrap_or_default();
                    write!(self.buf, "[{line},{col}]")
                }
                HAS_MSG => write!(self.buf, "{}", json_string(f.msg.as_deref().unwrap_or_default())),
                HAS_TY => write!(self.buf, "\"{}\"", f.ty.map_or(String::new(), |t| t.to_string())),
                HAS_VALUE => write!(self.buf, "{}", json_string(f.value.as_deref().unwrap_or_default())),
                _ => write!(self.buf, "\"{}\"", f.op.name()),
            };
        }
        self.buf.push('}');
        if self.buf.len() >= 1 << 16 {
            self.sha.update(self.buf.as_bytes());
            self.buf.clear();
        }
    }

    /// Ends the body, then the head's members that sort after `body`.
    fn finish(mut self, top: &serde_json::Map<String, serde_json::Value>) -> [u8; 32] {
        self.buf.push(']');
        let mut first = false;
        for (k, v) in sorted(top).into_iter().filter(|(k, _)| k.as_bytes() > b"body".as_slice()) {
            self.member(&mut first, k, v);
        }
        self.buf.push('}');
        self.sha.update(self.buf.as_bytes());
        self.sha.finalize().into()
    }
}

fn sorted(m: &serde_json::Map<String, serde_json::Value>) -> Vec<(&str, &serde_json::Value)> {
    let mut entries: Vec<(&str, &serde_json::Value)> = m.iter().map(|(k, v)| (k.as_str(), v)).collect();
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    entries
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(body: serde_json::Value) -> String {
        json!({
            "version": 1, "name": "t", "source": {"file": "t.py"},
            "inputs": [
                {"id": 0, "name": "a", "ty": "u32", "vis": "private"},
                {"id": 7, "name": "b", "ty": "u32", "vis": "public"},
            ],
            "body": body,
            "outputs": [{"name": "out", "value": 12}],
            "signature": {"params": []},
        })
        .to_string()
    }

    fn sample() -> String {
        doc(json!([
            {"op": "const", "id": 9, "ty": "u32", "value": "3", "loc": [4, 2]},
            {"op": "add", "id": 10, "ty": "u32", "args": [0, 7], "loc": [5, 9]},
            {"op": "lt", "id": 11, "ty": "bool", "args": [10, 9]},
            {"op": "check", "args": [11], "msg": "too \"big\" é", "guard": 11},
            {"op": "mul", "id": 12, "ty": "u32", "args": [10, 9], "guard": null, "msg": null},
        ]))
    }

    #[test]
    fn tables_cover_every_op_and_type() {
        for (k, op) in OPS.iter().enumerate() {
            assert_eq!(code(&OPS, *op) as usize, k);
            assert_eq!(Op::parse(op.name()), Some(*op));
        }
        for (k, t) in TYS.iter().enumerate() {
            assert_eq!(code(&TYS, *t) as usize, k);
            assert_eq!(Ty::parse(&t.to_string()), Some(*t));
        }
    }

    #[test]
    fn round_trip_keeps_program_and_hash() {
        let text = sample();
        let json = Program::from_json(&text).unwrap();
        let bin = encode(&text, [7; 32]).unwrap();
        let back = decode(&bin).unwrap();
        assert_eq!(back.program.hash(), json.hash());
        assert_eq!(back.source_digest, [7; 32]);
        assert_eq!(format!("{:?}", back.program.body), format!("{:?}", json.body));
        assert_eq!(format!("{:?}", back.program.inputs), format!("{:?}", json.inputs));
        assert_eq!(back.program.outputs, json.outputs);
        assert_eq!(back.program.source_file.as_deref(), Some("t.py"));
        let head: serde_json::Value = serde_json::from_str(&back.head).unwrap();
        assert!(head.get("body").is_none() && head["name"] == "t");
    }

    #[test]
    fn refuses_what_it_cannot_hold_exactly() {
        let extra = doc(json!([{"op": "const", "id": 9, "ty": "u32", "value": "3", "note": "x"},
                               {"op": "add", "id": 12, "ty": "u32", "args": [0, 7]}]));
        assert!(encode(&extra, [0; 32]).unwrap_err().to_string().contains("`note`"));
        // an invalid program has no binary form either
        let bad = doc(json!([{"op": "add", "id": 12, "ty": "u32", "args": [0, 99]}]));
        assert!(encode(&bad, [0; 32]).unwrap_err().to_string().contains("undefined id 99"));
    }

    /// The binary form of `sample()` up to its head, then `records` as its body.
    fn with_body(records: &[(u8, InstFields)]) -> Vec<u8> {
        let bin = encode(&sample(), [0; 32]).unwrap();
        let head_len = u32::from_le_bytes(bin[80..84].try_into().unwrap()) as usize;
        let mut out = bin[..84 + head_len].to_vec();
        out.extend_from_slice(&(records.len() as u32).to_le_bytes());
        for (flags, f) in records {
            write_inst(&mut out, *flags, 0, f);
        }
        out
    }

    fn add(args: Vec<u64>) -> InstFields {
        InstFields {
            op: Op::Add,
            id: Some(12),
            ty: Some(Ty::U(32)),
            args,
            guard: None,
            value: None,
            loc: None,
            msg: None,
        }
    }

    #[test]
    fn every_rule_of_the_json_reader_holds() {
        let ok = with_body(&[(HAS_ID | HAS_TY | HAS_ARGS, add(vec![0, 7]))]);
        // valid, but not the program its header names
        assert!(decode(&ok).unwrap_err().to_string().contains("not the hash of what it holds"));
        let undefined = with_body(&[(HAS_ID | HAS_TY | HAS_ARGS, add(vec![0, 99]))]);
        assert!(decode(&undefined).unwrap_err().to_string().contains("undefined id 99"));
        let arity = with_body(&[(HAS_ID | HAS_TY | HAS_ARGS, add(vec![0]))]);
        assert!(decode(&arity).unwrap_err().to_string().contains("takes 2 arguments"));
        let untyped = with_body(&[(HAS_ID | HAS_ARGS, add(vec![0, 7]))]);
        assert!(decode(&untyped).unwrap_err().to_string().contains("needs a `ty`"));
        let no_output = with_body(&[]);
        assert!(decode(&no_output).unwrap_err().to_string().contains("undefined id 12"));
        let mut bad_op = with_body(&[(HAS_ID | HAS_TY | HAS_ARGS, add(vec![0, 7]))]);
        let at = bad_op.len() - 7; // op, flags, id, ty, count, 0, 7
        bad_op[at] = OPS.len() as u8;
        assert!(decode(&bad_op).unwrap_err().to_string().contains("unknown operation code"));
    }

    #[test]
    fn rejects_tampering_and_truncation() {
        let text = sample();
        let bin = encode(&text, [0; 32]).unwrap();
        for cut in 0..bin.len() {
            assert!(decode(&bin[..cut]).is_err(), "accepted a prefix of {cut} bytes");
        }
        let mut longer = bin.clone();
        longer.push(0);
        assert!(decode(&longer).unwrap_err().to_string().contains("after the last instruction"));
        // any byte changed: rejected, or (a source digest byte) the same program
        for at in 0..bin.len() {
            let mut t = bin.clone();
            t[at] ^= 0x01;
            match decode(&t) {
                Err(_) => {}
                Ok(d) => {
                    assert!((48..80).contains(&at), "byte {at} changed and still accepted");
                    assert_eq!(d.program.hash(), Program::from_json(&text).unwrap().hash());
                }
            }
        }
        let mut v2 = bin.clone();
        v2[8] = 2;
        assert!(decode(&v2).unwrap_err().to_string().contains("version 2"));
    }

    #[test]
    fn lengths_are_bounded_before_allocation() {
        let bin = encode(&sample(), [0; 32]).unwrap();
        let mut head = bin[..80].to_vec();
        head.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode(&head).unwrap_err().to_string().contains("limit"));
        // a huge instruction count after a valid head
        let mut count = with_body(&[]);
        let n_at = count.len() - 4;
        count[n_at..].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode(&count).unwrap_err().to_string().contains("instructions in"));
        // a huge argument count in a record
        let mut args = with_body(&[]);
        args[n_at..].copy_from_slice(&1u32.to_le_bytes());
        args.extend_from_slice(&[code(&OPS, Op::Add), HAS_ARGS, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert!(decode(&args).unwrap_err().to_string().contains("arguments in"));
        // an overlong varint
        let mut var = with_body(&[]);
        var[n_at..].copy_from_slice(&1u32.to_le_bytes());
        var.extend_from_slice(&[code(&OPS, Op::Const), HAS_ID]);
        var.extend_from_slice(&[0xff; 11]);
        assert!(decode(&var).unwrap_err().to_string().contains("64 bits"));
    }
}
