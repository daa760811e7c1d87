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

MAX_MOVABLE = 12  # 2^12 placements, each a flow check of milliseconds


def assign_phases(app: Application) -> None:
    """parameters: server steps on constants and other parameters, run before the client
    (published); client: the client's steps; server: server steps on the client's values.
    `CompileError` (ZN503) for a client step that reads what the server computed from the
    client's data (a second round trip)."""
    for step in app.steps:
        if step.tier == "client":
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
        return step.tier == "client" or step.phase == "server"
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
    if set(assignment) != set(movable) or any(t not in TIERS for t in assignment.values()):
        raise UsageError(
            f"a placement gives each movable worker ({', '.join(movable) or 'none'}) one of "
            f"{', '.join(TIERS)}: {dict(assignment)}"
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

    def tiers(self, worker: str) -> list[str]:
        """The tiers some legal placement puts `worker` on."""
        return [t for t in TIERS if any(p[worker] == t for p in self.legal)]


def options(app: Application) -> Options:
    """Every legal placement, by trying each (the application is left as it was)."""
    movable = movable_workers(app)
    if len(movable) > MAX_MOVABLE:
        raise UsageError(
            f'{len(movable)} workers are @worker(tier="auto"); the planner places at most '
            f"{MAX_MOVABLE}: declare the tier of some"
        )
    current = app.placement()
    legal: list[dict[str, str]] = []
    errors: dict[tuple[str, str], CompileError] = {}
    for tiers in itertools.product(TIERS, repeat=len(movable)):
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
        for t in TIERS:
            if not any(p[w] == t for p in legal):
                refused.setdefault(w, {})[t] = reason(app, w, t, errors[(w, t)])
    return Options(legal, refused)


def reason(app: Application, worker: str, tier: str, error: CompileError) -> str:
    """Why `worker` cannot be on `tier`, short: the client's private inputs it reads, else
    the flow check's diagnostic."""
    if tier == "server":
        private = sorted(
            {
                taint.input
                for step in app.steps
                if step.worker == worker
                for src in step.args.values()
                if (taint := source_taint(app, src)) is not None
            }
        )
        if private:
            names = ", ".join(f"`{n}`" for n in private)
            return f"private inputs of the client ({names}; ZN511 on the server)"
    d = error.diagnostic
    return f"{d.code}: {d.message}"


def settle(app: Application) -> None:
    """At load: put the movable workers on the first legal placement (the client where it
    can be), or raise the flow check's error for the all-client one."""
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
