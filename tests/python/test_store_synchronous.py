"""SQLite's `synchronous` level in the data layer: FULL unless asked (`ZEENOT_SQLITE_SYNCHRONOUS`
or `Store(db, synchronous=…)`), NORMAL only by name, anything else refused; and under NORMAL
every acknowledged commit survives a killed process (kill -9)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from zeenot.errors import UsageError
from zeenot.runtime.store import SQLITE_SYNCHRONOUS_ENV, Store, sqlite_synchronous

from .runtime_server import ROOT

LEVELS = {0: "off", 1: "normal", 2: "full", 3: "extra"}


def _level(store: Store) -> str:
    with store.engine.connect() as conn:
        return LEVELS[int(conn.exec_driver_sql("PRAGMA synchronous").scalar_one())]


def test_full_by_default_normal_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SQLITE_SYNCHRONOUS_ENV, raising=False)
    store = Store(str(tmp_path / "a.db"))
    assert store.synchronous == "full" and _level(store) == "full"
    store = Store(str(tmp_path / "b.db"), synchronous="normal")
    assert store.synchronous == "normal" and _level(store) == "normal"
    monkeypatch.setenv(SQLITE_SYNCHRONOUS_ENV, " Normal ")
    store = Store(str(tmp_path / "c.db"))
    assert store.synchronous == "normal" and _level(store) == "normal"
    # the argument wins over the environment
    store = Store(str(tmp_path / "d.db"), synchronous="full")
    assert _level(store) == "full"
    monkeypatch.setenv(SQLITE_SYNCHRONOUS_ENV, "")
    assert sqlite_synchronous() == "full"


@pytest.mark.parametrize("bad", ["off", "extra", "0", "fast", "normal;drop"])
def test_other_levels_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: str
) -> None:
    monkeypatch.delenv(SQLITE_SYNCHRONOUS_ENV, raising=False)
    with pytest.raises(UsageError, match="synchronous is `full`"):
        Store(str(tmp_path / "x.db"), synchronous=bad)
    monkeypatch.setenv(SQLITE_SYNCHRONOUS_ENV, bad)
    with pytest.raises(UsageError, match=SQLITE_SYNCHRONOUS_ENV):
        Store(str(tmp_path / "y.db"))
    assert not (tmp_path / "x.db").exists() and not (tmp_path / "y.db").exists()


def test_postgres_keeps_its_own_settings(postgres_url: str) -> None:
    from .postgres import fresh_database

    store = Store(fresh_database(postgres_url), synchronous="normal")
    try:
        assert store.synchronous is None
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW synchronous_commit").scalar_one() == "on"
    finally:
        store.engine.dispose()


# A writer that commits one row per transaction and acknowledges each (prints its number)
# only after the commit returned, as a server answers a client.
WRITER = textwrap.dedent(
    """
    import sys
    from zeenot.runtime.store import Store

    store = Store(sys.argv[1])
    assert store.synchronous == "normal", store.synchronous
    with store.engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE acked (n INTEGER PRIMARY KEY, body BLOB)")
    n = 0
    while True:
        with store.engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO acked VALUES (?, randomblob(3000))", (n,))
        print(n, flush=True)
        n += 1
    """
)


def test_acknowledged_commits_survive_kill9_under_normal(tmp_path: Path) -> None:
    db = tmp_path / "acked.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python"), SQLITE_SYNCHRONOUS_ENV: "normal"}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    acknowledged: list[int] = []
    try:
        assert proc.stdout is not None
        while len(acknowledged) < 1500:  # ≈ 4.5 MB: past SQLite's checkpoint of a 1,000-page WAL
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else "the writer ended"
            acknowledged.append(int(line))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert acknowledged == list(range(len(acknowledged)))
    store = Store(str(db), synchronous="full")
    with store.engine.connect() as conn:
        got = [int(r[0]) for r in conn.exec_driver_sql("SELECT n FROM acked ORDER BY n")]
        assert conn.exec_driver_sql("PRAGMA integrity_check").scalar_one() == "ok"
    # every acknowledged row is there, and nothing but whole commits (the writer ran ahead of
    # what this test had read when it was killed: those rows may be there too)
    assert got[: len(acknowledged)] == acknowledged
    assert got == list(range(len(got)))
