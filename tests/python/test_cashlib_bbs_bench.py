"""benchmarks/cashlib.py beside BBS: how it runs `benchmarks/bbs`'s binary and what it prints.

The binary itself is a benchmark (built by hand, not by CI): these tests stand a small script in
for it, with the JSON shape `bbs-bench` prints, and check the side-by-side table, the fallback to
issue 31's quoted figures (marked as quoted) and a failing binary's error.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "cashlib_bench", ROOT / "benchmarks" / "cashlib.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


bench = _load()


def _t(median: float, least: float) -> dict[str, list[float]]:
    return {"wall_ms": [median, least], "cpu_ms": [median + 0.1, least + 0.1]}


BBS_JSON: dict[str, Any] = {
    "crate": "bbs_plus 0.25.0 (docknetwork, arkworks 0.4)",
    "threads": 1,
    "sign": _t(1.1, 1.0),
    "verify": _t(2.3, 2.2),
    "signature_bytes": 80,
    "possession_cdl": {"prove": _t(3.0, 2.9), "verify": _t(3.6, 3.5), "bytes": 634},
    "possession_ietf": {"prove": _t(2.4, 2.3), "verify": _t(2.9, 2.8), "bytes": 506},
}

CREDS: dict[str, Any] = {
    "show_1_of_10": {
        "prove_ms": [1.5, 1.4],
        "verify_ms": [1.8, 1.7],
        "prove_cpu_ms_min": 1.45,
        "verify_cpu_ms_min": 1.75,
        "bytes": 1329,
    },
    "issue": {
        "issue_ms": [6.0, 5.3],
        "finish_ms": [2.4, 2.3],
        "issue_cpu_ms_min": 5.3,
        "finish_cpu_ms_min": 2.3,
    },
}


def _fake_binary(tmp_path: Path, body: str) -> Path:
    exe = tmp_path / "bbs-bench"
    exe.write_text(f"#!{sys.executable}\n{body}\n")
    exe.chmod(0o755)
    return exe


def test_runs_the_binary_with_the_same_reps_and_shape(tmp_path: Path) -> None:
    args_file = tmp_path / "args.json"
    exe = _fake_binary(
        tmp_path,
        "import json, sys\n"
        f"open({str(args_file)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
        f"print(json.dumps({BBS_JSON!r}))",
    )
    out = bench.bbs(exe, 7)
    assert out == BBS_JSON
    assert json.loads(args_file.read_text()) == [
        "--reps",
        "7",
        "--attributes",
        "10",
        "--revealed",
        "1",
    ]


def test_a_failing_binary_is_a_clear_error(tmp_path: Path) -> None:
    exe = _fake_binary(tmp_path, "import sys\nsys.stderr.write('boom')\nsys.exit(3)")
    with pytest.raises(SystemExit, match=r"failed \(3\): boom"):
        bench.bbs(exe, 1)


def test_side_by_side_measured() -> None:
    text = bench.side_by_side(CREDS, BBS_JSON, Path("/x/bbs-bench"))
    lines = text.splitlines()
    assert "measured in this run" in lines[0] and "QUOTED" not in text
    prove = [ln for ln in lines if ln.startswith("possession, prove")]
    assert [ln.split()[3] for ln in prove] == ["KVAC", "(B,", "(A,"]
    # the least wall and CPU time of each side
    assert prove[0].split()[-2:] == ["1.40", "1.45"]
    assert prove[1].split()[-2:] == ["2.90", "3.00"]
    assert "BBS 634 (B) / 506 (A, IETF); BBS signature 80" in text
    # KVAC / BBS (B), least CPU: 1.45 / 3.0 and 1.75 / 3.6
    assert lines[-1] == "KVAC / BBS (B), least CPU: prove 0.48x, verify 0.49x"


def test_side_by_side_without_the_binary_marks_the_figures_quoted() -> None:
    text = bench.side_by_side(CREDS, None, Path("/nowhere/bbs-bench"))
    assert "no BBS benchmark at /nowhere/bbs-bench" in text
    assert bench.BBS_BUILD in text and "QUOTED" in text
    quoted = [ln for ln in text.splitlines() if "BBS (quoted)" in ln]
    assert len(quoted) == 4
    assert "KVAC / BBS" not in text
