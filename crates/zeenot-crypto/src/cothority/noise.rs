//! Noise for differential privacy, Drynx-style: a public list of `L` noise values whose
//! uniform sampling is a quantised discrete Laplace distribution.
//!
//! # Distribution
//!
//! The discrete Laplace (two-sided geometric) distribution with parameter `ε` for a query of
//! integer sensitivity `Δ` has `pmf(k) = (1 − α)/(1 + α)·α^|k|` with `α = exp(−ε/Δ)`; adding a
//! sample of it to a query result is `ε`-differentially private (Ghosh, Roughgarden and
//! Sundararajan, "Universally utility-maximizing privacy mechanisms", STOC 2009).
//!
//! # The list
//!
//! [`noise_list`] is deterministic: value `k` appears `round(L·pmf(k))` times for every `k`
//! where that is at least one (the tails beyond are truncated), and `0` absorbs the rounding
//! difference so that the list has exactly `L` entries; the list is sorted. Anyone can rebuild
//! it from `(ε, Δ, L)`, and its trivial encryptions `(0, k·B)` ([`super::trivial_ciphertext`]).
//! The servers shuffle the encrypted list verifiably, each in turn (re-randomising it), and
//! add the first element to the aggregate, so the noise is a uniform draw from the list
//! that no single server knows (all servers together do).
//!
//! # Privacy actually given
//!
//! Sampling uniformly from the list is not exactly the discrete Laplace distribution: the
//! truncated tails and the rounding change the ratios `q(k)/q(k + d)` the `ε` guarantee rests
//! on. The mechanism with the list's distribution `q` is `(ε, δ)`-differentially private with
//! `δ = max_{0<|d|≤Δ} Σ_k max(0, q(k) − e^ε·q(k + d))` (the hockey-stick divergence between
//! the noise and its shift by `d`), which [`list_delta`] computes exactly for a given list:
//! state that `δ` beside `ε`. The truncation term dominates: the last `Δ` values on each side
//! have no shifted counterpart, so `δ ≥ Δ·count(K_max)/L`, roughly `Δ/L` (for example
//! `ε = 1`, `Δ = 1`, `L = 10^4`: `δ ≈ 10^-4`); a longer list lowers it. The servers' shuffle
//! cost grows with `L`, which is the trade-off.

use std::collections::BTreeMap;

use super::trivial_ciphertext;
use crate::elgamal::Ciphertext;
use crate::error::{Error, Result};

/// The longest noise list (2^24 values).
pub const MAX_LIST: usize = 1 << 24;

fn check(epsilon: f64, sensitivity: u32) -> Result<f64> {
    if !(epsilon.is_finite() && epsilon > 0.0 && epsilon <= 64.0) {
        return Err(Error::InvalidParameter("epsilon must be in (0, 64]"));
    }
    if sensitivity == 0 || sensitivity > 1 << 20 {
        return Err(Error::InvalidParameter("sensitivity must be in 1..=2^20"));
    }
    Ok((-epsilon / f64::from(sensitivity)).exp())
}

/// The discrete Laplace probability of `k` for `(ε, Δ)`.
pub fn pmf(k: i64, epsilon: f64, sensitivity: u32) -> Result<f64> {
    let a = check(epsilon, sensitivity)?;
    Ok((1.0 - a) / (1.0 + a) * a.powf(k.unsigned_abs() as f64))
}

/// The deterministic list of `len` noise values for `(ε, Δ)` (see the module documentation).
pub fn noise_list(epsilon: f64, sensitivity: u32, len: usize) -> Result<Vec<i64>> {
    check(epsilon, sensitivity)?;
    if len == 0 || len > MAX_LIST {
        return Err(Error::InvalidParameter("a noise list holds 1 to 2^24 values"));
    }
    let count =
        |k: i64| -> Result<usize> { Ok((len as f64 * pmf(k, epsilon, sensitivity)?).round() as usize) };
    let mut tail = Vec::new();
    let mut k: i64 = 1;
    loop {
        let c = count(k)?;
        if c == 0 {
            break;
        }
        tail.push(c);
        k += 1;
    }
    let tails: usize = 2 * tail.iter().sum::<usize>();
    if tails >= len {
        return Err(Error::InvalidParameter("the list is too short for this epsilon"));
    }
    let zero = len - tails;
    let mut out = Vec::with_capacity(len);
    for (i, &c) in tail.iter().enumerate().rev() {
        out.extend(std::iter::repeat_n(-(i as i64 + 1), c));
    }
    out.extend(std::iter::repeat_n(0, zero));
    for (i, &c) in tail.iter().enumerate() {
        out.extend(std::iter::repeat_n(i as i64 + 1, c));
    }
    Ok(out)
}

/// The `δ` of the mechanism that adds a uniform draw from `values` to a query of sensitivity
/// `Δ`, at privacy parameter `ε`: `max_{0<|d|≤Δ} Σ_k max(0, q(k) − e^ε·q(k + d))`.
pub fn list_delta(values: &[i64], epsilon: f64, sensitivity: u32) -> Result<f64> {
    check(epsilon, sensitivity)?;
    if values.is_empty() || values.len() > MAX_LIST {
        return Err(Error::InvalidParameter("a noise list holds 1 to 2^24 values"));
    }
    let mut counts: BTreeMap<i64, f64> = BTreeMap::new();
    for &v in values {
        *counts.entry(v).or_default() += 1.0;
    }
    let n = values.len() as f64;
    let e = epsilon.exp();
    let mut worst: f64 = 0.0;
    let d_max = i64::from(sensitivity);
    for d in (-d_max..=d_max).filter(|&d| d != 0) {
        let delta: f64 = counts
            .iter()
            .map(|(&k, &c)| {
                let shifted = k.checked_add(d).and_then(|kd| counts.get(&kd)).copied().unwrap_or(0.0);
                ((c - e * shifted) / n).max(0.0)
            })
            .sum();
        worst = worst.max(delta);
    }
    Ok(worst)
}

/// The trivial encryptions `(0, v·B)` of a list of values, in order.
pub fn encrypt_trivial(values: &[i64]) -> Result<Vec<Ciphertext>> {
    use rayon::prelude::*;
    if values.len() > MAX_LIST {
        return Err(Error::InvalidParameter("a noise list holds at most 2^24 values"));
    }
    Ok(values.par_iter().with_min_len(256).map(|&v| trivial_ciphertext(v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_follows_the_pmf_and_is_deterministic() {
        let l = noise_list(1.0, 1, 10_000).unwrap();
        assert_eq!(l.len(), 10_000);
        assert_eq!(l, noise_list(1.0, 1, 10_000).unwrap());
        assert!(l.windows(2).all(|w| w[0] <= w[1]));
        for k in -5i64..=5 {
            let got = l.iter().filter(|&&v| v == k).count() as f64 / 1e4;
            assert!((got - pmf(k, 1.0, 1).unwrap()).abs() <= 1e-4 + 1e-12, "k = {k}");
        }
        assert_eq!(l.iter().sum::<i64>(), 0, "symmetric");
        // wider for a larger sensitivity
        let wide = noise_list(1.0, 10, 10_000).unwrap();
        assert!(wide.iter().map(|v| v.abs()).max() > l.iter().map(|v| v.abs()).max());
    }

    #[test]
    fn delta_is_small_for_the_list_and_large_for_a_bad_one() {
        let l = noise_list(1.0, 1, 10_000).unwrap();
        let d = list_delta(&l, 1.0, 1).unwrap();
        assert!(d > 0.0 && d < 1e-3, "δ = {d}");
        // a much smaller ε is not met by this list
        assert!(list_delta(&l, 0.1, 1).unwrap() > 0.1);
        // no noise at all: δ = 1
        assert_eq!(list_delta(&[0; 10], 1.0, 1).unwrap(), 1.0);
        assert!(noise_list(0.0, 1, 10).is_err());
        assert!(noise_list(f64::NAN, 1, 10).is_err());
        assert!(noise_list(1.0, 0, 10).is_err());
        assert!(noise_list(1.0, 1, 0).is_err());
    }
}
