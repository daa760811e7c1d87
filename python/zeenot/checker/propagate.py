"""Uniqueness propagation (Picus's cheap first pass): which variables the constraints fix as
functions of the inputs, without a solver.

A variable is *determined* when every satisfying assignment that agrees on the inputs agrees
on it. Two rules, each sound on its own:

* **Linear.** A constraint whose only undetermined variable `v` occurs in it linearly with a
  coefficient that is a non-zero constant fixes `v`: `C` holds `v` and `A`, `B` are
  determined; or `A` holds `v` and `B` is a constant `k` (then `a_v·k − c_v` must be non-zero),
  and symmetrically.
* **Zero test.** `K·v = 0` and `λK·u = c + γ·v` (`K` determined, `γ ≠ 0`, `u` any): if
  `K ≠ 0` then `v = 0`, else the second gives `v = −c/γ`; either way `v` is determined (the
  is-zero gadget's output, whatever its inverse witness `u`). If moreover `u·v = 0` and
  `−c/γ ≠ 0`, then `u` is determined too: `K ≠ 0` gives `u = (c + γv)/(λK)`, `K = 0` gives
  `v ≠ 0` hence `u = 0`.
* **Bounded sums.** A variable `u` with `±u + β = Σ 2^i·b_i` over bits has a range of
  width `2^n − 1` (ranges from several such constraints intersect). A linear constraint whose
  undetermined variables all have ranges, ordered by decreasing `|c_i|` with
  `|c_i| > Σ_{j>i} |c_j|·w_j` and `Σ |c_i|·w_i < p`, fixes them all: two solutions would
  differ by `Σ c_i·δ_i = 0` over the integers with `|δ_i| ≤ w_i`, and the first non-zero term
  would outweigh the rest (quotient and remainder of a division, `100·q + r = n` with
  `r ≤ 99`; and bit decompositions themselves).
  A *bit* is a variable constrained to `{0, 1}` (`x·(x − 1) = 0` and its variants): range
  width 1, so a bit decomposition `Σ 2^i·b_i = u` with `u` determined fixes every bit.
"""

from __future__ import annotations

from collections import defaultdict

from zeenot.checker.r1cs import R1cs, Row
from zeenot.types import P

HALF = P // 2


def _signed(x: int) -> int:
    return x - P if x > HALF else x


def _bit_sum_width(row: Row, bits: set[int]) -> int | None:
    """`2^n − 1` if `row` is `Σ 2^i·b_i` over distinct bits `b_i` (`n ≤ 252`)."""
    if not row or 0 in row or not set(row) <= bits or len(row) > 252:
        return None
    exps = sorted(c.bit_length() - 1 for c in row.values() if c & (c - 1) == 0)
    if len(exps) != len(row) or exps != list(range(len(exps))):
        return None
    return (1 << len(exps)) - 1


def _constant(row: Row) -> int | None:
    """The row's value if it mentions only the constant one (or nothing)."""
    if set(row) - {0}:
        return None
    return row.get(0, 0)


def bit_of(m: R1cs, k: int) -> int | None:
    """The variable constraint `k` restricts to {0, 1}, if any: `(a1·x + a0)(b1·x + b0) =
    c1·x + c0` whose polynomial `a1b1·x² + (a1b0 + a0b1 − c1)·x + (a0b0 − c0)` has roots 0 and 1."""
    vs = m.vars_of(k) - {0}
    if len(vs) != 1:
        return None
    (x,) = vs
    a1, a0 = m.a[k].get(x, 0), m.a[k].get(0, 0)
    b1, b0 = m.b[k].get(x, 0), m.b[k].get(0, 0)
    c1, c0 = m.c[k].get(x, 0), m.c[k].get(0, 0)
    quad = a1 * b1 % P
    lin = (a1 * b0 + a0 * b1 - c1) % P
    const = (a0 * b0 - c0) % P
    return x if quad and const == 0 and (quad + lin) % P == 0 else None


def _proportional(r: Row, s: Row) -> bool:
    """Whether `r = λ·s` for a non-zero constant `λ`."""
    if set(r) != set(s) or not r:
        return False
    v0 = next(iter(s))
    lam = r[v0] * pow(s[v0], P - 2, P) % P
    return all(r[v] == lam * s[v] % P for v in s)


class Propagation:
    """The determined variables of `m`, grown by `learn` and `run`."""

    def __init__(self, m: R1cs):
        self.m = m
        self.known: set[int] = set(m.inputs)
        self.bits: set[int] = set()
        self.uses: dict[int, list[int]] = defaultdict(list)
        for k in range(m.num_constraints):
            for v in m.vars_of(k):
                self.uses[v].append(k)
            x = bit_of(m, k)
            if x is not None:
                self.bits.add(x)

        self.ranges: dict[int, tuple[int, int]] = {v: (0, 1) for v in self.bits}
        for k in range(m.num_constraints):
            self._range_from(k)

    def _range_from(self, k: int) -> None:
        """`±u + β = Σ 2^i·b_i` (as `sum·1 = u-side`, either order): `u`'s residues lie in
        `[lo, lo + 2^n − 1]` (signed representatives)."""
        m = self.m
        for lhs, one, rhs in ((m.a[k], m.b[k], m.c[k]), (m.b[k], m.a[k], m.c[k])):
            if _constant(one) != 1:
                continue
            for bits_side, other in ((lhs, rhs), (rhs, lhs)):
                width = _bit_sum_width(bits_side, self.bits)
                vs = set(other) - {0}
                if width is None or len(vs) != 1:
                    continue
                (u,) = vs
                alpha, beta = _signed(other[u]), _signed(other.get(0, 0))
                if alpha == 1:
                    lo, hi = -beta, width - beta
                elif alpha == -1:
                    lo, hi = beta - width, beta
                else:
                    continue
                old = self.ranges.get(u)
                if old is not None:
                    lo, hi = max(lo, old[0]), min(hi, old[1])
                if lo <= hi:
                    self.ranges[u] = (lo, hi)
                return

    def unknown_in(self, k: int) -> set[int]:
        return self.m.vars_of(k) - self.known

    def learn(self, v: int) -> None:
        """`v` is determined (by a rule or by the solver); propagate from it."""
        self.run([v])

    def run(self, seeds: list[int] | None = None) -> None:
        """Apply the rules until nothing changes (a worklist over the constraints that mention
        a newly determined variable)."""
        if seeds is None:
            todo = list(range(self.m.num_constraints))
        else:
            self.known.update(seeds)
            todo = [k for v in seeds for k in self.uses.get(v, ())]
        pending = set(todo)
        while todo:
            k = todo.pop()
            pending.discard(k)
            for v in self._fixed_by(k):
                if v in self.known:
                    continue
                self.known.add(v)
                for j in self.uses.get(v, ()):
                    if j not in pending:
                        pending.add(j)
                        todo.append(j)

    def _fixed_by(self, k: int) -> list[int]:
        unknown = self.unknown_in(k)
        if not unknown:
            return []
        if len(unknown) == 1 and self._linear_coefficients(k, unknown) is not None:
            return sorted(unknown)
        return self._bounded_sum(k, unknown) or self._zero_test(k, unknown)

    def _zero_test(self, k: int, unknown: set[int]) -> list[int]:
        """`k` is `K·v = 0` (or `v·K = 0`); look for its partner `λK·u = c + γ·v`."""
        m = self.m
        if m.c[k] or len(unknown) != 1:
            return []
        (v,) = unknown
        for factor, other in ((m.a[k], m.b[k]), (m.b[k], m.a[k])):
            if set(other) != {v} or set(factor) & unknown or _constant(factor) is not None:
                continue
            for j in self.uses.get(v, ()):
                u = self._partner(j, factor, v) if j != k else None
                if u is None:
                    continue
                c = m.c[j]
                if (c.get(0, 0) and set(c) <= {0, v}) and self._inverse_ok(u, v):
                    return [v, u]
                return [v]
        return []

    def _partner(self, j: int, factor: Row, v: int) -> int | None:
        """In `λK·u = c + γ·v`, the variable `u` (0 if the side holds no unknown)."""
        m = self.m
        if not (m.c[j].get(v) and set(m.c[j]) - {v} <= self.known):
            return None
        for mine, theirs in ((m.a[j], m.b[j]), (m.b[j], m.a[j])):
            if v in mine or v in theirs or not _proportional(mine, factor):
                continue
            rest = set(theirs) - self.known
            if len(rest) <= 1:
                return next(iter(rest), 0)
        return None

    def _inverse_ok(self, u: int, v: int) -> bool:
        """`u` is a single variable with a constraint `u·v = 0` (either order)."""
        m = self.m
        if not u:
            return False
        for j in self.uses.get(u, ()):
            if m.c[j]:
                continue
            sides = {frozenset(m.a[j]), frozenset(m.b[j])}
            if sides == {frozenset({u}), frozenset({v})}:
                return True
        return False

    def _bounded_sum(self, k: int, unknown: set[int]) -> list[int]:
        if not all(v in self.ranges for v in unknown):
            return []
        coeffs = self._linear_coefficients(k, unknown)
        if coeffs is None:
            return []
        terms = sorted(
            ((abs(_signed(c)), self.ranges[v][1] - self.ranges[v][0]) for v, c in coeffs.items()),
            reverse=True,
        )
        if sum(c * w for c, w in terms) >= HALF:
            return []
        rest = 0
        for c, w in reversed(terms):  # smallest coefficients first
            if c <= rest:
                return []
            rest += c * w
        return sorted(unknown)

    def _linear_coefficients(self, k: int, unknown: set[int]) -> dict[int, int] | None:
        """The coefficient of each unknown when constraint `k` is linear in them (they sit in
        C, or in A with B constant, or in B with A constant; never on both sides), else None."""
        m = self.m
        a, b, c = m.a[k], m.b[k], m.c[k]
        in_a, in_b = unknown & set(a), unknown & set(b)
        if in_a and in_b:
            return None
        ka, kb = _constant(a), _constant(b)
        if in_a and kb is None or in_b and ka is None:
            return None
        coeffs = {
            v: (a.get(v, 0) * (kb or 0) + b.get(v, 0) * (ka or 0) - c.get(v, 0)) % P
            for v in unknown
        }
        return None if any(x == 0 for x in coeffs.values()) else coeffs
