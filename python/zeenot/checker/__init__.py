"""`zeenot check`: is a compiled circuit *deterministic* — are its public outputs (and
commitments) functions of its inputs? A circuit that lets a prover pick an output freely, or
choose between two, is under-constrained: a valid proof of a false result exists.

The check (after Picus, Pailoor et al., PLDI 2023):

1. **Lints** (`lints.py`): a witness in no constraint, an output in no constraint or tied only
   to witnesses that nothing else constrains.
2. **Propagation** (`propagate.py`): rules that fix a variable given determined ones, without a
   solver (linear occurrences, bit decompositions).
3. **Local solver queries** (`solver.py`, cvc5's finite-field theory): for each variable still
   undetermined, two copies of its neighbourhood of constraints must agree on it. Each answer
   "unique" feeds propagation again.
4. **Confirmation**: an output still undetermined gets one query over the whole system when it
   is small enough: unsatisfiable proves it unique, satisfiable gives two witnesses that agree
   on every input and differ on it (a real counterexample), otherwise it stays *unknown*.

It proves determinism only; that the circuit computes what the program says is the job of the
differential tests (the circuit agrees with plain Python on many inputs).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from zeenot.checker.lints import lint
from zeenot.checker.propagate import Propagation
from zeenot.checker.r1cs import R1cs
from zeenot.checker.solver import Answer, Solver, SolverUnavailable

LOCAL_LIMIT = 48  # constraints in one neighbourhood query
WHOLE_LIMIT = 4000  # constraints in a confirmation query over the whole system


@dataclass
class OutputResult:
    name: str
    verdict: str  # "unique", "not unique", "unknown"
    how: str  # "propagation", "solver", "whole-system solver", or why unknown
    witness: dict[str, list[int]] | None = None


@dataclass
class Report:
    name: str
    constraints: int
    variables: int
    outputs: list[OutputResult]
    lints: list[str]
    warnings: list[str]
    undetermined_witnesses: int
    queries: int
    seconds: float
    notes: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """`deterministic`, `under-constrained` or `unknown`."""
        if self.lints or any(o.verdict == "not unique" for o in self.outputs):
            return "under-constrained"
        if any(o.verdict == "unknown" for o in self.outputs):
            return "unknown"
        return "deterministic"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "verdict": self.verdict,
            "constraints": self.constraints,
            "variables": self.variables,
            "outputs": [o.__dict__ for o in self.outputs],
            "lints": self.lints,
            "warnings": self.warnings,
            "undetermined_witnesses": self.undetermined_witnesses,
            "solver_queries": self.queries,
            "seconds": round(self.seconds, 3),
            "notes": self.notes,
        }


def check_r1cs(
    m: R1cs, *, name: str = "circuit", timeout_s: float = 2.0, budget_s: float = 60.0
) -> Report:
    """Decide, as far as the budget allows, whether `m`'s outputs are functions of its inputs.
    `timeout_s` bounds each solver query, `budget_s` all of them together."""
    start = time.perf_counter()
    prop = Propagation(m)
    prop.run()
    how = {v: "propagation" for v in m.outputs if v in prop.known}
    notes: list[str] = []
    queries = 0
    answers: dict[int, Answer] = {}
    try:
        solver: Solver | None = Solver(m, timeout_s)
    except SolverUnavailable as exc:
        solver, _ = None, notes.append(f"no solver: {exc}")
    deadline = start + budget_s
    if solver is not None:
        spent = False
        while not spent and not all(v in prop.known for v in m.outputs):
            progress = False
            for v in _candidates(prop):
                if time.perf_counter() > deadline:
                    notes.append(f"solver budget of {budget_s:g} s spent")
                    spent = True
                    break
                local = _neighbourhood(prop, v)
                if v in prop.known or len(local) > LOCAL_LIMIT:
                    continue
                queries += 1
                if solver.unique(v, local, prop.known).verdict == "unique":
                    prop.learn(v)
                    progress = True
                    if v in m.outputs:
                        how.setdefault(v, "solver")
            if not progress:
                break
        for v in m.outputs:
            if v in prop.known or time.perf_counter() > deadline:
                continue
            touched = [k for k in range(m.num_constraints) if prop.unknown_in(k)]
            if len(touched) > WHOLE_LIMIT:
                continue
            queries += 1
            answers[v] = solver.unique(v, list(range(m.num_constraints)), set(m.inputs))
            if answers[v].verdict == "unique":
                prop.learn(v)
                how[v] = "whole-system solver"
    for v in m.outputs:
        if v in prop.known:
            how.setdefault(v, "propagation")
    results = []
    for v in m.outputs:
        if v in prop.known:
            results.append(OutputResult(m.name(v), "unique", how[v]))
        elif v in answers and answers[v].verdict == "not unique":
            results.append(
                OutputResult(m.name(v), "not unique", "whole-system solver", answers[v].witness)
            )
        else:
            why = "solver timeout" if v in answers else "too large for the solver"
            if solver is None:
                why = "no solver"
            results.append(OutputResult(m.name(v), "unknown", why))
    witnesses = set(range(m.num_vars)) - m.inputs - set(m.outputs)
    errors, warnings = lint(m, prop)
    return Report(
        name,
        m.num_constraints,
        m.num_vars,
        results,
        errors,
        warnings,
        len(witnesses - prop.known),
        queries,
        time.perf_counter() - start,
        notes,
    )


def _candidates(prop: Propagation) -> list[int]:
    """Undetermined variables, those in the constraints with fewest undetermined first."""
    best: dict[int, int] = {}
    for k in range(prop.m.num_constraints):
        unknown = prop.unknown_in(k)
        for v in unknown:
            best[v] = min(best.get(v, 1 << 30), len(unknown))
    return sorted(best, key=lambda v: (best[v], v))


def _neighbourhood(prop: Propagation, v: int) -> list[int]:
    """The constraints on `v`, and those whose undetermined variables all occur in them."""
    near = set(prop.uses.get(v, ()))
    around = set().union(*(prop.unknown_in(k) for k in near)) if near else set()
    for u in around:
        for k in prop.uses.get(u, ()):
            if prop.unknown_in(k) <= around:
                near.add(k)
    return sorted(near)


def check(circuit: Any, *, timeout_s: float = 2.0, budget_s: float = 60.0) -> Report:
    """`check_r1cs` on a compiled `zeenot.api.Circuit`."""
    from zeenot import _native, api
    from zeenot.errors import UsageError

    if not isinstance(circuit, api.Circuit):
        raise UsageError(
            "zeenot.check takes a compiled Circuit (a template: compile it at a length)"
        )
    program = circuit.program
    leaves = program.input_leaves
    public = [i["name"] for i in leaves if i["vis"] == "public"]
    private = [i["name"] for i in leaves if i["vis"] != "public"]
    outputs: list[str] = []
    for leaf in leaves:
        if leaf["vis"] == "committed":
            outputs += [f"commitment({leaf['name']}).{c}" for c in ("x", "y")]
    for o in program.ir["outputs"]:
        if o.get("vis") == "committed":
            outputs += [f"commitment({o['name']}).{c}" for c in ("x", "y")]
        else:
            outputs.append(o["name"])
    m = R1cs.of_native(_native.r1cs(circuit.native), outputs, public + private)
    return check_r1cs(m, name=program.ir["name"], timeout_s=timeout_s, budget_s=budget_s)


__all__ = ["R1cs", "Report", "check", "check_r1cs"]
