//! The layout-only verifier: the same answers as `groth16::verify`, and batch verification that
//! accepts exactly the batches of valid proofs (any one bad proof, public value or swapped
//! proof makes the whole batch fail).

use ark_bn254::G1Affine;
use ark_ec::AffineRepr;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::json;
use zeenot_circuit::groth16::{self, Proof};
use zeenot_circuit::verifier::{Layout, Verifier};
use zeenot_circuit::{Error, Program, Ty};

/// `f(a: Private[u32], b: Public[u32], c: Committed[u32]) -> (u32, Committed[u32])`-like:
/// a public input, a committed input and a committed output, so the layout has commitments.
fn program() -> Program {
    let doc = json!({
        "version": 1, "name": "f", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "a", "ty": "u32", "vis": "private", "tier": null},
                   {"id": 1, "name": "b", "ty": "u32", "vis": "public", "tier": null},
                   {"id": 2, "name": "c", "ty": "u32", "vis": "committed", "tier": null}],
        "body": [
            {"id": 3, "op": "mul", "ty": "u32", "args": [0, 1], "loc": [4, 11]},
            {"id": 4, "op": "add", "ty": "u32", "args": [3, 2], "loc": [4, 11]},
        ],
        "outputs": [{"name": "return", "value": 4, "vis": "committed"}],
    });
    Program::from_json(&doc.to_string()).unwrap()
}

struct Setup {
    verifier: Verifier,
    proofs: Vec<(Vec<String>, Proof)>,
}

fn setup(n: usize) -> Setup {
    let p = program();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let (pk, vk) = groth16::setup(&p, &mut rng).unwrap();
    let proofs = (0..n as u64)
        .map(|i| {
            let inputs = p.parse_inputs(&[format!("{}", i + 2), "3".into(), format!("{i}")]).unwrap();
            let r = zeenot_crypto::Scalar::from(i + 5);
            let proven = groth16::prove(&p, &pk, &inputs, &[r], &mut rng).unwrap();
            assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
            (proven.public, proven.proof)
        })
        .collect();
    Setup { verifier: Verifier::new(Layout::of(&p), &vk).unwrap(), proofs }
}

fn batch(s: &Setup, proofs: &[(Vec<String>, Proof)]) -> bool {
    let items: Vec<(&[String], &Proof)> = proofs.iter().map(|(x, p)| (x.as_slice(), p)).collect();
    s.verifier.verify_batch(&items, &mut ChaCha20Rng::seed_from_u64(9)).unwrap()
}

#[test]
fn layout_marks_the_commitments() {
    let layout = Layout::of(&program());
    assert_eq!(layout.types(), &[Ty::U(32), Ty::Field, Ty::Field, Ty::Field, Ty::Field]);
    assert_eq!(layout.commitments(), &[1, 3]);
    assert_eq!(Layout::new(layout.types().to_vec(), vec![1, 3]).unwrap(), layout);
    for bad in [vec![0], vec![4], vec![1, 2], vec![3, 1]] {
        assert!(matches!(Layout::new(layout.types().to_vec(), bad), Err(Error::Input(_))));
    }
}

#[test]
fn single_verification_agrees_with_groth16_verify() {
    let s = setup(2);
    let (public, proof) = &s.proofs[0];
    assert!(s.verifier.verify(public, proof).unwrap());
    assert!(!s.verifier.verify(public, &s.proofs[1].1).unwrap());
    let mut wrong = public.clone();
    wrong[0] = "4".into();
    assert!(!s.verifier.verify(&wrong, proof).unwrap());
    wrong[1] = "5".into(); // a commitment that is not a point
    assert!(matches!(s.verifier.verify(&wrong, proof), Err(Error::Input(_))));
}

#[test]
fn a_batch_of_valid_proofs_is_accepted() {
    let s = setup(6);
    assert!(batch(&s, &s.proofs));
    assert!(batch(&s, &s.proofs[..1]));
    assert!(batch(&s, &[]));
}

#[test]
fn one_bad_member_fails_the_batch() {
    let s = setup(4);
    for k in 0..s.proofs.len() {
        // a changed public value
        let mut proofs = s.proofs.clone();
        proofs[k].0[0] = "7".into();
        assert!(!batch(&s, &proofs), "public value of proof {k}");
        // a proof of another statement
        let mut proofs = s.proofs.clone();
        proofs[k].1 = s.proofs[(k + 1) % s.proofs.len()].1.clone();
        assert!(!batch(&s, &proofs), "swapped proof {k}");
        // a proof whose A and C are moved by the same point (still on the curve)
        let mut proofs = s.proofs.clone();
        let c = proofs[k].1.c;
        proofs[k].1.a = (proofs[k].1.a + c).into();
        assert!(!batch(&s, &proofs), "moved proof {k}");
    }
    // two wrong proofs whose errors cancel in an unweighted sum (Σ C_i is unchanged): the
    // random weights are what catch them
    let mut proofs = s.proofs.clone();
    let (c0, c1) = (proofs[0].1.c, proofs[1].1.c);
    proofs[0].1.c = (c0 + c1).into();
    proofs[1].1.c = G1Affine::zero();
    assert!(!batch(&s, &proofs));
}

#[test]
fn malformed_public_values_in_a_batch_name_the_proof() {
    let s = setup(3);
    let mut proofs = s.proofs.clone();
    proofs[2].0[0] = "4294967296".into();
    let items: Vec<(&[String], &Proof)> = proofs.iter().map(|(x, p)| (x.as_slice(), p)).collect();
    let err = s.verifier.verify_batch(&items, &mut ChaCha20Rng::seed_from_u64(1)).unwrap_err();
    assert!(err.to_string().contains("proof 2"), "{err}");
}

#[test]
fn a_key_of_another_shape_is_refused() {
    let s = setup(1);
    let layout = Layout::new(vec![Ty::U(32)], vec![]).unwrap();
    let p = program();
    let (_, vk) = groth16::setup(&p, &mut ChaCha20Rng::seed_from_u64(3)).unwrap();
    assert!(matches!(Verifier::new(layout, &vk), Err(Error::Key(_))));
    drop(s);
}
