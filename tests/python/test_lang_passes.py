"""Golden IR tests of each middle-end pass (python/zeenot/lang/passes/): a small IR body goes
through the front end's emission (folding, guards, sharing: as `Emitter.emit` applies them to
every instruction) and then dead-code removal and renumbering, as `compile_program` does; the
result must be the one recorded in tests/python/golden/passes/PASS.json, next to its input.

Each file's cases exercise one pass (`about` says what they show). A deliberate change to a pass
regenerates the recorded outputs (check the diff):

    ZEENOT_UPDATE_GOLDEN=1 pytest tests/python/test_lang_passes.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from zeenot.lang.emit import Emitter
from zeenot.lang.passes import eliminate_dead, renumber
from zeenot.lang.values import Wire

GOLDEN = Path(__file__).resolve().parent / "golden" / "passes"
PASSES = ["fold", "guards", "shared", "dead"]
UPDATE = os.environ.get("ZEENOT_UPDATE_GOLDEN") == "1"


def run_passes(doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` (inputs, body, outputs) emitted again instruction by instruction, then without
    its dead code and renumbered."""
    c = Emitter()
    ids: dict[int, Wire] = {}
    inputs = []
    for leaf in doc["inputs"]:
        ids[leaf["id"]] = Wire(c.next_id, leaf["ty"])
        inputs.append({**leaf, "id": c.next_id})
        c.next_id += 1
    for ins in doc["body"]:
        line, col = ins.get("loc", [1, 0])
        node = SimpleNamespace(lineno=line, col_offset=col)
        guard = ins.get("guard")
        c.guard = ids[guard] if guard is not None else None
        args = [ids[a] for a in ins.get("args", [])]
        if ins["op"] == "const":
            ids[ins["id"]] = c.const(ins["ty"], int(ins["value"]))
        elif ins["op"] == "check":
            c.emit_check(args[0], node, ins["msg"])  # type: ignore[arg-type]
        elif "id" not in ins:  # point_check, eddsa_check
            c.body.append({**ins, "args": [a.id for a in args]})
        else:
            ids[ins["id"]] = c.emit(ins["op"], ins["ty"], args, node)  # type: ignore[arg-type]
    outputs = [{**o, "value": ids[o["value"]].id} for o in doc["outputs"]]
    body = eliminate_dead(inputs, c.body, [o["value"] for o in outputs])
    renumber(inputs, body, outputs)
    return {"inputs": inputs, "body": body, "outputs": outputs}


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{name}/{case['name']}", case)
        for name in PASSES
        for case in json.loads((GOLDEN / f"{name}.json").read_text())
    ]


@pytest.mark.skipif(not UPDATE, reason="only with ZEENOT_UPDATE_GOLDEN=1")
def test_update_golden():
    for name in PASSES:
        path = GOLDEN / f"{name}.json"
        cases = json.loads(path.read_text())
        for case in cases:
            case["output"] = run_passes(case["input"])
        path.write_text(json.dumps(cases, indent=1) + "\n")


@pytest.mark.parametrize("case", [c for _, c in _cases()], ids=[n for n, _ in _cases()])
def test_pass_golden(case: dict[str, Any]):
    assert run_passes(case["input"]) == case["output"], case["about"]


def test_every_pass_has_golden_cases():
    names = {p.stem for p in GOLDEN.glob("*.json")}
    assert names == set(PASSES)
    modules = Path(__file__).resolve().parents[2] / "python" / "zeenot" / "lang" / "passes"
    # A pass that runs on whole programs rather than the emitter has its own test module.
    own_tests = {"packed_eq": "test_packed_eq.py"}
    for name, test in own_tests.items():
        assert (Path(__file__).resolve().parent / test).is_file(), f"{name}: {test} is missing"
    assert {p.stem for p in modules.glob("*.py")} - {"__init__"} == set(PASSES) | set(own_tests)
