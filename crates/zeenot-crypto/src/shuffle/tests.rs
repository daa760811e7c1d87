use ark_ff::UniformRand;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

use super::*;
use crate::dlog::DlogTable;
use crate::elgamal::SecretKey;

const CTX: &[u8] = b"test query 7";

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

/// `n` rows of `w` encrypted small values (row `j`, attribute `k` holds `100·j + k`).
fn setup(n: usize, w: usize, seed: u64) -> (SecretKey, PublicKey, Rows) {
    let mut r = rng(seed);
    let sk = SecretKey::random(&mut r);
    let pk = sk.public_key();
    let rows = (0..n).map(|j| (0..w).map(|k| pk.encrypt((100 * j + k) as u64, &mut r)).collect()).collect();
    (sk, pk, rows)
}

fn decrypt_rows(sk: &SecretKey, rows: &[Vec<Ciphertext>]) -> Vec<Vec<u64>> {
    let table = DlogTable::new(16).unwrap();
    let mut v: Vec<Vec<u64>> =
        rows.iter().map(|r| r.iter().map(|c| sk.decrypt(c, &table).unwrap()).collect()).collect();
    v.sort();
    v
}

/// Re-encrypts `input` under `perm` with fresh randomness; returns the rows and the randomness.
fn reencrypt(pk: &PublicKey, input: &Rows, perm: &[usize], seed: u64) -> (Rows, Vec<Vec<Scalar>>) {
    let mut r = rng(seed);
    let rho: Vec<Vec<Scalar>> =
        perm.iter().map(|_| input[0].iter().map(|_| Scalar::rand(&mut r)).collect()).collect();
    let out = perm
        .iter()
        .zip(&rho)
        .map(|(&j, rs)| input[j].iter().zip(rs).map(|(e, x)| pk.rerandomize_with(e, x)).collect())
        .collect();
    (out, rho)
}

fn roundtrip(p: &ShuffleProof) -> ShuffleProof {
    ShuffleProof::decode(&p.encode(), p.rows(), p.width()).unwrap()
}

#[test]
fn honest_shuffles_verify_and_keep_the_rows() {
    for (n, w) in [(1, 1), (2, 1), (10, 1), (100, 1), (1, 3), (2, 3), (10, 3), (100, 3)] {
        let (sk, pk, rows) = setup(n, w, n as u64 * 10 + w as u64);
        let (out, proof) = shuffle(&pk, &rows, CTX, &mut rng(99)).unwrap();
        assert_eq!(shape(&out).unwrap(), (n, w));
        verify_shuffle(&pk, &rows, &out, &proof, CTX).unwrap();
        let bytes = proof.encode();
        assert_eq!(bytes.len(), ShuffleProof::encoded_len(n, w).unwrap());
        verify_shuffle(&pk, &rows, &out, &roundtrip(&proof), CTX).unwrap();
        assert_eq!(decrypt_rows(&sk, &rows), decrypt_rows(&sk, &out), "n={n} w={w}");
        // Every ciphertext is re-randomised: none of the output's appears in the input.
        for row in &out {
            for c in row {
                assert!(!rows.iter().flatten().any(|e| e == c));
            }
        }
    }
}

#[test]
fn rows_codec_round_trips_and_checks() {
    let (_, _, rows) = setup(3, 2, 1);
    let bytes = encode_rows(&rows);
    assert_eq!(decode_rows(&bytes, 3, 2).unwrap(), rows);
    assert!(decode_rows(&bytes, 2, 3).is_ok()); // same size, other shape: the caller's choice
    assert!(decode_rows(&bytes[1..], 3, 2).is_err());
    assert!(decode_rows(&bytes, 0, 2).is_err());
    let mut bad = bytes.clone();
    bad[31] ^= 0x01; // y changes: no longer the same (or any subgroup) point, almost surely
    assert!(decode_rows(&bad, 3, 2).map(|r| r != rows).unwrap_or(true));
}

/// The permutation an honest shuffle used, recovered from the plaintexts (test data rows are
/// distinct).
fn shuffled(n: usize, w: usize, seed: u64) -> (SecretKey, PublicKey, Rows, Rows, ShuffleProof) {
    let (sk, pk, rows) = setup(n, w, seed);
    let (out, proof) = shuffle(&pk, &rows, CTX, &mut rng(seed + 1)).unwrap();
    (sk, pk, rows, out, proof)
}

#[test]
fn rejects_tampered_outputs_with_the_honest_proof() {
    let (_, pk, rows, out, proof) = shuffled(10, 3, 5);
    let mut r = rng(6);
    // A replaced row (fresh encryptions of other values).
    let mut bad = out.clone();
    bad[3] = (0..3).map(|_| pk.encrypt(7, &mut r)).collect();
    assert_eq!(verify_shuffle(&pk, &rows, &bad, &proof, CTX), Err(Error::InvalidProof));
    // A re-randomised row (same plaintexts, randomness not the proof's).
    let mut bad = out.clone();
    bad[3] = bad[3].iter().map(|c| pk.rerandomize(c, &mut r)).collect();
    assert_eq!(verify_shuffle(&pk, &rows, &bad, &proof, CTX), Err(Error::InvalidProof));
    // A duplicated row.
    let mut bad = out.clone();
    bad[4] = bad[3].clone();
    assert_eq!(verify_shuffle(&pk, &rows, &bad, &proof, CTX), Err(Error::InvalidProof));
    // A changed plaintext.
    let mut bad = out.clone();
    bad[0][1] = bad[0][1].add_plaintext(1);
    assert_eq!(verify_shuffle(&pk, &rows, &bad, &proof, CTX), Err(Error::InvalidProof));
    // Attributes swapped across records.
    let mut bad = out.clone();
    let tmp = bad[0][2];
    bad[0][2] = bad[1][2];
    bad[1][2] = tmp;
    assert_eq!(verify_shuffle(&pk, &rows, &bad, &proof, CTX), Err(Error::InvalidProof));
    // Two rows exchanged (a different permutation than the one committed to).
    let mut bad = out.clone();
    bad.swap(0, 1);
    assert_eq!(verify_shuffle(&pk, &rows, &bad, &proof, CTX), Err(Error::InvalidProof));
    // A dropped row: the shapes no longer match.
    assert!(matches!(verify_shuffle(&pk, &rows, &out[1..], &proof, CTX), Err(Error::LengthMismatch { .. })));
    // A dropped attribute.
    let narrow: Rows = out.iter().map(|r| r[..2].to_vec()).collect();
    assert!(matches!(verify_shuffle(&pk, &rows, &narrow, &proof, CTX), Err(Error::LengthMismatch { .. })));
    // The input changed instead.
    let mut bad_in = rows.clone();
    bad_in[2][0] = bad_in[2][0].add_plaintext(1);
    assert_eq!(verify_shuffle(&pk, &bad_in, &out, &proof, CTX), Err(Error::InvalidProof));
    verify_shuffle(&pk, &rows, &out, &proof, CTX).unwrap();
}

/// A cheating prover that proves its own tampered output with the best witness it has: the
/// algebra, not only the hash, must catch it.
#[test]
fn rejects_cheating_provers() {
    let (_, pk, rows) = setup(8, 3, 11);
    let perm: Vec<usize> = vec![3, 0, 7, 1, 6, 2, 5, 4];
    let (out, rho) = reencrypt(&pk, &rows, &perm, 12);
    let prove = |out: &Rows, perm: &[usize], rho: &[Vec<Scalar>]| {
        prove_shuffle(&pk, &rows, out, perm, rho, CTX, &mut rng(13)).unwrap()
    };
    let honest = prove(&out, &perm, &rho);
    verify_shuffle(&pk, &rows, &out, &honest, CTX).unwrap();

    // A changed plaintext, proved with the honest witness.
    let mut bad = out.clone();
    bad[2][0] = bad[2][0].add_plaintext(1);
    assert_eq!(verify_shuffle(&pk, &rows, &bad, &prove(&bad, &perm, &rho), CTX), Err(Error::InvalidProof));
    // A replaced row.
    let mut bad = out.clone();
    bad[5] = rows[0].iter().map(|c| pk.rerandomize_with(c, &Scalar::from(9u64))).collect();
    assert_eq!(verify_shuffle(&pk, &rows, &bad, &prove(&bad, &perm, &rho), CTX), Err(Error::InvalidProof));
    // A duplicated row: the output re-encrypts row 3 twice (a map, not a permutation); the
    // prover commits to a permutation and uses the duplicate's true randomness.
    let dup: Vec<usize> = vec![3, 3, 7, 1, 6, 2, 5, 4];
    let (bad, rho_dup) = reencrypt(&pk, &rows, &dup, 14);
    assert_eq!(
        verify_shuffle(&pk, &rows, &bad, &prove(&bad, &perm, &rho_dup), CTX),
        Err(Error::InvalidProof)
    );
    // Attributes swapped across records 0 and 1, proved with either row's permutation.
    let mut bad = out.clone();
    let tmp = bad[0][1];
    bad[0][1] = bad[1][1];
    bad[1][1] = tmp;
    let mut rho_sw = rho.clone();
    let t = rho_sw[0][1];
    rho_sw[0][1] = rho_sw[1][1];
    rho_sw[1][1] = t;
    assert_eq!(verify_shuffle(&pk, &rows, &bad, &prove(&bad, &perm, &rho_sw), CTX), Err(Error::InvalidProof));
    let mut perm_sw = perm.clone();
    perm_sw.swap(0, 1);
    assert_eq!(
        verify_shuffle(&pk, &rows, &bad, &prove(&bad, &perm_sw, &rho_sw), CTX),
        Err(Error::InvalidProof)
    );
    // A wrong permutation for a correct output.
    let mut wrong = perm.clone();
    wrong.swap(2, 3);
    assert_eq!(verify_shuffle(&pk, &rows, &out, &prove(&out, &wrong, &rho), CTX), Err(Error::InvalidProof));
    // Not a permutation at all: refused by the prover.
    assert!(prove_shuffle(&pk, &rows, &out, &dup, &rho, CTX, &mut rng(1)).is_err());
}

#[test]
fn rejects_other_context_key_and_statement_swaps() {
    let (_, pk, rows, out, proof) = shuffled(10, 1, 21);
    assert_eq!(verify_shuffle(&pk, &rows, &out, &proof, b"another query"), Err(Error::InvalidProof));
    assert_eq!(verify_shuffle(&pk, &rows, &out, &proof, b""), Err(Error::InvalidProof));
    let other = SecretKey::random(&mut rng(22)).public_key();
    assert_eq!(verify_shuffle(&other, &rows, &out, &proof, CTX), Err(Error::InvalidProof));
    // Input and output exchanged.
    assert_eq!(verify_shuffle(&pk, &out, &rows, &proof, CTX), Err(Error::InvalidProof));
    // A proof of another shuffle of the same input.
    let (out2, proof2) = shuffle(&pk, &rows, CTX, &mut rng(23)).unwrap();
    verify_shuffle(&pk, &rows, &out2, &proof2, CTX).unwrap();
    assert_eq!(verify_shuffle(&pk, &rows, &out, &proof2, CTX), Err(Error::InvalidProof));
}

#[test]
fn rejects_truncated_flipped_and_misshapen_proofs() {
    let (_, pk, rows, out, proof) = shuffled(2, 1, 31);
    let bytes = proof.encode();
    for cut in [0, 1, 11, 12, 13, bytes.len() - 32, bytes.len() - 1] {
        assert!(ShuffleProof::decode(&bytes[..cut], 2, 1).is_err(), "cut {cut}");
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(ShuffleProof::decode(&long, 2, 1).is_err());
    // Every single bit flip is caught, by the decoder or by the verifier.
    for i in 0..bytes.len() * 8 {
        let mut b = bytes.clone();
        b[i / 8] ^= 1 << (i % 8);
        let ok = ShuffleProof::decode(&b, 2, 1).and_then(|p| verify_shuffle(&pk, &rows, &out, &p, CTX));
        assert!(ok.is_err(), "bit {i} flipped and still accepted");
    }
    // Wrong N or w: refused from the header, before anything else is read.
    assert!(ShuffleProof::decode(&bytes, 3, 1).is_err());
    assert!(ShuffleProof::decode(&bytes, 2, 2).is_err());
    let mut huge = bytes.clone();
    huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(ShuffleProof::decode(&huge, 2, 1).is_err());
    assert!(ShuffleProof::decode(&huge, u32::MAX as usize, 1).is_err());
    // A proof for rows of another shape does not verify these.
    let (_, pk3, rows3, out3, proof3) = shuffled(2, 3, 32);
    verify_shuffle(&pk3, &rows3, &out3, &proof3, CTX).unwrap();
    assert!(matches!(verify_shuffle(&pk, &rows, &out, &proof3, CTX), Err(Error::LengthMismatch { .. })));
    // A point outside the subgroup (order-2 point (0, −1)) in the proof is refused.
    let mut torsion = bytes.clone();
    let mut minus_one = crate::curve::encode_base(&-crate::curve::Base::from(1u64));
    minus_one[31] &= 0x7f;
    torsion[12..44].copy_from_slice(&minus_one);
    assert_eq!(ShuffleProof::decode(&torsion, 2, 1), Err(Error::NotInSubgroup));
}

#[test]
fn shapes_are_bounded() {
    let (_, pk, rows) = setup(2, 2, 41);
    assert!(shape(&[]).is_err());
    assert!(shape(&[vec![]]).is_err());
    let ragged = vec![rows[0].clone(), rows[1][..1].to_vec()];
    assert!(shape(&ragged).is_err());
    assert!(shuffle(&pk, &ragged, CTX, &mut rng(1)).is_err());
    assert!(shape(&[vec![Ciphertext::zero(); MAX_WIDTH + 1]]).is_err());
    assert!(ShuffleProof::encoded_len(usize::MAX, 1).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Any permutation proves and verifies; the same proof fails once two output rows with
    /// different plaintexts are exchanged.
    #[test]
    fn any_permutation_verifies(
        perm in (1usize..9).prop_flat_map(|n| Just((0..n).collect::<Vec<_>>()).prop_shuffle()),
        w in 1usize..3,
        seed in any::<u64>(),
    ) {
        let n = perm.len();
        let (sk, pk, rows) = setup(n, w, seed);
        let (out, rho) = reencrypt(&pk, &rows, &perm, seed ^ 1);
        let proof = prove_shuffle(&pk, &rows, &out, &perm, &rho, CTX, &mut rng(seed ^ 2)).unwrap();
        prop_assert!(verify_shuffle(&pk, &rows, &out, &roundtrip(&proof), CTX).is_ok());
        prop_assert_eq!(decrypt_rows(&sk, &rows), decrypt_rows(&sk, &out));
        if n > 1 {
            let mut bad = out.clone();
            bad.swap(0, n - 1);
            prop_assert_eq!(verify_shuffle(&pk, &rows, &bad, &proof, CTX), Err(Error::InvalidProof));
        }
    }
}

/// `k` shuffles of lists of `n` rows of width `w` in a chain (each the next one's input), as
/// the answering servers produce them, with one context each.
fn chain(k: usize, n: usize, w: usize, seed: u64) -> (PublicKey, Vec<Rows>, Vec<ShuffleProof>, Vec<Vec<u8>>) {
    let (_, pk, rows) = setup(n, w, seed);
    let mut lists = vec![rows];
    let mut proofs = Vec::new();
    let contexts: Vec<Vec<u8>> = (0..k).map(|i| format!("query 7|server {i}").into_bytes()).collect();
    for (i, ctx) in contexts.iter().enumerate() {
        let (out, proof) = shuffle(&pk, &lists[i], ctx, &mut rng(seed + 1 + i as u64)).unwrap();
        lists.push(out);
        proofs.push(proof);
    }
    (pk, lists, proofs, contexts)
}

fn statements<'a>(
    pk: &'a PublicKey,
    lists: &'a [Rows],
    proofs: &'a [ShuffleProof],
    contexts: &'a [Vec<u8>],
) -> Vec<ShuffleStatement<'a>> {
    (0..proofs.len())
        .map(|i| ShuffleStatement {
            pk,
            input: &lists[i],
            output: &lists[i + 1],
            proof: &proofs[i],
            context: &contexts[i],
        })
        .collect()
}

#[test]
fn batches_of_honest_shuffles_verify() {
    assert_eq!(verify_shuffles(&[]), Ok(()));
    let (pk, lists, proofs, ctx) = chain(4, 12, 2, 100);
    let st = statements(&pk, &lists, &proofs, &ctx);
    verify_shuffles(&st).unwrap();
    verify_shuffles(&st[..1]).unwrap();
    assert!(invalid_shuffles(&st).is_empty());
    // Mixed shapes, keys and contexts in one batch (the h_i of the longest list are shared).
    let (pk2, lists2, proofs2, ctx2) = chain(2, 5, 1, 200);
    let mut mixed = st.clone();
    mixed.extend(statements(&pk2, &lists2, &proofs2, &ctx2));
    verify_shuffles(&mixed).unwrap();
}

#[test]
fn a_batch_with_one_bad_proof_fails_and_names_it() {
    let (pk, lists, proofs, ctx) = chain(4, 10, 1, 300);
    // A tampered response (one s'_i; its h_i is a base the batch shares).
    let mut tampered = proofs.clone();
    tampered[2].s_prime[3] += Scalar::from(1u64);
    let st = statements(&pk, &lists, &tampered, &ctx);
    assert_eq!(verify_shuffles(&st), Err(Error::InvalidProof));
    assert_eq!(invalid_shuffles(&st), vec![2]);
    // A tampered s_1 (a coefficient of B, shared too) and a tampered sigma commitment.
    let mut tampered = proofs.clone();
    tampered[0].s1 += Scalar::from(1u64);
    tampered[3].t_hat[0] += Point::generator();
    let st = statements(&pk, &lists, &tampered, &ctx);
    assert_eq!(verify_shuffles(&st), Err(Error::InvalidProof));
    assert_eq!(invalid_shuffles(&st), vec![0, 3]);
    // Two proofs swapped between their statements: both named.
    let mut swapped = proofs.clone();
    swapped.swap(1, 2);
    let st = statements(&pk, &lists, &swapped, &ctx);
    assert_eq!(verify_shuffles(&st), Err(Error::InvalidProof));
    assert_eq!(invalid_shuffles(&st), vec![1, 2]);
    // Two contexts swapped: the proofs are bound to their own.
    let mut ctx_swapped = ctx.clone();
    ctx_swapped.swap(0, 3);
    let st = statements(&pk, &lists, &proofs, &ctx_swapped);
    assert_eq!(invalid_shuffles(&st), vec![0, 3]);
    // A valid proof of another list: a second shuffle of the same input, its proof presented
    // for the first shuffle's output.
    let (_, other) = shuffle(&pk, &lists[1], &ctx[1], &mut rng(999)).unwrap();
    let mut wrong = proofs.clone();
    wrong[1] = other;
    let st = statements(&pk, &lists, &wrong, &ctx);
    assert_eq!(verify_shuffles(&st), Err(Error::InvalidProof));
    assert_eq!(invalid_shuffles(&st), vec![1]);
}

#[test]
fn two_bad_proofs_with_opposite_errors_are_both_named() {
    // Proof 0's t_1 moved by +B and proof 1's by −B: errors that would cancel if the batch
    // only added the proofs' equations up.
    let (pk, lists, proofs, ctx) = chain(2, 6, 1, 400);
    let mut bad = proofs.clone();
    bad[0].t1 += Point::generator();
    bad[1].t1 -= Point::generator();
    let st = statements(&pk, &lists, &bad, &ctx);
    assert_eq!(verify_shuffles(&st), Err(Error::InvalidProof));
    assert_eq!(invalid_shuffles(&st), vec![0, 1]);
}

#[test]
fn a_batch_with_a_misshapen_statement_is_refused() {
    let (pk, lists, proofs, ctx) = chain(2, 6, 1, 500);
    let short: Rows = lists[2][..5].to_vec();
    let mut st = statements(&pk, &lists, &proofs, &ctx);
    st[1].output = &short;
    assert!(matches!(verify_shuffles(&st), Err(Error::LengthMismatch { .. })));
    assert_eq!(invalid_shuffles(&st), vec![1]);
}
