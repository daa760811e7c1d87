"""Where a command's time goes: named stages, measured in wall time, printed by `--profile`.

Stages come from Python (reading files, preparing keys, writing the proof) and from the Rust
prover (`witness`, `synthesis`, `check`, `fft`, `msm`: `groth16::Stages`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


class Stages:
    """Stage names and seconds, in the order they ran."""

    def __init__(self) -> None:
        self.items: list[tuple[str, float]] = []

    def add(self, name: str, seconds: float) -> None:
        self.items.append((name, seconds))

    def extend(self, items: list[tuple[str, float]]) -> None:
        self.items.extend(items)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - start)

    def total(self) -> float:
        return sum(s for _, s in self.items)

    def table(self) -> str:
        """A plain-text table: stage, seconds, share of the total."""
        total = self.total() or 1.0
        width = max([len(n) for n, _ in self.items] + [5])
        lines = [f"{'stage':<{width}}  {'seconds':>9}  {'share':>6}"]
        for name, s in self.items:
            lines.append(f"{name:<{width}}  {s:>9.4f}  {100 * s / total:>5.1f}%")
        lines.append(f"{'total':<{width}}  {self.total():>9.4f}  100.0%")
        return "\n".join(lines)
