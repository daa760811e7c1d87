"""The front end's output pinned: every `@zk` function of every example (and the programs in
tests/lang/ok/ and tests/python/programs/) compiles to the IR recorded in
tests/python/golden/front_end.json, byte for byte (a SHA-256 of the canonical JSON), and to the
same program hash and constraint count.

This is the net under refactorings of python/zeenot/lang/ that must not change what it emits.
A deliberate change to the emitted IR regenerates the file:

    ZEENOT_UPDATE_GOLDEN=1 pytest tests/python/test_front_end_golden.py

Templates (lists without `MaxSize`) are compiled at length 2 for each unbounded list. A program
that calls other `@zk` functions is recorded twice: in regions (its application document) and
inlined (`regions=False`); constraints are counted for the inlined program only.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden" / "front_end.json"
UPDATE = os.environ.get("ZEENOT_UPDATE_GOLDEN") == "1"
TEMPLATE_LENGTH = 2

SOURCES = (
    sorted((ROOT / "examples").glob("*/app.py"))
    + sorted((ROOT / "tests" / "python" / "programs").glob("*.py"))
    + sorted((ROOT / "tests" / "lang" / "ok").glob("*.py"))
)


def _relative(doc: Any) -> Any:
    """`doc` with every `source.file` relative to the repository (checkouts differ)."""
    if isinstance(doc, dict):
        out = {k: _relative(v) for k, v in doc.items()}
        src = out.get("source")
        if isinstance(src, dict) and isinstance(src.get("file"), str):
            src["file"] = Path(src["file"]).resolve().relative_to(ROOT).as_posix()
        return out
    if isinstance(doc, list):
        return [_relative(v) for v in doc]
    return doc


def _sha(doc: Any) -> str:
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _record(fn: Any) -> dict[str, Any]:
    from zeenot import api
    from zeenot.artifacts import _unbounded_params
    from zeenot.errors import CompileError
    from zeenot.ir import Program
    from zeenot.lang.compiler import compile_program

    out: dict[str, Any] = {}
    unbounded = _unbounded_params(fn)
    lengths = dict.fromkeys(unbounded, TEMPLATE_LENGTH) if unbounded else None
    if lengths is None:
        try:
            doc = _relative(compile_program(fn, regions=True))
        except CompileError as exc:  # some test programs show a region's limits
            out["regions_error"] = exc.render().replace(str(ROOT) + "/", "")
        else:
            if "zeenot_regions" in doc:
                out["regions_sha256"] = _sha(doc)
                out["regions"] = [r["name"] for r in doc["regions"]]
    try:
        inlined = _relative(compile_program(fn, lengths))
    except CompileError as exc:
        out["error"] = exc.render().replace(str(ROOT) + "/", "")
        return out
    if lengths is not None:
        out["lengths"] = lengths
    out["ir_sha256"] = _sha(inlined)
    out["instructions"] = len(inlined["body"])
    circuit = api.Circuit(Program(inlined))
    out["program_hash"] = circuit.hash
    out["constraints"] = int(circuit.stats["constraints"])
    return out


def _programs() -> dict[str, Any]:
    """`{"path:function": fn}` for every `@zk` function (tests/lang/ok: `main`) of SOURCES."""
    from zeenot.lang import load_module

    found = {}
    for source in SOURCES:
        module = load_module(str(source))
        rel = source.relative_to(ROOT).as_posix()
        fns = [v for v in vars(module).values() if callable(v) and hasattr(v, "__zk__")]
        fns = [f for f in fns if f.__module__ == module.__name__]
        if "tests/lang/ok" in rel and not fns:
            fns = [module.main]
        for fn in sorted(fns, key=lambda f: f.__name__):
            found[f"{rel}:{fn.__name__}"] = fn
    return found


def test_front_end_output_unchanged():
    got = {name: _record(fn) for name, fn in _programs().items()}
    if UPDATE:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    expected = json.loads(GOLDEN.read_text())
    assert sorted(got) == sorted(expected), "the set of programs changed: regenerate"
    changed = [name for name in got if got[name] != expected[name]]
    assert not changed, f"the front end's output changed for: {', '.join(changed)}"


def test_every_example_is_covered():
    examples = {p.parent.name for p in (ROOT / "examples").glob("*/app.py")}
    covered = {name.split("/")[1] for name in json.loads(GOLDEN.read_text()) if "examples/" in name}
    assert examples == covered


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-q"])
