"""The planner: predict each region's costs on each back end and choose the cheaper.

A plan minimises a weighted objective in seconds. Each cost term is charged to the tier that
pays it, so that a placement variable per region (who proves: client, server or peers) is one
more index of the same sum:

    objective(region, backend, tier) =
        w[tier]     · prove_s                              (the prover's tier)
      + w["server"] · (verify_s + setup_s / K)             (the verifier sets up and verifies)
      + w_byte      · (proof_bytes + key_bytes / K)        (sent once per proof; keys once per K)

K is the number of proofs made per Groth16 setup (and per proving-key download). Today's
regions are independent (the runtime's regions share no commitments), so choosing each
region's argmin is the exact optimum; linking costs between regions of different back ends
will make it a small integer program.
"""

from __future__ import annotations

import ast
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from zeenot import api
from zeenot.application import backend_setting, compile_regions, load_application
from zeenot.errors import MalformedInput, UsageError
from zeenot.files import read_text
from zeenot.lang import load_module
from zeenot.plan.features import features, sigma_unsupported
from zeenot.plan.profile import Profile

MEASURES = ("prove_s", "verify_s", "proof_bytes", "setup_s", "key_bytes", "peak_bytes")


@dataclass(frozen=True)
class Cost:
    prove_s: float = 0.0
    verify_s: float = 0.0
    proof_bytes: float = 0.0
    setup_s: float = 0.0  # groth16: once per key
    key_bytes: float = 0.0  # groth16: the proving key a prover downloads once
    peak_bytes: float = 0.0  # the proving process's peak memory

    def __add__(self, other: Cost) -> Cost:
        """Two proofs' costs: sums, except peak memory (proved one after the other)."""
        return Cost(
            *(
                max(getattr(self, m), getattr(other, m))
                if m == "peak_bytes"
                else getattr(self, m) + getattr(other, m)
                for m in MEASURES
            )
        )

    def to_json(self) -> dict[str, float]:
        return {k: round(v, 6) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class Weights:
    """Seconds of each tier's time are worth `tier` units; a byte is worth `byte` units
    (default: 1 µs a byte, about a 8 Mbit/s uplink); K proofs share one Groth16 setup."""

    client: float = 1.0
    server: float = 1.0
    byte: float = 1e-6
    proofs_per_setup: float = 1000.0

    @classmethod
    def parse(cls, text: str | None, proofs_per_setup: float | None = None) -> Weights:
        """`client=1,server=10,byte=1e-7` (any subset)."""
        values: dict[str, float] = {}
        for part in (text or "").split(","):
            if not part.strip():
                continue
            key, sep, value = part.partition("=")
            key = key.strip()
            if not sep or key not in ("client", "server", "byte"):
                raise UsageError(f"--weights: `{part}` is not client=X, server=X or byte=X")
            try:
                values[key] = float(value)
            except ValueError:
                raise UsageError(f"--weights: `{value}` is not a number") from None
            if not values[key] >= 0:
                raise UsageError(f"--weights: {key} must be a number ≥ 0")
        if proofs_per_setup is not None:
            if not proofs_per_setup >= 1:
                raise UsageError("--proofs-per-setup must be at least 1")
            values["proofs_per_setup"] = proofs_per_setup
        return cls(**values)

    def objective(self, cost: Cost, prover: str = "client") -> float:
        k = self.proofs_per_setup
        return (
            getattr(self, prover) * cost.prove_s
            + self.server * (cost.verify_s + cost.setup_s / k)
            + self.byte * (cost.proof_bytes + cost.key_bytes / k)
        )


@dataclass(frozen=True)
class Region:
    """One proof a plan makes: a compiled program (a template at given lengths) and who proves."""

    name: str
    circuit: api.Circuit
    prover: str = "client"
    template: bool = False  # lists without MaxSize: no fixed circuit, so sigma only
    inputs: dict[str, Any] | None = field(default=None, compare=False, repr=False)  # publics
    pinned: str | None = None  # the application's BACKENDS names this region's back end

    def backends(self) -> dict[str, str | None]:
        """Each back end, with why it cannot prove this region (None: it can)."""
        if self.pinned is not None:
            return {
                b: None if b == self.pinned else f"the application pins {self.pinned} (BACKENDS)"
                for b in api.BACKENDS
            }
        return {
            "groth16": "lists without MaxSize have no fixed circuit to set up"
            if self.template
            else None,
            "sigma": sigma_unsupported(self.circuit, self.inputs),
        }


@dataclass
class Choice:
    region: Region
    backend: str
    predicted: dict[str, Cost]  # per back end that can prove it
    objective: dict[str, float]
    excluded: dict[str, str]  # back end -> why it cannot prove the region
    size: dict[str, float] = field(default_factory=dict)

    def why(self) -> str:
        if len(self.predicted) == 1:
            other, reason = next(iter(self.excluded.items()))
            return f"only {self.backend}: {other} cannot ({reason})"
        other = next(b for b in self.predicted if b != self.backend)
        mine, theirs = self.objective[self.backend], self.objective[other]
        ratio = theirs / mine if mine > 0 else float("inf")
        return f"{ratio:.1f}× cheaper than {other}"


@dataclass
class Plan:
    choices: list[Choice]
    weights: Weights
    profile: Profile
    # For a program in regions: the same program inlined into one circuit, costed the same
    # way, so that a user sees whether the region boundaries pay for their crossings.
    inlined: Choice | None = None

    def total(self, backend: str | None = None) -> Cost | None:
        """The plan's summed cost, or (backend given) the single-back-end plan's: None when
        that back end cannot prove some region."""
        out = Cost()
        for c in self.choices:
            b = backend or c.backend
            if b not in c.predicted:
                return None
            out = out + c.predicted[b]
        return out

    def objective(self, backend: str | None = None) -> float | None:
        total = 0.0
        for c in self.choices:
            b = backend or c.backend
            if b not in c.objective:
                return None
            total += c.objective[b]
        return total

    def to_json(self) -> dict[str, Any]:
        def single(b: str) -> dict[str, Any] | None:
            cost = self.total(b)
            return None if cost is None else {**cost.to_json(), "objective": self.objective(b)}

        total = self.total()
        assert total is not None
        return {
            "regions": [
                {
                    "name": c.region.name,
                    "prover": c.region.prover,
                    "backend": c.backend,
                    "why": c.why(),
                    "size": c.size,
                    "predicted": c.predicted[c.backend].to_json(),
                    "per_backend": {
                        b: {**cost.to_json(), "objective": c.objective[b]}
                        for b, cost in c.predicted.items()
                    },
                    "excluded": c.excluded,
                }
                for c in self.choices
            ],
            "total": {**total.to_json(), "objective": self.objective()},
            "single": {b: single(b) for b in api.BACKENDS},
            **({"inlined": self._inlined_json()} if self.inlined is not None else {}),
            "weights": asdict(self.weights),
            "profile": {"machine": self.profile.machine, "measured_at": self.profile.measured_at},
        }

    def _inlined_json(self) -> dict[str, Any]:
        c = self.inlined
        assert c is not None
        cost = c.predicted[c.backend].to_json()
        return {"backend": c.backend, **cost, "objective": c.objective[c.backend]}


def predict(
    profile: Profile, circuit: api.Circuit, inputs: dict[str, Any] | None = None
) -> dict[str, Cost]:
    """Predicted costs of one program on both back ends (whether or not each can prove it);
    `inputs` give the public values (unknown ones are costed as private: an upper bound)."""
    return costs_of(profile, features(circuit, inputs))


def costs_of(profile: Profile, f: dict[str, float]) -> dict[str, Cost]:
    """The profile's predictions for a program's features, per back end."""
    return {
        b: Cost(**{m: max(model.predict(f), 0.0) for m, model in models.items()})
        for b, models in profile.models.items()
    }


def choose(region: Region, profile: Profile, weights: Weights) -> Choice:
    f = features(region.circuit, region.inputs)
    costs = costs_of(profile, f)
    excluded = {b: why for b, why in region.backends().items() if why is not None}
    allowed = {b: c for b, c in costs.items() if b not in excluded}
    if not allowed:
        raise MalformedInput(
            f"region `{region.name}`: no back end proves it ("
            + "; ".join(f"{b}: {w}" for b, w in excluded.items())
            + ")"
        )
    objective = {b: weights.objective(c, region.prover) for b, c in allowed.items()}
    best = min(objective, key=lambda b: (objective[b], b))
    size = {k: f[k] for k in ("constraints", "commitments", "gates")}
    return Choice(region, best, allowed, objective, excluded, size)


def plan(
    regions: list[Region], profile: Profile, weights: Weights, inlined: Region | None = None
) -> Plan:
    """Each region's back end; `inlined`: the program as one circuit, costed beside."""
    chosen = None if inlined is None else choose(inlined, profile, weights)
    return Plan([choose(r, profile, weights) for r in regions], weights, profile, chosen)


def inlined_region(target: str, inputs: dict[str, Any] | None = None) -> Region | None:
    """For `APP.py:FN` where FN calls other `@zk` functions: FN with its calls inlined into one
    circuit (what dropping @zk from the callees would compile), else None."""
    path, sep, name = target.rpartition(":")
    if not (sep and name.isidentifier() and not Path(target).exists()):
        return None
    fn = api.load_target(target)
    if not isinstance(api.compile(fn), api.Regions):
        return None
    circuit = api.compile(fn, regions=False)
    assert isinstance(circuit, api.Circuit)  # a template inlines its calls: never regions
    return Region(name, circuit, "client", False, inputs)


def _specialise(
    compiled: api.Circuit | api.Template, inputs: dict[str, Any] | None, length: int
) -> tuple[api.Circuit, bool]:
    """The circuit to cost: a template at the inputs' lengths, or at `length` without them."""
    if isinstance(compiled, api.Circuit):
        return compiled, False
    if inputs is not None:
        return compiled.at(compiled.lengths_of(inputs)), True
    return compiled.at(dict.fromkeys(compiled.unbounded, length)), True


def _defines_main(file: Path) -> bool:
    """Whether a module defines `main` at top level (read, not imported: importing runs the
    user's code, which the branch taken then does once)."""
    try:
        tree = ast.parse(read_text(file, "the module"))
    except SyntaxError:
        return False  # importing it reports the error with its line
    return any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body)


def _regions_of_program(regions: api.Regions, inputs: dict[str, Any] | None) -> list[Region]:
    """The regions of one program in regions (zeenot.bundle): the inputs are its own region's;
    the others' values come from it, committed (none is public to cost)."""
    return [
        Region(name, circuit, "client", False, inputs if name == regions.name else None)
        for name, circuit in regions.circuits.items()
    ]


def regions_of(target: str, inputs: dict[str, Any] | None = None, length: int = 16) -> list[Region]:
    """The regions a target proves. `APP.py:FN` is one region (a `@zk` function). An
    application (`APP.py` with a `main`, or its directory) is every region its client workers
    call, with the back ends its `BACKENDS` pins. A module without `main` is each of its `@zk`
    functions (a program split by hand into regions, as examples/split)."""
    path, sep, name = target.rpartition(":")
    if sep and name.isidentifier() and not Path(target).exists():
        compiled = api.compile(api.load_target(target))
        if isinstance(compiled, api.Regions):  # it calls other @zk functions: their regions
            return _regions_of_program(compiled, inputs)
        circuit, template = _specialise(compiled, inputs, length)
        return [Region(name, circuit, "client", template, inputs)]
    file = Path(target) / "app.py" if Path(target).is_dir() else Path(target)
    pinned: dict[str, str] = {}
    if _defines_main(file):  # an application: import it once, as the runtime does
        app = load_application(file)
        compiled_regions = compile_regions(app)
        for region_name in compiled_regions:
            setting = backend_setting(app, region_name)
            if setting not in (None, "auto"):  # "auto" asks this planner
                pinned[region_name] = setting
    else:
        module = load_module(str(file))
        fns = {k: v for k, v in vars(module).items() if callable(v) and hasattr(v, "__zk__")}
        compiled_regions = {}
        for k, fn in sorted(fns.items()):
            compiled = api.compile(fn)
            if isinstance(compiled, api.Regions):  # `k/region` for each of its regions
                for r in _regions_of_program(compiled, (inputs or {}).get(k)):
                    compiled_regions[f"{k}/{r.name}"] = r.circuit
            else:
                compiled_regions[k] = compiled
    out = []
    for region_name, compiled in compiled_regions.items():
        given = (inputs or {}).get(region_name)
        circuit, template = _specialise(compiled, given, length)
        out.append(Region(region_name, circuit, "client", template, given, pinned.get(region_name)))
    if not out:
        raise UsageError(f"`{target}` proves nothing: it has no @zk region that a client calls")
    return out
