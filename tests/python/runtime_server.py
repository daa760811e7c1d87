"""Start a real `zeenot serve` process for a test (a free loopback port, a temporary DB)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
ZEENOT = [sys.executable, "-m", "zeenot.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(
    apps: list[Path], db: str, *extra: str, timeout: float = 60.0
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Yield (base URL, process) once `/api/health` answers; stop the process afterwards."""
    port = free_port()
    proc = subprocess.Popen(
        [*ZEENOT, "serve", *map(str, apps), "--db", db, "--port", str(port), *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    try:
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read().decode() if proc.stdout else ""
                raise RuntimeError(f"zeenot serve exited with {proc.returncode}:\n{out}")
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("zeenot serve did not answer in time")
            time.sleep(0.1)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stdout:
            proc.stdout.close()


def operator_token(directory: Path) -> tuple[Path, str]:
    """A fresh operator token file (mode 0600) and its token."""
    from zeenot.runtime.identity import new_token, write_secret

    token = new_token()
    path = directory / "operator.token"
    write_secret(path, token + "\n")
    return path, token


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}
