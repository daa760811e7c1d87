"""Decoding the AFEs (affine-aggregatable encodings) that `zeenot_prio::afe` adds to Prio3: the
collector's sums become the statistic.

```python
from zeenot.prio import Vdaf

vdaf = Vdaf.from_description({"type": "AfeMeanVariance", "bits": 16})
...  # shard, prepare, aggregate as for any Prio3 instance
sums = vdaf.unshard([leader_agg, helper_agg], n)      # [Σx, Σx²]
stat = vdaf.decode(sums, n)                           # MeanVariance(mean=..., variance=...)
```

| type | parameters | measurement | sums | statistic |
|---|---|---|---|---|
| `AfeMeanVariance` | `bits` ≤ 32 | x < 2^bits | Σx, Σx² | `MeanVariance` |
| `AfeOr`, `AfeAnd` | — | 0 or 1 | one random-or-zero sum | `bool` |
| `AfeMax`, `AfeMin` | `domain` ≤ 4096 | x < domain | domain − 1 random-or-zero sums | `int` |
| `AfeLinearRegression` | `features` 1–8, `bits` ≤ 32 | [x…, y] | Σx, Σy, products | `Regression` |
| `AfeSetUnion`, `AfeSetIntersection` | `universe` ≤ 4096 | bits | one per element | `list[int]` |

Exact rationals (`Fraction`) wherever the statistic divides. These instances have private
algorithm ids: they run between zeenot's own aggregators (`zeenot.prio.Vdaf`, zeenot's DAP leader
and helper), not with Janus.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from zeenot.errors import UsageError

AFE_PARAMS: dict[str, tuple[str, ...]] = {
    "AfeMeanVariance": ("bits",),
    "AfeOr": (),
    "AfeAnd": (),
    "AfeMax": ("domain",),
    "AfeMin": ("domain",),
    "AfeLinearRegression": ("features", "bits"),
    "AfeSetUnion": ("universe",),
    "AfeSetIntersection": ("universe",),
}
"""Each AFE's description parameters (`{"type": name, **params}`)."""


@dataclass(frozen=True)
class MeanVariance:
    """Population statistics of n values (variance = Σx²/n − mean²)."""

    count: int
    total: int
    total_squares: int
    mean: Fraction
    variance: Fraction

    @property
    def std(self) -> float:
        return math.sqrt(self.variance)


@dataclass(frozen=True)
class Regression:
    """The least-squares fit y ≈ coefficients[0] + Σ coefficients[i]·xᵢ over n points, and its
    coefficient of determination (None when every y is equal)."""

    count: int
    coefficients: tuple[Fraction, ...]
    r_squared: Fraction | None


Statistic = MeanVariance | Regression | bool | int | list[int]


def is_afe(description: Mapping[str, Any]) -> bool:
    return description.get("type") in AFE_PARAMS


def regression_pairs(d: int) -> list[tuple[int, int]]:
    """The products a regression on `d` features sums, as indices into (x₁..x_d, y), in the order
    of the sums (as `zeenot_prio::afe::regression_pairs`)."""
    pairs = [(i, j) for i in range(d) for j in range(i, d)]
    return [*pairs, *((i, d) for i in range(d)), (d, d)]


def decode(description: Mapping[str, Any], sums: Sequence[int], num_measurements: int) -> Statistic:
    """The statistic of `num_measurements` reports from the AFE's `sums` (`Vdaf.unshard`)."""
    kind = description.get("type")
    n = num_measurements
    if kind not in AFE_PARAMS:
        raise UsageError(f"{kind!r} is not an AFE ({', '.join(AFE_PARAMS)})")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UsageError(f"decoding needs at least one measurement, got {n!r}")
    want = _sums_len(description)
    if len(sums) != want:
        raise UsageError(f"{kind} has {want} sums, got {len(sums)}")
    if kind == "AfeMeanVariance":
        total, squares = sums
        mean = Fraction(total, n)
        return MeanVariance(n, total, squares, mean, Fraction(squares, n) - mean * mean)
    if kind == "AfeOr":
        return sums[0] != 0
    if kind == "AfeAnd":
        return sums[0] == 0
    if kind == "AfeMax":
        # Sum p stands for "some x ≥ p + 1".
        return max((p + 1 for p, s in enumerate(sums) if s != 0), default=0)
    if kind == "AfeMin":
        # Sum p stands for "some x ≤ p".
        return min((p for p, s in enumerate(sums) if s != 0), default=len(sums))
    if kind == "AfeSetUnion":
        # Sum p stands for "some set holds p".
        return [p for p, s in enumerate(sums) if s != 0]
    if kind == "AfeSetIntersection":
        # Sum p stands for "some set lacks p".
        return [p for p, s in enumerate(sums) if s == 0]
    return _regression(int(description["features"]), sums, n)


def _sums_len(description: Mapping[str, Any]) -> int:
    kind = description["type"]
    if kind == "AfeMeanVariance":
        return 2
    if kind in ("AfeOr", "AfeAnd"):
        return 1
    if kind in ("AfeMax", "AfeMin"):
        return int(description["domain"]) - 1
    if kind in ("AfeSetUnion", "AfeSetIntersection"):
        return int(description["universe"])
    d = int(description["features"])
    return d + 1 + len(regression_pairs(d))


def _regression(d: int, sums: Sequence[int], n: int) -> Regression:
    firsts = list(sums[: d + 1])  # Σx₁..Σx_d, Σy
    prod = dict(zip(regression_pairs(d), sums[d + 1 :], strict=True))
    # The normal equations (XᵀX)c = Xᵀy over rows (1, x₁, …, x_d).
    row_sums = [n, *firsts[:d]]
    xtx = [
        [Fraction(n if (i, j) == (0, 0) else _moment(i, j, row_sums, prod)) for j in range(d + 1)]
        for i in range(d + 1)
    ]
    xty = [Fraction(firsts[d])] + [Fraction(prod[(i, d)]) for i in range(d)]
    coefficients = _solve(xtx, xty)
    # R² = 1 − SSE/SST with SSE = Σy² − cᵀXᵀy (at the least-squares solution).
    sst = Fraction(prod[(d, d)]) - Fraction(firsts[d]) ** 2 / n
    sse = Fraction(prod[(d, d)]) - sum(c * v for c, v in zip(coefficients, xty, strict=True))
    r_squared = None if sst == 0 else 1 - sse / sst
    return Regression(n, tuple(coefficients), r_squared)


def _moment(i: int, j: int, row_sums: list[int], prod: dict[tuple[int, int], int]) -> int:
    """Entry (i, j) of XᵀX: index 0 is the constant column, i ≥ 1 feature i − 1."""
    if i == 0 or j == 0:
        return row_sums[max(i, j)]
    a, b = sorted((i - 1, j - 1))
    return prod[(a, b)]


def _solve(a: list[list[Fraction]], b: list[Fraction]) -> list[Fraction]:
    """Gaussian elimination over the rationals; a singular system (a feature constant or two
    features collinear over the reports) is a `UsageError`."""
    m = len(b)
    rows = [[*a[i], b[i]] for i in range(m)]
    for col in range(m):
        pivot = next((r for r in range(col, m) if rows[r][col] != 0), None)
        if pivot is None:
            raise UsageError("the regression is singular: a feature is constant or collinear")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(m):
            if r != col and rows[r][col] != 0:
                f = rows[r][col] / rows[col][col]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][m] / rows[i][i] for i in range(m)]
