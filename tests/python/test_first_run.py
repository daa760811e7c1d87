"""A quiet, honest first run (issue 28, item 5): `--quiet`, `--profile` for bundles, one
"× cheaper" figure from `prove --backend auto` and `plan`, `run --save`, no absolute paths in
the plan table."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx

from zeenot.runtime.identity import Key

from .conftest import EXAMPLES, ROOT
from .runtime_server import bearer, operator_token, serve

PAYD = EXAMPLES / "payd"
SURVEY = EXAMPLES / "survey"


def zeenot(*args: str, check: int = 0, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "zeenot.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python")},
    )
    assert proc.returncode == check, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    return proc


def test_quiet_prints_nothing_but_errors(tmp_path):
    d, proof = tmp_path / "payd", tmp_path / "proof.json"
    app, inputs = f"{PAYD / 'app.py'}:weekly_premium", str(PAYD / "inputs.json")
    for args in (
        ("compile", app, "-o", str(d)),
        ("setup", str(d)),
        ("prove", str(d), "--inputs", inputs, "-o", str(proof)),
        ("verify", str(d), str(proof)),
        ("plan", app, "--inputs", inputs),
    ):
        loud = zeenot(*args) if args[0] in ("plan",) else None
        quiet = zeenot(*args, "--quiet")
        assert quiet.stdout == "" and quiet.stderr == "", args
        if loud is not None:
            assert loud.stdout
    assert json.loads(proof.read_text())["backend"] == "groth16"
    # a failure still says why, and the exit code tells
    doc = json.loads(proof.read_text())
    doc["outputs"][0] -= 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    out = zeenot("verify", str(d), str(bad), "-q", check=1)
    assert out.stdout == "" and "invalid" in out.stderr


def test_bundles_profile_and_one_cheaper_figure(tmp_path):
    """`prove --backend auto` of a program in regions: the stage table on stderr with
    `--profile`, and each region's "× cheaper" figure the one `zeenot plan` prints."""
    app, inputs = f"{SURVEY / 'app.py'}:scored", str(SURVEY / "inputs.json")
    d = tmp_path / "survey"
    zeenot("compile", app, "-o", str(d))
    zeenot("setup", str(d))
    proved = zeenot(
        "prove", str(d), "--inputs", inputs, "--backend", "auto", "-o", str(tmp_path / "b.json"),
        "--profile",
    )  # fmt: skip
    assert re.search(r"^prove 2 regions \(groth16, sigma\)\s+\d", proved.stderr, re.M)
    assert re.search(r"^total\s+\d", proved.stderr, re.M)
    figures = dict(re.findall(r"^(\w+): backend: \w+ \((\d+\.\d)× cheaper", proved.stderr, re.M))
    assert figures, proved.stderr
    table = zeenot("plan", app, "--inputs", inputs).stdout
    for region, figure in figures.items():
        assert re.search(rf"^\| {region} \|.*\| {re.escape(figure)}× cheaper", table, re.M), (
            region,
            figure,
            table,
        )
    zeenot("verify", str(d), str(tmp_path / "b.json"))


def test_the_plan_table_names_no_absolute_path():
    """The survey's scored region cannot be proved by sigma, and the table says where in the
    source: as the path was given (relative), not the checkout's absolute path."""
    table = zeenot(
        "plan", "examples/survey/app.py:scored", "--inputs", "examples/survey/inputs.json"
    )
    assert "examples/survey/app.py:" in table.stdout
    assert str(ROOT) not in table.stdout


def test_run_save_builds_a_submission_without_sending_it(tmp_path):
    token_file, token = operator_token(tmp_path)
    key = Key.generate("car-9")
    car = tmp_path / "car.key"
    key.save(car)
    args = ["--operator-token-file", str(token_file)]
    with serve([PAYD / "app.py"], str(tmp_path / "z.db"), *args) as (url, _):
        public = {"name": key.name, "public_key": key.public_key}
        r = httpx.post(f"{url}/api/apps/payd/clients", json=public, headers=bearer(token))
        assert r.status_code == 201
        saved = tmp_path / "submission.json"
        base = ["run", str(PAYD / "app.py"), "--server", url, "--inputs", str(PAYD / "log.json")]
        out = zeenot(*base, "--client-key", str(car), "--save", str(saved), "--id", "s-1")
        answer = json.loads(out.stdout)
        assert answer["id"] == "s-1" and answer["saved"] == str(saved) and answer["proofs"]
        doc = json.loads(saved.read_text())
        assert doc["id"] == "s-1" and doc["app"] == "payd" and doc["proofs"]
        assert saved.stat().st_mode & 0o777 == 0o644
        listed = httpx.get(f"{url}/api/apps/payd/submissions", headers=bearer(token)).json()
        assert "s-1" not in json.dumps(listed)  # nothing was sent
        # the same car can still run this week: the saved submission used nothing up
        zeenot(*base, "--client-key", str(car), "--quiet")
