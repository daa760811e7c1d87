"""The choice between certified data's two paths (docs/certified.md), made by the planner.

* Path (a): the user proves the result (one Groth16 proof, the service's function public in
  the circuit) and the service verifies it.
* Path (b): the user proves her ciphertexts (a bundle: Groth16 for the signature, sigma for the
  encryptions), the service computes its `results` weighted sums homomorphically, the user
  decrypts each (baby-step giant-step) and proves it (a DLEQ proof on the sigma back end).

Both are costed with the planner's profile (`zeenot.plan`: prove, verify, setup, bytes; each
region's back end chosen as `zeenot plan` does) plus, for path (b), the steps the profile does
not model, measured here on this machine: the service's scalar multiplications and the
user's decryptions. The plan picks the lower objective (the planner's `Weights`), unless the
service's weights are private: then path (a), which puts them in the circuit the user holds,
does not apply.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from zeenot import api
from zeenot.errors import UsageError
from zeenot.plan import Cost, Profile, Weights, plan, predict, regions_of

DLEQ_BACKEND = "sigma"


@dataclass(frozen=True)
class PathCost:
    path: str
    cost: Cost  # the planner's: proofs, their verification, setup, bytes
    objective: float
    backends: dict[str, str]  # region -> back end the planner chose
    extra_s: dict[str, float]  # path (b)'s steps the profile does not model (measured)
    excluded: str | None = None  # why the path does not apply

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            **self.cost.to_json(),
            "objective": round(self.objective, 6),
            "backends": self.backends,
            "unprofiled_s": {k: round(v, 6) for k, v in self.extra_s.items()},
            **({"excluded": self.excluded} if self.excluded else {}),
        }


@dataclass(frozen=True)
class PathPlan:
    a: PathCost
    b: PathCost
    chosen: str
    why: str

    def to_json(self) -> dict[str, Any]:
        return {
            "chosen": self.chosen,
            "why": self.why,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
        }

    def render(self) -> str:
        lines = ["path  prove      verify     proof+bundle  objective  back ends"]
        for pc in (self.a, self.b):
            c = pc.cost
            backends = ", ".join(f"{r}: {b}" for r, b in pc.backends.items())
            mark = "*" if pc.path == self.chosen else " "
            lines.append(
                f"({pc.path}){mark} {c.prove_s:8.3f} s {c.verify_s:8.3f} s "
                f"{c.proof_bytes:10.0f} B  {pc.objective:9.3f}  {backends}"
                + (f"  [excluded: {pc.excluded}]" if pc.excluded else "")
            )
        extra = ", ".join(f"{k} {v:.3f} s" for k, v in self.b.extra_s.items())
        lines.append(f"path (b) also: {extra} (measured here, in its objective)")
        lines.append(f"chosen: path ({self.chosen}): {self.why}")
        return "\n".join(lines)


def _planned(
    target: str, inputs: dict[str, Any] | None, profile: Profile, weights: Weights
) -> tuple[Cost, float, dict[str, str], int]:
    """The planner's cost of `target`, its back end per region, and the number of ciphertexts
    a region shows (its `region()` parameter's maximum size; 0 if none)."""
    regions = regions_of(target, inputs)
    p = plan(regions, profile, weights)
    total, objective = p.total(), p.objective()
    assert total is not None and objective is not None
    shown = [
        int(getattr(param["ty"], "max", 0) or 0)
        for r in regions
        for param in r.circuit.program.params
        if param["name"].endswith("()")
    ]
    return total, objective, {c.region.name: c.backend for c in p.choices}, max(shown, default=0)


def measure_unprofiled(ciphertexts: int, results: int) -> dict[str, float]:
    """Path (b)'s steps outside the profile, timed once here: the service's weighted sums
    (`ciphertexts` scalar multiplications per result) and the user's decryptions."""
    from zeenot.babyjub import encrypt, keygen, random_scalar
    from zeenot.certified.encrypted import decrypt_value, weighted_sum

    sk, pk = keygen()
    sample = [encrypt(k, pk, random_scalar()) for k in range(8)]
    t = time.perf_counter()
    weighted_sum(sample, [2**31 + k for k in range(8)], pk)
    per_ct = (time.perf_counter() - t) / len(sample)
    t = time.perf_counter()
    decrypt_value(sk, encrypt(2**39 - 1, pk, random_scalar()))  # the table's far end
    per_decrypt = time.perf_counter() - t
    return {"service_sums_s": per_ct * ciphertexts * results, "decrypt_s": per_decrypt * results}


def choose_path(
    target_a: str,
    target_b: str,
    results: int,
    *,
    inputs_a: dict[str, Any] | None = None,
    inputs_b: dict[str, Any] | None = None,
    private_weights: bool = False,
    profile: Profile | None = None,
    weights: Weights | None = None,
) -> PathPlan:
    """Cost path (a) (`target_a`, the result proved) and path (b) (`target_b`, a program in
    regions returning the ciphertexts; `results` sums decrypted) and pick one."""
    from zeenot.certified.encrypted import decrypts_dleq

    profile = profile or Profile.load(None)
    weights = weights or Weights()
    cost_a, obj_a, backends_a, _ = _planned(target_a, inputs_a, profile, weights)
    cost_b, obj_b, backends_b, ciphertexts = _planned(target_b, inputs_b, profile, weights)
    if ciphertexts == 0:
        raise UsageError(f"`{target_b}` shows no ciphertexts: not a path (b) program in regions")
    dleq = predict(profile, api.compile(decrypts_dleq))[DLEQ_BACKEND]
    for _ in range(results):
        cost_b = cost_b + dleq
        obj_b += weights.objective(dleq, "client")
    extra = measure_unprofiled(ciphertexts, results)
    obj_b += weights.server * extra["service_sums_s"] + weights.client * extra["decrypt_s"]
    backends_b["decrypts_dleq"] = f"{DLEQ_BACKEND} (×{results})"
    excluded = (
        "the service's weights are private; path (a) puts them in the circuit"
        if (private_weights)
        else None
    )
    a = PathCost("a", cost_a, obj_a, backends_a, {}, excluded)
    b = PathCost("b", cost_b, obj_b, backends_b, extra)
    if excluded:
        return PathPlan(a, b, "b", excluded)
    if obj_a <= obj_b:
        return PathPlan(a, b, "a", f"{obj_b / obj_a:.1f}× cheaper than path (b)" if obj_a else "")
    return PathPlan(a, b, "b", f"{obj_a / obj_b:.1f}× cheaper than path (a)")
