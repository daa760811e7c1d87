//! Poseidon over BN254's scalar field, compatible with circomlib's `Poseidon(n)` template and
//! circomlibjs' `poseidon` (`poseidon_reference.js`).
//!
//! Parameters: width `t = n + 1` for `n ∈ 1..=16` inputs, S-box `x^5`, `R_F = 8` full rounds
//! and `R_P = [56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60, 65, 70, 60, 64, 68][t − 2]`
//! partial rounds. The state is `[init, in_1, …, in_n]` (`init = 0` for [`poseidon`]); each
//! round adds `t` constants, applies the S-box (to all cells in the first and last four
//! rounds, to cell 0 otherwise), and multiplies by the MDS matrix (`s'_i = Σ_j M[i][j]·s_j`).
//! The output is cell 0.
//!
//! # Constants
//!
//! Round constants and MDS matrices are *generated* here, as the Poseidon authors' reference
//! script `generate_parameters_grain.sage` does with the arguments circomlib used
//! (`1 0 254 t 8 R_P p`: prime field, S-box `x^α`, 254-bit field, width `t`, `R_F`, `R_P`):
//!
//! * an 80-bit Grain LFSR is seeded with the bits `field=1` (2 bits), `sbox=0` (4), `n=254`
//!   (12), `t` (12), `R_F` (10), `R_P` (10) and thirty ones, most significant bit first, and
//!   clocked 160 times; the tap is `b62 ⊕ b51 ⊕ b38 ⊕ b23 ⊕ b13 ⊕ b0`;
//! * output bits are self-shrunk: of each pair of fresh bits, the second is kept iff the first
//!   is 1;
//! * each round constant is the next 254 bits read big-endian, redrawn while `≥ p`;
//! * then `2t` values of 254 bits, reduced mod `p`, give `x_0..x_{t−1}, y_0..y_{t−1}` (redrawn
//!   if any two coincide) and the Cauchy matrix `M[i][j] = 1/(x_i + y_j)`.
//!
//! The reference script also tests the matrix against invariant-subspace attacks and would
//! redraw if a test failed; for circomlib's 16 widths no redraw happens, which the vector
//! tests confirm (every width is checked against circomlibjs, and a digest of all constants
//! too).

use std::sync::OnceLock;

use ark_ff::{BigInt, Field, PrimeField, Zero};

use crate::curve::Base;
use crate::error::{Error, Result};

/// Full rounds.
pub const FULL_ROUNDS: usize = 8;

/// Partial rounds for `t = 2..=17` (index `t − 2`).
pub const PARTIAL_ROUNDS: [usize; 16] = [56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60, 65, 70, 60, 64, 68];

/// The most inputs one call takes.
pub const MAX_INPUTS: usize = 16;

/// Constants for one width.
#[derive(Clone, Debug)]
pub struct PoseidonParams {
    /// The width `t`.
    pub t: usize,
    /// Partial rounds.
    pub partial_rounds: usize,
    /// `(R_F + R_P)·t` round constants, round-major.
    pub round_constants: Vec<Base>,
    /// The `t × t` MDS matrix, row-major (`new_i = Σ_j mds[i][j]·old_j`).
    pub mds: Vec<Vec<Base>>,
}

/// The Grain LFSR of the Poseidon reference parameter script.
struct Grain {
    /// Bit `k` of the reference script's `bit_sequence` is bit `k` here (bit 0 is oldest).
    state: u128,
}

impl Grain {
    fn new(t: usize, partial_rounds: usize) -> Self {
        let fields: [(u64, u32); 6] = [
            (1, 2),                      // prime field
            (0, 4),                      // S-box x^alpha
            (254, 12),                   // field size in bits
            (t as u64, 12),              // width
            (FULL_ROUNDS as u64, 10),    // R_F
            (partial_rounds as u64, 10), // R_P
        ];
        let mut state: u128 = 0;
        let mut pos = 0;
        for (value, width) in fields {
            for i in (0..width).rev() {
                state |= u128::from(((value >> i) & 1) as u8) << pos;
                pos += 1;
            }
        }
        for _ in 0..30 {
            state |= 1u128 << pos;
            pos += 1;
        }
        debug_assert_eq!(pos, 80);
        let mut g = Grain { state };
        for _ in 0..160 {
            g.clock();
        }
        g
    }

    fn clock(&mut self) -> bool {
        let s = self.state;
        let bit = ((s >> 62) ^ (s >> 51) ^ (s >> 38) ^ (s >> 23) ^ (s >> 13) ^ s) & 1;
        self.state = (s >> 1) | (bit << 79);
        bit == 1
    }

    fn next_bit(&mut self) -> bool {
        loop {
            let keep = self.clock();
            let bit = self.clock();
            if keep {
                return bit;
            }
        }
    }

    /// `n` bits, the first one most significant.
    fn bits(&mut self, n: usize) -> BigInt<4> {
        let mut limbs = [0u64; 4];
        for _ in 0..n {
            let b = u64::from(self.next_bit());
            for i in (1..4).rev() {
                limbs[i] = (limbs[i] << 1) | (limbs[i - 1] >> 63);
            }
            limbs[0] = (limbs[0] << 1) | b;
        }
        BigInt(limbs)
    }

    fn field_rejection(&mut self) -> Base {
        loop {
            if let Some(x) = Base::from_bigint(self.bits(254)) {
                return x;
            }
        }
    }

    fn field_reduced(&mut self) -> Base {
        let b = self.bits(254);
        let mut bytes = [0u8; 32];
        for (i, limb) in b.0.iter().enumerate() {
            bytes[8 * i..8 * i + 8].copy_from_slice(&limb.to_le_bytes());
        }
        Base::from_le_bytes_mod_order(&bytes)
    }
}

impl PoseidonParams {
    /// Generates the constants for width `t ∈ 2..=17` (a few milliseconds).
    pub fn generate(t: usize) -> Result<Self> {
        if !(2..=MAX_INPUTS + 1).contains(&t) {
            return Err(Error::PoseidonArity(t.wrapping_sub(1)));
        }
        let partial_rounds = PARTIAL_ROUNDS[t - 2];
        let mut g = Grain::new(t, partial_rounds);
        let n = (FULL_ROUNDS + partial_rounds) * t;
        let round_constants: Vec<Base> = (0..n).map(|_| g.field_rejection()).collect();
        let mds = loop {
            let vals: Vec<Base> = (0..2 * t).map(|_| g.field_reduced()).collect();
            let distinct = (0..vals.len()).all(|i| (i + 1..vals.len()).all(|j| vals[i] != vals[j]));
            if !distinct {
                continue;
            }
            let (xs, ys) = vals.split_at(t);
            let m: Option<Vec<Vec<Base>>> =
                xs.iter().map(|x| ys.iter().map(|y| (*x + y).inverse()).collect()).collect();
            if let Some(m) = m {
                break m;
            }
        };
        Ok(PoseidonParams { t, partial_rounds, round_constants, mds })
    }

    /// The cached constants for width `t`.
    pub fn get(t: usize) -> Result<&'static PoseidonParams> {
        static CACHE: [OnceLock<PoseidonParams>; MAX_INPUTS] = [const { OnceLock::new() }; MAX_INPUTS];
        if !(2..=MAX_INPUTS + 1).contains(&t) {
            return Err(Error::PoseidonArity(t.wrapping_sub(1)));
        }
        let cell = &CACHE[t - 2];
        if let Some(p) = cell.get() {
            return Ok(p);
        }
        let p = Self::generate(t)?;
        Ok(cell.get_or_init(|| p))
    }

    /// Runs the permutation on `state`, which must have length `t`.
    pub fn permute(&self, state: &mut [Base]) -> Result<()> {
        let t = self.t;
        if state.len() != t {
            return Err(Error::LengthMismatch { what: "poseidon state length differs from the width t" });
        }
        let half = FULL_ROUNDS / 2;
        let mut buf = [Base::zero(); MAX_INPUTS + 1];
        let tmp = &mut buf[..t];
        for r in 0..FULL_ROUNDS + self.partial_rounds {
            for (s, c) in state.iter_mut().zip(&self.round_constants[r * t..(r + 1) * t]) {
                *s += c;
            }
            if r < half || r >= half + self.partial_rounds {
                state.iter_mut().for_each(pow5);
            } else {
                pow5(&mut state[0]);
            }
            for (out, row) in tmp.iter_mut().zip(&self.mds) {
                *out = row.iter().zip(state.iter()).map(|(m, s)| *m * s).sum();
            }
            state.copy_from_slice(tmp);
        }
        Ok(())
    }
}

fn pow5(x: &mut Base) {
    let x2 = x.square();
    *x *= x2.square();
}

/// circomlib's `Poseidon(n)`: hash of `1..=16` field elements.
pub fn poseidon(inputs: &[Base]) -> Result<Base> {
    poseidon_with_state(inputs, Base::zero())
}

/// circomlibjs `poseidon(inputs, initState)`: as [`poseidon`] with the capacity cell set to
/// `init` (circomlib's `PoseidonEx` with `initialState`).
pub fn poseidon_with_state(inputs: &[Base], init: Base) -> Result<Base> {
    if inputs.is_empty() || inputs.len() > MAX_INPUTS {
        return Err(Error::PoseidonArity(inputs.len()));
    }
    let params = PoseidonParams::get(inputs.len() + 1)?;
    let mut buf = [Base::zero(); MAX_INPUTS + 1];
    let state = &mut buf[..=inputs.len()];
    state[0] = init;
    state[1..].copy_from_slice(inputs);
    params.permute(state)?;
    Ok(state[0])
}
