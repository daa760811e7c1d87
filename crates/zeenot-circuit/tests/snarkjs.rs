//! snarkjs interoperability: exported files verify with the real `snarkjs groth16 verify`, and a
//! changed public value or proof makes it fail; `vk_alphabeta_12` equals ffjavascript's pairing.
//!
//! Needs `node` and the pinned npm packages (`npm ci` at the repository root, done by
//! `scripts/bootstrap.sh`). Without them the tests say so and pass; set `ZEENOT_REQUIRE_SNARKJS=1`
//! (CI does) to make their absence a failure.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use zeenot_circuit::{groth16, snarkjs, Program};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `node` and the snarkjs CLI, or `None` (after saying why) when they are not installed.
fn tools() -> Option<PathBuf> {
    let cli = repo().join("node_modules/snarkjs/cli.js");
    let node_ok = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if node_ok && cli.exists() {
        return Some(cli);
    }
    let why = "snarkjs interop skipped: needs `node` and `npm ci` at the repository root";
    assert!(std::env::var_os("ZEENOT_REQUIRE_SNARKJS").is_none(), "{why}");
    eprintln!("{why}");
    None
}

/// Signed, public and private inputs, two outputs: `check(a < b); return (a * b - c, a // c)`.
fn program() -> Program {
    let doc = json!({
        "version": 1, "name": "interop", "source": {"file": "interop.py"},
        "inputs": [{"id": 0, "name": "a", "ty": "i32", "vis": "private", "tier": null},
                   {"id": 1, "name": "b", "ty": "i32", "vis": "public", "tier": null},
                   {"id": 2, "name": "c", "ty": "i32", "vis": "public", "tier": null}],
        "body": [
            {"id": 3, "op": "lt", "ty": "bool", "args": [0, 1]},
            {"op": "check", "args": [3], "loc": [2, 4]},
            {"id": 4, "op": "mul", "ty": "i32", "args": [0, 1], "loc": [3, 11]},
            {"id": 5, "op": "sub", "ty": "i32", "args": [4, 2], "loc": [3, 11]},
            {"id": 6, "op": "floordiv", "ty": "i32", "args": [0, 2], "loc": [3, 20]},
        ],
        "outputs": [{"name": "return[0]", "value": 5}, {"name": "return[1]", "value": 6}],
    });
    Program::from_json(&doc.to_string()).unwrap()
}

fn snarkjs_verify(cli: &Path, dir: &Path, vk: &str, public: &str, proof: &str) -> bool {
    std::fs::write(dir.join("vk.json"), vk).unwrap();
    std::fs::write(dir.join("public.json"), public).unwrap();
    std::fs::write(dir.join("proof.json"), proof).unwrap();
    let out = Command::new("node")
        .arg(cli)
        .args(["groth16", "verify", "vk.json", "public.json", "proof.json"])
        .current_dir(dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => {
            assert!(text.contains("OK"), "{text}");
            true
        }
        Some(1) => false,
        _ => panic!("snarkjs crashed: {text}"),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zeenot-snarkjs-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn exported_proof_verifies_with_snarkjs() {
    let Some(cli) = tools() else { return };
    let p = program();
    let (pk, vk) = groth16::setup(&p, &mut ChaCha20Rng::seed_from_u64(11)).unwrap();
    let inputs = p.parse_inputs(&["-7".into(), "5".into(), "2".into()]).unwrap();
    let proven = groth16::prove(&p, &pk, &inputs, &[], &mut ChaCha20Rng::seed_from_u64(12)).unwrap();
    assert_eq!(proven.public, vec!["5", "2", "-37", "-4"]);
    let (vk_json, proof_json, public_json) = snarkjs::export(&p, &vk, &proven.public, &proven.proof).unwrap();
    // negative values appear as canonical field elements
    let public: Vec<String> = serde_json::from_str(&public_json).unwrap();
    assert_eq!(public[2], "21888242871839275222246405745257275088548364400416034343698204186575808495580");
    let dir = scratch("ok");
    assert!(snarkjs_verify(&cli, &dir, &vk_json, &public_json, &proof_json));

    // a changed output
    let mut wrong = public.clone();
    wrong[3] = "4".into();
    assert!(!snarkjs_verify(&cli, &dir, &vk_json, &serde_json::to_string(&wrong).unwrap(), &proof_json));
    // a proof for other inputs
    let other = p.parse_inputs(&["-8".into(), "5".into(), "2".into()]).unwrap();
    let other = groth16::prove(&p, &pk, &other, &[], &mut ChaCha20Rng::seed_from_u64(13)).unwrap();
    let other_json = snarkjs::export(&p, &vk, &other.public, &other.proof).unwrap().1;
    assert!(!snarkjs_verify(&cli, &dir, &vk_json, &public_json, &other_json));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn alphabeta_matches_ffjavascript() {
    let Some(_) = tools() else { return };
    let p = program();
    let (_, vk) = groth16::setup(&p, &mut ChaCha20Rng::seed_from_u64(21)).unwrap();
    let v: Value = serde_json::from_str(&snarkjs::export_vk(&vk)).unwrap();
    let dir = scratch("ab");
    std::fs::write(dir.join("vk.json"), v.to_string()).unwrap();
    // ffjavascript (snarkjs's field library) computes e(alpha, beta) as `zkey export verificationkey` does
    let script = format!(
        "import {{ buildBn128, utils }} from '{}';\n\
         import fs from 'fs';\n\
         const vk = JSON.parse(fs.readFileSync('vk.json', 'utf8'));\n\
         const curve = await buildBn128(true);\n\
         const a = curve.G1.fromObject(utils.unstringifyBigInts(vk.vk_alpha_1));\n\
         const b = curve.G2.fromObject(utils.unstringifyBigInts(vk.vk_beta_2));\n\
         const ab = curve.Gt.toObject(await curve.pairing(a, b));\n\
         console.log(JSON.stringify(utils.stringifyBigInts(ab)));\n\
         await curve.terminate();\n",
        repo().join("node_modules/ffjavascript/main.js").display()
    );
    std::fs::write(dir.join("ab.mjs"), script).unwrap();
    let out = Command::new("node").arg("ab.mjs").current_dir(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let theirs: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(theirs, v["vk_alphabeta_12"]);
    std::fs::remove_dir_all(&dir).ok();
}
