"""`zeenot compile --max-instructions` (issue 30): the activity trace's unrolled body grows with
its fixes (~120 IR instructions a fix: 3,816 at 32, 30,924 at 256), so CRISP's 2,048 fixes
(~247,000) exceed the front end's default 200,000-instruction limit; the one-command path
raises it. Checked at 32 fixes with limits just below and above what that size needs (the same
mechanism, without compiling 2,048 fixes here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zeenot import api, cli
from zeenot.errors import CompileError, UsageError

from .conftest import EXAMPLES

ACTIVITY = f"{EXAMPLES / 'activity' / 'certified.py'}:distance_32"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def test_compile_takes_the_instruction_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, "compile", ACTIVITY, "-o", str(tmp_path / "low"), "--max-instructions", "3000"
    )
    assert code != 0 and "ZN114" in err and "more than 3000 instructions" in err, err
    assert "--max-instructions" in err  # the error says how to raise it
    assert not (tmp_path / "low").exists() or not any((tmp_path / "low").iterdir())

    out_dir = tmp_path / "ok"
    code, out, err = run(
        capsys, "compile", ACTIVITY, "-o", str(out_dir), "--max-instructions", "4000", "--json"
    )
    assert code == 0, err
    stats = json.loads(out)
    assert stats["constraints"] == api.load(out_dir).stats["constraints"] > 40_000

    with pytest.raises(SystemExit):  # argparse: not a positive integer
        cli.main(["compile", ACTIVITY, "-o", str(tmp_path / "x"), "--max-instructions", "0"])
    assert "positive integer" in capsys.readouterr().err


def test_the_api_takes_it_too() -> None:
    with pytest.raises(CompileError, match="ZN114"):
        api.compile(ACTIVITY, max_instructions=3_000)
    with pytest.raises(UsageError, match="positive integer"):
        api.compile(ACTIVITY, max_instructions=True)
