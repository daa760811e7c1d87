//! Criterion benchmarks of point decoding (`Point::decode`) and its parts, in thread CPU time
//! (read from `/proc/thread-self/schedstat`, so other load on a shared machine does not count):
//! the whole decode, and the decode as it was before the faster square root and subgroup check
//! (arkworks' square root, `l·P = O`) from the same parts; the field inversion and square root;
//! the two subgroup checks; batch decoding.
//!
//! `cargo bench -p zeenot-crypto --bench decode` (`-- --quick` for a short run).

use ark_ec::twisted_edwards::TECurveConfig;
use ark_ff::{Field, PrimeField, UniformRand};
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use zeenot_crypto::ct::{in_prime_subgroup, in_prime_subgroup_by_order};
use zeenot_crypto::curve::{BabyJubjubAffine, BabyJubjubConfig};
use zeenot_crypto::{decode_base, Base, Point, Scalar};

/// The calling thread's CPU time in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("Linux schedstat");
    s.split_whitespace().next().and_then(|t| t.parse().ok()).expect("schedstat's first field")
}

/// Criterion measurement of the benchmark thread's CPU time.
struct CpuTime;

struct Nanos;

impl ValueFormatter for Nanos {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (div, unit) = if typical < 1e3 {
            (1.0, "ns")
        } else if typical < 1e6 {
            (1e3, "µs")
        } else {
            (1e6, "ms")
        };
        values.iter_mut().for_each(|v| *v /= div);
        unit
    }
    fn scale_throughputs(&self, typical: f64, t: &Throughput, values: &mut [f64]) -> &'static str {
        let n = match t {
            Throughput::Elements(n) | Throughput::Bytes(n) | Throughput::BytesDecimal(n) => *n as f64,
        };
        let _ = typical;
        values.iter_mut().for_each(|v| *v /= n);
        "ns/elem"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &Nanos
    }
}

/// `Point::decode` as it was: arkworks' square root, and the subgroup by `l·P = O`.
fn decode_before(bytes: &[u8; 32]) -> Option<BabyJubjubAffine> {
    let sign = bytes[31] & 0x80 != 0;
    let mut yb = *bytes;
    yb[31] &= 0x7f;
    let y = decode_base(&yb).ok()?;
    let y2 = y.square();
    let den = (BabyJubjubConfig::COEFF_A - BabyJubjubConfig::COEFF_D * y2).inverse()?;
    let mut x = ((Base::ONE - y2) * den).sqrt()?;
    if (x.into_bigint() > Base::MODULUS_MINUS_ONE_DIV_TWO) != sign {
        x = -x;
    }
    let p = BabyJubjubAffine::new_unchecked(x, y);
    in_prime_subgroup_by_order(&p).then_some(p)
}

fn decode(c: &mut Criterion<CpuTime>) {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    let p = Point::generator().mul_vartime(&Scalar::rand(&mut rng));
    let bytes = p.encode();
    let affine = p.to_affine();
    assert_eq!(decode_before(&bytes), Some(affine));
    let y2 = affine.y.square();
    let den = BabyJubjubConfig::COEFF_A - BabyJubjubConfig::COEFF_D * y2;
    let x2 = affine.x.square();

    let mut g = c.benchmark_group("point_decode");
    g.bench_function("decode", |b| b.iter(|| Point::decode(black_box(&bytes))));
    g.bench_function("decode_before", |b| b.iter(|| decode_before(black_box(&bytes))));
    g.bench_function("part_inverse", |b| b.iter(|| black_box(den).inverse()));
    g.bench_function("part_sqrt_arkworks", |b| b.iter(|| black_box(x2).sqrt()));
    g.bench_function("part_on_curve", |b| b.iter(|| black_box(affine).is_on_curve()));
    g.bench_function("part_subgroup_by_order", |b| b.iter(|| in_prime_subgroup_by_order(black_box(&affine))));
    g.bench_function("part_subgroup_tate", |b| b.iter(|| in_prime_subgroup(black_box(&affine))));
    g.finish();

    let points: Vec<Point> =
        (0..64).map(|_| Point::generator().mul_vartime(&Scalar::rand(&mut rng))).collect();
    let bytes: Vec<u8> = points.iter().flat_map(|p| p.encode()).collect();
    let mut g = c.benchmark_group("point_decode_64");
    g.throughput(Throughput::Elements(64));
    g.bench_function("one_at_a_time", |b| {
        b.iter(|| black_box(&bytes).chunks(32).map(Point::decode_slice).collect::<Result<Vec<_>, _>>())
    });
    g.bench_function("decode_batch", |b| b.iter(|| Point::decode_batch(black_box(&bytes))));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime).sample_size(30);
    targets = decode
}
criterion_main!(benches);
