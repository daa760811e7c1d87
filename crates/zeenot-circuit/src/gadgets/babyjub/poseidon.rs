//! Poseidon hash over wires, compatible with circomlib's `Poseidon(n)` / circomlibjs' `poseidon`
//! for `n ∈ 1..=16` inputs (width `t = n + 1`), with the constants of zeenot-crypto's
//! [`PoseidonParams`] (Grain-generated, checked there against circomlibjs).
//!
//! The round structure is the native one ([`PoseidonParams::permute`]): the state is
//! `[init, in_1, …, in_n]` (`init = 0` for [`poseidon`]); each of the `R_F + R_P` rounds adds
//! `t` round constants, applies `x^5` to every cell (the first and last `R_F / 2 = 4` rounds) or
//! to cell 0 (the `R_P` partial rounds in between), and multiplies by the MDS matrix. The hash
//! is cell 0 of the final state.
//!
//! # Cost
//!
//! Constant additions and the MDS product are linear (free); an S-box costs 3 constraints
//! (`x²`, `x⁴`, `x⁵`), and none when its argument is a circuit constant. In the first round
//! cell 0 is `init + c` (a constant for [`poseidon`]), so the hash costs
//! `3·(R_F·t + R_P) − 3`: **213** for one input, **240** for two (circomlib's optimised
//! `Poseidon(2)` is also 240), **321** for five.
//!
//! # Soundness
//!
//! Every S-box output is a new witness fixed by its three product constraints
//! (`x2 = x·x`, `x4 = x2·x2`, `x5 = x4·x`), each a function of the previous state, which is a
//! linear combination of the inputs and earlier S-box outputs: every witness is a function of
//! the inputs, and the returned hash is an exact linear combination of them (no witness of its
//! own, so a caller comparing it to a value adds one equality constraint).

use super::super::{Builder, Result, Wire};
use ark_bn254::Fr;
use ark_ff::Zero;
use ark_relations::r1cs::SynthesisError;
use zeenot_crypto::poseidon::{PoseidonParams, FULL_ROUNDS, MAX_INPUTS};

/// Constraints of [`poseidon`] for `n ∈ 1..=16` variable inputs: `3·(R_F·t + R_P) − 3`.
pub fn constraint_count(n: usize) -> usize {
    let t = n + 1;
    3 * (FULL_ROUNDS * t + zeenot_crypto::poseidon::PARTIAL_ROUNDS[t - 2]) - 3
}

/// `x^5` (3 constraints; free for a constant).
fn pow5(b: &Builder, x: &Wire) -> Result<Wire> {
    let x2 = b.mul(x, x)?;
    let x4 = b.mul(&x2, &x2)?;
    b.mul(&x4, x)
}

/// circomlib's `Poseidon(n)`: the hash of `1..=16` wires (see the module documentation).
///
/// # Errors
///
/// [`SynthesisError::Unsatisfiable`] if `inputs` is empty or longer than 16 (no circuit
/// exists for that arity); otherwise only the constraint system's own errors.
pub fn poseidon(b: &Builder, inputs: &[Wire]) -> Result<Wire> {
    poseidon_with_state(b, inputs, &Wire::constant(Fr::zero(), None))
}

/// circomlib's `PoseidonEx` with `initialState = init` and one output (circomlibjs
/// `poseidon(inputs, init)`): as [`poseidon`] with cell 0 set to `init` (3 more constraints
/// when `init` is not a constant).
pub fn poseidon_with_state(b: &Builder, inputs: &[Wire], init: &Wire) -> Result<Wire> {
    if inputs.is_empty() || inputs.len() > MAX_INPUTS {
        return Err(SynthesisError::Unsatisfiable);
    }
    let t = inputs.len() + 1;
    let params = PoseidonParams::get(t).map_err(|_| SynthesisError::Unsatisfiable)?;
    let mut state: Vec<Wire> = std::iter::once(init.clone()).chain(inputs.iter().cloned()).collect();
    let half = FULL_ROUNDS / 2;
    let rounds = FULL_ROUNDS + params.partial_rounds;
    for r in 0..rounds {
        let consts = &params.round_constants[r * t..(r + 1) * t];
        for (s, c) in state.iter_mut().zip(consts) {
            *s = s.affine(Fr::from(1u64), *c);
        }
        if r < half || r >= half + params.partial_rounds {
            for s in state.iter_mut() {
                *s = pow5(b, s)?;
            }
        } else {
            state[0] = pow5(b, &state[0])?;
        }
        state = params
            .mds
            .iter()
            .map(|row| {
                row.iter()
                    .zip(&state)
                    .fold(Wire::constant(Fr::zero(), None), |acc, (m, s)| acc.add_scaled(*m, s))
            })
            .collect();
    }
    Ok(state.swap_remove(0))
}

#[cfg(test)]
mod tests {
    use super::super::super::test_util::*;
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    fn random_inputs(rng: &mut ChaCha20Rng, n: usize) -> Vec<Fr> {
        (0..n)
            .map(|_| Fr::from(rng.gen::<u128>()) * Fr::from(rng.gen::<u128>()) + Fr::from(rng.gen::<u64>()))
            .collect()
    }

    fn inputs(b: &Builder, v: &[Fr]) -> Vec<Wire> {
        v.iter().map(|x| Wire::var(b.witness(Some(*x)).unwrap(), Some(*x), None)).collect()
    }

    #[test]
    fn poseidon_matches_native_and_is_sound() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        for n in 1..=MAX_INPUTS {
            let reps = if n <= 3 { 3 } else { 1 };
            for k in 0..reps {
                let v = if k == 0 { vec![Fr::zero(); n] } else { random_inputs(&mut rng, n) };
                let b = builder();
                let w = inputs(&b, &v);
                let h = poseidon(&b, &w).unwrap();
                assert_eq!(h.value, Some(zeenot_crypto::poseidon(&v).unwrap()), "arity {n}");
                assert_eq!(b.cs.num_constraints(), constraint_count(n), "arity {n}");
                assert_sound(&b, n);
            }
        }
    }

    #[test]
    fn poseidon_known_vector_and_pinned_counts() {
        // circomlibjs: poseidon([1, 2])
        use std::str::FromStr;
        let b = builder();
        let w = inputs(&b, &[Fr::from(1u64), Fr::from(2u64)]);
        let h = poseidon(&b, &w).unwrap();
        let expected =
            Fr::from_str("7853200120776062878684798364095072458815029376092732009249414926327459813530")
                .unwrap();
        assert_eq!(h.value, Some(expected));
        assert_eq!([constraint_count(1), constraint_count(2), constraint_count(5)], [213, 240, 321]);
        for (n, c) in [(1usize, 213usize), (2, 240), (5, 321)] {
            let b = builder();
            let w = inputs(&b, &vec![Fr::from(3u64); n]);
            poseidon(&b, &w).unwrap();
            assert_eq!(b.cs.num_constraints(), c, "arity {n}");
        }
    }

    #[test]
    fn poseidon_with_state_matches_native() {
        let mut rng = ChaCha20Rng::seed_from_u64(8);
        let v = random_inputs(&mut rng, 3);
        let init = random_inputs(&mut rng, 1)[0];
        let b = builder();
        let w = inputs(&b, &v);
        let iw = inputs(&b, &[init]);
        let h = poseidon_with_state(&b, &w, &iw[0]).unwrap();
        assert_eq!(h.value, Some(zeenot_crypto::poseidon_with_state(&v, init).unwrap()));
        assert_eq!(b.cs.num_constraints(), constraint_count(3) + 3);
        assert_sound(&b, 4);
    }

    #[test]
    fn poseidon_tampered_output_rejected() {
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let v = random_inputs(&mut rng, 2);
        let native = zeenot_crypto::poseidon(&v).unwrap();
        // the honest output, as a witness, is accepted
        let b = builder();
        let w = inputs(&b, &v);
        let h = poseidon(&b, &w).unwrap();
        let out = inputs(&b, &[native]);
        b.enforce_equal(&h, &out[0]).unwrap();
        assert!(b.cs.is_satisfied().unwrap());
        // a wrong one is not
        let b = builder();
        let w = inputs(&b, &v);
        let h = poseidon(&b, &w).unwrap();
        let out = inputs(&b, &[native + Fr::from(1u64)]);
        b.enforce_equal(&h, &out[0]).unwrap();
        assert_unsat(&b);
        // nor the hash of other inputs
        let b = builder();
        let w = inputs(&b, &[v[0], v[1] + Fr::from(1u64)]);
        let h = poseidon(&b, &w).unwrap();
        let out = inputs(&b, &[native]);
        b.enforce_equal(&h, &out[0]).unwrap();
        assert_unsat(&b);
    }

    #[test]
    fn poseidon_constant_inputs_and_bad_arity() {
        let v = [Fr::from(5u64), Fr::from(6u64)];
        let b = builder();
        let w: Vec<Wire> = v.iter().map(|x| Wire::constant(*x, None)).collect();
        let h = poseidon(&b, &w).unwrap();
        assert_eq!(h.konst, Some(zeenot_crypto::poseidon(&v).unwrap()));
        assert_eq!(b.cs.num_constraints(), 0);
        assert!(poseidon(&b, &[]).is_err());
        assert!(poseidon(&b, &vec![Wire::constant(Fr::zero(), None); MAX_INPUTS + 1]).is_err());
    }
}
