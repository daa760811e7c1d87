"""Applications: one Python module, its workers placed on tiers, and the plan that runs it.

An application is a module with `@zk` regions, `@worker(tier=...)` functions and a `main` that
sequences worker calls (ZØ's `DoWork`):

    @worker(tier="server")
    def tariff() -> tuple[u32, u32]: ...            # published parameters

    @worker(tier="client")
    def quote(km: Private[Week, "client"], base: u32, cap: u32):
        return weekly_premium(km, base, cap)        # a @zk call: proved on the client

    @worker(tier="server")
    def bill(premium: u64, capped: bool) -> dict: ...

    def main(km: Private[Week, "client"]):
        base, cap = tariff()
        premium, capped = quote(km, base, cap)
        return bill(premium, capped)

`load_application` reads `main` and the client workers' bodies with `ast` (they are not run to
be analysed) and builds a `Plan`: the steps in order, where every argument comes from, which
proofs a submission must carry and which of their public inputs the server can check against
values of its own. `zeenot.application.flow` checks, on the same plan, that no value private to a
tier reaches another tier except as a proved output. One run is one round trip: the server's
parameter steps, then the client's steps, then the server's steps on the verified values.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zeenot.application.clients import find_clients
from zeenot.application.inputs import InputType, input_type
from zeenot.application.model import (
    AUTO,
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
from zeenot.application.peersum import find_peer_sum
from zeenot.application.placement import settle
from zeenot.errors import CompileError, Diagnostic, LoadError
from zeenot.lang import load_module
from zeenot.types import Visibility


def load_application(path: str | Path) -> Application:
    """Import an application module and plan it; `CompileError` (file:line) for a `main` or a
    worker outside what the runtime can place, or a value that leaks a tier's private data."""
    path = Path(path)
    module = load_module(str(path))
    source = path.read_bytes()
    regions = {k: v for k, v in vars(module).items() if callable(v) and hasattr(v, "__zk__")}
    workers = {k: v for k, v in vars(module).items() if callable(v) and hasattr(v, "__worker__")}
    main = getattr(module, "main", None)
    peer_sum = find_peer_sum(module)
    if not callable(main) and peer_sum is None:
        raise LoadError(
            f"`{path}` has no `main`: an application sequences its workers in `def main(...)` "
            "(or declares a PeerSum for its peers)"
        )
    app = Application(
        name=path.parent.name if path.stem == "app" else path.stem,
        path=path,
        module=module,
        source_sha256=hashlib.sha256(source).hexdigest(),
        regions=regions,
        workers=workers,
        inputs={},
        steps=[],
        result=None,
        peer_sum=peer_sum,
        clients=find_clients(module),
    )
    if callable(main):
        _Planner(app, str(path)).plan(main)
    settle(app)  # phases, movable workers on a legal tier, and the flow check
    return app


def _error(code: str, message: str, file: str, node: ast.AST | None, hint: str | None = None):
    line = getattr(node, "lineno", None)
    col = getattr(node, "col_offset", None)
    end = getattr(node, "end_col_offset", None)
    return CompileError(Diagnostic(code, message, file, line, col, end, hint))


def _parse_function(fn: Callable[..., Any], file: str) -> ast.FunctionDef:
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        raise LoadError(f"cannot read the source of `{fn.__name__}` in `{file}`") from None
    tree = ast.parse(textwrap.dedent("".join(lines)))
    ast.increment_lineno(tree, first - 1)
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def _private_tier(annotation: Any) -> str | None:
    if isinstance(annotation, Visibility) and annotation.vis == "private":
        return annotation.tier or "client"
    return None


class _Planner:
    def __init__(self, app: Application, file: str):
        self.app, self.file = app, file

    def err(self, code: str, msg: str, node: ast.AST | None, hint: str | None = None):
        return _error(code, msg, self.file, node, hint)

    # main ------------------------------------------------------------------------------------

    def public_type(self, arg: ast.arg, annotation: Any) -> InputType:
        """The type a public input of `main` is checked against at the server's door."""
        if isinstance(annotation, Visibility):  # `Public[T]`
            annotation = annotation.ty
        if annotation is None:
            raise self.err(
                "ZN507",
                f"`{arg.arg}` has no type: the server checks every public input of `main`",
                arg,
                f"annotate it, e.g. `{arg.arg}: str` (text) or `{arg.arg}: u32`",
            )
        try:
            return input_type(annotation)
        except ValueError as exc:
            raise self.err(
                "ZN507", f"`{arg.arg}`: the server cannot check this type", arg, str(exc)
            ) from None

    def plan(self, main: Callable[..., Any]) -> None:
        tree = _parse_function(main, self.file)
        hints = _annotations(main)
        env: dict[str, Source] = {}
        for arg in tree.args.args:
            tier = _private_tier(hints.get(arg.arg))
            if tier not in (None, "client", "peer"):
                raise self.err(
                    "ZN502",
                    f"`{arg.arg}` is private to `{tier}`, but `main`'s inputs come from the "
                    'client (or, `Private[T, "peer"]`, from the run\'s peer)',
                    arg,
                    'a server\'s own data comes from a @worker(tier="server") function',
                )
            expected = None if tier is not None else self.public_type(arg, hints.get(arg.arg))
            env[arg.arg] = self.app.inputs[arg.arg] = Input(arg.arg, tier, expected)
        for stmt in tree.body:
            if _is_docstring(stmt):
                continue
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                step = self.call_step(stmt.value, env)
                targets = self.targets(stmt.targets[0])
                step.targets = targets
                if len(targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    env[targets[0]] = StepOutput(step.index, None)
                else:
                    for i, name in enumerate(targets):
                        env[name] = StepOutput(step.index, i)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self.call_step(stmt.value, env)
            elif isinstance(stmt, ast.Return) and stmt.value is not None:
                if isinstance(stmt.value, ast.Call):
                    step = self.call_step(stmt.value, env)
                    self.app.result = StepOutput(step.index, None)
                elif isinstance(stmt.value, ast.Tuple):
                    what = "a value of `main`'s result"
                    self.app.result = [self.source(e, env, what) for e in stmt.value.elts]
                elif isinstance(stmt.value, ast.Dict):
                    self.app.result = self.named_result(stmt.value, env)
                else:
                    self.app.result = self.source(stmt.value, env, "`main`'s result")
                if stmt is not tree.body[-1]:
                    raise self.err("ZN501", "`return` before the end of `main`", stmt)
            else:
                raise self.err(
                    "ZN501",
                    "`main` sequences worker calls: each statement is `x = worker(...)`, "
                    "`a, b = worker(...)` or `return ...`",
                    stmt,
                    "move the computation into a @worker function",
                )

    def named_result(self, node: ast.Dict, env: dict[str, Source]) -> dict[str, Source]:
        """`return {"kwh": total, "cents": cents}`: the result as an object, each value a
        name bound in `main` or a constant."""
        out: dict[str, Source] = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise self.err("ZN501", "the keys of `main`'s result are strings", key or node)
            if key.value in out:
                raise self.err("ZN501", f"`{key.value}` twice in `main`'s result", key)
            out[key.value] = self.source(value, env, "a value of `main`'s result")
        return out

    def targets(self, node: ast.expr) -> list[str]:
        if isinstance(node, ast.Name):
            return [node.id]
        if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Name) for e in node.elts):
            return [e.id for e in node.elts]  # type: ignore[attr-defined]
        raise self.err("ZN501", "assign a worker's result to names (`x` or `a, b`)", node)

    def source(
        self, node: ast.expr, env: dict[str, Source], what: str = "a worker's argument in `main`"
    ) -> Source:
        if isinstance(node, ast.Constant) and not isinstance(node.value, (str, bytes)):
            return Const(node.value)
        if isinstance(node, ast.Name):
            if node.id not in env:
                raise self.err(
                    "ZN501", f"`{node.id}` is not an input of `main` nor bound in it", node
                )
            return env[node.id]
        raise self.err(
            "ZN501",
            f"{what} is a name or a constant",
            node,
            "compute it in a worker",
        )

    def call_step(self, node: ast.expr, env: dict[str, Source]) -> Step:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            raise self.err(
                "ZN501",
                "`main` sequences worker calls: each statement is `x = worker(...)`, "
                "`a, b = worker(...)` or `return ...`",
                node,
                "move the computation into a @worker function",
            )
        name = node.func.id
        fn = self.app.workers.get(name)
        if fn is None:
            what = "a @zk region" if name in self.app.regions else "not a @worker function"
            raise self.err(
                "ZN501",
                f"`main` calls `{name}`, {what}",
                node,
                "`main` calls workers; a worker calls @zk regions (each worker runs on its tier)",
            )
        params = list(inspect.signature(fn).parameters)
        if node.keywords or len(node.args) != len(params):
            raise self.err(
                "ZN501",
                f"`{name}` takes {len(params)} positional arguments ({', '.join(params)})",
                node,
            )
        declared = fn.__worker__["tier"]
        step = Step(
            index=len(self.app.steps),
            worker=name,
            tier="client" if declared == AUTO else declared,  # placed at load, then planned
            args={p: self.source(a, env) for p, a in zip(params, node.args, strict=True)},
            targets=[],
            line=node.lineno,
            declared=declared,
        )
        if step.tier in PROVERS:  # a movable worker's body too: its regions, on any tier
            _WorkerBody(self, fn, step).analyse()
        self.app.steps.append(step)
        return step


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _annotations(fn: Callable[..., Any]) -> dict[str, Any]:
    try:
        return inspect.get_annotations(fn, eval_str=True)
    except Exception as exc:  # noqa: BLE001 - the user's annotation failed to evaluate
        raise LoadError(f"cannot read the annotations of `{fn.__name__}`: {exc}") from None


class _WorkerBody:
    """A client worker's body: its region calls (where each argument comes from) and where
    each of its results comes from. The body runs as plain Python on the client; this reads
    it only to know which proofs back which results."""

    def __init__(self, planner: _Planner, fn: Callable[..., Any], step: Step):
        self.p, self.fn, self.step = planner, fn, step
        self.tree = _parse_function(fn, planner.file)
        self.params = [a.arg for a in self.tree.args.args]
        self.env: dict[str, Origin] = {p: Param(p) for p in self.params}

    def analyse(self) -> None:
        body = [s for s in self.tree.body if not _is_docstring(s)]
        for stmt in body:
            self.check_nested_calls(stmt)
            if isinstance(stmt, ast.Return):
                self.step.returns = self.result(stmt.value)
                if stmt is not body[-1]:
                    raise self.p.err("ZN501", "`return` before the end of a client worker", stmt)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
                if isinstance(stmt, ast.Assign) and len(stmt.targets) != 1:
                    raise self.p.err("ZN501", "one target per assignment in a client worker", stmt)
                self.bind(target, stmt.value, stmt)
            elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                origin = self.expr(stmt.value)
                self.env[stmt.target.id] = self.combine(
                    [self.env.get(stmt.target.id, Computed(frozenset(), stmt.lineno)), origin],
                    stmt.lineno,
                )
            else:
                # Loops, branches, calls for effect: whatever they bind is computed from
                # everything they read (and they may not call regions: checked above).
                deps = self.expr_of_names(stmt)
                for name in _bound_names(stmt):
                    self.env[name] = self.combine([deps, self.env.get(name, deps)], stmt.lineno)
        if self.step.returns is None:
            self.step.returns = []

    def check_nested_calls(self, stmt: ast.stmt) -> None:
        """Region calls sit at the top of an assignment or return, once each: the server must
        know how many proofs a run carries."""
        top = getattr(stmt, "value", None)
        for node in ast.walk(stmt):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in self.p.app.regions
                and node is not top
            ):
                raise self.p.err(
                    "ZN504",
                    f"`{node.func.id}` (a @zk region) is called inside an expression, a loop or "
                    "a branch",
                    node,
                    "call each region once per run, as `x = region(...)` or `return region(...)`",
                )

    def bind(self, target: ast.expr, value: ast.expr | None, stmt: ast.stmt) -> None:
        if value is None:
            return
        if isinstance(value, ast.Call) and self.is_region(value):
            call = self.region_call(value)
            if isinstance(target, ast.Name):
                self.env[target.id] = RegionOut(call.index, None)
            elif isinstance(target, ast.Tuple) and all(
                isinstance(e, ast.Name) for e in target.elts
            ):
                for i, e in enumerate(target.elts):
                    self.env[e.id] = RegionOut(call.index, i)  # type: ignore[attr-defined]
            else:
                raise self.p.err("ZN501", "bind a region's result to names", target)
            return
        origin = self.expr(value)
        for name in _target_names(target):
            self.env[name] = origin

    def is_region(self, node: ast.Call) -> bool:
        return isinstance(node.func, ast.Name) and node.func.id in self.p.app.regions

    def region_call(self, node: ast.Call) -> RegionCall:
        name = node.func.id  # type: ignore[attr-defined]
        params = list(inspect.signature(self.p.app.regions[name]).parameters)
        if node.keywords or len(node.args) != len(params):
            raise self.p.err(
                "ZN501",
                f"`{name}` takes {len(params)} positional arguments ({', '.join(params)})",
                node,
            )
        call = RegionCall(
            index=len(self.step.calls),
            region=name,
            args={p: self.expr(a) for p, a in zip(params, node.args, strict=True)},
            line=node.lineno,
        )
        self.step.calls.append(call)
        return call

    def result(self, value: ast.expr | None) -> list[Origin]:
        if value is None:
            return []
        if isinstance(value, ast.Call) and self.is_region(value):
            call = self.region_call(value)
            return [RegionOut(call.index, None)]
        if isinstance(value, ast.Tuple):
            return [self.expr(e) for e in value.elts]
        return [self.expr(value)]

    def expr(self, node: ast.expr) -> Origin:
        if isinstance(node, ast.Constant):
            return Const(node.value)
        if isinstance(node, ast.Name) and node.id in self.env:
            return self.env[node.id]
        return self.expr_of_names(node)

    def expr_of_names(self, node: ast.AST) -> Origin:
        line = getattr(node, "lineno", self.step.line)
        parts = [
            self.env[n.id]
            for n in ast.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in self.env
        ]
        return self.combine(parts, line)

    def combine(self, parts: list[Origin], line: int) -> Origin:
        params: set[str] = set()
        for part in parts:
            if isinstance(part, Param):
                params.add(part.name)
            elif isinstance(part, Computed):
                params |= part.params
        return Computed(frozenset(params), line)


def _target_names(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _bound_names(stmt: ast.stmt) -> set[str]:
    return {
        n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
