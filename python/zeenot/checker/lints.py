"""Structural lints: cheap signs of an under-constrained circuit, found without a solver."""

from __future__ import annotations

from zeenot.checker.propagate import Propagation, _constant
from zeenot.checker.r1cs import R1cs


def lint(m: R1cs, prop: Propagation) -> tuple[list[str], list[str]]:
    """(errors, warnings), each naming the variable. Errors: an output that no constraint
    mentions, and an undetermined output whose every constraint is linear and also holds a
    witness that no other constraint mentions (the prover sets that witness to whatever makes
    the output anything). Warning: a witness that no constraint mentions (it can take any
    value, but reaches nothing either)."""
    found: list[str] = []
    warnings: list[str] = []
    used = {v for k in range(m.num_constraints) for v in m.vars_of(k)}
    for v in m.outputs:
        if v not in used:
            found.append(f"output `{m.name(v)}` is in no constraint: the prover chooses it")
    for v in range(1, m.num_vars):
        if v not in used and v not in m.inputs and v not in m.outputs:
            warnings.append(f"witness `{m.name(v)}` is in no constraint")
    for v in m.outputs:
        if v in prop.known or v not in used:
            continue
        constraints = prop.uses.get(v, [])
        linear = all(
            _constant(m.a[k]) is not None or _constant(m.b[k]) is not None for k in constraints
        )
        free = all(
            any(len(prop.uses.get(u, ())) == 1 for u in prop.unknown_in(k) - {v})
            for k in constraints
        )
        if constraints and linear and free:
            found.append(
                f"output `{m.name(v)}` is tied only linearly to witnesses that nothing else "
                "constrains"
            )
    return found, warnings
