"""Workers the planner placed (`@worker(tier="auto")`, docs/planner.md "Tiers"): whichever
tier runs one proves its regions. The client runs a movable worker placed on it as it runs
its own (`runtime/client.py`); this module runs one on the server: the worker's body as plain
Python, each region call proved by `prove` instead of run, the proof bound to the run like a
client's (`runtime/binding.py`), and handed back to the client with the answer, which the
client checks (`Runner.check_server_proofs`).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any

from zeenot.application.model import Application, RegionCall, Step

# (the call, its arguments by parameter) -> the proof's outputs
Prove = Callable[[RegionCall, dict[str, Any]], Any]


def run_proving(app: Application, step: Step, args: dict[str, Any], prove: Prove) -> Any:
    """Run `step`'s worker on `args` with its region calls proved, in the order the plan
    lists them; the worker's result (its regions' results are the proofs' outputs)."""
    fn = app.workers[step.worker]
    calls = iter(step.calls)

    def proving(region: str, original: Callable[..., Any]) -> Callable[..., Any]:
        params = list(inspect.signature(original).parameters)

        def call(*call_args: Any) -> Any:
            planned = next(calls)
            assert planned.region == region
            return prove(planned, dict(zip(params, call_args, strict=True)))

        return call

    scope = dict(fn.__globals__)
    for region in {c.region for c in step.calls}:
        scope[region] = proving(region, app.regions[region])
    body = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    return body(**args)
