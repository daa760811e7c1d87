"""The planner: predict each region's costs on each back end, choose the cheaper back end per
region and, for an application's movable workers, the tier that proves it.

A plan minimises a weighted objective in seconds. Each cost term is charged to the tier that
pays it, and the prover's tier is a decision variable where the flow check allows more than
one (`@worker(tier="auto")`, `zeenot.application.placement`):

    objective(region, backend, tier) =
        w[tier]       · prove_s                            (the prover's tier)
      + w[verifier]   · verify_s                           (the other tier checks the proof)
      + w["server"]   · setup_s / K                        (the server sets Groth16 up)
      + w_byte        · (hops · proof_bytes + key_bytes / K)  (the proof crosses `hops` links:
                                                            2 from a peer, relayed by the
                                                            client; the proving key once per
                                                            K, to a client or peer prover)

K is the number of proofs made per Groth16 setup (and per proving-key download). Given the
tiers, regions are independent (the runtime's regions share no commitments), so each region's
argmin over back ends is exact; the tiers are chosen for the whole application by trying every
legal placement of its movable workers (few: `placement.MAX_MOVABLE`), each costed with its
regions' best back ends.
"""

from __future__ import annotations

import ast
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from zeenot import api
from zeenot.application import Application, backend_setting, compile_regions, load_application
from zeenot.application.model import TIERS
from zeenot.application.placement import Options, options
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
    peer: float = 1.0  # a peer's seconds (applications with a peer tier)

    @classmethod
    def parse(cls, text: str | None, proofs_per_setup: float | None = None) -> Weights:
        """`client=1,server=10,peer=2,byte=1e-7` (any subset)."""
        values: dict[str, float] = {}
        for part in (text or "").split(","):
            if not part.strip():
                continue
            key, sep, value = part.partition("=")
            key = key.strip()
            if not sep or key not in ("client", "server", "peer", "byte"):
                raise UsageError(f"--weights: `{part}` is not client=X, server=X, peer=X or byte=X")
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

    @classmethod
    def of_application(cls, app: Application) -> Weights:
        """The application's own weights (`PLAN_WEIGHTS = "client=4"` in its module), else
        the defaults."""
        return cls.parse(application_weights(app))

    def objective(self, cost: Cost, prover: str = "client") -> float:
        """One proof's cost: proved on `prover`'s tier, verified on the other (a client's
        or a peer's proof by the server, a server's by the client, which gets it with its
        answer). A peer's proof crosses twice: to the client, which relays it to the server."""
        k = self.proofs_per_setup
        verifier = "client" if prover == "server" else "server"
        key_bytes = 0.0 if prover == "server" else cost.key_bytes  # a server keeps its own key
        hops = 2 if prover == "peer" else 1
        return (
            getattr(self, prover) * cost.prove_s
            + getattr(self, verifier) * cost.verify_s
            + self.server * cost.setup_s / k
            + self.byte * (hops * cost.proof_bytes + key_bytes / k)
        )


@dataclass
class Placement:
    """An application's tiers: the declared tier of each fixed worker, and the legal
    placements of its movable ones (`@worker(tier="auto")`)."""

    declared: dict[str, str]  # worker -> tier, for workers the author placed
    options: Options
    weights: str | None = None  # the application's PLAN_WEIGHTS

    def tiers(self, callers: tuple[str, ...], assignment: dict[str, str]) -> list[str]:
        return [assignment.get(w) or self.declared[w] for w in callers]


@dataclass(frozen=True)
class Region:
    """One proof a plan makes: a compiled program (a template at given lengths) and who proves."""

    name: str
    circuit: api.Circuit
    prover: str = "client"
    template: bool = False  # lists without MaxSize: no fixed circuit, so sigma only
    inputs: dict[str, Any] | None = field(default=None, compare=False, repr=False)  # publics
    pinned: str | None = None  # the application's BACKENDS names this region's back end
    callers: tuple[str, ...] = ()  # an application's workers that call it (one per call)
    placement: Placement | None = field(default=None, compare=False, repr=False)

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
    tier: str = "client"  # who proves it ("client+server": calls placed on both)
    tier_why: str = ""
    # tier -> the plan's objective with the region's movable worker there, or why it cannot be
    tiers: dict[str, float | str] = field(default_factory=dict)

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
    placement: dict[str, str] = field(default_factory=dict)  # movable worker -> chosen tier

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
                    "prover": c.tier,
                    "tier": c.tier,
                    "tier_why": c.tier_why,
                    "tiers": c.tiers,
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
            "placement": self.placement,
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


@dataclass
class _Costed:
    """A region's predictions, computed once and weighed under every placement tried."""

    region: Region
    allowed: dict[str, Cost]
    excluded: dict[str, str]
    size: dict[str, float]

    def objectives(self, weights: Weights, tiers: list[str]) -> dict[str, float]:
        """Per back end, the objective of its calls proved on `tiers` (one per call)."""
        return {b: sum(weights.objective(c, t) for t in tiers) for b, c in self.allowed.items()}

    def best(self, weights: Weights, tiers: list[str]) -> float:
        return min(self.objectives(weights, tiers).values())


def _cost(region: Region, profile: Profile) -> _Costed:
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
    size = {k: f[k] for k in ("constraints", "commitments", "gates")}
    return _Costed(region, allowed, excluded, size)


def _pick(costed: _Costed, weights: Weights, tiers: list[str]) -> Choice:
    objective = costed.objectives(weights, tiers)
    best = min(objective, key=lambda b: (objective[b], b))
    tier = "+".join(t for t in TIERS if t in tiers)
    return Choice(
        costed.region, best, costed.allowed, objective, costed.excluded, costed.size, tier
    )


def choose(region: Region, profile: Profile, weights: Weights) -> Choice:
    """One region's back end, proved by `region.prover`."""
    choice = _pick(_cost(region, profile), weights, [region.prover])
    choice.tier_why = "one prover: not an application"
    return choice


def plan(
    regions: list[Region],
    profile: Profile,
    weights: Weights,
    inlined: Region | None = None,
    placement: Placement | None = None,
) -> Plan:
    """Each region's back end and, for an application with movable workers, their tiers:
    every legal placement is costed with its regions' best back ends and the cheapest kept
    (ties: the earlier, client-first). `inlined`: the program as one circuit, costed beside."""
    placement = placement or next((r.placement for r in regions if r.placement), None)
    chosen = None if inlined is None else choose(inlined, profile, weights)
    costed = [_cost(r, profile) for r in regions]
    if placement is None:
        choices = [_pick(c, weights, [c.region.prover]) for c in costed]
        for c in choices:
            c.tier_why = "one prover: not an application"
        return Plan(choices, weights, profile, chosen)

    def total(assignment: dict[str, str]) -> float:
        return sum(c.best(weights, placement.tiers(c.region.callers, assignment)) for c in costed)

    legal = placement.options.legal
    totals = [total(a) for a in legal]
    best = legal[min(range(len(legal)), key=lambda i: totals[i])] if legal else {}
    choices = []
    for c in costed:
        choice = _pick(c, weights, placement.tiers(c.region.callers, best))
        choice.tier_why, choice.tiers = _tier_why(c.region, placement, best, legal, totals)
        choices.append(choice)
    return Plan(choices, weights, profile, chosen, dict(best))


def _tier_why(
    region: Region,
    placement: Placement,
    best: dict[str, str],
    legal: list[dict[str, str]],
    totals: list[float],
) -> tuple[str, dict[str, float | str]]:
    """Why a region's calls are on their tier, and per tier the plan's objective with its
    worker there (the best legal placement that puts it there) or why no placement can."""
    movable = [w for w in dict.fromkeys(region.callers) if w in best]
    if not movable:
        declared = sorted({placement.declared[w] for w in region.callers})
        return f'declared @worker(tier="{"/".join(declared)}")', {}
    worker = movable[0]
    tiers: dict[str, float | str] = {}
    for t in placement.options.candidates:
        at = [totals[i] for i, a in enumerate(legal) if a[worker] == t]
        tiers[t] = min(at) if at else placement.options.refused[worker][t]
    mine = best[worker]
    others = {t: v for t, v in tiers.items() if t != mine}
    costs = {t: v for t, v in others.items() if isinstance(v, float)}
    if not costs:
        return f"only {mine}: " + _merged([str(v) for v in others.values()]), tiers
    other, theirs = min(costs.items(), key=lambda kv: kv[1])
    ours = tiers[mine]
    assert isinstance(ours, float)
    if ours == theirs:
        return f"as cheap on the {mine} as on the {other} ({ours:.4g}): the first legal", tiers
    return (
        f"cheaper on the {mine}: {ours:.4g} vs {theirs:.4g} on the {other} (plan objective)",
        tiers,
    )


def _merged(reasons: list[str]) -> str:
    """Refusals joined, those naming the same private inputs once: `private inputs of the
    peer (`x`; ZN513 on the client, ZN511 on the server)`."""
    heads: dict[str, list[str]] = {}
    for r in reasons:
        head, sep, code = r.rpartition("; ")
        if sep and r.startswith("private inputs of") and code.endswith(")"):
            heads.setdefault(head, []).append(code[:-1])
        else:
            heads.setdefault(r, [])
    return "; ".join(f"{h}; {', '.join(c)})" if c else h for h, c in heads.items())


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
    if _defines_main(file):  # an application: import it once, as the runtime does
        return application_regions(load_application(file), inputs, length)
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
        out.append(Region(region_name, circuit, "client", template, given))
    if not out:
        raise UsageError(f"`{target}` proves nothing: it has no @zk region that a client calls")
    return out


def application_weights(app: Application) -> str | None:
    """The weights an application declares for its plan (`PLAN_WEIGHTS`), as text."""
    text = getattr(app.module, "PLAN_WEIGHTS", None)
    if text is not None and not isinstance(text, str):
        raise UsageError('PLAN_WEIGHTS is a string such as "client=4,server=1"')
    return text


def application_regions(
    app: Application, inputs: dict[str, Any] | None = None, length: int = 16
) -> list[Region]:
    """Every region an application's workers call, with the back ends its `BACKENDS` pins,
    the workers that call it and the application's placement options (`plan` reads them)."""
    declared = {s.worker: s.tier for s in app.steps if not s.movable}
    placement = Placement(declared, options(app), application_weights(app))
    callers: dict[str, list[str]] = {}
    for step, call in app.region_calls():
        callers.setdefault(call.region, []).append(step.worker)
    out = []
    for region_name, compiled in compile_regions(app).items():
        given = (inputs or {}).get(region_name)
        circuit, template = _specialise(compiled, given, length)
        setting = backend_setting(app, region_name)
        pinned = setting if setting not in (None, "auto") else None  # "auto" asks this planner
        calls = tuple(callers[region_name])
        prover = next(s.tier for s in app.steps if s.worker == calls[0])
        out.append(Region(region_name, circuit, prover, template, given, pinned, calls, placement))
    if not out:
        raise UsageError(f"`{app.path}` proves nothing: it has no @zk region that a worker calls")
    return out
