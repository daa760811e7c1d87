"""Progress of long steps on a terminal: a setup or a proof may take seconds to minutes.

The Rust core does the work with the GIL released and reports nothing while it runs, so the bar
is driven by the clock against the planner's prediction for this program on this machine
(`zeenot.plan`): it says "about", never goes past 99 % before the step ends, and shows the
elapsed time alone once the estimate is exceeded. Nothing is drawn for a step that ends within
half a second, nor when stderr is not a terminal (piped, CI, `--json`).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

DELAY_S = 0.5  # steps shorter than this draw nothing
TICK_S = 0.2
WIDTH = 24


def enabled(stream: TextIO | None = None) -> bool:
    """Whether to draw on `stream` (stderr by default): a terminal, and not `TERM=dumb` or
    `ZEENOT_PROGRESS=0`."""
    stream = sys.stderr if stream is None else stream
    if os.environ.get("ZEENOT_PROGRESS") == "0" or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def line(label: str, elapsed: float, expected: float | None) -> str:
    """One frame: `label [#####-----]  42 %  3.1 s of about 7.4 s`, or the elapsed time alone."""
    if expected is None or expected <= 0 or elapsed > expected:
        about = "" if expected is None or expected <= 0 else f" (estimated {expected:.1f} s)"
        return f"{label}  {elapsed:.1f} s{about}"
    fraction = min(elapsed / expected, 0.99)
    filled = int(fraction * WIDTH)
    bar = "#" * filled + "-" * (WIDTH - filled)
    return f"{label} [{bar}] {100 * fraction:3.0f} %  {elapsed:.1f} s of about {expected:.1f} s"


@contextmanager
def step(
    label: str, expected_s: float | None = None, *, stream: TextIO | None = None
) -> Iterator[None]:
    """Draw `label`'s progress on `stream` while the body runs (when `enabled`)."""
    out = sys.stderr if stream is None else stream
    if not enabled(out):
        yield
        return
    start = time.perf_counter()
    done = threading.Event()
    drawn = threading.Event()

    def draw() -> None:
        if done.wait(DELAY_S):
            return
        while not done.is_set():
            out.write("\r\x1b[K" + line(label, time.perf_counter() - start, expected_s))
            out.flush()
            drawn.set()
            done.wait(TICK_S)

    thread = threading.Thread(target=draw, name=f"progress: {label}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if drawn.is_set():
            out.write(f"\r\x1b[K{label}: {time.perf_counter() - start:.1f} s\n")
            out.flush()
