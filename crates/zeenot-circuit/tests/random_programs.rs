//! Generated programs: the circuit agrees with the IR's meaning, and is sound.
//!
//! For random well-formed programs (respecting the guard discipline of `docs/ir.md`) and random
//! inputs: when evaluation succeeds, the synthesized constraint system is satisfied, its outputs
//! equal the evaluated ones, and every internal witness and output is pinned (mutation check);
//! when evaluation fails, no assignment built from those inputs satisfies the circuit.

use ark_bn254::Fr;
use ark_relations::r1cs::ConstraintSystem;
use proptest::prelude::*;
use zeenot_circuit::{eval, ir, soundness, synth, Program};

#[path = "../../zeenot-ir/tests/support/progen.rs"]
mod progen;
use progen::program;

fn run(seed: u64) -> Result<(), TestCaseError> {
    let (doc, values) = program(seed);
    let p = Program::from_json(&doc).map_err(|e| TestCaseError::fail(format!("{e}\n{doc}")))?;
    let inputs = p.parse_inputs(&values).map_err(TestCaseError::fail)?;
    let cs = ConstraintSystem::<Fr>::new_ref();
    let lowered = synth::lower(&p, Some(&inputs), cs.clone());
    match eval::evaluate(&p, &inputs) {
        Ok(vals) => {
            let outs = lowered.map_err(|e| TestCaseError::fail(format!("synthesis: {e}\n{doc}")))?;
            prop_assert!(cs.is_satisfied().unwrap(), "{:?}\n{doc}\n{values:?}", cs.which_is_unsatisfied());
            for (w, &o) in outs.iter().zip(&p.outputs) {
                prop_assert_eq!(w.value, Some(vals[o].to_fr()), "output differs\n{}", doc);
            }
            soundness::check_mutations(&p, &inputs)
                .map_err(|e| TestCaseError::fail(format!("{e}\n{doc}")))?;
        }
        Err(_) => {
            if lowered.is_ok() {
                prop_assert!(!cs.is_satisfied().unwrap(), "failing program satisfied\n{doc}\n{values:?}");
            }
        }
    }
    Ok(())
}

/// The generator is not vacuous: over a fixed batch of seeds, programs are of useful size, and
/// both outcomes (a proof exists / the program fails) occur often, lookups and sum chains (adds
/// whose range check is deferred) among them.
#[test]
fn generator_covers_both_outcomes() {
    let (mut ok, mut failed, mut insts) = (0, 0, 0);
    let (mut lookups, mut lookups_ok, mut index_failed) = (0, 0, 0);
    // programs with an add whose check is deferred (a chain), and those failing in such a chain
    let (mut chains, mut chain_overflows) = (0, 0);
    for seed in 0..300u64 {
        let (doc, values) = program(seed);
        let p = Program::from_json(&doc).unwrap();
        insts += p.body.len();
        let has_index = p.body.iter().any(|i| i.op == ir::Op::Index);
        lookups += usize::from(has_index);
        let deferred = synth::chain_adds(&p);
        chains += usize::from(deferred.contains(&true));
        match eval::evaluate(&p, &p.parse_inputs(&values).unwrap()) {
            Ok(_) => {
                ok += 1;
                lookups_ok += usize::from(has_index);
            }
            Err(u) => {
                failed += 1;
                index_failed += usize::from(u.kind == eval::FailureKind::Index);
                // a deferred add, or the add whose check covers one
                let inst = &p.body[u.index];
                let in_chain = inst.dst.is_some_and(|d| deferred[d])
                    || inst.op == ir::Op::Add && inst.args.iter().any(|&a| deferred[a]);
                chain_overflows += usize::from(in_chain);
            }
        }
        run(seed).unwrap();
    }
    assert!(ok > 60 && failed > 30, "ok {ok}, failed {failed}");
    assert!(lookups > 60 && lookups_ok > 20 && index_failed > 10, "{lookups} {lookups_ok} {index_failed}");
    assert!(insts / 300 >= 6, "average body {}", insts / 300);
    assert!(chains > 30 && chain_overflows > 5, "chains {chains}, failing in one {chain_overflows}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn generated_programs_agree_and_are_sound(seed in any::<u64>()) {
        run(seed)?;
    }
}

/// zeenot's setup (no constraint matrices) gives arkworks' keys for the same random generator.
fn same_keys(seed: u64) -> Result<(), TestCaseError> {
    use ark_groth16::Groth16;
    use ark_snark::SNARK;
    use rand::SeedableRng;
    let (doc, _) = program(seed);
    let p = Program::from_json(&doc).map_err(|e| TestCaseError::fail(format!("{e}\n{doc}")))?;
    let ours = zeenot_circuit::groth16::setup(&p, &mut rand_chacha::ChaCha20Rng::seed_from_u64(seed));
    let theirs = Groth16::<ark_bn254::Bn254>::circuit_specific_setup(
        synth::ProgramCircuit { program: &p, inputs: None, blindings: None },
        &mut rand_chacha::ChaCha20Rng::seed_from_u64(seed),
    );
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => prop_assert!(ours == theirs, "keys differ\n{}", doc),
        (Err(_), Err(_)) => {}
        (ours, theirs) => {
            prop_assert!(false, "one setup failed: {:?} / {:?}\n{}", ours.err(), theirs.err(), doc)
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn setup_gives_arkworks_keys(seed in any::<u64>()) {
        same_keys(seed)?;
    }
}
