"""The information-flow check: a tier's private data leaves it only as a proved output.

ZØ checks `[Private(Client)]` transitively with a dataflow analysis; this is that check on an
application's `Plan` (`zeenot.application`). A value is *private to the client* if it is a
`Private[T, "client"]` input of `main` or anything a client worker computes from one. It may
cross to the server only as a public output of a `@zk` region run on the client: the proof is
what the server trusts, and what it reveals is what the program's author chose to publish.
Everything else is a compile error naming file:line and the path the value took.

A peer (`@worker(tier="peer")`, `Private[T, "peer"]` inputs of `main`: ZØ's ClientShare tier)
is a prover tier like the client, with data of its own: the same rules hold between every two
tiers. A value private to one tier reaches another tier's worker only as a proved output of a
region run on its owner's tier (ZN511 to the server, ZN513 between the client and the peer).

The same walk enforces the runtime's rule that the server acts only on values it can check: a
value a client worker computes outside a region is neither private nor proved, so the server
refuses to depend on it (ZN505), and a region's public input must be something the server
knows, so that the server checks it against its own copy (ZN505 as well).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from zeenot.application.model import (
    PROVERS,
    Application,
    Computed,
    Const,
    Input,
    Origin,
    Param,
    RegionCall,
    RegionOut,
    Source,
    Step,
    StepOutput,
)
from zeenot.errors import CompileError, Diagnostic
from zeenot.types import Visibility


@dataclass(frozen=True)
class Taint:
    """Why a value is private: the input it came from and the path it took."""

    input: str
    path: tuple[str, ...]
    owner: str = "client"  # the tier the input is private to


def check_flow(app: Application) -> None:
    for step in app.steps:
        for param, src in step.args.items():
            _check_argument(app, step, param, src)
        if step.tier in PROVERS:
            for call in step.calls:
                _check_region_inputs(app, step, call)


def _error(app: Application, code: str, message: str, line: int, hint: str) -> CompileError:
    return CompileError(Diagnostic(code, message, str(app.path), line, 0, None, hint))


def _render(taint: Taint) -> str:
    return " → ".join((f"`{taint.input}` (Private, {taint.owner})", *taint.path))


def source_taint(app: Application, src: Source) -> Taint | None:
    """Whether a value of `main` is private to a tier (the client's, or the peer's), and how
    it got there."""
    if isinstance(src, Input):
        return Taint(src.name, (), src.private_to) if src.private_to else None
    if isinstance(src, StepOutput):
        step = app.steps[src.step]
        if step.tier not in PROVERS:
            return None  # the server's own results
        for origin in step.result_origins(src.index):
            taint = _origin_taint(app, step, origin)
            if taint is not None:
                where = f"returned by `{step.worker}` (line {step.line})"
                return Taint(taint.input, (*taint.path, where), taint.owner)
    return None


def _origin_taint(app: Application, step: Step, origin: Origin) -> Taint | None:
    """Whether a value inside a client worker derives from private data."""
    params: frozenset[str] = frozenset()
    if isinstance(origin, Param):
        params = frozenset([origin.name])
    elif isinstance(origin, Computed):
        params = origin.params
    for name in sorted(params):
        taint = source_taint(app, step.args[name])
        if taint is not None:
            hop = f"`{step.worker}({name}=…)` (line {step.line})"
            if isinstance(origin, Computed):
                hop += f", computed on line {origin.line}"
            return Taint(taint.input, (*taint.path, hop), taint.owner)
    return None


def _check_region_inputs(app: Application, step: Step, call: RegionCall) -> None:
    hints = inspect.get_annotations(app.regions[call.region], eval_str=True)
    for param, origin in call.args.items():
        ann = hints.get(param)
        if not (isinstance(ann, Visibility) and ann.vis == "public"):
            continue
        taint = _origin_taint(app, step, origin)
        if taint is not None:
            raise _error(
                app,
                "ZN510",
                f"a value private to the {taint.owner} becomes the public input `{param}` of "
                f"`{call.region}`, which the proof reveals: {_render(taint)}",
                call.line,
                f"make `{param}` Private in `{call.region}`, or pass a public value",
            )
        if not _server_knows(app, step, origin):
            raise _error(
                app,
                "ZN505",
                f"the public input `{param}` of `{call.region}` is computed on the {step.tier}: "
                "the server cannot check it against a value of its own",
                call.line,
                f"pass `{param}` to `{step.worker}` as an argument from `main`",
            )


def _server_knows(app: Application, step: Step, origin: Origin) -> bool:
    """Whether the server has its own copy of a value a client worker holds."""
    if isinstance(origin, Computed):
        return False
    if isinstance(origin, Param):
        src = step.args[origin.name]
        if isinstance(src, StepOutput) and app.steps[src.step].tier in PROVERS:
            producer = app.steps[src.step]
            return all(_server_knows(app, producer, o) for o in producer.result_origins(src.index))
    return True


def _check_argument(app: Application, step: Step, param: str, src: Source) -> None:
    """A worker's argument from `main`: nothing private to another tier, and a value another
    prover tier computed only as a region's proved output."""
    taint = source_taint(app, src)
    if taint is not None and taint.owner != step.tier:
        raise _error(
            app,
            "ZN511" if step.tier == "server" else "ZN513",
            f"a value private to the {taint.owner} reaches the {step.tier}'s `{step.worker}` "
            f"as `{param}`: {_render(taint)} → `{step.worker}({param}=…)` (line {step.line})",
            step.line,
            f"send the {step.tier} a public output of a @zk region that the {taint.owner} proves",
        )
    if not isinstance(src, StepOutput):
        return
    producer = app.steps[src.step]
    if producer.tier not in PROVERS or producer.tier == step.tier:
        return
    origins = producer.result_origins(src.index)
    if not origins:
        raise _error(
            app,
            "ZN501",
            f"`{producer.worker}` returns {len(producer.returns or [])} values; `main` reads "
            f"value {src.index}",
            step.line,
            "unpack as many names as the worker returns",
        )
    for origin in origins:
        if isinstance(origin, RegionOut):
            _check_public_output(app, producer, origin, step)
        elif isinstance(origin, Computed):
            raise _error(
                app,
                "ZN505",
                f"the {step.tier}'s `{step.worker}` would act on a value `{producer.worker}` "
                f"computes on the {producer.tier} (line {origin.line}) without a proof",
                step.line,
                f"compute it in a @zk region the {producer.tier} worker calls; return the "
                "region's result",
            )
        elif isinstance(origin, Param):
            # Passed through: as trusted as what `main` gave the client worker (checked above
            # for privacy; a public input of `main` is the client's claim, stored as such).
            continue
        elif not isinstance(origin, Const):
            raise AssertionError(origin)


def _check_public_output(app: Application, producer: Step, out: RegionOut, user: Step) -> None:
    call = producer.calls[out.call]
    returns = inspect.get_annotations(app.regions[call.region], eval_str=True).get("return")
    if isinstance(returns, Visibility) and returns.vis == "committed":
        raise _error(
            app,
            "ZN506",
            f"`{call.region}` returns a Committed value; the {user.tier}'s `{user.worker}` cannot "
            "read it (the runtime links committed values between regions in a later release)",
            user.line,
            "return the value public, or keep it on the client",
        )
