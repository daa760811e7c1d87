"""The leader's aggregation-job driver: in the serving process (`zeenot prio serve --role
leader`, the default) or in a process of its own beside the serving ones (`zeenot prio serve
--role leader --no-drive` and `zeenot prio drive`, over the same database).

Janus splits its aggregator the same way (the aggregator serves HTTP; the aggregation job
creator and driver run apart). Here the reason is the upload's latency: in one process, the
jobs' Python work holds the GIL that the upload handlers' event loop needs, so under load an
upload waits behind job steps; in two processes the operating system shares the cores and the
database's write lock is all they contend for. Nothing else changes: the driver takes pending
reports from the database, the serving processes only store uploads and collection jobs, and
the job queue's leases and the conditional updates keep several drivers apart (one per process,
or several `drive` processes).

What the driver runs: the `Leader.drive_once` loop (pending reports to new aggregation jobs;
pending collection jobs finished once their batch is ready) and `JOB_THREADS` job runners for
the aggregation jobs (with two, one prepares while another waits for the helper), one of which
also runs the periodic retention job.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from zeenot.errors import MalformedInput
from zeenot.prio import dap_codec as codec
from zeenot.prio import dap_stats as stats
from zeenot.prio.dap_leader import Leader
from zeenot.prio.dap_store import AGGREGATE_JOB, DapStore
from zeenot.prio.tasks import Task
from zeenot.runtime.jobs import RETENTION, JobRunner, retention
from zeenot.runtime.store import Store

# aggregation jobs one driver runs at once: with two, one prepares (or finishes) while the
# other waits for the helper, so both aggregators' cores are kept busy
JOB_THREADS = max(1, int(os.environ.get("ZEENOT_PRIO_JOB_THREADS", "2")))


def load_tasks(paths: list[str]) -> dict[str, Task]:
    tasks: dict[str, Task] = {}
    for path in paths:
        task = Task.load(path)
        if task.task_id in tasks:
            raise MalformedInput(f"two task files name the task {task.task_id}")
        tasks[task.task_id] = task
    if not tasks:
        raise MalformedInput("an aggregator serves at least one task (--task)")
    return tasks


class Driver:
    """A leader's driver thread and its job runners."""

    def __init__(self, leader: Leader, store: Store, threads: int = JOB_THREADS):
        if threads < 1:
            raise MalformedInput("a driver runs at least one job thread")
        self.leader = leader
        first = JobRunner(
            store,
            {AGGREGATE_JOB: leader.aggregate, "retention": retention(store)},
            periodic=[RETENTION],
            poll=0.2,
        )
        self.runners = [first] + [
            JobRunner(store, {AGGREGATE_JOB: leader.aggregate}, poll=0.2)
            for _ in range(threads - 1)
        ]

    def start(self) -> None:
        for runner in self.runners:
            runner.start()
        self.leader.start()

    def stop(self) -> None:
        self.leader.stop_driving()
        for runner in self.runners:
            runner.stop()


def drive(task_paths: list[str], db: str, job_size: int) -> int:
    """`zeenot prio drive`: run a leader's driver over `db` until SIGTERM or SIGINT."""
    if not 1 <= job_size <= 10_000:
        raise MalformedInput("--job-size is from 1 to 10000 reports")
    tasks = load_tasks([str(Path(p).resolve()) for p in task_paths])
    store = Store(db)
    dstore = DapStore(store)
    dstore.ensure_hpke_key(codec.generate_hpke)  # the serving process may not have drawn it yet
    leader = Leader(tasks, dstore, job_size)
    driver = Driver(leader, store)
    done = threading.Event()

    def finish(_signum: int, _frame: FrameType | None) -> None:
        done.set()

    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    driver.start()
    print(f"zeenot prio drive: {len(tasks)} task(s) over {db}", file=sys.stderr, flush=True)
    while not done.wait(1.0):
        pass
    driver.stop()
    leader.close()
    stats.dump("drive")
    return 0
