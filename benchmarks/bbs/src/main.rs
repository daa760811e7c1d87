//! BBS (docknetwork's `bbs_plus`, BLS12-381) measured the way `benchmarks/cashlib.py` measures
//! zeenot's keyed-verification credentials: a signature on `--attributes` attributes (10), and a
//! proof of possession revealing `--revealed` of them (1, the first ones), each step timed
//! `--reps` times, wall clock and this process's CPU time (all threads, as Python's
//! `time.process_time`), median and minimum. Prints one JSON document on stdout.
//!
//! What each step includes:
//! * keygen: parameters hashed from a label, a key pair (once, wall time only);
//! * sign: `Signature23G1::new` (BBS of the 2023 paper: `A = (g1 + Σ h_i·m_i)/(e + x)`), 80 bytes;
//! * verify: `Signature23G1::verify` (the pairing check) with the issuer's key and parameters
//!   prepared once for pairings, as a verifier of one issuer keeps them;
//! * possession, prove: the protocol's commitments, the Fiat-Shamir challenge (Blake2b-512 over
//!   the public key, the protocol's contribution — the randomised signature, the commitments, the
//!   parameters and the revealed attributes — and the verifier's nonce), the responses, and the
//!   proof serialised (compressed);
//! * possession, verify: the proof decoded from its bytes (every point checked on the curve and in
//!   the subgroup), the challenge recomputed, the Schnorr relations and the pairing equation
//!   `e(A_bar, pk) = e(B_bar, g2)` checked.
//!
//! Two proofs of possession: `cdl`, the crate's default (`prelude::PoKOfSignature23G1Protocol`,
//! Appendix B of "Revisiting BBS Signatures", 634 bytes for 10 attributes with 1 revealed), and
//! `ietf`, Appendix A as in the IETF draft (`proof_23_ietf`).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use ark_bls12_381::{Bls12_381, Fr};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use ark_std::UniformRand;
use bbs_plus::prelude::{
    KeypairG2, PreparedPublicKeyG2, PreparedSignatureParams23G1, Signature23G1, SignatureParams23G1,
};
use bbs_plus::{proof_23_cdl, proof_23_ietf};
use blake2::Blake2b512;
use dock_crypto_utils::signature::MessageOrBlinding;
use rand::rngs::StdRng;
use rand::SeedableRng;
use schnorr_pok::compute_random_oracle_challenge;
use serde_json::{json, Value};

type E = Bls12_381;

/// This process's CPU time (user and system, every thread) in seconds.
fn process_cpu_s() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant libc knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Runs `f` `reps` times (after one untimed warm-up run) and returns the timings as JSON
/// (`wall_ms` and `cpu_ms`, each `[median, min]`) with the last result.
fn timed<T>(reps: usize, mut f: impl FnMut() -> T) -> (Value, T) {
    let mut out = f();
    let mut wall = Vec::with_capacity(reps);
    let mut cpu = Vec::with_capacity(reps);
    for _ in 0..reps {
        let c = process_cpu_s();
        let t = Instant::now();
        out = f();
        wall.push(t.elapsed().as_secs_f64() * 1e3);
        cpu.push((process_cpu_s() - c) * 1e3);
    }
    let wall_min = wall.iter().copied().fold(f64::INFINITY, f64::min);
    let cpu_min = cpu.iter().copied().fold(f64::INFINITY, f64::min);
    let v = json!({
        "wall_ms": [median(&mut wall), wall_min],
        "cpu_ms": [median(&mut cpu), cpu_min],
    });
    (v, out)
}

struct Args {
    reps: usize,
    attributes: usize,
    revealed: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args { reps: 30, attributes: 10, revealed: 1 };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = |name: &str| -> Result<usize, String> {
            let v = it.next().ok_or(format!("{name} needs a value"))?;
            v.parse::<usize>().map_err(|_| format!("{name}: not a count: {v}"))
        };
        match flag.as_str() {
            "--reps" => args.reps = value("--reps")?,
            "--attributes" => args.attributes = value("--attributes")?,
            "--revealed" => args.revealed = value("--revealed")?,
            "-h" | "--help" => {
                return Err("usage: bbs-bench [--reps 30] [--attributes 10] [--revealed 1]".into())
            }
            other => return Err(format!("unknown argument {other} (see --help)")),
        }
    }
    if args.reps == 0 || args.attributes == 0 || args.attributes > 1024 {
        return Err("--reps must be at least 1 and --attributes from 1 to 1024".into());
    }
    if args.revealed >= args.attributes {
        return Err("--revealed must be fewer than --attributes".into());
    }
    Ok(args)
}

/// The Fiat-Shamir challenge: the public key, the protocol's contribution, the verifier's nonce.
fn challenge(contribution: &[u8], pk_bytes: &[u8], nonce: &[u8]) -> Fr {
    let mut bytes = Vec::with_capacity(pk_bytes.len() + contribution.len() + nonce.len());
    bytes.extend_from_slice(pk_bytes);
    bytes.extend_from_slice(contribution);
    bytes.extend_from_slice(nonce);
    compute_random_oracle_challenge::<Fr, Blake2b512>(&bytes)
}

/// The attributes as the prover shows them: the revealed ones in the clear, the others hidden.
fn shown<'a>(
    messages: &'a [Fr],
    revealed: &'a BTreeSet<usize>,
) -> impl Iterator<Item = MessageOrBlinding<'a, Fr>> + 'a {
    messages.iter().enumerate().map(move |(i, m)| {
        if revealed.contains(&i) {
            MessageOrBlinding::RevealMessage(m)
        } else {
            MessageOrBlinding::BlindMessageRandomly(m)
        }
    })
}

const NONCE: &[u8] = b"zeenot bbs-bench verifier nonce";

/// A verifier of one issuer: its key and parameters prepared for pairings once.
struct Verifier<'a> {
    revealed: &'a BTreeMap<usize, Fr>,
    params: &'a SignatureParams23G1<E>,
    pk_bytes: &'a [u8],
    prepared_pk: &'a PreparedPublicKeyG2<E>,
    prepared_params: &'a PreparedSignatureParams23G1<E>,
}

impl Verifier<'_> {
    /// Decodes an Appendix B proof (points checked) and verifies it under `nonce`.
    fn cdl(&self, wire: &[u8], nonce: &[u8]) -> bool {
        let Ok(proof) = proof_23_cdl::PoKOfSignature23G1Proof::<E>::deserialize_compressed(wire) else {
            return false;
        };
        let mut contribution = Vec::new();
        if proof.challenge_contribution(self.revealed, self.params, &mut contribution).is_err() {
            return false;
        }
        let c = challenge(&contribution, self.pk_bytes, nonce);
        proof.verify(self.revealed, &c, self.prepared_pk.clone(), self.prepared_params.clone()).is_ok()
    }

    /// Decodes an Appendix A (IETF draft) proof (points checked) and verifies it under `nonce`.
    fn ietf(&self, wire: &[u8], nonce: &[u8]) -> bool {
        let Ok(proof) = proof_23_ietf::PoKOfSignature23G1Proof::<E>::deserialize_compressed(wire) else {
            return false;
        };
        let mut contribution = Vec::new();
        if proof.challenge_contribution(self.revealed, self.params, &mut contribution).is_err() {
            return false;
        }
        let c = challenge(&contribution, self.pk_bytes, nonce);
        proof.verify(self.revealed, &c, self.prepared_pk.clone(), self.prepared_params.clone()).is_ok()
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bbs-bench: {e}");
            std::process::exit(2);
        }
    };
    let n = args.attributes;
    let mut rng = StdRng::from_entropy();

    let t = Instant::now();
    let params = SignatureParams23G1::<E>::new::<Blake2b512>(b"zeenot bbs-bench", n as u32);
    let keypair = KeypairG2::<E>::generate_using_rng_and_bbs23_params(&mut rng, &params);
    let keygen_ms = t.elapsed().as_secs_f64() * 1e3;
    assert!(params.is_valid() && keypair.public_key.is_valid());
    let sk = &keypair.secret_key;
    let pk = &keypair.public_key;
    let mut pk_bytes = Vec::new();
    pk.serialize_compressed(&mut pk_bytes).expect("serialise the public key");
    // A verifier of one issuer prepares its key and parameters for pairings once.
    let prepared_pk = PreparedPublicKeyG2::<E>::from(pk.clone());
    let prepared_params = PreparedSignatureParams23G1::<E>::from(params.clone());

    let messages: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
    let revealed_ids: BTreeSet<usize> = (0..args.revealed).collect();
    let revealed: BTreeMap<usize, Fr> = revealed_ids.iter().map(|&i| (i, messages[i])).collect();

    let (sign, sig) =
        timed(args.reps, || Signature23G1::<E>::new(&mut rng, &messages, sk, &params).expect("sign"));
    let mut sig_bytes = Vec::new();
    sig.serialize_compressed(&mut sig_bytes).expect("serialise the signature");
    let (verify, ()) = timed(args.reps, || {
        sig.verify(&messages, prepared_pk.clone(), prepared_params.clone())
            .expect("an honest signature verifies")
    });

    let v = Verifier {
        revealed: &revealed,
        params: &params,
        pk_bytes: &pk_bytes,
        prepared_pk: &prepared_pk,
        prepared_params: &prepared_params,
    };

    // Appendix B (the crate's default proof of possession).
    let (cdl_prove, cdl_wire) = timed(args.reps, || {
        let pok = proof_23_cdl::PoKOfSignature23G1Protocol::init(
            &mut rng,
            &sig,
            &params,
            shown(&messages, &revealed_ids),
        )
        .expect("init");
        let mut contribution = Vec::new();
        pok.challenge_contribution(&revealed, &params, &mut contribution).expect("challenge contribution");
        let proof = pok.gen_proof(&challenge(&contribution, &pk_bytes, NONCE)).expect("proof");
        let mut wire = Vec::new();
        proof.serialize_compressed(&mut wire).expect("serialise");
        wire
    });
    let (cdl_verify, cdl_ok) = timed(args.reps, || v.cdl(&cdl_wire, NONCE));

    // Appendix A (the IETF draft's proof).
    let (ietf_prove, ietf_wire) = timed(args.reps, || {
        let pok = proof_23_ietf::PoKOfSignature23G1Protocol::init(
            &mut rng,
            &sig,
            &params,
            shown(&messages, &revealed_ids),
        )
        .expect("init");
        let mut contribution = Vec::new();
        pok.challenge_contribution(&revealed, &params, &mut contribution).expect("challenge contribution");
        let proof = pok.gen_proof(&challenge(&contribution, &pk_bytes, NONCE)).expect("proof");
        let mut wire = Vec::new();
        proof.serialize_compressed(&mut wire).expect("serialise");
        wire
    });
    let (ietf_verify, ietf_ok) = timed(args.reps, || v.ietf(&ietf_wire, NONCE));

    // What was timed is a verifier that accepts honest proofs and refuses a replay under another
    // nonce and a proof with a flipped byte (inside the last response).
    assert!(cdl_ok && ietf_ok, "honest proofs of possession verify");
    let flip = |wire: &[u8]| {
        let mut w = wire.to_vec();
        let i = w.len() - 18;
        w[i] ^= 1;
        w
    };
    assert!(!v.cdl(&cdl_wire, b"another nonce") && !v.cdl(&flip(&cdl_wire), NONCE));
    assert!(!v.ietf(&ietf_wire, b"another nonce") && !v.ietf(&flip(&ietf_wire), NONCE));

    let out = json!({
        "scheme": "BBS (Tessaro-Zhu 2023, Signature23G1) on BLS12-381",
        "crate": "bbs_plus 0.25.0 (docknetwork, arkworks 0.4)",
        "attributes": n,
        "revealed": args.revealed,
        "reps": args.reps,
        "threads": rayon::current_num_threads(),
        "keygen_ms": keygen_ms,
        "sign": sign,
        "verify": verify,
        "signature_bytes": sig_bytes.len(),
        "possession_cdl": {"prove": cdl_prove, "verify": cdl_verify, "bytes": cdl_wire.len()},
        "possession_ietf": {"prove": ietf_prove, "verify": ietf_verify, "bytes": ietf_wire.len()},
    });
    println!("{}", serde_json::to_string_pretty(&out).expect("JSON"));
}
