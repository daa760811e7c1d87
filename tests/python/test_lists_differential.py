"""Differential and soundness tests of list programs: generated programs over lists of random
length (≤ MaxSize) and contents run as plain Python (`simulate`, the specification) and through
the Rust evaluator, the mutation checker and (a sample) the whole Groth16 path. Over-long inputs
are rejected before any work with a clear error."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zeenot import simulate

from .listgen import list_programs, over_long
from .test_backend_differential import _load, evaluator_agrees, groth16_agrees


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=list_programs(), data=st.data())
def test_list_programs_evaluate_as_simulate_and_are_pinned(prog, data):
    evaluator_agrees(prog, data)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=list_programs(), data=st.data())
def test_over_long_lists_are_rejected_before_any_work(prog, data):
    fn, circuit = _load(prog)
    inputs = data.draw(prog.inputs_strategy, label="inputs")
    name = "L0"
    inputs[name] = data.draw(over_long(prog.param_types[name]), label="too long")
    bound = prog.param_types[name][2]
    with pytest.raises(ValueError, match=rf"`{name}`: {bound + 1} values, more than the maximum"):
        simulate(fn, inputs)
    with pytest.raises(ValueError, match="more than the maximum size"):
        circuit.program.flatten_inputs(inputs)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=list_programs(), data=st.data())
def test_groth16_proves_list_programs(prog, data):
    fn, circuit = _load(prog)
    groth16_agrees(fn, circuit, data.draw(prog.inputs_strategy, label="inputs"))
