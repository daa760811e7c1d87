"""Calibration programs: small families of `@zk` functions, each scaled by a size N, that exercise
the IR operations the back ends price differently (comparisons, arithmetic with overflow checks,
Boolean logic, division, private lookups, many public integers and field elements, Poseidon
hashing, a committed output, a committed tuple input (a vector commitment: how a list crosses
between regions), ElGamal sums and encryptions, a padded public list of ciphertexts)
at several widths. `zeenot calibrate` measures both back ends on them (`SIGMA_ONLY` families the
sigma back end only); the case studies are left out, so that the models can be checked on
programs they were not fitted on."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HEADER = (
    "from zeenot import Committed, Field, MaxSize, Private, Public, check, poseidon,"
    " u8, u16, u32, u64, zk"
    "\nfrom zeenot.babyjub import Ciphertext, Point, encrypt"
    "\n\nN = {n}\n"
)

SOURCES: dict[str, str] = {
    "compare": """
@zk
def compare(xs: Private[tuple[(u32,) * N]], limit: Public[u32]) -> u32:
    n = u32(0)
    for x in xs:
        check(x <= limit)
        if x > limit // 2:
            n += 1
    return n
""",
    "arith": """
@zk
def arith(xs: Private[tuple[(u32,) * N]], w: Public[u32]) -> u64:
    total = u64(0)
    for x in xs:
        total += u64(x) * u64(w) + u64(x)
    return total
""",
    "narrow": """
@zk
def narrow(xs: Private[tuple[(u8,) * N]], w: Public[u8]) -> u16:
    total = u16(0)
    for x in xs:
        total += u16(x) * u16(w)
    return total
""",
    "logic": """
@zk
def logic(xs: Private[tuple[(u32,) * N]], a: Public[u32]) -> bool:
    ok = True
    for x in xs:
        ok = ok and (x != a or x == a + 1) and not (x == 99)
    return ok
""",
    "divide": """
@zk
def divide(xs: Private[tuple[(u32,) * N]], d: Public[u32]) -> u64:
    total = u64(0)
    for x in xs:
        total += u64(x // d) + u64(x % 7)
    return total
""",
    "lookup": """
@zk
def lookup(table: Public[tuple[(u32,) * N]], picks: Private[tuple[(u32,) * 4]]) -> u64:
    total = u64(0)
    for i in picks:
        check(i < N)
        total += u64(table[i])
    return total
""",
    "publics": """
@zk
def publics(xs: Private[tuple[(u32,) * N]], ys: Public[tuple[(u32,) * N]]) -> u32:
    n = u32(0)
    for i in range(N):
        if xs[i] == ys[i]:
            n += 1
    return n
""",
    "fields": """
@zk
def fields(xs: Private[tuple[(u32,) * N]], ys: Public[tuple[(Field,) * N]]) -> u32:
    n = u32(0)
    for i in range(N):
        if Field(xs[i]) != ys[i]:
            n += 1
    return n
""",
    "hashes": """
@zk
def hashes(xs: Private[tuple[(u32,) * N]], seed: Public[u32]) -> Field:
    acc = Field(seed)
    for x in xs:
        acc = poseidon(acc, Field(x))
    return acc
""",
    "committed": """
@zk
def committed(xs: Private[tuple[(u32,) * N]], limit: Public[u32]) -> Committed[u64]:
    total = u64(0)
    for x in xs:
        check(x <= limit)
        total += u64(x)
    return total
""",
    "elgamal": """
@zk
def elgamal(
    cts: Public[tuple[(Ciphertext,) * N]], ms: Private[tuple[u32, u32]],
    rs: Private[tuple[Field, Field]], pk: Public[Point],
) -> Ciphertext:
    total = cts[0]
    for c in cts[1:]:
        total = total + c
    return total + encrypt(ms[0], pk, rs[0]) + 3 * encrypt(ms[1], pk, rs[1])
""",
    "tally": """
@zk
def tally(
    cts: Public[MaxSize[list[Ciphertext], N]], m: Private[u32], r: Private[Field], pk: Public[Point]
) -> Ciphertext:
    return sum(cts) + encrypt(m, pk, r)
""",
    "vector": """
@zk
def vector(xs: Committed[tuple[(u32,) * N]], bar: Public[u32]) -> u64:
    total = u64(0)
    for x in xs:
        if x >= bar:
            total += u64(x)
    return total
""",
    "wide": """
@zk
def wide(xs: Private[tuple[(u64,) * N]], limit: Public[u64]) -> u64:
    best = u64(0)
    for x in xs:
        check(x < limit)
        best = x if x > best else best
    return best
""",
}

# Families measured on the sigma back end only. `tally`'s public padded lists are what the
# sigma verifier evaluates in the clear (instructions no equation reads); Groth16's costs of
# such programs are covered by `elgamal`, and its peak memory on them is the interpreter's floor
# (they took the Groth16 peak model to R² 0.974 when it was still one line, before `fit` had a
# floor; not measured with the floor since).
SIGMA_ONLY = frozenset({"tally"})

# inputs on which each family's checks hold, for a size n
INPUTS: dict[str, Callable[[int], dict[str, Any]]] = {
    "compare": lambda n: {"xs": [i % 900 for i in range(n)], "limit": 1000},
    "arith": lambda n: {"xs": [i * 37 % 5000 for i in range(n)], "w": 3},
    "narrow": lambda n: {"xs": [i % 200 for i in range(n)], "w": 7},
    "logic": lambda n: {"xs": [i % 50 for i in range(n)], "a": 60},
    "divide": lambda n: {"xs": [i * 13 for i in range(n)], "d": 9},
    "lookup": lambda n: {"table": [i * 5 for i in range(n)], "picks": [0, n // 2, n - 1, n // 3]},
    "publics": lambda n: {"xs": [i % 3 for i in range(n)], "ys": [i % 2 for i in range(n)]},
    "fields": lambda n: {"xs": list(range(n)), "ys": [str(10**70 + 3 * i) for i in range(n)]},
    "hashes": lambda n: {"xs": [i * 7919 for i in range(n)], "seed": 5},
    "committed": lambda n: {"xs": [i % 500 for i in range(n)], "limit": 1000},
    "wide": lambda n: {"xs": [i * 1_000_003 for i in range(n)], "limit": 1 << 60},
    "elgamal": lambda n: _elgamal_inputs(n),
    "tally": lambda n: _tally_inputs(n),
    "vector": lambda n: {"xs": [i * 7 % 1000 for i in range(n)], "bar": 300},
}

# blindings of committed inputs (a vector commitment: one blinding for the whole tuple)
BLINDINGS: dict[str, Callable[[int], dict[str, Any]]] = {
    "vector": lambda n: {"xs": 1_000_003 * n + 17},
}


def _elgamal_inputs(n: int) -> dict[str, Any]:
    """n published ciphertexts under one key (fixed scalars: calibration needs no secrecy)."""
    from zeenot.babyjub import BASE8, encrypt

    pk = 7919 * BASE8
    point = lambda p: {"x": str(int(p.x)), "y": str(int(p.y))}  # noqa: E731
    cts = [encrypt(i, pk, 1000 + i) for i in range(n)]
    return {
        "cts": [{"c1": point(c.c1), "c2": point(c.c2)} for c in cts],
        "ms": [5, 9],
        "rs": ["123456789", "987654321"],
        "pk": point(pk),
    }


def _tally_inputs(n: int) -> dict[str, Any]:
    """A list of n slots, half of them used (the rest is padding: public values no equation
    reads, which the verifiers handle in the clear)."""
    e = _elgamal_inputs(max(n // 2, 1))
    return {"cts": e["cts"], "m": 7, "r": "55555", "pk": e["pk"]}


@dataclass(frozen=True)
class Calibration:
    family: str
    n: int
    fn: Any
    inputs: dict[str, Any]
    blindings: dict[str, Any] | None = None


_DIR = Path(tempfile.mkdtemp(prefix="zeenot-calibrate-"))


def program(family: str, n: int) -> Calibration:
    """The family's function at size n (written to a temporary module, as the compiler reads
    source files) with inputs on which it succeeds."""
    from zeenot.lang import load_function

    path = _DIR / f"{family}_{n}.py"
    path.write_text(HEADER.format(n=n) + SOURCES[family])
    blindings = BLINDINGS[family](n) if family in BLINDINGS else None
    return Calibration(family, n, load_function(str(path), family), INPUTS[family](n), blindings)
