"""An operable server: a clean exit when the database cannot be reached, Prometheus metrics,
an access log without private data, a config file beside the flags, retention, and a
dashboard whose poll does not read every stored run."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from .runtime_server import ROOT, ZEENOT

PAYD = ROOT / "examples" / "payd" / "app.py"


def _serve_exits(*args: str, timeout: float = 30.0) -> tuple[int, str, float]:
    started = time.monotonic()
    done = subprocess.run(
        [*ZEENOT, "serve", str(PAYD), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return done.returncode, done.stderr, time.monotonic() - started


def test_an_unreachable_postgresql_exits_2_naming_it_without_its_password() -> None:
    code, err, took = _serve_exits("--db", "postgresql://zeenot:s3cret@127.0.0.1:1/runs")
    assert code == 2, err
    assert "PostgreSQL at 127.0.0.1:1, database `runs`" in err
    assert "check that PostgreSQL runs there" in err
    assert "s3cret" not in err and "Traceback" not in err
    assert took < 20


def test_a_sqlite_file_in_a_missing_directory_exits_2(tmp_path: Path) -> None:
    db = tmp_path / "nowhere" / "zeenot.db"
    code, err, _ = _serve_exits("--db", str(db))
    assert code == 2, err
    assert f"the SQLite file {db}" in err and "exists" in err
    assert "Traceback" not in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_a_sqlite_file_in_a_read_only_directory_exits_2(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        code, err, _ = _serve_exits("--db", str(locked / "zeenot.db"))
    finally:
        locked.chmod(0o700)
    assert code == 2, err
    assert "may write there" in err


def test_a_sqlite_file_under_a_plain_file_exits_2(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("not a directory")  # fails as root too
    code, err, _ = _serve_exits("--db", str(tmp_path / "plain" / "zeenot.db"))
    assert code == 2, err
    assert "Traceback" not in err and "may write there" in err
