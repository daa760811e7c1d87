"""Differential test: `simulate` (plain Python) against the IR interpreter on random programs."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zeenot import Failure, compile_function, load_function, simulate

from . import ir_interp
from .progen import programs

_DIR = Path(tempfile.mkdtemp(prefix="zeenot-progen-"))
_COUNTER = itertools.count()


def outcome_sim(fn, inputs):
    try:
        return ("ok", simulate(fn, inputs))
    except Failure as exc:
        return ("fail", exc.kind, exc.line)


def outcome_ir(program, inputs, chaos):
    try:
        leaves = ir_interp.run(program.ir, program.flatten_inputs(inputs), chaos=chaos)
    except ir_interp.InterpFailure as exc:
        return ("fail", exc.kind, exc.loc[0])
    return ("ok", program.outputs_to_json(program.unflatten_outputs(leaves)))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=programs(), data=st.data())
def test_simulate_matches_ir(prog, data):
    path = _DIR / f"prog_{next(_COUNTER)}.py"
    path.write_text(prog.source_text)
    fn = load_function(str(path), prog.fn_name)
    program = compile_function(fn)
    for run in range(4):
        inputs = data.draw(prog.inputs_strategy, label=f"inputs{run}")
        expected = outcome_sim(fn, inputs)
        got = outcome_ir(program, inputs, chaos=run)
        assert got == expected, (prog.source_text, inputs)
