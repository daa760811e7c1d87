"""The collective authority as processes: 3 servers (threshold 2) on loopback, each its own
SQLite database, run by examples/hospitals/run.py; and a request from outside the roster."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_base_port(servers: int = 3) -> str:
    """A base port whose `servers` consecutive ports are free now (server i listens on base + i):
    tests on parallel workers, or other processes on the machine, never share a fixed port."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = int(s.getsockname()[1])
        if base + servers > 65535:
            continue
        try:
            for port in range(base, base + servers):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return str(base)
    raise RuntimeError(f"no {servers} consecutive free ports")


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "examples/hospitals/run.py"), "--dir", str(tmp), *args],
        capture_output=True,
        text=True,
        timeout=1800,
    )


@pytest.mark.slow
def test_hospitals_1000_records_equal_reference(tmp_path):
    out = _run(tmp_path, "--records", "1000", "--base-port", _free_base_port())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "equal to the reference" in out.stdout and '"verdict": "valid"' in out.stdout


@pytest.mark.slow
def test_hospitals_on_postgresql(tmp_path, postgres_url):
    """The example with each server's database on PostgreSQL (a step's key once overflowed a
    column there, which SQLite does not check: every step failed)."""
    out = _run(
        tmp_path, "--records", "60", "--base-port", _free_base_port(), "--postgres", postgres_url
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "equal to the reference" in out.stdout and '"verdict": "valid"' in out.stdout


@pytest.mark.slow
def test_query_completes_with_one_server_killed(tmp_path):
    out = _run(tmp_path, "--records", "60", "--kill", "s2", "--base-port", _free_base_port())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert '"server": "s2"' in out.stdout  # named as excluded


def test_outside_the_roster_is_refused(tmp_path):
    from starlette.testclient import TestClient
    from tests.python.cothority_cluster import deployment

    from zeenot.cothority.server import build
    from zeenot.runtime.identity import Key, SignedAuth
    from zeenot.runtime.store import Store

    dep, keys = deployment(tmp_path)
    app = build(dep, keys["s1"], Store(str(tmp_path / "s1.db")), start=False)
    stranger = Key.generate("s2")  # a roster name, another key
    with TestClient(app) as client:
        for key, path in (
            (stranger, "/cothority/steps/tag"),
            (Key.generate("x"), "/cothority/records"),
            (keys["h1"], "/cothority/steps/tag"),
            (keys["h1"], "/cothority/queries"),
        ):
            r = client.post(path, content=b"{}", auth=SignedAuth(key, "s1"))
            assert r.status_code == 401, (key.name, path, r.text)
        r = client.post("/cothority/records", content=b"[]")  # not signed at all
        assert r.status_code == 401
        body = json.dumps({"x25519": "00" * 32}).encode()
        r = client.post("/cothority/dkg/dealing", content=body, auth=SignedAuth(keys["s2"], "s1"))
        assert r.status_code == 400  # a roster server, but a low-order X25519 key
