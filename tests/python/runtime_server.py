"""Start a real `zeenot serve` process for a test (a free loopback port, a temporary DB)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
ZEENOT = [sys.executable, "-m", "zeenot.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(
    proc: subprocess.Popen[bytes],
    health_url: str,
    name: str,
    output: Callable[[], str],
    timeout: float = 60.0,
) -> None:
    """Return once `health_url` answers 200; a `RuntimeError` with the process's `output()` if it
    exits first or does not answer within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited {proc.returncode}:\n{output()}")
        try:
            if httpx.get(health_url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not answer in time:\n{output()}")
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes] | None) -> None:
    """Terminate a test's server process (kill it after 10 s)."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


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

    def output() -> str:  # what it printed (only read once it has exited)
        return proc.stdout.read().decode() if proc.stdout and proc.poll() is not None else ""

    try:
        wait_healthy(proc, f"{url}/api/health", "zeenot serve", output, timeout)
        yield url, proc
    finally:
        stop(proc)
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
