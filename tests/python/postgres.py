"""A throwaway PostgreSQL server for tests: initdb into a temporary directory, started on a free
port with its socket there too, stopped afterwards. Debian's PostgreSQL 15 binaries
(`scripts/system_deps.sh` installs them); as root the server runs as the `postgres` user."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .runtime_server import free_port

BIN = Path("/usr/lib/postgresql/15/bin")


def available() -> bool:
    return (BIN / "initdb").exists() and (BIN / "pg_ctl").exists()


def _as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Yield a `postgresql://` URL of a fresh, empty database."""
    if not available():
        raise RuntimeError(
            "PostgreSQL 15 is not installed: run scripts/system_deps.sh (Debian: postgresql-15)"
        )
    root = Path(tempfile.mkdtemp(prefix="zeenot-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    run = {"check": True, "capture_output": True, "timeout": 120}
    subprocess.run(
        _as_postgres(
            [str(BIN / "initdb"), "-D", str(data), "-U", "zeenot", "--auth=trust", "-E", "UTF8"]
        ),
        **run,
    )
    # A free port can be taken between free_port() and the server's bind (parallel test workers
    # each start servers): a failed start is retried on another port.
    for attempt in range(3):
        port = free_port()
        options = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=on"
        try:
            subprocess.run(
                _as_postgres(
                    [
                        str(BIN / "pg_ctl"),
                        "-D",
                        str(data),
                        "-o",
                        options,
                        "-w",
                        "-l",
                        str(root / "log"),
                        "start",
                    ]
                ),
                **run,
            )
            break
        except subprocess.CalledProcessError:
            if attempt == 2:
                raise
    try:
        yield f"postgresql://zeenot@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([str(BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)


def fresh_database(url: str) -> str:
    """A new, empty database on the server of `url` (a unique name), as a URL: each test
    its own, so parallel workers and reruns never share rows."""
    import uuid

    import sqlalchemy as sa

    name = f"t_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return url.rsplit("/", 1)[0] + "/" + name
