"""Uniqueness queries to a finite-field SMT solver (cvc5's theory of finite fields).

For an undetermined variable `v` the query takes two copies of the undetermined variables of
a neighbourhood of constraints, shares the determined ones (they are equal in any two
solutions), asserts the constraints in both copies and `v₁ ≠ v₂`. *Unsatisfiable* proves `v`
determined; since the neighbourhood is a subset of the constraints (a relaxation), that answer
holds for the whole circuit. *Satisfiable* is only a counterexample for the neighbourhood: it
is confirmed by asking again with every constraint that touches an undetermined variable.

cvc5 solves field problems only when built with CoCoA: the PyPI package `cvc5-gpl` is (the
BSD-licensed `cvc5` is not). It is a test tool of zeenot's, not a dependency of its runtime.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zeenot.checker.r1cs import R1cs
from zeenot.types import P


class SolverUnavailable(Exception):
    """No cvc5 with the finite-field theory is installed."""


@dataclass
class Answer:
    """`unique`, `not unique` (with two values of the variable and the model's assignments) or
    `unknown` (timeout or resource limit)."""

    verdict: str
    witness: dict[str, list[int]] | None = None


def _cvc5() -> Any:
    try:
        import cvc5
    except ImportError:
        raise SolverUnavailable("cvc5 is not installed (pip install cvc5-gpl)") from None
    return cvc5


class Solver:
    """One cvc5 instance per query (they are cheap, and state never leaks between queries)."""

    def __init__(self, m: R1cs, timeout_s: float):
        self.m = m
        self.timeout_ms = max(1, int(timeout_s * 1000))
        self.cvc5 = _cvc5()
        probe = self.cvc5.Solver()
        probe.setLogic("QF_FF")
        try:
            f = probe.mkFiniteFieldSort(str(P))
            x = probe.mkConst(f, "x")
            probe.assertFormula(probe.mkTerm(self.cvc5.Kind.EQUAL, x, x))
            probe.checkSat()
        except RuntimeError as exc:
            raise SolverUnavailable(f"cvc5 lacks the finite-field theory ({exc})") from None

    def unique(self, v: int, constraints: list[int], known: set[int]) -> Answer:
        cvc5 = self.cvc5
        s = cvc5.Solver()
        s.setLogic("QF_FF")
        s.setOption("produce-models", "true")
        s.setOption("tlimit-per", str(self.timeout_ms))
        field = s.mkFiniteFieldSort(str(P))
        kind = cvc5.Kind
        shared: dict[int, Any] = {}
        copies: list[dict[int, Any]] = [{}, {}]

        def var(x: int, copy: int) -> Any:
            if x in known:
                if x not in shared:
                    shared[x] = (
                        s.mkFiniteFieldElem("1", field) if x == 0 else s.mkConst(field, f"k{x}")
                    )
                return shared[x]
            table = copies[copy]
            if x not in table:
                table[x] = s.mkConst(field, f"u{x}_{copy}")
            return table[x]

        def lc(row: dict[int, int], copy: int) -> Any:
            terms = [
                s.mkTerm(kind.FINITE_FIELD_MULT, s.mkFiniteFieldElem(str(cf), field), var(x, copy))
                for x, cf in row.items()
            ]
            if not terms:
                return s.mkFiniteFieldElem("0", field)
            return terms[0] if len(terms) == 1 else s.mkTerm(kind.FINITE_FIELD_ADD, *terms)

        m = self.m
        for copy in (0, 1):
            for k in constraints:
                prod = s.mkTerm(kind.FINITE_FIELD_MULT, lc(m.a[k], copy), lc(m.b[k], copy))
                s.assertFormula(s.mkTerm(kind.EQUAL, prod, lc(m.c[k], copy)))
        s.assertFormula(s.mkTerm(kind.DISTINCT, var(v, 0), var(v, 1)))
        result = s.checkSat()
        if result.isUnsat():
            return Answer("unique")
        if not result.isSat():
            return Answer("unknown")

        def value(t: Any) -> int:
            return int(s.getValue(t).getFiniteFieldValue()) % P

        witness = {m.name(x): [value(t)] * 2 for x, t in shared.items()}
        for x in set(copies[0]) | set(copies[1]):
            witness[m.name(x)] = [value(var(x, 0)), value(var(x, 1))]
        return Answer("not unique", witness)
