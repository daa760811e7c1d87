"""The application model: workers placed on tiers, the steps `main` sequences, and where every
argument of a step comes from. `zeenot.application.load` builds it from a module;
`zeenot.application.flow` checks it; the planner and the runtime read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from zeenot.application.inputs import InputType
from zeenot.errors import UsageError

TIERS = ("client", "server", "peer")
PROVERS = ("client", "peer")  # tiers that prove their workers' regions for the server to check
AUTO = "auto"  # @worker(tier="auto"): the planner places the worker (docs/planner.md)
F = TypeVar("F", bound=Callable[..., Any])


def worker(*, tier: str) -> Callable[[F], F]:
    """Place a function on a tier: `"client"` (the data owner's device), `"server"` (the
    service, ZØ's External tier), `"peer"` (another client taking part in the run, holding its
    own `Private[T, "peer"]` inputs: ZØ's ClientShare tier), or `"auto"`: wherever the
    information-flow check allows and the planner finds cheapest
    (`zeenot.application.placement`). The function stays a plain Python function."""
    if tier not in (*TIERS, AUTO):
        raise UsageError(f"@worker(tier=...) is one of {', '.join(TIERS)} or {AUTO}, not {tier!r}")

    def mark(fn: F) -> F:
        if not callable(fn) or hasattr(fn, "__zk__"):
            raise UsageError("@worker decorates a plain function (a @zk region is called by one)")
        fn.__worker__ = {"tier": tier}  # type: ignore[attr-defined]
        return fn

    return mark


# --------------------------------------------------------------------------------------------
# Where a value comes from


@dataclass(frozen=True)
class Const:
    value: Any


@dataclass(frozen=True)
class Input:
    """A parameter of `main`: supplied by the client (`private_to` "client" or None: public),
    or by the run's peer (`private_to` "peer")."""

    name: str
    private_to: str | None
    expected: InputType | None = None  # a public input's type, checked at the server's door


@dataclass(frozen=True)
class StepOutput:
    step: int
    index: int | None  # None: the step's whole result


Source = Const | Input | StepOutput


@dataclass(frozen=True)
class RegionOut:
    """A worker's result position that is (part of) a region's proved output."""

    call: int
    index: int | None


@dataclass(frozen=True)
class Param:
    """A worker's result position that is one of its parameters, passed through."""

    name: str


@dataclass(frozen=True)
class Computed:
    """A worker's result position computed from some of its parameters (unproved)."""

    params: frozenset[str]
    line: int


Origin = RegionOut | Param | Computed | Const


@dataclass(frozen=True)
class RegionCall:
    """A call to a `@zk` region in a client worker's body, in source order."""

    index: int
    region: str
    args: dict[str, Origin]  # region parameter -> where the worker got it
    line: int


@dataclass
class Step:
    index: int
    worker: str
    tier: str
    args: dict[str, Source]  # worker parameter -> source in main
    targets: list[str]  # names main binds to the result
    line: int
    calls: list[RegionCall] = field(default_factory=list)  # prover-tier workers only
    returns: list[Origin] | None = None  # per result position (prover-tier workers only)
    phase: str = ""  # "parameters", "peer", "client" or "server"
    declared: str = ""  # what @worker says: a tier, or "auto" (then `tier` is the placement)

    @property
    def movable(self) -> bool:
        """Whether the planner places this step (`@worker(tier="auto")`)."""
        return self.declared == AUTO

    def result_origins(self, index: int | None) -> list[Origin]:
        """Where the part of a client worker's result that `main` reads comes from."""
        returns = self.returns or []
        if index is None:
            return list(returns)
        if len(returns) == 1:  # one value, unpacked by `main`
            only = returns[0]
            return [
                RegionOut(only.call, index)
                if isinstance(only, RegionOut) and only.index is None
                else only
            ]
        return [returns[index]] if index < len(returns) else []


@dataclass
class Application:
    name: str
    path: Path
    module: Any
    source_sha256: str
    regions: dict[str, Callable[..., Any]]
    workers: dict[str, Callable[..., Any]]
    inputs: dict[str, Input]
    steps: list[Step]
    result: list[Source] | dict[str, Source] | Source | None  # what main returns
    peer_sum: Any = None  # a `zeenot.runtime.peers.PeerSum`, for applications of peers
    clients: Any = None  # a `zeenot.application.clients.Clients`: runs from registered clients

    def step_phase(self, phase: str) -> list[Step]:
        return [s for s in self.steps if s.phase == phase]

    def proved_calls(self) -> list[tuple[Step, RegionCall]]:
        """The region calls a submission carries a proof of: every call in a peer step (the
        peer proves, the client relays) and in a client step."""
        return [(s, c) for p in ("peer", "client") for s in self.step_phase(p) for c in s.calls]

    def peer_proved_calls(self) -> list[tuple[Step, RegionCall]]:
        """The region calls the run's peer proves (workers on the peer tier)."""
        return [(s, c) for s in self.step_phase("peer") for c in s.calls]

    @property
    def tiers(self) -> tuple[str, ...]:
        """The tiers this application has: the client and the server, and a peer where it
        declares one (a `Private[T, "peer"]` input of `main` or a `@worker(tier="peer")`)."""
        peers = any(i.private_to == "peer" for i in self.inputs.values()) or any(
            s.declared == "peer" for s in self.steps
        )
        return TIERS if peers else ("client", "server")

    def region_calls(self) -> list[tuple[Step, RegionCall]]:
        """Every region call wherever it is placed: the client's, and those of workers the
        planner placed on the server (which the server proves)."""
        return [(s, c) for s in self.steps for c in s.calls]

    def server_proved_calls(self) -> list[tuple[Step, RegionCall]]:
        """The region calls the server proves: those of movable workers placed on it."""
        return [(s, c) for s in self.steps if s.tier == "server" for c in s.calls]

    def placement(self) -> dict[str, str]:
        """Where each movable worker is placed (`@worker(tier="auto")`), by worker name."""
        return {s.worker: s.tier for s in self.steps if s.movable}


def proof_key(step: Step, call: RegionCall) -> str:
    """How a submission names the proof of one region call."""
    return f"{step.worker}.{call.index}"


# --------------------------------------------------------------------------------------------
# Loading
