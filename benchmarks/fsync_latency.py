"""How long a durable commit's flush takes on this disk (issue 32's p99 budget).

    python benchmarks/fsync_latency.py [--writes 2000] [--size 4096] [--interval 0.005]
        [--sync fsync|fdatasync] [--noise K] [--dir DIR] [--json OUT]

A SQLite commit in WAL mode with `synchronous=FULL` appends its pages to the WAL and flushes it
(`fsync`/`fdatasync`) before it returns; the upload it acknowledges waits for that flush. This
times the flush alone: `--writes` appends of `--size` bytes to a file in a temporary directory
under `--dir` (default: the system's temporary directory, where `benchmarks/prio_load.py` puts
its databases), each followed by the flush, one every `--interval` seconds, and prints p50, p90,
p99, max and the count over 10 / 50 ms. With `--noise K`, K other processes meanwhile append
256 KiB and flush in a loop (a checkpoint's or another database's writes on the same disk); run
it beside a real load (`prio_load.py`) to see the disk as the aggregators see it.

Nothing outside the temporary directory is written, and it is removed afterwards.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def _noise(path: str, stop: Any) -> None:
    """Append 256 KiB and flush, over and over, until `stop` is set (the file kept ≤ 64 MiB)."""
    block = os.urandom(256 * 1024)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        written = 0
        while not stop.is_set():
            os.write(fd, block)
            os.fsync(fd)
            written += len(block)
            if written >= 64 << 20:
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, os.SEEK_SET)
                written = 0
    finally:
        os.close(fd)


def measure(
    directory: Path, writes: int, size: int, interval: float, sync: str, noise: int
) -> dict[str, Any]:
    flush = os.fdatasync if sync == "fdatasync" else os.fsync
    stop = multiprocessing.Event()
    others = [
        multiprocessing.Process(target=_noise, args=(str(directory / f"noise{i}"), stop))
        for i in range(noise)
    ]
    for proc in others:
        proc.start()
    times: list[float] = []
    payload = os.urandom(size)
    fd = os.open(directory / "wal", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    load0 = os.getloadavg()[0]
    began = time.perf_counter()
    try:
        for k in range(writes):
            due = began + k * interval
            now = time.perf_counter()
            if due > now:
                time.sleep(due - now)
            os.write(fd, payload)
            start = time.perf_counter()
            flush(fd)
            times.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        stop.set()
        for proc in others:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
                proc.join()
    ms = [t * 1e3 for t in times]
    return {
        "directory": str(directory.parent),
        "writes": writes,
        "size": size,
        "interval_s": interval,
        "sync": sync,
        "noise_processes": noise,
        "seconds": time.perf_counter() - began,
        "p50_ms": percentile(ms, 0.5),
        "p90_ms": percentile(ms, 0.9),
        "p99_ms": percentile(ms, 0.99),
        "max_ms": max(ms),
        "over_10ms": sum(1 for t in ms if t > 10),
        "over_50ms": sum(1 for t in ms if t > 50),
        "loadavg_before": load0,
        "loadavg_after": os.getloadavg()[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--writes", type=int, default=2000, help="appends, each flushed")
    ap.add_argument("--size", type=int, default=4096, help="bytes per append")
    ap.add_argument("--interval", type=float, default=0.005, help="seconds between appends")
    ap.add_argument("--sync", choices=("fsync", "fdatasync"), default="fsync")
    ap.add_argument("--noise", type=int, default=0, help="processes writing beside (0-8)")
    ap.add_argument("--dir", type=Path, help="the filesystem to measure (default: the temp dir)")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    args = ap.parse_args()
    if not 1 <= args.writes <= 1_000_000 or not 1 <= args.size <= 1 << 24:
        raise SystemExit("--writes is 1 to 1e6, --size 1 to 16 MiB")
    if not 0 <= args.interval <= 10 or not 0 <= args.noise <= 8:
        raise SystemExit("--interval is 0 to 10 s, --noise 0 to 8")
    directory = Path(tempfile.mkdtemp(prefix="zeenot-fsync-", dir=args.dir))
    try:
        result = measure(directory, args.writes, args.size, args.interval, args.sync, args.noise)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    for key, value in result.items():
        print(f"{key:<16} {value:.3f}" if isinstance(value, float) else f"{key:<16} {value}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
