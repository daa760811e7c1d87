"""Start zeenot's DAP aggregators for a test: `zeenot prio serve` processes on loopback ports,
each with its own SQLite database, and a task file they share."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .runtime_server import ROOT, ZEENOT, free_port, stop, wait_healthy


class _Process:
    """What the aggregator and the driver processes share: killed hard, or stopped."""

    proc: subprocess.Popen[bytes] | None

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        stop(self.proc)


@dataclass
class Aggregator(_Process):
    role: str
    port: int
    db: Path
    tasks: list[Path]
    env: dict[str, str]
    job_size: int = 256
    workers: int = 1
    drives: bool = True  # False: `serve --no-drive`, with a `Driver` process beside it
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    log: Path | None = None
    driver: Driver | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 60.0) -> None:
        args = [*ZEENOT, "prio", "serve", "--role", self.role, "--db", str(self.db)]
        for task in self.tasks:
            args += ["--task", str(task)]
        args += ["--port", str(self.port), "--job-size", str(self.job_size)]
        if self.workers != 1:
            args += ["--workers", str(self.workers)]
        if not self.drives:
            args.append("--no-drive")
        self.log = self.db.with_suffix(".log")
        out = open(self.log, "ab")  # noqa: SIM115 - the process owns it
        self.proc = subprocess.Popen(
            args, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=self.env
        )
        out.close()
        wait_healthy(self.proc, self.url + "health", self.role, self.tail, timeout)

    def tail(self) -> str:
        return self.log.read_text()[-3000:] if self.log and self.log.exists() else ""


@dataclass
class Driver(_Process):
    """`zeenot prio drive`: a leader's aggregation and collection jobs in a process of their own."""

    db: Path
    tasks: list[Path]
    env: dict[str, str]
    job_size: int = 256
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def start(self) -> None:
        args = [*ZEENOT, "prio", "drive", "--db", str(self.db), "--job-size", str(self.job_size)]
        for task in self.tasks:
            args += ["--task", str(task)]
        out = open(self.db.with_suffix(".drive.log"), "ab")  # noqa: SIM115 - the process owns it
        self.proc = subprocess.Popen(
            args, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=self.env
        )
        out.close()


def new_task(
    directory: Path, vdaf: dict[str, Any], min_batch_size: int = 10, tp: int = 3600
) -> tuple[Path, dict[str, Any], int, int]:
    """A task for a leader and a helper on two fresh ports: (task file, collector credential,
    leader port, helper port)."""
    from zeenot.prio.tasks import new_task as make

    lport, hport = free_port(), free_port()
    task, credential = make(
        f"http://127.0.0.1:{lport}/", f"http://127.0.0.1:{hport}/", vdaf, tp, min_batch_size
    )
    path = directory / f"task-{task.task_id[:8]}.json"
    path.write_text(json.dumps(task.to_json()))
    return path, credential, lport, hport


@contextlib.contextmanager
def aggregators(
    directory: Path,
    task: Path,
    lport: int,
    hport: int,
    job_size: int = 256,
    workers: int = 1,
    split: bool = False,
    **env: str,
) -> Iterator[tuple[Aggregator, Aggregator]]:
    """A helper and a leader; with `split`, the leader serves without driving its jobs and a
    `zeenot prio drive` process (`leader.driver`) drives them."""
    environ = {**os.environ, "PYTHONUNBUFFERED": "1", **env}
    helper = Aggregator("helper", hport, directory / "helper.db", [task], environ, job_size)
    leader = Aggregator(
        "leader", lport, directory / "leader.db", [task], environ, job_size, workers, not split
    )
    if split:
        leader.driver = Driver(leader.db, [task], environ, job_size)
    try:
        helper.start()
        leader.start()
        if leader.driver is not None:
            leader.driver.start()
        yield leader, helper
    finally:
        if leader.driver is not None:
            leader.driver.stop()
        leader.stop()
        helper.stop()


def until_answered(send: Callable[[], Any], what: str, timeout: float = 120.0) -> Any:
    """`send()` again and again, as janus_client retries an upload, until it is answered: a
    network error or a 5xx (an aggregator killed and restarting) means the same request again;
    a 4xx is the answer's refusal, raised."""
    import httpx

    from zeenot.prio.dap_client import DapRefused

    deadline = time.monotonic() + timeout
    while True:
        try:
            return send()
        except httpx.TransportError:
            pass
        except DapRefused as exc:
            if exc.status < 500:
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} was never answered")
        time.sleep(0.2)
