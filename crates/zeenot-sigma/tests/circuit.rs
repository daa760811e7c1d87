//! Arithmetic-circuit proofs: completeness on random circuits, soundness against false
//! witnesses and false statements, tampering, checked decoding, batching with range proofs, and
//! a range check by bit decomposition.

use std::sync::OnceLock;

use ark_ff::{AdditiveGroup, BigInteger, One, PrimeField, UniformRand, Zero};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::pedersen::blinding_generator;
use zeenot_crypto::{encode_base, encode_scalar, Base, PedersenGenerators, Point, Scalar};
use zeenot_sigma::bulletproofs::{BulletproofGens, MsmTerms, RangeProof, MAX_ROUNDS};
use zeenot_sigma::circuit::{Assignment, Circuit, CircuitProof, Var};
use zeenot_sigma::Error;

const CONTEXT: &[u8] = b"test context";

fn gens() -> &'static BulletproofGens {
    static GENS: OnceLock<BulletproofGens> = OnceLock::new();
    GENS.get_or_init(|| BulletproofGens::new(64))
}

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

fn commit(v: &Scalar, gamma: &Scalar) -> Point {
    PedersenGenerators::new(0).commit(v, gamma).0
}

/// A circuit with its witness: the assignment, the commitments and their blindings.
#[derive(Clone)]
struct Instance {
    circuit: Circuit,
    assignment: Assignment,
    commitments: Vec<Point>,
    blindings: Vec<Scalar>,
}

impl Instance {
    fn prove(&self, seed: u64) -> CircuitProof {
        CircuitProof::prove(
            gens(),
            &self.circuit,
            &self.commitments,
            &self.assignment,
            &self.blindings,
            CONTEXT,
            &mut rng(seed),
        )
        .unwrap_or_else(|e| panic!("a satisfied circuit fails to prove: {e}"))
    }

    fn prove_unchecked(&self, seed: u64) -> CircuitProof {
        CircuitProof::prove_unchecked(
            gens(),
            &self.circuit,
            &self.commitments,
            &self.assignment,
            &self.blindings,
            CONTEXT,
            &mut rng(seed),
        )
        .expect("the shapes are right")
    }

    fn verify(&self, p: &CircuitProof) -> Result<(), Error> {
        p.verify(gens(), &self.circuit, &self.commitments, CONTEXT)
    }
}

/// A random variable of a circuit with `gates` gates and `m` commitments.
fn random_var(r: &mut ChaCha20Rng, gates: usize, m: usize) -> Var {
    loop {
        match r.gen_range(0..5) {
            0 => return Var::One,
            1 if m > 0 => return Var::Committed(r.gen_range(0..m)),
            2 if gates > 0 => return Var::Left(r.gen_range(0..gates)),
            3 if gates > 0 => return Var::Right(r.gen_range(0..gates)),
            4 if gates > 0 => return Var::Out(r.gen_range(0..gates)),
            _ => {}
        }
    }
}

/// A random satisfied circuit: random wires (the outputs their products), random committed
/// values, and `constraints` random constraints (up to six terms each, every kind of variable,
/// repeats allowed, small weights as well as full-size ones), each made to hold by a last `One`
/// term.
fn random_instance(gates: usize, m: usize, constraints: usize, seed: u64) -> Instance {
    let mut r = rng(seed);
    let mut circuit = Circuit::new();
    let mut assignment = Assignment::default();
    for i in 0..gates {
        assert_eq!(circuit.gate(), i);
        // Small values now and then (0, 1, −1), as circuits' wires often are.
        let small = |r: &mut ChaCha20Rng| match r.gen_range(0..4) {
            0 => Scalar::from(r.gen_range(0..2u64)),
            1 => -Scalar::one(),
            _ => Scalar::rand(r),
        };
        let (a, b) = (small(&mut r), small(&mut r));
        assignment.left.push(a);
        assignment.right.push(b);
        assignment.out.push(a * b);
    }
    let mut blindings = Vec::new();
    let mut commitments = Vec::new();
    for j in 0..m {
        assert_eq!(circuit.commitment(), Var::Committed(j));
        let v = Scalar::rand(&mut r);
        let gamma = Scalar::rand(&mut r);
        assignment.values.push(v);
        commitments.push(commit(&v, &gamma));
        blindings.push(gamma);
    }
    for _ in 0..constraints {
        let len = r.gen_range(1..=6);
        let mut terms: Vec<(Var, Scalar)> = (0..len)
            .map(|_| {
                let w = if r.gen() { Scalar::from(r.gen_range(1..5u64)) } else { Scalar::rand(&mut r) };
                (random_var(&mut r, gates, m), w)
            })
            .collect();
        let sum: Scalar =
            terms.iter().map(|(v, w)| circuit.value(&assignment, *v).expect("in range") * w).sum();
        terms.push((Var::One, -sum));
        circuit.constrain(terms);
    }
    assert!(circuit.is_satisfied(&assignment));
    Instance { circuit, assignment, commitments, blindings }
}

/// A circuit proving that each of `values` (committed) is below `2^bits`: gate `i` of value
/// `j` has `a_L = b`, `a_R = b − 1` and `a_O = 0` (so `b ∈ {0, 1}`), and `v_j = Σ 2^i·b_i`.
fn range_circuit(values: usize, bits: usize) -> Circuit {
    let mut c = Circuit::new();
    for _ in 0..values {
        let v = c.commitment();
        let mut sum = vec![(v, -Scalar::one())];
        let mut two_i = Scalar::one();
        for _ in 0..bits {
            let g = c.gate();
            c.constrain([
                (Var::Right(g), Scalar::one()),
                (Var::Left(g), -Scalar::one()),
                (Var::One, Scalar::one()),
            ]);
            c.constrain([(Var::Out(g), Scalar::one())]);
            sum.push((Var::Left(g), two_i));
            two_i.double_in_place();
        }
        c.constrain(sum);
    }
    c
}

/// The range circuit's witness for `values` (low `bits` bits of each: a false witness for a
/// value of more bits).
fn range_instance(values: &[u128], bits: usize, seed: u64) -> Instance {
    let mut r = rng(seed);
    let mut assignment = Assignment::default();
    let mut commitments = Vec::new();
    let mut blindings = Vec::new();
    for &v in values {
        for i in 0..bits {
            let b = Scalar::from(((v >> i) & 1) as u64);
            assignment.left.push(b);
            assignment.right.push(b - Scalar::one());
            assignment.out.push(Scalar::zero());
        }
        let v = Scalar::from(v);
        let gamma = Scalar::rand(&mut r);
        assignment.values.push(v);
        commitments.push(commit(&v, &gamma));
        blindings.push(gamma);
    }
    Instance { circuit: range_circuit(values.len(), bits), assignment, commitments, blindings }
}

#[test]
fn completeness_random_circuits() {
    let shapes = [
        // (gates, commitments, constraints)
        (0, 0, 0),
        (0, 0, 2),
        (0, 2, 3),
        (1, 0, 0),
        (1, 0, 2),
        (1, 1, 3),
        (2, 3, 4),
        (3, 0, 5),
        (5, 2, 7),
        (8, 1, 8),
        (13, 4, 20),
        (17, 0, 3),
        (33, 2, 40),
        (64, 3, 64),
    ];
    for (k, &(gates, m, q)) in shapes.iter().enumerate() {
        let inst = random_instance(gates, m, q, 100 + k as u64);
        let p = inst.prove(200 + k as u64);
        let n = inst.circuit.padded_gates();
        assert_eq!(p.ipa_l.len(), n.trailing_zeros() as usize);
        assert_eq!(p.encode().len(), CircuitProof::encoded_len(n));
        inst.verify(&p).unwrap_or_else(|e| panic!("gates {gates}, m {m}, constraints {q}: {e}"));
    }
}

#[test]
fn proof_sizes() {
    assert_eq!(CircuitProof::encoded_len(1), 32 * 13);
    assert_eq!(CircuitProof::encoded_len(2), 32 * 15);
    assert_eq!(CircuitProof::encoded_len(64), 32 * 25);
    assert_eq!(CircuitProof::encoded_len(1 << 16), 32 * 45);
    // Any gate count, rounded up.
    assert_eq!(CircuitProof::encoded_len(0), 32 * 13);
    assert_eq!(CircuitProof::encoded_len(33), 32 * 25);
}

/// A proof from `inst` (false witness allowed) is rejected, and `prove` refuses the witness.
fn assert_false_witness_rejected(inst: &Instance, seed: u64, what: &str) {
    let p = inst.prove_unchecked(seed);
    assert!(inst.verify(&p).is_err(), "{what}: a false witness's proof verified");
    let refused = CircuitProof::prove(
        gens(),
        &inst.circuit,
        &inst.commitments,
        &inst.assignment,
        &inst.blindings,
        CONTEXT,
        &mut rng(seed),
    );
    assert!(matches!(refused, Err(Error::Witness(_))), "{what}: prove accepted a false witness");
}

#[test]
fn false_witnesses_are_rejected() {
    // A gate with a_L·a_R ≠ a_O whose output no constraint uses: only the gate is false.
    let mut inst = random_instance(6, 1, 4, 1);
    let g = inst.circuit.gate();
    inst.assignment.left.push(Scalar::from(3u64));
    inst.assignment.right.push(Scalar::from(5u64));
    inst.assignment.out.push(Scalar::from(16u64));
    assert_eq!(inst.circuit.first_violation(&inst.assignment), Some(usize::MAX - g));
    assert_false_witness_rejected(&inst, 2, "a false gate");

    // A violated linear constraint, every gate true.
    let mut inst = random_instance(7, 2, 5, 3);
    inst.circuit.constrain([(Var::Left(2), Scalar::one()), (Var::Committed(1), Scalar::from(7u64))]);
    assert_eq!(inst.circuit.first_violation(&inst.assignment), Some(5));
    assert_false_witness_rejected(&inst, 4, "a violated constraint");

    // One constraint off by one.
    let mut inst = random_instance(4, 2, 6, 5);
    inst.assignment.values[0] += Scalar::one();
    inst.commitments[0] = commit(&inst.assignment.values[0], &inst.blindings[0]);
    if inst.circuit.is_satisfied(&inst.assignment) {
        // The value is unused: make it used.
        inst.circuit.constrain([(Var::Committed(0), Scalar::one()), (Var::One, Scalar::one())]);
    }
    assert_false_witness_rejected(&inst, 6, "a committed value off by one");

    // The output of a gate changed along with every constraint it enters: the gates are the
    // only thing false (each constraint's One term re-balanced).
    let mut inst = random_instance(8, 0, 0, 7);
    inst.assignment.out[3] += Scalar::one();
    inst.circuit.constrain([(Var::Out(3), Scalar::one()), (Var::One, -inst.assignment.out[3])]);
    assert_false_witness_rejected(&inst, 8, "a gate consistent with its constraint");

    // Zero gates: a constraint on the committed value only.
    let mut inst = random_instance(0, 1, 1, 9);
    inst.circuit.constrain([(Var::Committed(0), Scalar::one())]);
    assert_false_witness_rejected(&inst, 10, "v = 0 for v ≠ 0");
}

#[test]
fn commitments_must_open_to_the_circuits_values() {
    // The assignment satisfies the circuit, but V_2 (v_2 = a_L[1]) commits to another value.
    let mut inst = random_instance(5, 2, 6, 11);
    let v = inst.circuit.commitment();
    inst.circuit.constrain([(v, Scalar::one()), (Var::Left(1), -Scalar::one())]);
    let gamma = Scalar::from(12345u64);
    inst.assignment.values.push(inst.assignment.left[1]);
    inst.blindings.push(gamma);
    inst.commitments.push(commit(&(inst.assignment.left[1] + Scalar::one()), &gamma));
    assert!(inst.circuit.is_satisfied(&inst.assignment));
    assert_false_witness_rejected(&inst, 12, "V_2 opens to v_2 + 1");
    // Or to the right value with another blinding.
    inst.commitments[2] = commit(&inst.assignment.left[1], &(gamma + Scalar::one()));
    assert_false_witness_rejected(&inst, 13, "V_2 with another blinding");
    // The honest commitment proves.
    inst.commitments[2] = commit(&inst.assignment.left[1], &gamma);
    let p = inst.prove(14);
    inst.verify(&p).expect("verifies");
}

#[test]
fn proofs_are_bound_to_their_statement() {
    let inst = random_instance(10, 2, 12, 20);
    let p = inst.prove(21);
    inst.verify(&p).expect("verifies");
    let check = |circuit: &Circuit, commitments: &[Point], context: &[u8], what: &str| {
        assert!(p.verify(gens(), circuit, commitments, context).is_err(), "{what} was accepted");
    };
    let (c, v) = (&inst.circuit, &inst.commitments[..]);
    // Another context.
    check(c, v, b"other context", "another context");
    check(c, v, b"", "the empty context");
    // Other commitments.
    let g = Point::generator();
    let h = blinding_generator();
    check(c, &[v[0] + g, v[1]], CONTEXT, "V_0 + G");
    check(c, &[v[0], v[1] + h], CONTEXT, "V_1 + H");
    check(c, &[v[1], v[0]], CONTEXT, "swapped commitments");
    // The same values under other blindings.
    let other_v: Vec<Point> =
        (0..2).map(|j| commit(&inst.assignment.values[j], &(inst.blindings[j] + Scalar::one()))).collect();
    check(c, &other_v, CONTEXT, "the same values, other blindings");
    assert!(matches!(p.verify(gens(), c, &v[..1], CONTEXT), Err(Error::Input(_))), "one commitment");
    // Other circuits: each constraint's weights changed in turn, one constraint added, one
    // gate added (another round count, or not), one commitment added.
    let constraints: Vec<Vec<(Var, Scalar)>> = c.iter_constraints().map(<[_]>::to_vec).collect();
    let rebuild = |k: usize, f: &dyn Fn(&mut Terms)| {
        let mut d = Circuit::new();
        (0..c.gates()).for_each(|_| {
            d.gate();
        });
        (0..c.committed()).for_each(|_| {
            d.commitment();
        });
        for (i, mut terms) in constraints.iter().cloned().enumerate() {
            if i == k {
                f(&mut terms);
            }
            d.constrain(terms);
        }
        d
    };
    assert_eq!(&rebuild(usize::MAX, &|_| {}), c);
    for k in 0..constraints.len() {
        let d = rebuild(k, &|terms| terms[0].1 += Scalar::one());
        check(&d, v, CONTEXT, &format!("constraint {k}'s first weight + 1"));
        let d = rebuild(k, &|terms| terms.reverse());
        if d != *c {
            check(&d, v, CONTEXT, &format!("constraint {k}'s terms reversed"));
        }
    }
    let mut d = c.clone();
    d.constrain([(Var::One, Scalar::zero())]);
    check(&d, v, CONTEXT, "an empty constraint added (always true)");
    let mut d = c.clone();
    d.constrain(constraints[0].clone());
    check(&d, v, CONTEXT, "a constraint repeated (true for the witness)");
    let mut d = c.clone();
    d.gate();
    check(&d, v, CONTEXT, "a gate added (same padded size)");
    let mut d = c.clone();
    d.commitment();
    check(&d, &[v[0], v[1], g], CONTEXT, "a commitment added");
}

/// A constraint's terms.
type Terms = Vec<(Var, Scalar)>;

/// The proof with each field changed in turn.
fn mutations(p: &CircuitProof) -> Vec<(String, CircuitProof)> {
    let g = Point::generator();
    let one = Scalar::one();
    let mut out = Vec::new();
    let mut m = |what: &str, f: &dyn Fn(&mut CircuitProof)| {
        let mut q = p.clone();
        f(&mut q);
        out.push((what.to_owned(), q));
    };
    m("A_I", &|q| q.a_i += g);
    m("A_O", &|q| q.a_o += g);
    m("S", &|q| q.s += g);
    for k in 0..5 {
        m(&format!("T[{k}]"), &|q| q.t[k] += g);
    }
    m("T_1 and T_3 swapped", &|q| q.t.swap(0, 1));
    m("t_hat", &|q| q.t_hat += one);
    m("tau_x", &|q| q.tau_x += one);
    m("mu", &|q| q.mu += one);
    for k in 0..p.ipa_l.len() {
        m(&format!("L_{k}"), &|q| q.ipa_l[k] += g);
        m(&format!("R_{k}"), &|q| q.ipa_r[k] += g);
    }
    if !p.ipa_l.is_empty() {
        m("L_0 and R_0 swapped", &|q| std::mem::swap(&mut q.ipa_l[0], &mut q.ipa_r[0]));
    }
    m("a", &|q| q.ipa_a += one);
    m("b", &|q| q.ipa_b += one);
    m("a and b swapped", &|q| std::mem::swap(&mut q.ipa_a, &mut q.ipa_b));
    out
}

#[test]
fn every_mutated_field_is_rejected() {
    for (gates, m, seed) in [(1usize, 1usize, 30u64), (4, 0, 31), (11, 2, 32)] {
        let inst = random_instance(gates, m, gates + 2, seed);
        let p = inst.prove(seed + 100);
        inst.verify(&p).expect("verifies");
        for (what, q) in mutations(&p) {
            assert!(inst.verify(&q).is_err(), "{gates} gates: changed {what} verifies");
        }
        // A round added or removed: a malformed proof, not a failed check.
        let mut q = p.clone();
        q.ipa_l.push(Point::generator());
        q.ipa_r.push(Point::generator());
        assert!(matches!(inst.verify(&q), Err(Error::Encoding(_))));
        let mut q = p.clone();
        q.ipa_r.push(Point::generator());
        assert!(matches!(inst.verify(&q), Err(Error::Encoding(_))));
    }
}

#[test]
fn encoding_round_trips() {
    for (gates, m, seed) in [(0usize, 0usize, 40u64), (1, 2, 41), (9, 1, 42), (64, 2, 43)] {
        let inst = random_instance(gates, m, 5, seed);
        let p = inst.prove(seed);
        let bytes = p.encode();
        assert_eq!(bytes.len(), CircuitProof::encoded_len(inst.circuit.padded_gates()));
        let q = CircuitProof::decode(&bytes).expect("decodes");
        assert_eq!(q, p);
        assert_eq!(q.encode(), bytes);
        inst.verify(&q).expect("the decoded proof verifies");
    }
}

#[test]
fn malformed_encodings_are_rejected() {
    let inst = random_instance(5, 1, 6, 50);
    let p = inst.prove(51);
    let bytes = p.encode();
    // Truncated at every length, extended by up to two words: an error (or, at the length of a
    // shorter or longer proof, a proof that does not verify), never a panic.
    for len in 0..bytes.len() {
        match CircuitProof::decode(&bytes[..len]) {
            Err(Error::Encoding(_)) => {}
            Err(e) => panic!("truncated to {len}: unexpected error {e}"),
            Ok(q) => assert!(inst.verify(&q).is_err(), "truncated to {len} verifies"),
        }
    }
    for extra in 1..=64 {
        let mut longer = bytes.clone();
        longer.extend(std::iter::repeat_n(0u8, extra));
        match CircuitProof::decode(&longer) {
            Err(Error::Encoding(_)) => {}
            Err(e) => panic!("extended by {extra}: unexpected error {e}"),
            Ok(q) => assert!(inst.verify(&q).is_err(), "extended by {extra} verifies"),
        }
    }
    // Round counts: 0 to 32 decode, more do not.
    let proof_with = |rounds: usize| {
        let mut words = Vec::new();
        words.extend(std::iter::repeat_n(Point::generator().encode(), 8));
        words.extend(std::iter::repeat_n(encode_scalar(&Scalar::one()), 3));
        words.extend(std::iter::repeat_n(Point::generator().encode(), 2 * rounds));
        words.extend(std::iter::repeat_n(encode_scalar(&Scalar::one()), 2));
        words.concat()
    };
    for rounds in [0usize, 1, MAX_ROUNDS] {
        let q = CircuitProof::decode(&proof_with(rounds)).expect("a valid length");
        assert_eq!(q.ipa_l.len(), rounds);
    }
    for rounds in [MAX_ROUNDS + 1, 40] {
        assert!(matches!(CircuitProof::decode(&proof_with(rounds)), Err(Error::Encoding(_))), "{rounds}");
    }
    // Garbage of a valid length.
    let mut r = rng(52);
    for _ in 0..50 {
        let mut garbage = vec![0u8; bytes.len()];
        r.fill_bytes(&mut garbage);
        assert!(CircuitProof::decode(&garbage).is_err());
    }

    let words = bytes.len() / 32;
    let point_words: Vec<usize> = (0..8).chain(11..words - 2).collect();
    let scalar_words: Vec<usize> = (8..11).chain(words - 2..words).collect();
    let with_word = |i: usize, w: [u8; 32]| {
        let mut b = bytes.clone();
        b[32 * i..32 * i + 32].copy_from_slice(&w);
        b
    };
    // The order-2 point (0, −1): on the curve, outside the prime-order subgroup.
    let order_two = encode_base(&(-Base::one()));
    let torsion = first_rejected(|e| matches!(e, zeenot_crypto::Error::NotInSubgroup));
    let off_curve = first_rejected(|e| matches!(e, zeenot_crypto::Error::NotOnCurve));
    for &i in &point_words {
        for (what, w) in [
            ("order 2", order_two),
            ("outside the subgroup", torsion),
            ("y >= p", [0xff; 32]),
            ("off curve", off_curve),
        ] {
            assert!(
                matches!(CircuitProof::decode(&with_word(i, w)), Err(Error::Encoding(_))),
                "word {i}: {what} point accepted"
            );
        }
        // Any other valid point decodes, and does not verify.
        let mut other = Point::generator();
        if bytes[32 * i..32 * i + 32] == other.encode() {
            other = other.double();
        }
        let q = CircuitProof::decode(&with_word(i, other.encode())).expect("a valid point");
        assert!(inst.verify(&q).is_err(), "word {i} replaced verifies");
    }
    let modulus: [u8; 32] = {
        let mut m = [0u8; 32];
        m.copy_from_slice(&<Scalar as PrimeField>::MODULUS.to_bytes_le());
        m
    };
    for &i in &scalar_words {
        for w in [modulus, [0xff; 32]] {
            assert!(matches!(CircuitProof::decode(&with_word(i, w)), Err(Error::Encoding(_))), "word {i}");
        }
        let q =
            CircuitProof::decode(&with_word(i, encode_scalar(&Scalar::from(3u64)))).expect("a valid scalar");
        assert!(inst.verify(&q).is_err(), "word {i} replaced verifies");
    }
}

/// The first encoding (scanning small `y`) that `Point::decode` rejects with `want`.
fn first_rejected(want: fn(&zeenot_crypto::Error) -> bool) -> [u8; 32] {
    (2u64..)
        .flat_map(|y| {
            let b = encode_base(&Base::from(y));
            let mut neg = b;
            neg[31] |= 0x80;
            [b, neg]
        })
        .find(|b| Point::decode(b).as_ref().err().is_some_and(want))
        .expect("most encodings are off the curve or outside the subgroup")
}

#[test]
fn batches_with_range_proofs() {
    let a = random_instance(12, 2, 10, 60);
    let b = random_instance(3, 0, 4, 61);
    let (pa, pb) = (a.prove(62), b.prove(63));
    let mut r = rng(64);
    let gammas = [Scalar::rand(&mut r), Scalar::rand(&mut r)];
    let (rp, rc) = RangeProof::prove(gens(), &[7, 1 << 20], &gammas, 32, CONTEXT, &mut r).expect("in range");

    let batch = |pa: &CircuitProof, pb: &CircuitProof, rp: &RangeProof, r: &mut ChaCha20Rng| {
        let mut terms = MsmTerms::default();
        pa.verification_terms(gens(), &a.circuit, &a.commitments, CONTEXT, Scalar::rand(r), &mut terms)
            .expect("well formed");
        rp.verification_terms(gens(), &rc, 32, CONTEXT, Scalar::rand(r), &mut terms).expect("well formed");
        pb.verification_terms(gens(), &b.circuit, &b.commitments, CONTEXT, Scalar::rand(r), &mut terms)
            .expect("well formed");
        terms.is_identity(gens())
    };
    assert!(batch(&pa, &pb, &rp, &mut r), "a valid batch fails");
    let mut bad = pb.clone();
    bad.mu += Scalar::one();
    assert!(!batch(&pa, &bad, &rp, &mut r), "a batch with a bad circuit proof passes");
    let mut bad = pa.clone();
    bad.ipa_b += Scalar::one();
    assert!(!batch(&bad, &pb, &rp, &mut r), "a batch with a bad circuit proof passes");
    let mut bad = rp.clone();
    bad.tau_x += Scalar::one();
    assert!(!batch(&pa, &pb, &bad, &mut r), "a batch with a bad range proof passes");
    // A proof of another circuit of the same size (and commitment count) in a's place.
    let other = random_instance(12, 2, 10, 65).prove(66);
    assert!(!batch(&other, &pb, &rp, &mut r), "a proof of another circuit passes");
}

#[test]
fn range_check_by_bit_decomposition() {
    let bits = 8;
    for (values, seed) in
        [(vec![0u128], 70u64), (vec![255], 71), (vec![37, 200], 72), (vec![1, 128, 255, 0], 73)]
    {
        let inst = range_instance(&values, bits, seed);
        assert!(inst.circuit.is_satisfied(&inst.assignment));
        let p = inst.prove(seed);
        inst.verify(&p).unwrap_or_else(|e| panic!("{values:?}: {e}"));
    }
    // 2^bits and beyond: no bit decomposition exists. The low bits are a false witness (the sum
    // constraint fails), which prove refuses and whose unchecked proof is rejected.
    for (values, seed) in [(vec![256u128], 74u64), (vec![3, 1 << 20], 75), (vec![u64::MAX as u128], 76)] {
        let inst = range_instance(&values, bits, seed);
        assert_false_witness_rejected(&inst, seed, &format!("{values:?} in 8 bits"));
    }
    // A "bit" of 2 with the value's sum right (256 = 2·2^7): the bit gate fails (2·1 ≠ 0).
    let mut inst = range_instance(&[0], bits, 77);
    inst.assignment.values[0] = Scalar::from(256u64);
    inst.commitments[0] = commit(&inst.assignment.values[0], &inst.blindings[0]);
    inst.assignment.left[7] = Scalar::from(2u64);
    inst.assignment.right[7] = Scalar::one();
    assert_false_witness_rejected(&inst, 78, "a bit of 2");
    // The same with the gate made true (a_O = 2): the Out = 0 constraint fails.
    inst.assignment.out[7] = Scalar::from(2u64);
    assert_false_witness_rejected(&inst, 79, "a bit of 2 with a true gate");
    // A "bit" of −1 for a negative value (v = −2^7): a_R = −2, so a_O = 2 ≠ 0.
    let mut inst = range_instance(&[0], bits, 80);
    let minus = -Scalar::from(128u64);
    inst.assignment.values[0] = minus;
    inst.commitments[0] = commit(&minus, &inst.blindings[0]);
    inst.assignment.left[7] = -Scalar::one();
    inst.assignment.right[7] = -Scalar::from(2u64);
    inst.assignment.out[7] = Scalar::from(2u64);
    assert_false_witness_rejected(&inst, 81, "a bit of −1");
}

#[test]
fn shape_errors_are_errors_not_panics() {
    let inst = random_instance(6, 2, 5, 90);
    let p = inst.prove(91);
    let prove = |circuit: &Circuit, v: &[Point], a: &Assignment, blind: &[Scalar], gens: &BulletproofGens| {
        CircuitProof::prove(gens, circuit, v, a, blind, CONTEXT, &mut rng(92))
    };
    let (c, v, a, bl) = (&inst.circuit, &inst.commitments, &inst.assignment, &inst.blindings);
    assert!(matches!(prove(c, &v[..1], a, bl, gens()), Err(Error::Input(_))));
    assert!(matches!(prove(c, v, a, &bl[..1], gens()), Err(Error::Input(_))));
    let mut short = a.clone();
    short.left.pop();
    assert!(matches!(prove(c, v, &short, bl, gens()), Err(Error::Input(_))));
    let mut short = a.clone();
    short.values.pop();
    assert!(matches!(prove(c, v, &short, bl, gens()), Err(Error::Input(_))));
    // Generators too small: an error for the prover and the verifier.
    let small = BulletproofGens::new(4);
    assert!(matches!(prove(c, v, a, bl, &small), Err(Error::Statement(_))));
    assert!(matches!(p.verify(&small, c, v, CONTEXT), Err(Error::Statement(_))));
    let empty = BulletproofGens::new(0);
    let zero = random_instance(0, 0, 1, 93);
    assert!(matches!(prove(&zero.circuit, &[], &zero.assignment, &[], &empty), Err(Error::Statement(_))));
    // Constraints on variables the circuit lacks.
    for var in [Var::Left(6), Var::Right(7), Var::Out(100), Var::Committed(2)] {
        let mut d = c.clone();
        d.constrain([(var, Scalar::one())]);
        assert!(matches!(prove(&d, v, a, bl, gens()), Err(Error::Statement(_))), "{var:?}");
        assert!(matches!(p.verify(gens(), &d, v, CONTEXT), Err(Error::Statement(_))), "{var:?}");
    }
    // The right shapes but an unsatisfied witness or a commitment opening elsewhere.
    let mut wrong = a.clone();
    wrong.out[0] += Scalar::one();
    assert!(matches!(prove(c, v, &wrong, bl, gens()), Err(Error::Witness(_))));
    let other_v = [v[1], v[0]];
    assert!(matches!(prove(c, &other_v, a, bl, gens()), Err(Error::Witness(_))));
}

#[test]
fn constant_only_and_empty_circuits() {
    // No gates, no commitments, no constraints: the trivial statement still needs a real proof.
    let inst = random_instance(0, 0, 0, 95);
    let p = inst.prove(96);
    inst.verify(&p).expect("verifies");
    assert!(p.ipa_l.is_empty());
    let mut q = p.clone();
    q.ipa_a += Scalar::one();
    assert!(inst.verify(&q).is_err());
    // A false constant constraint (1 = 0) cannot be proved.
    let mut false_inst = inst.clone();
    false_inst.circuit.constrain([(Var::One, Scalar::one())]);
    assert_false_witness_rejected(&false_inst, 97, "1 = 0");
}

/// A selection `s = b ? x : y` on committed `x`, `y`, `s`: a bit gate for `b` (the prover's
/// masked-sum path) beside a general gate `b·(x − y) = s − y`.
fn select_instance(b: u64, x: u64, y: u64, s: u64, seed: u64) -> Instance {
    let one = Scalar::one();
    let mut c = Circuit::new();
    let (vx, vy, vs) = (c.commitment(), c.commitment(), c.commitment());
    let bit = c.gate();
    c.constrain([(Var::Right(bit), one), (Var::Left(bit), -one), (Var::One, one)]);
    c.constrain([(Var::Out(bit), one)]);
    let g = c.gate();
    c.constrain([(Var::Left(g), one), (Var::Left(bit), -one)]);
    c.constrain([(Var::Right(g), one), (vx, -one), (vy, one)]);
    c.constrain([(Var::Out(g), one), (vs, -one), (vy, one)]);
    let (b, x, y, s) = (Scalar::from(b), Scalar::from(x), Scalar::from(y), Scalar::from(s));
    let assignment = Assignment {
        left: vec![b, b],
        right: vec![b - one, x - y],
        out: vec![b * (b - one), b * (x - y)],
        values: vec![x, y, s],
    };
    let mut r = rng(seed);
    let blindings: Vec<Scalar> = (0..3).map(|_| Scalar::rand(&mut r)).collect();
    let commitments = assignment.values.iter().zip(&blindings).map(|(v, g)| commit(v, g)).collect();
    Instance { circuit: c, assignment, commitments, blindings }
}

#[test]
fn bit_gates_beside_general_gates() {
    for (b, x, y, s, seed) in [(0u64, 10u64, 20u64, 20u64, 110u64), (1, 10, 20, 10, 111), (1, 7, 7, 7, 112)] {
        let inst = select_instance(b, x, y, s, seed);
        assert!(inst.circuit.is_satisfied(&inst.assignment));
        let p = inst.prove(seed);
        inst.verify(&p).unwrap_or_else(|e| panic!("b = {b}: {e}"));
    }
    // The wrong selection, and a "bit" of 2 (s = y + 2·(x − y)).
    assert_false_witness_rejected(&select_instance(0, 10, 20, 10, 113), 114, "s = x for b = 0");
    assert_false_witness_rejected(&select_instance(2, 10, 20, 0, 115), 116, "b = 2");
}
