//! IR version 1 (see `docs/ir.md`): parsing and validation.
//!
//! [`Program::from_json`] is the only way in: it parses the JSON document and checks every rule of
//! the specification, so the rest of the crate works on a program that is known to be well formed
//! (dense value indices, types known, arguments defined before use).

use ark_bn254::Fr;
use ark_ff::{BigInteger, PrimeField};
use num_bigint::BigUint;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt;

/// The IR version this crate reads.
pub const IR_VERSION: u64 = 1;
/// The most inputs plus instructions a program may have (checked before any work).
pub const MAX_SIZE: usize = 1 << 20;

/// Why an IR document was rejected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum IrError {
    /// The text is not JSON of the expected shape.
    #[error("malformed IR JSON: {0}")]
    Json(String),
    /// `version` is not [`IR_VERSION`].
    #[error("unsupported IR version {0} (this build reads version {IR_VERSION})")]
    Version(u64),
    /// The binary form (`crate::binary`) is malformed.
    #[error("malformed binary IR: {0}")]
    Binary(String),
    /// The program exceeds [`MAX_SIZE`].
    #[error("program too large: {0} inputs and instructions (limit {MAX_SIZE})")]
    TooLarge(usize),
    /// A rule of the specification is broken at a given place.
    #[error("{place}: {message}")]
    Invalid {
        /// Where: `input 3`, `instruction 12` or `output 0`.
        place: String,
        /// What is wrong.
        message: String,
    },
}

fn invalid(place: impl Into<String>, message: impl Into<String>) -> IrError {
    IrError::Invalid { place: place.into(), message: message.into() }
}

/// A scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `bool`: 0 or 1.
    Bool,
    /// Unsigned integer of the given bit width (8, 16, 32 or 64).
    U(u32),
    /// Signed (two's-complement range) integer of the given bit width.
    I(u32),
    /// An element of BN254's scalar field.
    Field,
}

impl Ty {
    /// Every scalar type. The binary form's type codes are positions in this list
    /// (`crate::binary`): append only.
    pub const ALL: [Ty; 10] = [
        Ty::Bool,
        Ty::Field,
        Ty::U(8),
        Ty::U(16),
        Ty::U(32),
        Ty::U(64),
        Ty::I(8),
        Ty::I(16),
        Ty::I(32),
        Ty::I(64),
    ];

    /// Parse a type name (`"u32"`, `"bool"`, `"field"`, …).
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "bool" => Ty::Bool,
            "field" => Ty::Field,
            "u8" => Ty::U(8),
            "u16" => Ty::U(16),
            "u32" => Ty::U(32),
            "u64" => Ty::U(64),
            "i8" => Ty::I(8),
            "i16" => Ty::I(16),
            "i32" => Ty::I(32),
            "i64" => Ty::I(64),
            _ => return None,
        })
    }

    /// Whether this is an integer type.
    pub fn is_int(self) -> bool {
        matches!(self, Ty::U(_) | Ty::I(_))
    }

    /// Bit width of an integer type.
    pub fn bits(self) -> u32 {
        match self {
            Ty::U(n) | Ty::I(n) => n,
            Ty::Bool => 1,
            Ty::Field => 254,
        }
    }

    /// Inclusive integer range of an integer or bool type.
    pub fn range(self) -> Option<(i128, i128)> {
        match self {
            Ty::Bool => Some((0, 1)),
            Ty::U(n) => Some((0, (1i128 << n) - 1)),
            Ty::I(n) => Some((-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)),
            Ty::Field => None,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => write!(f, "bool"),
            Ty::Field => write!(f, "field"),
            Ty::U(n) => write!(f, "u{n}"),
            Ty::I(n) => write!(f, "i{n}"),
        }
    }
}

/// A typed scalar value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A bool or integer value (exact).
    Int(i128),
    /// A field element.
    Field(Fr),
}

impl Value {
    /// The field element representing this value (`v mod p` for integers).
    pub fn to_fr(self) -> Fr {
        match self {
            Value::Field(f) => f,
            Value::Int(v) => int_to_fr(v),
        }
    }

    /// Decimal text of the value as the boundary format writes it.
    pub fn to_decimal(self) -> String {
        match self {
            Value::Int(v) => v.to_string(),
            Value::Field(f) => fr_to_decimal(&f),
        }
    }

    /// Parse a typed decimal string, checking the type's range.
    pub fn parse(ty: Ty, text: &str) -> Result<Value, String> {
        let bad = || format!("`{text}` is not a valid {ty} value");
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !is_canonical_decimal(digits) || text == "-0" {
            return Err(bad());
        }
        match ty {
            Ty::Field => {
                if text.starts_with('-') {
                    return Err(format!("`{text}`: field elements are written in [0, p)"));
                }
                if digits.len() > 77 {
                    // p has 77 digits: no need to parse a longer number to reject it
                    return Err(format!("`{text}` is not below the field modulus"));
                }
                let n: BigUint = text.parse().map_err(|_| bad())?;
                let modulus: BigUint = Fr::MODULUS.into();
                if n >= modulus {
                    return Err(format!("`{text}` is not below the field modulus"));
                }
                Ok(Value::Field(Fr::from(n)))
            }
            _ => {
                if digits.len() > 30 {
                    return Err(format!("`{text}` is out of range for {ty}"));
                }
                let v: i128 = text.parse().map_err(|_| bad())?;
                let (lo, hi) = ty.range().expect("integer or bool type");
                if v < lo || v > hi {
                    return Err(format!("`{text}` is out of range for {ty}"));
                }
                Ok(Value::Int(v))
            }
        }
    }
}

/// Whether `digits` is a canonical unsigned decimal: ASCII digits only (no sign, whitespace or
/// underscore), no leading zero but in `0` itself. What [`Value::to_decimal`] writes.
fn is_canonical_decimal(digits: &str) -> bool {
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
}

/// `v mod p` as a field element.
pub fn int_to_fr(v: i128) -> Fr {
    let mag = Fr::from(v.unsigned_abs());
    if v < 0 {
        -mag
    } else {
        mag
    }
}

/// A committed integer as a Baby Jubjub scalar: `v mod l` (so `-1` is `l - 1`).
pub fn value_scalar(v: i128) -> zeenot_crypto::Scalar {
    let s = zeenot_crypto::Scalar::from(v.unsigned_abs());
    if v < 0 {
        -s
    } else {
        s
    }
}

/// The Pedersen commitment `v·G + r·H` of a committed value (`G` = Base8, `H` = zeenot's
/// Pedersen blinding base), the same in every back end. Constant time in `v` and `r`.
pub fn commit_value(v: i128, r: &zeenot_crypto::Scalar) -> zeenot_crypto::Point {
    commit_values(&[v], r)
}

/// The most leaves one commitment may hold (a vector commitment's generators are derived one
/// by one, hashed to the curve).
pub const MAX_COMMITMENT_LEAVES: usize = 1 << 12;

/// The bases a commitment of `n` leaves multiplies its values by: `[G]` (Base8) for one leaf,
/// as [`commit_value`]; the vector generators `G_0 … G_{n−1}` of zeenot-crypto for more (each
/// hashed to the curve, so no discrete-log relation between any two bases or `H` is known).
/// Derived once per process.
pub fn commitment_bases(n: usize) -> Vec<zeenot_crypto::Point> {
    use std::sync::Mutex;
    static VECTOR: Mutex<Vec<zeenot_crypto::Point>> = Mutex::new(Vec::new());
    if n == 1 {
        return vec![zeenot_crypto::Point::generator()];
    }
    let mut gs = VECTOR.lock().unwrap_or_else(|e| e.into_inner());
    while gs.len() < n {
        let i = gs.len() as u64;
        gs.push(zeenot_crypto::pedersen::vector_generator(i));
    }
    gs[..n].to_vec()
}

/// The Pedersen commitment of one committed value's leaves: `v·G + r·H` for one leaf
/// ([`commit_value`]), the vector commitment `Σ v_i·G_i + r·H` for more ([`commitment_bases`];
/// docs/ir.md, "Committed values"). Constant time in the values and `r`.
///
/// # Panics
///
/// If `vs` is empty or longer than [`MAX_COMMITMENT_LEAVES`] (validation bounds both).
pub fn commit_values(vs: &[i128], r: &zeenot_crypto::Scalar) -> zeenot_crypto::Point {
    assert!(
        !vs.is_empty() && vs.len() <= MAX_COMMITMENT_LEAVES,
        "a commitment holds 1 to {MAX_COMMITMENT_LEAVES} leaves"
    );
    let mut bases = commitment_bases(vs.len());
    bases.push(zeenot_crypto::pedersen::blinding_generator());
    let mut scalars: Vec<zeenot_crypto::Scalar> = vs.iter().map(|&v| value_scalar(v)).collect();
    scalars.push(*r);
    zeenot_crypto::Point::msm_ct(&bases, &scalars)
}

/// A commitment's coordinates as public values (canonical decimal field elements).
pub fn commitment_decimals(c: &zeenot_crypto::Point) -> [String; 2] {
    [fr_to_decimal(&c.x()), fr_to_decimal(&c.y())]
}

/// A proof (of either back end), the public values it is about, and the blindings of its
/// committed outputs.
#[derive(Clone)]
pub struct Proven<P> {
    /// The proof.
    pub proof: P,
    /// The public values (typed decimal strings) in the instance order of `docs/ir.md`: public
    /// input leaves; `C.x`, `C.y` of each committed input commitment; then per output its
    /// value, or `C.x`, `C.y` of its commitment where one starts.
    pub public: Vec<String>,
    /// One blinding per output commitment (output order), drawn uniformly in `[0, l)`: the
    /// commitment in `public` is [`commit_values`] of its leaves. Secret: with it, anyone can
    /// brute-force a small value from its commitment.
    pub blindings: Vec<zeenot_crypto::Scalar>,
}

// The blindings are secrets: `Debug` shows only how many there are.
impl<P> fmt::Debug for Proven<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Proven")
            .field("public", &self.public)
            .field("blindings", &format_args!("<{} secret>", self.blindings.len()))
            .finish_non_exhaustive()
    }
}

/// Splits a prover's blindings into the input commitments' (one each, input order) and, when
/// given too, the output commitments' (one each, output order). A program split into regions
/// chooses the blinding of a value crossing between two regions before proving either, so the
/// producer's output and the consumer's input commit alike; otherwise the back end draws the
/// outputs' blindings itself (`None`).
pub fn split_blindings<'a>(
    p: &Program,
    blindings: &'a [zeenot_crypto::Scalar],
) -> Result<(&'a [zeenot_crypto::Scalar], Option<&'a [zeenot_crypto::Scalar]>), String> {
    let n_in = p.input_commitments().len();
    let n_out = p.output_commitments().len();
    if blindings.len() == n_in {
        Ok((blindings, None))
    } else if blindings.len() == n_in + n_out {
        let (ins, outs) = blindings.split_at(n_in);
        Ok((ins, Some(outs)))
    } else {
        Err(format!(
            "expected {n_in} blindings (one per committed input value){}, got {}",
            if n_out > 0 {
                format!(", or {} with the committed outputs' as well", n_in + n_out)
            } else {
                String::new()
            },
            blindings.len()
        ))
    }
}

/// Parses a blinding factor: a canonical decimal integer in `[0, l)`.
pub fn parse_blinding(text: &str) -> Result<zeenot_crypto::Scalar, String> {
    // l has 76 digits: a longer canonical decimal is not below it
    if !is_canonical_decimal(text) || text.len() > 76 {
        return Err(format!("blinding `{text}` is not a canonical decimal integer in [0, l)"));
    }
    let n: BigUint = text.parse().map_err(|_| format!("blinding `{text}` is not a decimal integer"))?;
    let l: BigUint = zeenot_crypto::curve::SUBGROUP_ORDER_DEC.parse().expect("constant");
    if n >= l {
        return Err(format!("blinding `{text}` is not below the subgroup order"));
    }
    Ok(zeenot_crypto::Scalar::from_le_bytes_mod_order(&n.to_bytes_le()))
}

/// A blinding factor as decimal text.
pub fn blinding_decimal(r: &zeenot_crypto::Scalar) -> String {
    BigUint::from_bytes_le(&r.into_bigint().to_bytes_le()).to_string()
}

/// The canonical decimal representative of a field element.
pub fn fr_to_decimal(f: &Fr) -> String {
    BigUint::from_bytes_le(&f.into_bigint().to_bytes_le()).to_string()
}

/// Reads a field element holding a value of integer type `ty` back as an integer, if it is one.
pub fn fr_to_int(f: &Fr, ty: Ty) -> Option<i128> {
    let big = BigUint::from_bytes_le(&f.into_bigint().to_bytes_le());
    let modulus: BigUint = Fr::MODULUS.into();
    let half = &modulus >> 1;
    let v: i128 = if big > half {
        let neg = &modulus - &big;
        -i128::try_from(neg).ok()?
    } else {
        i128::try_from(big).ok()?
    };
    match ty.range() {
        Some((lo, hi)) if v >= lo && v <= hi => Some(v),
        Some(_) => None,
        None => Some(v),
    }
}

/// Who sees a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// Known only to the prover.
    Private,
    /// Known to the verifier: part of the Groth16 instance.
    Public,
    /// Known only to the prover, but bound to a public Pedersen commitment
    /// `C = v·G + r·H` on Baby Jubjub (the instance holds `C`'s coordinates; the prover holds
    /// `v` and the blinding `r`). How a value crosses from one proof (or back end) to another.
    Committed,
}

/// The operation of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Op {
    Const,
    Add,
    Sub,
    Mul,
    Neg,
    FloorDiv,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Not,
    Select,
    Cast,
    Check,
    Index,
    Poseidon,
    PointAddX,
    PointAddY,
    PointMulX,
    PointMulY,
    PointCheck,
    EddsaCheck,
}

impl Op {
    /// The operation of an IR name (`"add"`, `"point_mul_x"`, …).
    pub fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "const" => Op::Const,
            "add" => Op::Add,
            "sub" => Op::Sub,
            "mul" => Op::Mul,
            "neg" => Op::Neg,
            "floordiv" => Op::FloorDiv,
            "mod" => Op::Mod,
            "eq" => Op::Eq,
            "ne" => Op::Ne,
            "lt" => Op::Lt,
            "le" => Op::Le,
            "gt" => Op::Gt,
            "ge" => Op::Ge,
            "and" => Op::And,
            "or" => Op::Or,
            "not" => Op::Not,
            "select" => Op::Select,
            "cast" => Op::Cast,
            "check" => Op::Check,
            "index" => Op::Index,
            "poseidon" => Op::Poseidon,
            "point_add_x" => Op::PointAddX,
            "point_add_y" => Op::PointAddY,
            "point_check" => Op::PointCheck,
            "point_mul_x" => Op::PointMulX,
            "point_mul_y" => Op::PointMulY,
            "eddsa_check" => Op::EddsaCheck,
            _ => return None,
        })
    }

    /// The IR name of the operation.
    pub fn name(self) -> &'static str {
        match self {
            Op::Const => "const",
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Neg => "neg",
            Op::FloorDiv => "floordiv",
            Op::Mod => "mod",
            Op::Eq => "eq",
            Op::Ne => "ne",
            Op::Lt => "lt",
            Op::Le => "le",
            Op::Gt => "gt",
            Op::Ge => "ge",
            Op::And => "and",
            Op::Or => "or",
            Op::Not => "not",
            Op::Select => "select",
            Op::Cast => "cast",
            Op::Check => "check",
            Op::Index => "index",
            Op::Poseidon => "poseidon",
            Op::PointAddX => "point_add_x",
            Op::PointAddY => "point_add_y",
            Op::PointCheck => "point_check",
            Op::PointMulX => "point_mul_x",
            Op::PointMulY => "point_mul_y",
            Op::EddsaCheck => "eddsa_check",
        }
    }
}

/// A validated input leaf.
#[derive(Clone, Debug)]
pub struct Input {
    /// Leaf name, e.g. `miles[2]`.
    pub name: String,
    /// Scalar type.
    pub ty: Ty,
    /// Public or private.
    pub vis: Visibility,
    /// Committed together with the input leaf before it, in one vector commitment
    /// (docs/ir.md, "Committed values"); only for committed leaves.
    pub joint: bool,
}

/// A validated instruction. Value references are dense indices: inputs first, then the results
/// of value-producing instructions in order.
#[derive(Clone, Debug)]
pub struct Inst {
    /// The operation.
    pub op: Op,
    /// Index of the value it defines (`None` for `check`).
    pub dst: Option<usize>,
    /// Result type (for `check`, `Bool`, unused).
    pub ty: Ty,
    /// Argument value indices.
    pub args: Vec<usize>,
    /// Guard value index (a bool), if any.
    pub guard: Option<usize>,
    /// The constant, for `const`.
    pub konst: Option<Value>,
    /// Source location `[line, col]`.
    pub loc: Option<(u32, u32)>,
    /// Message for `check`.
    pub msg: Option<String>,
}

/// A validated program.
#[derive(Clone, Debug)]
pub struct Program {
    /// The program's name.
    pub name: String,
    /// Source file named in the IR (for error messages), if any.
    pub source_file: Option<String>,
    /// Input leaves in order; value `i` is input `i`.
    pub inputs: Vec<Input>,
    /// Instructions in order.
    pub body: Vec<Inst>,
    /// Output value indices.
    pub outputs: Vec<usize>,
    /// Output leaf names.
    pub output_names: Vec<String>,
    /// Output visibilities: `Public` (the value is in the instance) or `Committed` (a Pedersen
    /// commitment to it is).
    pub output_vis: Vec<Visibility>,
    /// Whether a committed output is committed together with the output before it.
    pub output_joint: Vec<bool>,
    /// Type of every value.
    pub types: Vec<Ty>,
    /// The `signature` section, kept as is (back ends ignore it).
    pub signature: Option<serde_json::Value>,
    hash: String,
}

#[derive(Deserialize)]
struct RawInput {
    id: u64,
    name: String,
    ty: String,
    vis: String,
    #[serde(default)]
    joint: bool,
}

#[derive(Deserialize)]
struct RawInst {
    op: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    ty: Option<String>,
    #[serde(default)]
    args: Vec<u64>,
    #[serde(default)]
    guard: Option<u64>,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    loc: Option<(u32, u32)>,
    #[serde(default)]
    msg: Option<String>,
}

#[derive(Deserialize)]
struct RawOutput {
    name: String,
    value: u64,
    #[serde(default)]
    vis: Option<String>,
    #[serde(default)]
    joint: bool,
}

/// Committed values are integers or bools: a Pedersen commitment binds a scalar modulo the
/// Baby Jubjub order `l < p`, so a `field` element would not survive the crossing.
fn committable(ty: Ty) -> bool {
    ty != Ty::Field
}

/// A leaf marked `joint` joins the commitment of the leaf before it: both committed, and the
/// commitment (of `leaves` leaves so far) not full.
fn check_joint(
    joint: bool,
    vis: Visibility,
    before: Option<Visibility>,
    leaves: impl FnOnce() -> usize,
) -> Result<(), String> {
    if !joint {
        return Ok(());
    }
    if vis != Visibility::Committed || before != Some(Visibility::Committed) {
        return Err("`joint` joins a committed leaf to the committed leaf before it".into());
    }
    if leaves() >= MAX_COMMITMENT_LEAVES {
        return Err(format!("a commitment holds at most {MAX_COMMITMENT_LEAVES} leaves"));
    }
    Ok(())
}

/// Groups `(index, joint)` pairs into runs: a leaf not `joint` starts a commitment.
fn group_joint(leaves: impl Iterator<Item = (usize, bool)>) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, joint) in leaves {
        match groups.last_mut() {
            Some(g) if joint => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    groups
}

/// The document's top level. `inputs` is only checked to be an array here: its elements, and
/// the body's, are read one by one (by reference, so a large program is held in memory once,
/// and each element's error names its place). The body is the form's own: a JSON array, or the
/// binary form's instruction records (`crate::binary`).
#[derive(Deserialize)]
struct RawProgram {
    version: u64,
    name: String,
    #[serde(default)]
    source: Option<serde_json::Value>,
    inputs: Vec<serde::de::IgnoredAny>,
    outputs: Vec<RawOutput>,
    #[serde(default)]
    signature: Option<serde_json::Value>,
}

/// The most elements an `index` may select from: the circuit allocates one bit per element.
pub const MAX_INDEX_ELEMENTS: usize = MAX_SIZE;

/// circomlib's Poseidon has parameters for 1 to 16 inputs (state width 2 to 17).
pub const MAX_POSEIDON_INPUTS: usize = 16;

fn check_arity(op: Op, got: usize) -> Result<(), String> {
    let want = match op {
        Op::Const => 0,
        Op::Neg | Op::Not | Op::Cast | Op::Check => 1,
        Op::PointAddX | Op::PointAddY => 4,
        Op::PointMulX | Op::PointMulY => 3,
        Op::EddsaCheck => 6,
        Op::PointCheck => 2,
        Op::Select => 3,
        Op::Index if got < 2 => {
            return Err(format!("`index` takes an index and at least one element, got {got} arguments"))
        }
        Op::Index if got - 1 > MAX_INDEX_ELEMENTS => {
            return Err(format!("`index` has {} elements (limit {MAX_INDEX_ELEMENTS})", got - 1))
        }
        Op::Index => got,
        Op::Poseidon if (1..=MAX_POSEIDON_INPUTS).contains(&got) => got,
        Op::Poseidon => {
            return Err(format!("`poseidon` takes 1 to {MAX_POSEIDON_INPUTS} field elements, got {got}"))
        }
        _ => 2,
    };
    if got != want {
        return Err(format!("`{}` takes {want} arguments, got {got}", op.name()));
    }
    Ok(())
}

/// One instruction as a document states it, before validation: what the JSON form and the
/// binary form (`crate::binary`) both decode to. Ids are the document's, not dense indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InstFields {
    pub op: Op,
    pub id: Option<u64>,
    pub ty: Option<Ty>,
    pub args: Vec<u64>,
    pub guard: Option<u64>,
    pub value: Option<String>,
    pub loc: Option<(u32, u32)>,
    pub msg: Option<String>,
}

impl InstFields {
    /// Instruction `i` of a JSON body.
    pub(crate) fn from_json(i: usize, v: &serde_json::Value) -> Result<InstFields, IrError> {
        let place = || format!("instruction {i}");
        let r = RawInst::deserialize(v).map_err(|e| invalid(place(), e.to_string()))?;
        let op = Op::parse(&r.op).ok_or_else(|| invalid(place(), format!("unknown op `{}`", r.op)))?;
        let ty = match &r.ty {
            Some(t) => Some(Ty::parse(t).ok_or_else(|| invalid(place(), format!("unknown type `{t}`")))?),
            None => None,
        };
        Ok(InstFields {
            op,
            id: r.id,
            ty,
            args: r.args,
            guard: r.guard,
            value: r.value,
            loc: r.loc,
            msg: r.msg,
        })
    }
}

/// Validates a program piece by piece, whichever form it comes from: the document's top level
/// and inputs ([`Builder::begin`]), each instruction ([`Builder::push`]), then the outputs
/// ([`Builder::finish`]). Every rule of docs/ir.md is checked here, once for both forms.
pub(crate) struct Builder {
    raw: RawProgram,
    source_file: Option<String>,
    index: HashMap<u64, usize>,
    types: Vec<Ty>,
    inputs: Vec<Input>,
    body: Vec<Inst>,
}

impl Builder {
    /// Checks the top level of `doc` (its `body`, if any, is not read) for a program of
    /// `n_body` instructions: the size limit first, then the version, then every input.
    pub(crate) fn begin(doc: &serde_json::Value, n_body: usize) -> Result<Builder, IrError> {
        let size = |k: &str| doc.get(k).and_then(|v| v.as_array()).map_or(0, Vec::len);
        let total = size("inputs") + n_body + size("outputs");
        if total > MAX_SIZE {
            return Err(IrError::TooLarge(total));
        }
        if let Some(v) = doc.get("version") {
            match v.as_u64() {
                Some(IR_VERSION) => {}
                Some(other) => return Err(IrError::Version(other)),
                None => return Err(IrError::Json("`version` must be an integer".into())),
            }
        }
        let raw = RawProgram::deserialize(doc).map_err(|e| IrError::Json(e.to_string()))?;
        if raw.version != IR_VERSION {
            return Err(IrError::Version(raw.version));
        }
        let source_file =
            raw.source.as_ref().and_then(|s| s.get("file")).and_then(|f| f.as_str()).map(str::to_owned);
        let mut b = Builder {
            source_file,
            index: HashMap::new(),
            types: Vec::new(),
            inputs: Vec::with_capacity(raw.inputs.len()),
            body: Vec::with_capacity(n_body),
            raw,
        };
        let elements = doc.get("inputs").and_then(|v| v.as_array()).map_or(&[][..], Vec::as_slice);
        for (i, v) in elements.iter().enumerate() {
            b.push_input(i, v)?;
        }
        Ok(b)
    }

    fn push_input(&mut self, i: usize, v: &serde_json::Value) -> Result<(), IrError> {
        let place = format!("input {i}");
        let r = RawInput::deserialize(v).map_err(|e| invalid(&place, e.to_string()))?;
        let ty = Ty::parse(&r.ty).ok_or_else(|| invalid(&place, format!("unknown type `{}`", r.ty)))?;
        let vis = match r.vis.as_str() {
            "private" => Visibility::Private,
            "public" => Visibility::Public,
            "committed" => Visibility::Committed,
            other => return Err(invalid(&place, format!("unknown visibility `{other}`"))),
        };
        if vis == Visibility::Committed && !committable(ty) {
            return Err(invalid(&place, format!("a committed value must be an integer or bool, not `{ty}`")));
        }
        if self.index.insert(r.id, self.types.len()).is_some() {
            return Err(invalid(&place, format!("duplicate id {}", r.id)));
        }
        let before = self.inputs.last().map(|p: &Input| p.vis);
        let joint_leaves = |inputs: &[Input]| 1 + inputs.iter().rev().take_while(|p| p.joint).count();
        check_joint(r.joint, vis, before, || joint_leaves(&self.inputs)).map_err(|m| invalid(&place, m))?;
        self.types.push(ty);
        self.inputs.push(Input { name: r.name, ty, vis, joint: r.joint });
        Ok(())
    }

    /// Checks instruction `i` and appends it.
    pub(crate) fn push(&mut self, i: usize, r: InstFields) -> Result<(), IrError> {
        let place = format!("instruction {i}");
        let op = r.op;
        let index = &self.index;
        let lookup = |id: u64| {
            index
                .get(&id)
                .copied()
                .ok_or_else(|| invalid(&place, format!("`{}` uses undefined id {id}", op.name())))
        };
        check_arity(op, r.args.len()).map_err(|m| invalid(&place, m))?;
        let args = r.args.iter().map(|&a| lookup(a)).collect::<Result<Vec<_>, _>>()?;
        let guard = r.guard.map(lookup).transpose()?;
        let types = &self.types;
        if let Some(g) = guard {
            if types[g] != Ty::Bool {
                return Err(invalid(&place, "guard must be a bool"));
            }
        }
        let at: Vec<Ty> = args.iter().map(|&a| types[a]).collect();
        let ty = if op == Op::Check {
            if at[0] != Ty::Bool {
                return Err(invalid(&place, "`check` needs a bool"));
            }
            if r.id.is_some() {
                return Err(invalid(&place, "`check` defines no value"));
            }
            Ty::Bool
        } else if op == Op::EddsaCheck {
            if at.iter().any(|&t| t != Ty::Field) {
                return Err(invalid(&place, "`eddsa_check` takes six field elements"));
            }
            if r.id.is_some() {
                return Err(invalid(&place, "`eddsa_check` defines no value"));
            }
            Ty::Bool
        } else if op == Op::PointCheck {
            if at.iter().any(|&t| t != Ty::Field) {
                return Err(invalid(&place, "`point_check` takes two field coordinates"));
            }
            if r.id.is_some() || guard.is_some() {
                return Err(invalid(&place, "`point_check` defines no value and takes no guard"));
            }
            Ty::Bool
        } else {
            let ty = r.ty.ok_or_else(|| invalid(&place, format!("`{}` needs a `ty`", op.name())))?;
            check_types(op, ty, &at).map_err(|m| invalid(&place, m))?;
            ty
        };
        let konst = if op == Op::Const {
            let text = r.value.as_deref().ok_or_else(|| invalid(&place, "`const` needs a `value`"))?;
            Some(Value::parse(ty, text).map_err(|m| invalid(&place, m))?)
        } else {
            None
        };
        let dst = if matches!(op, Op::Check | Op::PointCheck | Op::EddsaCheck) {
            None
        } else {
            let id = r.id.ok_or_else(|| invalid(&place, format!("`{}` needs an `id`", op.name())))?;
            if self.index.insert(id, self.types.len()).is_some() {
                return Err(invalid(&place, format!("duplicate id {id}")));
            }
            self.types.push(ty);
            Some(self.types.len() - 1)
        };
        self.body.push(Inst { op, dst, ty, args, guard, konst, loc: r.loc, msg: r.msg });
        Ok(())
    }

    /// Checks the outputs and returns the program, known by `hash`.
    pub(crate) fn finish(self, hash: String) -> Result<Program, IrError> {
        let Builder { raw, source_file, index, types, inputs, body } = self;
        let mut outputs = Vec::with_capacity(raw.outputs.len());
        let mut output_names = Vec::with_capacity(raw.outputs.len());
        let mut output_vis = Vec::with_capacity(raw.outputs.len());
        let mut output_joint = Vec::with_capacity(raw.outputs.len());
        for (i, o) in raw.outputs.into_iter().enumerate() {
            let place = format!("output {i}");
            let v = index
                .get(&o.value)
                .copied()
                .ok_or_else(|| invalid(&place, format!("undefined id {}", o.value)))?;
            let vis = match o.vis.as_deref() {
                None | Some("public") => Visibility::Public,
                Some("committed") => Visibility::Committed,
                Some(other) => return Err(invalid(&place, format!("unknown output visibility `{other}`"))),
            };
            if vis == Visibility::Committed && !committable(types[v]) {
                return Err(invalid(
                    &place,
                    format!("a committed value must be an integer or bool, not `{}`", types[v]),
                ));
            }
            let joint_leaves = |joint: &[bool]| 1 + joint.iter().rev().take_while(|&&j| j).count();
            check_joint(o.joint, vis, output_vis.last().copied(), || joint_leaves(&output_joint))
                .map_err(|m| invalid(&place, m))?;
            outputs.push(v);
            output_names.push(o.name);
            output_vis.push(vis);
            output_joint.push(o.joint);
        }
        Ok(Program {
            name: raw.name,
            source_file,
            inputs,
            body,
            outputs,
            output_names,
            output_vis,
            output_joint,
            types,
            signature: raw.signature,
            hash,
        })
    }
}

impl Program {
    /// Parse and validate an IR document.
    pub fn from_json(text: &str) -> Result<Program, IrError> {
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| IrError::Json(e.to_string()))?;
        Program::from_document(&doc)
    }

    /// Validate a parsed IR document.
    pub(crate) fn from_document(doc: &serde_json::Value) -> Result<Program, IrError> {
        let body = match doc.get("body") {
            Some(serde_json::Value::Array(body)) => body.as_slice(),
            // the size limit comes first, whatever else is wrong
            _ => &[],
        };
        let mut b = Builder::begin(doc, body.len())?;
        if !matches!(doc.get("body"), Some(serde_json::Value::Array(_))) {
            return Err(IrError::Json("`body` must be an array of instructions".into()));
        }
        let hash = hex::encode(Sha256::digest(canonical_json(doc).as_bytes()));
        for (i, v) in body.iter().enumerate() {
            b.push(i, InstFields::from_json(i, v)?)?;
        }
        b.finish(hash)
    }

    /// Validate an IR document without keeping it (the checks of [`Program::from_json`]).
    pub fn validate(text: &str) -> Result<(), IrError> {
        Program::from_json(text).map(|_| ())
    }

    /// SHA-256 (hex) of the canonical JSON of the document.
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// Indices of the public input leaves, in order.
    pub fn public_inputs(&self) -> impl Iterator<Item = usize> + '_ {
        self.inputs.iter().enumerate().filter(|(_, i)| i.vis == Visibility::Public).map(|(k, _)| k)
    }

    /// Indices of the committed input leaves, in order.
    pub fn committed_inputs(&self) -> impl Iterator<Item = usize> + '_ {
        self.inputs.iter().enumerate().filter(|(_, i)| i.vis == Visibility::Committed).map(|(k, _)| k)
    }

    /// Positions (in `outputs`) of the committed outputs, in order.
    pub fn committed_outputs(&self) -> impl Iterator<Item = usize> + '_ {
        self.output_vis.iter().enumerate().filter(|(_, v)| **v == Visibility::Committed).map(|(k, _)| k)
    }

    /// The input commitments in order, each the indices of its committed input leaves (one
    /// leaf, or a `joint` run: a vector commitment).
    pub fn input_commitments(&self) -> Vec<Vec<usize>> {
        group_joint(self.committed_inputs().map(|i| (i, self.inputs[i].joint)))
    }

    /// The output commitments in order, each the positions (in `outputs`) of its leaves.
    pub fn output_commitments(&self) -> Vec<Vec<usize>> {
        group_joint(self.committed_outputs().map(|k| (k, self.output_joint[k])))
    }

    /// Types of the instance (the public values, in order): public input leaves; the `x`, `y`
    /// of each input commitment; then per output its value, or, for a committed output, the
    /// `x`, `y` of its commitment where one starts (a `joint` output adds nothing).
    pub fn instance_types(&self) -> Vec<Ty> {
        let mut types: Vec<Ty> = self.public_inputs().map(|i| self.types[i]).collect();
        types.extend(self.input_commitments().iter().flat_map(|_| [Ty::Field, Ty::Field]));
        for (k, &o) in self.outputs.iter().enumerate() {
            match self.output_vis[k] {
                Visibility::Committed if self.output_joint[k] => {}
                Visibility::Committed => types.extend([Ty::Field, Ty::Field]),
                _ => types.push(self.types[o]),
            }
        }
        types
    }

    /// Parse input leaf values (typed decimal strings, in input order).
    pub fn parse_inputs(&self, values: &[String]) -> Result<Vec<Value>, String> {
        if values.len() != self.inputs.len() {
            return Err(format!("expected {} input values, got {}", self.inputs.len(), values.len()));
        }
        self.inputs
            .iter()
            .zip(values)
            .map(|(inp, v)| Value::parse(inp.ty, v).map_err(|e| format!("input `{}`: {e}", inp.name)))
            .collect()
    }

    /// Check values built in Rust against the input leaves: the count, and each value's kind and
    /// range. Values from [`Program::parse_inputs`] always pass.
    pub fn check_values(&self, values: &[Value]) -> Result<(), String> {
        if values.len() != self.inputs.len() {
            return Err(format!("expected {} input values, got {}", self.inputs.len(), values.len()));
        }
        for (inp, v) in self.inputs.iter().zip(values) {
            let ok = match (inp.ty, v) {
                (Ty::Field, Value::Field(_)) => true,
                (Ty::Field, Value::Int(_)) | (_, Value::Field(_)) => false,
                (ty, Value::Int(i)) => ty.range().is_some_and(|(lo, hi)| (lo..=hi).contains(i)),
            };
            if !ok {
                return Err(format!("input `{}`: {v:?} is not a valid {} value", inp.name, inp.ty));
            }
        }
        Ok(())
    }

    /// "file:line:col" for an instruction's location, as precise as the IR allows.
    pub fn location(&self, loc: Option<(u32, u32)>) -> String {
        let file = self.source_file.as_deref().unwrap_or("<program>");
        match loc {
            Some((l, c)) => format!("{file}:{l}:{c}"),
            None => file.to_owned(),
        }
    }
}

fn check_types(op: Op, ty: Ty, at: &[Ty]) -> Result<(), String> {
    let same = |what: &str| {
        if at.windows(2).all(|w| w[0] == w[1]) {
            Ok(at[0])
        } else {
            Err(format!("`{what}` operands differ in type: {} and {}", at[0], at[1]))
        }
    };
    let want = |t: Ty| {
        if ty == t {
            Ok(())
        } else {
            Err(format!("`{}` yields {t}, not {ty}", op.name()))
        }
    };
    match op {
        Op::Const => Ok(()),
        Op::Add | Op::Sub | Op::Mul => {
            let t = same(op.name())?;
            if !(t.is_int() || t == Ty::Field) {
                return Err(format!("`{}` needs integers or field elements, not {t}", op.name()));
            }
            want(t)
        }
        Op::Neg => {
            if !matches!(at[0], Ty::I(_) | Ty::Field) {
                return Err(format!("`neg` needs a signed integer or field element, not {}", at[0]));
            }
            want(at[0])
        }
        Op::FloorDiv | Op::Mod => {
            let t = same(op.name())?;
            if !t.is_int() {
                return Err(format!("`{}` needs integers, not {t}", op.name()));
            }
            want(t)
        }
        Op::Eq | Op::Ne => {
            same(op.name())?;
            want(Ty::Bool)
        }
        Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            let t = same(op.name())?;
            if !t.is_int() {
                return Err(format!("`{}` is defined on integers, not {t}", op.name()));
            }
            want(Ty::Bool)
        }
        Op::And | Op::Or | Op::Not => {
            if at.iter().any(|&t| t != Ty::Bool) {
                return Err(format!("`{}` needs bools", op.name()));
            }
            want(Ty::Bool)
        }
        Op::Select => {
            if at[0] != Ty::Bool {
                return Err("`select` condition must be a bool".into());
            }
            if at[1] != at[2] {
                return Err(format!("`select` branches differ in type: {} and {}", at[1], at[2]));
            }
            want(at[1])
        }
        Op::Cast => match (at[0], ty) {
            (_, Ty::Bool) => Err("`cast` to bool is not defined (compare with zero)".into()),
            (Ty::Bool | Ty::U(_) | Ty::I(_) | Ty::Field, _) => Ok(()),
        },
        Op::Check => Ok(()),
        Op::PointMulX | Op::PointMulY => {
            let scalar_ok = at[0] == Ty::Field || matches!(at[0], Ty::U(_));
            if !scalar_ok || at[1] != Ty::Field || at[2] != Ty::Field || ty != Ty::Field {
                return Err(format!(
                    "`{}` takes an unsigned or field scalar and two field coordinates",
                    op.name()
                ));
            }
            Ok(())
        }
        Op::EddsaCheck => Ok(()),
        Op::PointAddX | Op::PointAddY | Op::PointCheck => {
            if at.iter().any(|&t| t != Ty::Field) || ty != Ty::Field {
                return Err(format!("`{}` works on field coordinates", op.name()));
            }
            Ok(())
        }
        Op::Poseidon => {
            if at.iter().any(|&t| t != Ty::Field) || ty != Ty::Field {
                return Err("`poseidon` hashes field elements to a field element".into());
            }
            Ok(())
        }
        Op::Index => {
            if !at[0].is_int() {
                return Err(format!("`index` needs an integer index, not {}", at[0]));
            }
            match at[1..].iter().position(|&t| t != ty) {
                Some(j) => Err(format!("`index` element {j} is {}, not {ty}", at[1 + j])),
                None => Ok(()),
            }
        }
    }
}

/// Canonical JSON: object keys sorted (by their UTF-8 bytes), no whitespace, strings escaped as
/// `serde_json` writes them (non-ASCII characters are written as themselves). Independent of
/// `serde_json`'s `preserve_order` feature.
pub fn canonical_json(v: &serde_json::Value) -> String {
    let mut out = String::new();
    write_canonical(v, &mut out);
    out
}

fn write_canonical(v: &serde_json::Value, out: &mut String) {
    use serde_json::Value as J;
    match v {
        J::Object(map) => {
            let mut entries: Vec<(&String, &J)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (k, (key, value)) in entries.into_iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                out.push_str(&J::String(key.clone()).to_string());
                out.push(':');
                write_canonical(value, out);
            }
            out.push('}');
        }
        J::Array(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The BN254 scalar field modulus as a decimal string.
pub fn modulus_decimal() -> String {
    BigUint::from_bytes_le(&Fr::MODULUS.to_bytes_le()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(body: serde_json::Value) -> String {
        json!({
            "version": 1, "name": "t",
            "inputs": [{"id": 0, "name": "a", "ty": "u8", "vis": "private", "tier": null},
                       {"id": 1, "name": "b", "ty": "u8", "vis": "public", "tier": null}],
            "body": body,
            "outputs": [{"name": "return", "value": 0}],
        })
        .to_string()
    }

    fn err(body: serde_json::Value) -> String {
        Program::from_json(&doc(body)).unwrap_err().to_string()
    }

    #[test]
    fn accepts_valid_program() {
        let p = Program::from_json(&doc(json!([
            {"id": 2, "op": "add", "ty": "u8", "args": [0, 1], "loc": [3, 4]},
            {"id": 3, "op": "const", "ty": "u8", "value": "7"},
            {"id": 4, "op": "lt", "ty": "bool", "args": [2, 3]},
            {"op": "check", "args": [4], "guard": null},
        ])))
        .unwrap();
        assert_eq!(p.types.len(), 5);
        assert_eq!(p.instance_types(), vec![Ty::U(8), Ty::U(8)]);
        assert_eq!(p.hash().len(), 64);
    }

    fn joint_doc(inputs: serde_json::Value, outputs: serde_json::Value) -> Result<Program, IrError> {
        Program::from_json(
            &json!({"version": 1, "name": "t", "inputs": inputs, "body": [], "outputs": outputs}).to_string(),
        )
    }

    #[test]
    fn joint_leaves_make_one_commitment() {
        let leaf = |id: u64, vis: &str, joint: bool| json!({"id": id, "name": format!("x{id}"), "ty": "u8", "vis": vis, "joint": joint});
        let p = joint_doc(
            json!([leaf(0, "committed", false), leaf(1, "committed", true), leaf(2, "committed", true),
                   leaf(3, "committed", false), leaf(4, "public", false)]),
            json!([{"name": "a", "value": 0, "vis": "committed"}, {"name": "b", "value": 1, "vis": "committed", "joint": true},
                   {"name": "c", "value": 4}]),
        )
        .unwrap();
        assert_eq!(p.input_commitments(), vec![vec![0, 1, 2], vec![3]]);
        assert_eq!(p.output_commitments(), vec![vec![0, 1]]);
        // the public input, two input commitments, one output commitment, the public output
        assert_eq!(p.instance_types().len(), 1 + 2 * 2 + 2 + 1);
        let bad = [
            (json!([leaf(0, "committed", true)]), "joins a committed leaf"),
            (json!([leaf(0, "public", false), leaf(1, "committed", true)]), "joins a committed leaf"),
            (json!([leaf(0, "committed", false), leaf(1, "private", true)]), "joins a committed leaf"),
        ];
        for (inputs, want) in bad {
            let e = joint_doc(inputs, json!([])).unwrap_err().to_string();
            assert!(e.contains(want), "{e}");
        }
        let e = joint_doc(
            json!([leaf(0, "committed", false)]),
            json!([{"name": "a", "value": 0}, {"name": "b", "value": 0, "vis": "committed", "joint": true}]),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("joins a committed leaf"), "{e}");
        let many: Vec<_> = (0..=MAX_COMMITMENT_LEAVES as u64).map(|i| leaf(i, "committed", i > 0)).collect();
        let e = joint_doc(json!(many), json!([])).unwrap_err().to_string();
        assert!(e.contains("at most"), "{e}");
    }

    #[test]
    fn vector_commitments_bind_each_leaf_to_its_place() {
        let r = zeenot_crypto::Scalar::from(77u64);
        assert_eq!(commit_values(&[5], &r), commit_value(5, &r));
        let c = commit_values(&[1, 2], &r);
        assert_ne!(c, commit_values(&[2, 1], &r));
        assert_ne!(c, commit_values(&[1, 2, 0], &r) + zeenot_crypto::Point::generator());
        let gs = commitment_bases(2);
        let h = zeenot_crypto::pedersen::blinding_generator();
        assert_eq!(
            c,
            gs[0].mul_vartime(&value_scalar(1)) + gs[1].mul_vartime(&value_scalar(2)) + h.mul_vartime(&r)
        );
    }

    #[test]
    fn rejects_each_rule() {
        assert!(
            err(json!([{"id": 2, "op": "frobnicate", "ty": "u8", "args": [0, 1]}])).contains("unknown op")
        );
        assert!(err(json!([{"id": 2, "op": "add", "ty": "u9", "args": [0, 1]}])).contains("unknown type"));
        assert!(err(json!([{"id": 1, "op": "add", "ty": "u8", "args": [0, 0]}])).contains("duplicate id"));
        assert!(err(json!([{"id": 2, "op": "add", "ty": "u8", "args": [0, 9]}])).contains("undefined id 9"));
        assert!(err(json!([{"id": 2, "op": "add", "ty": "u8", "args": [0]}])).contains("takes 2 arguments"));
        assert!(err(json!([{"id": 2, "op": "add", "ty": "u16", "args": [0, 1]}])).contains("yields"));
        assert!(err(json!([{"id": 2, "op": "lt", "ty": "u8", "args": [0, 1]}])).contains("yields bool"));
        assert!(
            err(json!([{"id": 2, "op": "add", "ty": "u8", "args": [0, 1], "guard": 0}])).contains("guard")
        );
        assert!(err(json!([{"id": 2, "op": "const", "ty": "u8", "value": "256"}])).contains("out of range"));
        assert!(err(json!([{"id": 2, "op": "const", "ty": "u8", "value": "01"}])).contains("not a valid"));
        assert!(err(json!([{"id": 2, "op": "const", "ty": "u8"}])).contains("needs a `value`"));
        assert!(err(json!([{"id": 2, "op": "and", "ty": "bool", "args": [0, 1]}])).contains("bools"));
        assert!(err(json!([{"op": "check", "args": [0]}])).contains("bool"));
        assert!(err(json!([{"id": 2, "op": "cast", "ty": "bool", "args": [0]}])).contains("cast"));
        assert!(err(json!([{"id": 2, "op": "neg", "ty": "u8", "args": [0]}])).contains("signed"));
        assert!(err(json!([{"id": 2, "op": "add", "args": [0, 1]}])).contains("needs a `ty`"));
        // use before definition
        assert!(err(json!([
            {"id": 2, "op": "add", "ty": "u8", "args": [0, 3]},
            {"id": 3, "op": "const", "ty": "u8", "value": "1"},
        ]))
        .contains("undefined id 3"));
    }

    #[test]
    fn index_rules() {
        // inputs: a: u8, b: u8
        let ok = Program::from_json(&doc(json!([
            {"id": 2, "op": "index", "ty": "u8", "args": [0, 1, 0, 1], "guard": null, "loc": [1, 0]},
            {"id": 3, "op": "const", "ty": "i16", "value": "-1"},
            {"id": 4, "op": "const", "ty": "bool", "value": "1"},
            {"id": 5, "op": "index", "ty": "bool", "args": [3, 4]},
        ])))
        .unwrap();
        assert_eq!(ok.body[0].op, Op::Index);
        assert_eq!(ok.body[0].args, vec![0, 1, 0, 1]);
        let e = err(json!([{"id": 2, "op": "index", "ty": "u8", "args": [0]}]));
        assert!(e.contains("instruction 0") && e.contains("at least one element"), "{e}");
        assert!(
            err(json!([{"id": 2, "op": "index", "ty": "u8", "args": []}])).contains("at least one element")
        );
        assert!(err(json!([
            {"id": 2, "op": "const", "ty": "bool", "value": "1"},
            {"id": 3, "op": "index", "ty": "u8", "args": [2, 0, 1]},
        ]))
        .contains("instruction 1: `index` needs an integer index, not bool"));
        assert!(err(json!([
            {"id": 2, "op": "const", "ty": "field", "value": "1"},
            {"id": 3, "op": "index", "ty": "u8", "args": [2, 0]},
        ]))
        .contains("needs an integer index, not field"));
        assert!(err(json!([
            {"id": 2, "op": "const", "ty": "u16", "value": "1"},
            {"id": 3, "op": "index", "ty": "u8", "args": [0, 0, 2]},
        ]))
        .contains("instruction 1: `index` element 1 is u16, not u8"));
        assert!(err(json!([{"id": 2, "op": "index", "ty": "u16", "args": [0, 1]}])).contains("element 0"));
        assert!(
            err(json!([{"id": 2, "op": "index", "ty": "u8", "args": [0, 1, 9]}])).contains("undefined id 9")
        );
        assert!(err(json!([{"id": 2, "op": "index", "args": [0, 1]}])).contains("needs a `ty`"));
        assert!(
            err(json!([{"id": 2, "op": "index", "ty": "u8", "args": [0, 1], "guard": 1}])).contains("guard")
        );
    }

    #[test]
    fn rejects_bad_documents() {
        assert!(matches!(Program::from_json("{"), Err(IrError::Json(_))));
        assert!(matches!(Program::from_json("[]"), Err(IrError::Json(_))));
        let v2 = doc(json!([])).replace("\"version\":1", "\"version\":2");
        assert_eq!(Program::from_json(&v2).unwrap_err(), IrError::Version(2));
        let bad_out = doc(json!([])).replace("\"value\":0", "\"value\":42");
        assert!(Program::from_json(&bad_out).unwrap_err().to_string().contains("output 0"));
    }

    #[test]
    fn value_parsing() {
        assert_eq!(Value::parse(Ty::I(8), "-128"), Ok(Value::Int(-128)));
        assert!(Value::parse(Ty::I(8), "128").is_err());
        assert!(Value::parse(Ty::U(8), "-1").is_err());
        assert!(Value::parse(Ty::U(64), "18446744073709551616").is_err());
        assert!(Value::parse(Ty::U(64), "99999999999999999999999999999999999").is_err());
        assert!(Value::parse(Ty::Bool, "2").is_err());
        assert!(Value::parse(Ty::Field, &modulus_decimal()).is_err());
        assert!(Value::parse(Ty::Field, "-1").is_err());
        assert!(Value::parse(Ty::U(8), "").is_err());
        assert!(Value::parse(Ty::U(8), "1e3").is_err());
        assert_eq!(fr_to_int(&int_to_fr(-5), Ty::I(8)), Some(-5));
        assert_eq!(fr_to_int(&int_to_fr(300), Ty::U(8)), None);
    }
}
