"""Snapshot tests: every program in tests/lang/fail/ is rejected with the recorded diagnostic;
every program in tests/lang/ok/ compiles and agrees with plain Python on its recorded inputs.

Set ZEENOT_UPDATE_SNAPSHOTS=1 to rewrite the `.txt` snapshots.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from zeenot import CompileError, compile_function, load_function, simulate

from . import ir_interp

LANG = Path(__file__).resolve().parents[1] / "lang"
FAIL = sorted((LANG / "fail").glob("*.py"))
OK = sorted((LANG / "ok").glob("*.py"))
UPDATE = os.environ.get("ZEENOT_UPDATE_SNAPSHOTS") == "1"


def render(path: Path) -> str:
    with pytest.raises(CompileError) as info:
        compile_function(load_function(str(path), "main"))
    return info.value.render().replace(str(path), path.name) + "\n"


@pytest.mark.parametrize("path", FAIL, ids=[p.stem for p in FAIL])
def test_rejected_with_diagnostic(path: Path):
    got = render(path)
    snap = path.with_suffix(".txt")
    if UPDATE or not snap.exists():
        snap.write_text(got)
    assert got == snap.read_text()
    assert f"{path.name}:" in got and "error[ZN" in got


def test_every_code_is_documented():
    from zeenot.lang.codes import CODES

    doc = (LANG.parents[1] / "docs" / "language.md").read_text()
    for code in CODES:
        assert code in doc, code
    used = {re.search(r"ZN\d+", p.with_suffix(".txt").read_text()).group() for p in FAIL}
    assert used <= set(CODES)


def _cases(path: Path) -> list[tuple[dict, object]]:
    """`# case: {inputs} -> expected` comment lines (`expected` may be `"fail:<kind>"`)."""
    out = []
    for line in path.read_text().splitlines():
        if line.startswith("# case:"):
            inputs, expected = line[len("# case:") :].split("->")
            out.append((json.loads(inputs), json.loads(expected)))
    return out


def _run_ir(program, inputs):
    try:
        leaves = ir_interp.run(program.ir, program.flatten_inputs(inputs), chaos=1)
    except ir_interp.InterpFailure as exc:
        return f"fail:{exc.kind}"
    return program.outputs_to_json(program.unflatten_outputs(leaves))


def _run_py(fn, inputs):
    from zeenot import Failure

    try:
        return simulate(fn, inputs)
    except Failure as exc:
        return f"fail:{exc.kind}"


@pytest.mark.parametrize("path", OK, ids=[p.stem for p in OK])
def test_accepted_and_agrees(path: Path):
    fn = load_function(str(path), "main")
    program = compile_function(fn)
    cases = _cases(path)
    assert cases, f"{path.name} needs `# case:` lines"
    for inputs, expected in cases:
        assert _run_py(fn, inputs) == expected, inputs
        assert _run_ir(program, inputs) == expected, inputs


def test_syntax_error_is_a_diagnostic(tmp_path: Path):
    bad = tmp_path / "bad.py"
    bad.write_text("from zeenot import zk\n\n\n@zk\ndef main(a):\n    return a +\n")
    with pytest.raises(CompileError) as info:
        load_function(str(bad), "main")
    text = info.value.render()
    assert "error[ZN001]" in text and "bad.py:6:" in text
