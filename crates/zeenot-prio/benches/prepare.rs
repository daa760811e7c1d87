//! Per-report preparation: the bare `prio` crate (benches/bare.rs) against `zeenot_prio::Vdaf`
//! doing the same job from the same bytes, for Prio3Count, Prio3Sum(32) and
//! Prio3SumVec(bits 1, length 1000, chunk 31: the crate's own benchmark parameters).
//! `cargo bench -p zeenot-prio --bench prepare`. The Python wrapper's overhead on top is
//! measured by benchmarks/prio_vdaf.py.

use criterion::{criterion_group, criterion_main, Criterion};
use prio::flp::Type;
use prio::vdaf::prio3::Prio3;
use zeenot_prio::{Measurement, Vdaf, VdafKind};

mod bare;

fn pair<T: Type>(
    c: &mut Criterion,
    name: &str,
    v: &bare::P3<T>,
    m: &T::Measurement,
    kind: VdafKind,
    zm: Measurement,
) {
    let r = bare::shard(v, m);
    let mut g = c.benchmark_group(format!("dap_prepare/{name}"));
    g.bench_function("prio", |b| b.iter(|| bare::dap_prepare(v, &r)));
    let z = Vdaf::new(kind).unwrap();
    let s = z.shard(&zm, &bare::NONCE).unwrap();
    g.bench_function("zeenot_prio", |b| {
        b.iter(|| {
            let (state, msg) =
                z.leader_initialized(&bare::VK, &bare::NONCE, &s.public_share, &s.input_shares[0]).unwrap();
            let (h, reply) = z
                .helper_initialized(&bare::VK, &bare::NONCE, &s.public_share, &s.input_shares[1], &msg)
                .unwrap();
            (z.leader_continued(&state, &reply).unwrap(), h)
        })
    });
    g.finish();
    let mut g = c.benchmark_group(format!("prepare_init/{name}"));
    let d = bare::decoded(v, &r);
    g.bench_function("prio", |b| b.iter(|| bare::prepare_init(v, &d)));
    g.bench_function("zeenot_prio", |b| {
        b.iter(|| z.prepare_init(&bare::VK, 0, &bare::NONCE, &s.public_share, &s.input_shares[0]).unwrap())
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let count = Prio3::new_count(2).unwrap();
    pair(c, "count", &count, &true, VdafKind::Prio3Count, Measurement::Count(true));
    let sum = Prio3::new_sum(2, 32).unwrap();
    let x = u32::MAX as u128;
    pair(c, "sum32", &sum, &x, VdafKind::Prio3Sum { bits: 32 }, Measurement::Sum(x));
    let sv = Prio3::new_sum_vec(2, 1, 1000, 31).unwrap();
    let m: Vec<u128> = (0..1000).map(|i| i & 1).collect();
    let kind = VdafKind::Prio3SumVec { bits: 1, length: 1000, chunk_length: 31 };
    pair(c, "sumvec1000", &sv, &m, kind, Measurement::SumVec(m.clone()));
}

criterion_group! {
    name = prepare;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(prepare);
