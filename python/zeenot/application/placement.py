"""Where a movable worker runs: the tiers the information-flow check allows it.

ZØ places each worker method on a tier by a global optimisation under hard privacy
constraints (seed 000, §4.2). Here a worker declared `@worker(tier="auto")` is such a method:
the planner (`zeenot.plan`) chooses its tier by cost, this module says which placements are
legal. A placement is legal when, with every movable worker on its tier, the phases of a run
hold (one round trip: ZN503) and the flow check passes (`zeenot.application.flow`): a worker
that reads a value private to the client cannot run on the server (ZN511), and a worker on
the client cannot publish one (ZN510). Legality is a property of the whole placement, not of
each worker alone (a worker on the server after the client's steps cannot feed a client
worker), so `options` enumerates placements whole: applications have few workers.

An application with a peer (a `Private[T, "peer"]` input of `main`, or a
`@worker(tier="peer")`: ZØ's ClientShare tier) has a third tier: the run's peer proves its
workers' regions before the client, which relays the proofs to the server (docs/runtime.md,
"Workers on a peer"). A movable worker may go there too where the flow check allows: a worker
reading the peer's private data only there (ZN513 elsewhere), one on public data anywhere. A
peer step runs before the client's and cannot read what the client computes (ZN503).

One more rule is the runtime's: a worker placed on the server proves its regions per run, on
values from the client's submission. A movable worker whose region would run on the server
before the client (on published values only) is refused there (ZN512): the server would
have to prove it once per deployment and publish the proof, which the runtime does not do.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field

from zeenot.application.flow import check_flow, source_taint
from zeenot.application.model import TIERS, Application, Input, Source, StepOutput
from zeenot.errors import CompileError, Diagnostic, UsageError

MAX_MOVABLE = 12  # workers the planner places
MAX_PLACEMENTS = 4096  # tiers^movable placements tried, each a flow check of under a millisecond


def assign_phases(app: Application) -> None:
    """parameters: server steps on constants and other parameters, run before the client
    (published); peer: the peer's steps, before the client's; client: the client's steps;
    server: server steps on the run's values. `CompileError` (ZN503) for a client step that
    reads what the server computed from the run's data, or a peer step that reads what the
    client or the server computed in the run (a second round trip)."""
    for step in app.steps:
        if step.tier == "peer":
            for src in step.args.values():
                if isinstance(src, StepOutput) and (
                    app.steps[src.step].tier == "client" or app.steps[src.step].phase == "server"
                ):
                    raise _error(
                        app,
                        "ZN503",
                        f"`{step.worker}` runs on the peer, which proves before the client, but "
                        f"reads what `{app.steps[src.step].worker}` computes in the run: a run "
                        "is one round trip (peer, client, server)",
                        step.line,
                        "give the peer's worker published values, its own data, or the public "
                        "inputs of `main`",
                    )
            step.phase = "peer"
        elif step.tier == "client":
            for src in step.args.values():
                if isinstance(src, StepOutput) and app.steps[src.step].phase == "server":
                    raise _error(
                        app,
                        "ZN503",
                        f"`{step.worker}` runs on the client after the server acted on "
                        f"the client's data (`{app.steps[src.step].worker}`): a run is "
                        "one round trip",
                        step.line,
                        "split the application into two runs",
                    )
            step.phase = "client"
        elif any(_from_client(app, src) for src in step.args.values()):
            step.phase = "server"
        else:
            step.phase = "parameters"


def _from_client(app: Application, src: Source) -> bool:
    if isinstance(src, Input):
        return True
    if isinstance(src, StepOutput):
        step = app.steps[src.step]
        return step.tier in ("client", "peer") or step.phase == "server"
    return False


def _error(app: Application, code: str, message: str, line: int, hint: str) -> CompileError:
    return CompileError(Diagnostic(code, message, str(app.path), line, 0, None, hint))


def movable_workers(app: Application) -> list[str]:
    """The workers the planner places, in the order `main` first calls them."""
    return list(dict.fromkeys(s.worker for s in app.steps if s.movable))


def place(app: Application, assignment: Mapping[str, str]) -> None:
    """Put each movable worker on its tier (`assignment`: worker -> tier), redo the phases and
    check the flow. `CompileError` if the placement is illegal (the previous one is kept);
    `UsageError` if `assignment` does not name exactly the movable workers and tiers."""
    movable = movable_workers(app)
    tiers = app.tiers
    if set(assignment) != set(movable) or any(t not in tiers for t in assignment.values()):
        raise UsageError(
            f"a placement gives each movable worker ({', '.join(movable) or 'none'}) one of "
            f"{', '.join(tiers)}: {dict(assignment)}"
        )
    before = {s.index: (s.tier, s.phase) for s in app.steps}
    try:
        for step in app.steps:
            if step.movable:
                step.tier = assignment[step.worker]
        assign_phases(app)
        for step in app.steps:
            if step.movable and step.tier == "server" and step.calls and step.phase != "server":
                raise _error(
                    app,
                    "ZN512",
                    f"`{step.worker}` on the server would prove `{step.calls[0].region}` before "
                    "the client's run, on published values only: the server proves regions "
                    "per run",
                    step.line,
                    f"place `{step.worker}` on the client, or give it a value of the run",
                )
        check_flow(app)
    except CompileError:
        for step in app.steps:
            step.tier, step.phase = before[step.index]
        raise


@dataclass
class Options:
    """The legal placements of an application's movable workers (each a worker -> tier
    mapping, client-first order), and why a worker can never be on a tier."""

    legal: list[dict[str, str]]
    refused: dict[str, dict[str, str]] = field(default_factory=dict)  # worker -> tier -> why
    candidates: tuple[str, ...] = TIERS[:2]  # the application's tiers, in the order tried

    def tiers(self, worker: str) -> list[str]:
        """The tiers some legal placement puts `worker` on."""
        return [t for t in self.candidates if any(p[worker] == t for p in self.legal)]


def options(app: Application) -> Options:
    """Every legal placement, by trying each (the application is left as it was)."""
    movable = movable_workers(app)
    candidates = app.tiers
    if len(movable) > MAX_MOVABLE or len(candidates) ** len(movable) > MAX_PLACEMENTS:
        raise UsageError(
            f'{len(movable)} workers are @worker(tier="auto") over {len(candidates)} tiers; the '
            f"planner tries at most {MAX_PLACEMENTS} placements: declare the tier of some"
        )
    current = app.placement()
    legal: list[dict[str, str]] = []
    errors: dict[tuple[str, str], CompileError] = {}
    for tiers in itertools.product(candidates, repeat=len(movable)):
        assignment = dict(zip(movable, tiers, strict=True))
        try:
            place(app, assignment)
        except CompileError as exc:
            for w, t in assignment.items():
                errors.setdefault((w, t), exc)
            continue
        legal.append(assignment)
    if current and current in legal:
        place(app, current)
    refused: dict[str, dict[str, str]] = {}
    for w in movable:
        for t in candidates:
            if not any(p[w] == t for p in legal):
                refused.setdefault(w, {})[t] = reason(app, w, t, errors[(w, t)])
    return Options(legal, refused, candidates)


def reason(app: Application, worker: str, tier: str, error: CompileError) -> str:
    """Why `worker` cannot be on `tier`, short: another tier's private inputs it reads, else
    the flow check's diagnostic."""
    private: dict[str, set[str]] = {}  # owner -> the inputs of main it reads
    for step in app.steps:
        if step.worker == worker:
            for src in step.args.values():
                taint = source_taint(app, src)
                if taint is not None and taint.owner != tier:
                    private.setdefault(taint.owner, set()).add(taint.input)
    if private:
        code = "ZN511" if tier == "server" else "ZN513"
        owner, names = sorted(private.items())[0]
        listed = ", ".join(f"`{n}`" for n in sorted(names))
        return f"private inputs of the {owner} ({listed}; {code} on the {tier})"
    d = error.diagnostic
    return f"{d.code}: {d.message}"


def settle(app: Application) -> None:
    """At load: put the movable workers on the first legal placement (the client where it
    can be), or raise the flow check's error for the all-client one. (Before the flow check
    the tiers a worker may take are not known: `movable` steps start on the client.)"""
    movable = movable_workers(app)
    if not movable:
        assign_phases(app)
        check_flow(app)
        return
    first = dict.fromkeys(movable, "client")
    try:
        place(app, first)
        return
    except CompileError as exc:
        error = exc
    legal = options(app).legal
    if not legal:
        raise error
    place(app, legal[0])
