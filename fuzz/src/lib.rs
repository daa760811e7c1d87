//! Fixtures shared by the fuzz targets (small programs, real keys, proofs and statements, all
//! from fixed seeds) and their seed corpora.
//!
//! Seeds are not committed: a target started with `ZEENOT_FUZZ_SEEDS=DIR` writes its seeds
//! into `DIR` (its corpus directory, see scripts/fuzz.sh) before libFuzzer reads it.
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::json;
use zeenot_circuit::groth16::{self, Proof, ProvingKey, VerifyingKey};
use zeenot_circuit::{ir, Program};
use zeenot_crypto::{Point, Scalar};
use zeenot_sigma::bulletproofs::{BulletproofGens, RangeProof};
use zeenot_sigma::{Builder, Node, Statement};

/// A deterministic RNG.
pub fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

/// Writes `seeds` as `seed-0`, `seed-1`, … into `$ZEENOT_FUZZ_SEEDS` when that is set (files
/// already there are kept). Call it from a target's `init`.
pub fn write_seeds(make: impl FnOnce() -> Vec<Vec<u8>>) {
    let Some(dir) = std::env::var_os("ZEENOT_FUZZ_SEEDS") else { return };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("create the seed directory");
    for (i, seed) in make().into_iter().enumerate() {
        let path = dir.join(format!("seed-{i}"));
        if !path.exists() {
            std::fs::write(&path, seed).expect("write a seed");
        }
    }
}

/// The IR of `f(a: Private[u8], b: Public[u8]) -> u8 { check(a < 200); return a + b }`: tiny
/// keys (a few KB), so that key decoding runs fast.
pub const TINY_IR: &str = r#"{"version": 1, "name": "f", "source": {"file": "app.py"},
 "inputs": [{"id": 0, "name": "a", "ty": "u8", "vis": "private"},
            {"id": 1, "name": "b", "ty": "u8", "vis": "public"}],
 "body": [{"id": 2, "op": "const", "ty": "u8", "value": "200"},
          {"id": 3, "op": "lt", "ty": "bool", "args": [0, 2]},
          {"op": "check", "args": [3], "loc": [2, 5], "msg": "check(a < 200)"},
          {"id": 4, "op": "add", "ty": "u8", "args": [0, 1], "loc": [3, 12]}],
 "outputs": [{"name": "return", "value": 4}]}"#;

/// A program with every kind of public value: a public `i16`, a committed `u8` (two field
/// coordinates), a public `field`, and a committed `bool` output.
pub fn layout_ir() -> String {
    json!({
        "version": 1, "name": "g", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "s", "ty": "i16", "vis": "public"},
                   {"id": 1, "name": "c", "ty": "u8", "vis": "committed"},
                   {"id": 2, "name": "f", "ty": "field", "vis": "public"}],
        "body": [{"id": 3, "op": "cast", "ty": "i16", "args": [1]},
                 {"id": 4, "op": "lt", "ty": "bool", "args": [0, 3]}],
        "outputs": [{"name": "lt", "value": 4, "vis": "committed"},
                    {"name": "f", "value": 2}],
    })
    .to_string()
}

/// The Groth16 fixture: the tiny program, its keys, a proof and its public values.
pub struct Groth16Fixture {
    /// The program ([`TINY_IR`]).
    pub program: Program,
    /// Its proving key.
    pub pk: ProvingKey,
    /// Its verifying key.
    pub vk: VerifyingKey,
    /// A proof for `a = 7, b = 5`.
    pub proof: Proof,
    /// Its public values.
    pub public: Vec<String>,
}

/// The Groth16 fixture (built once).
pub fn groth16_fixture() -> &'static Groth16Fixture {
    static F: OnceLock<Groth16Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let program = Program::from_json(TINY_IR).expect("valid IR");
        let (pk, vk) = groth16::setup(&program, &mut rng(1)).expect("setup");
        let inputs = program.parse_inputs(&["7".into(), "5".into()]).expect("inputs");
        let proven = groth16::prove(&program, &pk, &inputs, &[], &mut rng(2)).expect("prove");
        Groth16Fixture { program, pk, vk, proof: proven.proof, public: proven.public }
    })
}

/// The IR of the sigma back end's fixture: `f(a: Private[u8], b: Public[u8]) -> bool`,
/// `a * b < 300` (a product, a comparison, range proofs).
pub const SIGMA_IR: &str = r#"{"version": 1, "name": "s", "source": {"file": "app.py"},
 "inputs": [{"id": 0, "name": "a", "ty": "u8", "vis": "private"},
            {"id": 1, "name": "b", "ty": "u8", "vis": "public"}],
 "body": [{"id": 2, "op": "cast", "ty": "u32", "args": [0]},
          {"id": 3, "op": "cast", "ty": "u32", "args": [1]},
          {"id": 4, "op": "mul", "ty": "u32", "args": [2, 3]},
          {"id": 5, "op": "const", "ty": "u32", "value": "300"},
          {"id": 6, "op": "lt", "ty": "bool", "args": [4, 5]}],
 "outputs": [{"name": "return", "value": 6}]}"#;

/// The sigma back end's fixture: the program, public values and an encoded proof.
pub struct ProgramProofFixture {
    /// The program ([`SIGMA_IR`]).
    pub program: Program,
    /// Its public values.
    pub public: Vec<String>,
    /// The encoded proof.
    pub proof: Vec<u8>,
}

/// The sigma back end's fixture (built once).
pub fn program_proof_fixture() -> &'static ProgramProofFixture {
    static F: OnceLock<ProgramProofFixture> = OnceLock::new();
    F.get_or_init(|| {
        let program = Program::from_json(SIGMA_IR).expect("valid IR");
        let inputs = program.parse_inputs(&["7".into(), "5".into()]).expect("inputs");
        let proven = zeenot_sigma::backend::prove(&program, &inputs, &[], &mut rng(3)).expect("prove");
        ProgramProofFixture { program, public: proven.public, proof: proven.proof.encode() }
    })
}

/// A sigma statement with an AND and an OR (so proofs carry OR challenges): knowledge of `x`
/// with `X = x·G` and `Y = x·H`, and of `y` with `Z = y·G` or `Z = y·H`.
pub struct SigmaFixture {
    /// The statement.
    pub statement: Statement,
    /// A proof of it (context [`SIGMA_CONTEXT`]).
    pub proof: zeenot_sigma::Proof,
}

/// The Fiat–Shamir context of [`SigmaFixture::proof`].
pub const SIGMA_CONTEXT: &[u8] = b"zeenot-fuzz";

/// The sigma fixture (built once).
pub fn sigma_fixture() -> &'static SigmaFixture {
    static F: OnceLock<SigmaFixture> = OnceLock::new();
    F.get_or_init(|| {
        let g = Point::generator();
        let h = zeenot_crypto::pedersen::blinding_generator();
        let (x, y) = (Scalar::from(11u64), Scalar::from(12u64));
        let mut b = Builder::new();
        let (sx, sy1, sy2) = (b.secret("x"), b.secret("y1"), b.secret("y2"));
        let eg = b.element("G", g);
        let eh = b.element("H", h);
        let ex = b.element("X", g.mul_vartime(&x));
        let ey = b.element("Y", h.mul_vartime(&x));
        let ez = b.element("Z", g.mul_vartime(&y));
        let e0 = b.equation(ex, &[(sx, eg)]);
        let e1 = b.equation(ey, &[(sx, eh)]);
        let e2 = b.equation(ez, &[(sy1, eg)]);
        let e3 = b.equation(ez, &[(sy2, eh)]);
        let root = Node::And(vec![e0, e1, Node::Or(vec![e2, e3])]);
        let statement = b.build(root).expect("valid statement");
        let proof = zeenot_sigma::prove(&statement, &[Some(x), Some(y), None], SIGMA_CONTEXT, &mut rng(4))
            .expect("prove");
        SigmaFixture { statement, proof }
    })
}

/// The Bulletproofs fixture: two 8-bit values (4 inner-product rounds).
pub struct RangeFixture {
    /// Generators.
    pub gens: BulletproofGens,
    /// The commitments.
    pub commitments: Vec<Point>,
    /// The proof.
    pub proof: RangeProof,
}

/// Width of [`RangeFixture`]'s values.
pub const RANGE_BITS: usize = 8;

/// The Bulletproofs fixture (built once).
pub fn range_fixture() -> &'static RangeFixture {
    static F: OnceLock<RangeFixture> = OnceLock::new();
    F.get_or_init(|| {
        let gens = BulletproofGens::new(64);
        let blindings = [Scalar::from(5u64), Scalar::from(6u64)];
        let (proof, commitments) =
            RangeProof::prove(&gens, &[3, 250], &blindings, RANGE_BITS, SIGMA_CONTEXT, &mut rng(5))
                .expect("prove");
        RangeFixture { gens, commitments, proof }
    })
}

/// Public values of [`layout_ir`]'s program: a valid set (real commitments), one per line.
pub fn layout_public_seed() -> String {
    let c_in = ir::commitment_decimals(&ir::commit_value(200, &Scalar::from(9u64)));
    let c_out = ir::commitment_decimals(&ir::commit_value(1, &Scalar::from(10u64)));
    let p_minus_1 = {
        let m = ir::modulus_decimal();
        // p ends in ...617: p − 1 ends in ...616
        format!("{}6", &m[..m.len() - 1])
    };
    // public inputs (s, f), the committed input, the outputs (a commitment, f)
    [vec!["-32768".to_owned(), p_minus_1.clone()], c_in.to_vec(), c_out.to_vec(), vec![p_minus_1]]
        .concat()
        .join("\n")
}
