//! The bare `prio` crate's per-report preparation (benches/bare.rs), timed and printed as JSON
//! for benchmarks/prio_vdaf.py, which times zeenot's Python wrapper on the same job in the same
//! run: `{"count": {"dap_prepare": s, "prepare_init": s, "hpke_open": s}, "sum32": …,
//! "sumvec1000": …}`, each the median seconds per report over `ROUNDS` rounds of at least
//! `--seconds` each. `hpke_open` is one aggregator's opening of its sealed input share (the
//! leader's, X25519/HKDF-SHA256/AES-128-GCM through `zeenot_prio::hpke`, a thin layer over
//! hpke-dispatch): DAP's other per-report cryptography, which `dap_prepare` leaves out.

#[path = "../benches/bare.rs"]
mod bare;

use prio::flp::Type;
use prio::vdaf::prio3::Prio3;
use std::time::Instant;
use zeenot_prio::hpke;

const ROUNDS: usize = 5;

/// Median over rounds of the seconds per call of `f`, each round at least `budget` seconds.
fn time(budget: f64, mut f: impl FnMut()) -> f64 {
    f();
    let mut rounds = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let (start, mut n) = (Instant::now(), 0u64);
        while start.elapsed().as_secs_f64() < budget {
            f();
            n += 1;
        }
        rounds.push(start.elapsed().as_secs_f64() / n as f64);
    }
    rounds.sort_by(f64::total_cmp);
    rounds[ROUNDS / 2]
}

fn one<T: Type>(v: &bare::P3<T>, m: &T::Measurement, budget: f64) -> String {
    let r = bare::shard(v, m);
    let d = bare::decoded(v, &r);
    let dap = time(budget, || {
        std::hint::black_box(bare::dap_prepare(v, &r));
    });
    let init = time(budget, || bare::prepare_init(v, &d));
    let (config, key) = hpke::generate(1, 0x20, 1, 1).unwrap();
    let (client, leader) = (hpke::role("client").unwrap(), hpke::role("leader").unwrap());
    let info = hpke::application_info(hpke::Label::InputShare, client, leader);
    let sealed = hpke::seal(&config, &info, &r.input_shares[0], b"aad").unwrap();
    let open = time(budget, || {
        std::hint::black_box(hpke::open(&config, &key, &info, &sealed, b"aad").unwrap());
    });
    format!("{{\"dap_prepare\": {dap:e}, \"prepare_init\": {init:e}, \"hpke_open\": {open:e}}}")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut budget = 0.2;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => budget = args.next().and_then(|s| s.parse().ok()).expect("--seconds S"),
            other => panic!("unknown argument {other}"),
        }
    }
    let count = one(&Prio3::new_count(2).unwrap(), &true, budget);
    let sum = one(&Prio3::new_sum(2, 32).unwrap(), &(u32::MAX as u128), budget);
    let m: Vec<u128> = (0..1000).map(|i| i & 1).collect();
    let sv = one(&Prio3::new_sum_vec(2, 1, 1000, 31).unwrap(), &m, budget);
    println!("{{\"count\": {count}, \"sum32\": {sum}, \"sumvec1000\": {sv}}}");
}
