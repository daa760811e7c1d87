"""Differential and soundness tests of the Rust back end on generated Python programs.

Each generated program is run as plain Python (`simulate`, the specification) and through the
Rust core: its evaluator (which decides whether a proof exists, and where it fails), the mutation
checker (every internal witness and output of the synthesized circuit is pinned) and, for a
sample, the whole Groth16 path (setup, prove, verify, and a changed output rejected).
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zeenot import Failure, _native, api, load_function, simulate

from .progen import programs

_DIR = Path(tempfile.mkdtemp(prefix="zeenot-backend-"))
_COUNTER = itertools.count()


def _load(prog):
    path = _DIR / f"prog_{next(_COUNTER)}.py"
    path.write_text(prog.source_text)
    fn = load_function(str(path), prog.fn_name)
    return fn, api.compile(fn)


def outcome_sim(fn, inputs):
    try:
        return ("ok", simulate(fn, inputs))
    except Failure as exc:
        return ("fail", exc.kind, exc.line)


def outcome_rust(circuit, inputs):
    leaves = circuit.program.flatten_inputs(inputs)
    try:
        out = _native.evaluate(circuit.ir_json, leaves)
    except _native.UnsatisfiedError as exc:
        return ("fail", exc.kind, exc.line)
    return ("ok", circuit.program.outputs_to_json(circuit.program.unflatten_outputs(out)))


def groth16_agrees(fn, circuit, inputs):
    """Prove and verify when `simulate` succeeds (same outputs); no proof when it fails.
    Returns `(keys, proof)`, or None for a failing program."""
    keys = api.setup(circuit, seed=1)
    expected = outcome_sim(fn, inputs)
    if expected[0] != "ok":
        with pytest.raises(_native.UnsatisfiedError):
            api.prove(circuit, keys, inputs)
        return None
    proof = api.prove(circuit, keys, inputs, seed=2)
    assert proof.outputs == expected[1]
    api.verify(circuit, keys.verifying_key, proof)
    return keys, proof


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=programs(), data=st.data())
def test_rust_evaluator_matches_simulate_and_circuit_is_pinned(prog, data):
    evaluator_agrees(prog, data)


def evaluator_agrees(prog, data, runs: int = 3):
    """On `runs` drawn inputs: the Rust evaluator agrees with `simulate` (outputs, or failure
    kind and line), and when the program succeeds every witness of its circuit is pinned."""
    fn, circuit = _load(prog)
    for run in range(runs):
        inputs = data.draw(prog.inputs_strategy, label=f"inputs{run}")
        expected = outcome_sim(fn, inputs)
        assert outcome_rust(circuit, inputs) == expected, (prog.source_text, inputs)
        leaves = circuit.program.flatten_inputs(inputs)
        if expected[0] == "ok":
            _native.check_mutations(circuit.ir_json, leaves)
        else:
            with pytest.raises(_native.ZeenotError):
                _native.check_mutations(circuit.ir_json, leaves)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=programs(), data=st.data())
def test_groth16_proves_what_simulate_computes(prog, data):
    fn, circuit = _load(prog)
    inputs = data.draw(prog.inputs_strategy, label="inputs")
    proved = groth16_agrees(fn, circuit, inputs)
    if proved is None:
        return
    keys, proof = proved
    public = api.public_vector(circuit.program, proof)
    if public:  # change the last public value (an output, or a public input)
        changed = public[:-1] + [str(int(public[-1]) + 1)]
        try:
            ok = _native.verify(circuit.ir_json, keys.verifying_key, changed, proof.proof)
        except ValueError:
            ok = False  # out of the type's range: refused before verification
        assert not ok


def _in_regions(prog) -> str:
    """The generated program's source with a `@zk` caller that passes every parameter on to it
    and returns its result: compiled in regions (the callee a region of its own)."""
    import ast

    fdef = next(
        n
        for n in ast.parse(prog.source_text).body
        if isinstance(n, ast.FunctionDef) and n.name == prog.fn_name
    )
    params = ", ".join(f"{a.arg}: {ast.unparse(a.annotation)}" for a in fdef.args.args)
    names = ", ".join(a.arg for a in fdef.args.args)
    returns = f" -> {ast.unparse(fdef.returns)}" if fdef.returns is not None else ""
    call = (
        f"return {prog.fn_name}({names})"
        if fdef.returns is not None
        else f"{prog.fn_name}({names})"
    )
    return f"{prog.source_text}\n\n@zk\ndef caller({params}){returns}:\n    {call}\n"


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=programs(), data=st.data())
def test_a_bundle_proves_what_simulate_computes(prog, data):
    """The generated program called from another `@zk` function: two regions (arguments
    crossing committed or passed on, the result committed or shown), proved as a bundle with
    Groth16; the bundle's outputs are Python's, and a failing program has no bundle."""
    from zeenot import bundle

    path = _DIR / f"regions_{next(_COUNTER)}.py"
    path.write_text(_in_regions(prog))
    fn = load_function(str(path), "caller")
    inputs = data.draw(prog.inputs_strategy, label="inputs")
    expected = outcome_sim(fn, inputs)
    try:
        regions = api.compile(fn)
    except _native.ZeenotError as exc:  # a constant failure: refused when compiled
        assert "fails on every input" in str(exc) and expected[0] == "fail"
        return
    assert isinstance(regions, bundle.Regions)
    keys = {n: api.setup(c, seed=1) for n, c in regions.circuits.items()}
    backends = dict.fromkeys(regions.circuits, "groth16")
    if expected[0] != "ok":
        with pytest.raises(_native.UnsatisfiedError):
            bundle.prove(regions, inputs, backends, keys)
        return
    proved = bundle.prove(regions, inputs, backends, keys, seed=3)
    assert proved.outputs == expected[1]
    received = bundle.Bundle.from_json(proved.to_json())
    bundle.verify(regions, {n: k.verifying_key for n, k in keys.items()}, received)
