"""Reliability of `zeenot serve` as a process: bounded runs of benchmarks/runtime_load.py.

Under concurrent load with 10 % tampered or replayed submissions, no invalid one is accepted and
no valid one lost; after a SIGKILL mid-ingest and a restart, every acknowledged submission is
there, whole, and answered again on retry. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .runtime_server import ROOT

SCRIPT = ROOT / "benchmarks" / "runtime_load.py"


def _run(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600, cwd=ROOT
    )
    assert done.returncode in (0, 1), done.stderr
    result = json.loads(done.stdout)
    assert done.returncode == 0, result
    return result


@pytest.mark.slow
@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_load_with_tampered_and_replayed_submissions(db: str, request) -> None:
    if db == "postgresql":
        request.getfixturevalue("postgres_url")  # skips (or fails in CI) without PostgreSQL
    result = _run("--db", db, "-n", "120", "--concurrency", "8", "--processes", "2")
    assert result["bad"] == 24  # 12 tampered, replayed or moved; 12 victims' runs posted first
    assert result["front_runs"] == 12
    assert result["invalid_accepted"] == 0 and result["valid_lost"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_sigkill_mid_ingest_loses_nothing_acknowledged(db: str, request) -> None:
    if db == "postgresql":
        request.getfixturevalue("postgres_url")
    result = _run("--db", db, "-n", "90", "--kill")
    assert result["acknowledged"] >= 30
    assert result["missing_after_restart"] == 0
    assert result["retry_mismatches"] == 0 and result["orphan_proof_rows"] == 0
