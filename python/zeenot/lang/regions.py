"""Regions: a `@zk` function that calls another `@zk` function is proved in pieces.

The callee becomes a region of its own (its own IR document, proved by its own back end), and
the caller stays one region that *sends* the call's arguments and *receives* its result, both
as Pedersen commitments (docs/ir.md "Regions"). The caller is not cut at the call: its whole
body is one circuit that takes the result as a committed input and gives the arguments as
committed outputs, so only the call's arguments and result cross, not the caller's live state.
Together the proofs show `out = g(x, callee(f(x)))`: the caller's proof that its arguments are
`f(x)` and its output `g(x, y)`, the callee's that `y = callee(args)`, and the commitments,
binding, that both speak of the same `args` and `y`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zeenot.lang.source import function_source
from zeenot.lang.values import PlainWire, Wire
from zeenot.types import Ty, leaves, type_from_json, type_to_json

MAX_REGIONS = 64  # a call in an unrolled loop makes one region per iteration
REGIONS_VERSION = 1


def joint(leaf: dict[str, Any], follows: bool) -> dict[str, Any]:
    """Marks a committed leaf that follows another of the same value `joint`: a value crosses
    as one Pedersen vector commitment, whatever its number of leaves (docs/ir.md "Committed
    values"), so a tuple pays for one blinding."""
    if leaf.get("vis") == "committed" and follows:
        leaf["joint"] = True
    return leaf


@dataclass
class RegionDocs:
    """What compiling one program in regions collects: every region's IR document (the first
    is the program's own) and the links between them. `compile` compiles a callee region into
    it (`compiler.compile_program`, which passes itself: the driver sits above this module)."""

    compile: Callable[..., dict[str, Any]]
    programs: dict[str, dict[str, Any]] = field(default_factory=dict)
    links: list[dict[str, Any]] = field(default_factory=list)
    chain: list[Any] = field(default_factory=list)  # the @zk functions being compiled (recursion)

    def name_for(self, fn: Any) -> str:
        name = fn.__name__
        k = 1
        while name in self.programs:
            k += 1
            name = f"{fn.__name__}#{k}"
        self.programs[name] = {}  # reserved until compiled
        return name

    def manifest(self, main: str) -> dict[str, Any]:
        """The application document (docs/ir.md "Regions")."""
        order = [main] + [n for n in self.programs if n != main]
        return {
            "zeenot_regions": REGIONS_VERSION,
            "name": main,
            "regions": [{"name": n, "program": self.programs[n]} for n in order],
            "links": self.links,
        }


@dataclass
class Crossing:
    """The caller region's side of its calls: the committed inputs (results) and the committed
    outputs (arguments) it gains, and the parameters it passes on as they are."""

    inputs: list[dict[str, Any]] = field(default_factory=list)  # IR input leaves
    params: list[dict[str, Any]] = field(default_factory=list)  # signature params (results)
    sends: list[dict[str, Any]] = field(default_factory=list)  # signature sends (arguments)
    send_wires: list[Wire] = field(default_factory=list)
    # The caller's own parameters, as compile_program shaped them (name -> value, visibility)
    own: dict[str, tuple[Any, str]] = field(default_factory=dict)
    # Private parameters passed on as they are: the caller may not use them itself
    passed_private: dict[str, ast.AST] = field(default_factory=dict)


class RegionCalls:
    """The compiler's handling of a call to another `@zk` function (a mixin of `Compiler`)."""

    regions: RegionDocs | None
    region_name: str
    crossing: Crossing
    top_frame: Any
    guard: Wire | None
    next_id: int
    max_instructions: int

    if TYPE_CHECKING:

        def err(self, node: Any, code: str, msg: str, hint: str | None = None) -> Any: ...
        def bind_call(
            self, node: ast.Call, names: list[str], label: str
        ) -> dict[str, tuple[Any, ast.AST]]: ...
        def annotations(self, fn: Any, fdef: ast.FunctionDef) -> dict[str, Ty | None]: ...
        def check_arg(self, v: Any, ty: Ty, node: ast.AST, p: str, fname: str) -> None: ...
        def coerce(self, v: Any, ty: Ty, node: ast.AST) -> Any: ...
        def flat_output(self, v: Any, ty: Any, a: Any, node: ast.AST) -> list[Wire]: ...
        def shape_input(
            self, ty: Any, wires: Any, node: ast.AST, name: str, private: bool
        ) -> Any: ...

    def region_call(self, fn: Any, node: ast.Call) -> Any:
        """Compile `fn` as a region of its own and return its result as committed inputs."""
        regions = self.regions
        assert regions is not None
        name = fn.__name__
        if self.guard is not None:
            self.err(
                node,
                "ZN216",
                f"`{name}` is a @zk function, a region of its own: it is called here under a "
                "condition (an `if`, a conditional expression, `and`/`or`, or after an early "
                "return), but a region is always proved",
                f"call `{name}(...)` unconditionally and choose between its result and another "
                f"value afterwards, or drop @zk from `{name}` to inline it as a helper",
            )
        if fn in regions.chain:
            self.err(node, "ZN206", f"recursive call to `{name}` is not supported")
        if len(regions.programs) >= MAX_REGIONS:
            self.err(
                node,
                "ZN114",
                f"more than {MAX_REGIONS} regions (calls to @zk functions, loops unrolled)",
                f"call `{name}` once on a list, or drop @zk from it to inline it",
            )
        fdef = function_source(fn).node
        params = [p.arg for p in fdef.args.args]
        bound = self.bind_call(node, params, name)

        # The caller's own parameter passed as it is enters the callee as the callee's own input
        # (public: the verifier checks both regions got the same value; private: only the callee
        # may use it); anything else crosses as a commitment.
        ann = self.annotations(fn, fdef)
        passed: dict[str, str] = {}
        for p, (v, arg_node) in bound.items():
            own = self.crossing.own.get(arg_node.id) if isinstance(arg_node, ast.Name) else None
            if own is None or own[0] is not v or self.frame is not self.top_frame:
                continue
            has_field = any(t == "field" for _, t in leaves("", ann[p]))
            if own[1] == "public" or (own[1] == "private" and has_field):
                passed[p] = own[1]
        region = regions.name_for(fn)
        doc = regions.compile(
            fn,
            regions=regions,
            region=region,
            max_instructions=self.max_instructions,
            passed=passed,
        )
        regions.programs[region] = doc
        caller = self.region_name
        for p in params:
            v, arg_node = bound[p]
            if p in passed:
                assert isinstance(arg_node, ast.Name)
                regions.links.append({"pass": [caller, arg_node.id], "to": [region, p]})
                if passed[p] == "private":
                    self.crossing.passed_private[arg_node.id] = arg_node
                continue
            ty = ann[p]
            assert ty is not None  # a @zk function's parameters are annotated (compiled above)
            self.check_arg(v, ty, arg_node, p, name)
            if isinstance(v, PlainWire) and isinstance(ty, str):
                v = self.coerce(v, ty, arg_node)
            send = f"{region}({p})"
            self.crossing.send_wires.extend(self.flat_output(v, ty, True, arg_node))
            self.crossing.sends.append({"name": send, "ty": type_to_json(ty)})
            regions.links.append({"from": [caller, send], "to": [region, p]})

        ret_json = doc["signature"]["returns"]
        if ret_json is None:
            return None
        ret_ty = ann.get("return") or type_from_json(ret_json)
        result = f"{region}()"
        # an integer result crosses committed; one that cannot (a ciphertext, a hash) is the
        # callee's public output, as any @zk function's return, and the caller's public input
        committed = doc["signature"].get("returns_vis") == "committed"
        vis = "committed" if committed else "public"
        wires: list[Wire] = []
        for path, leaf_ty in leaves(result, ret_ty):
            leaf = {"id": self.next_id, "name": path, "ty": leaf_ty, "vis": vis, "tier": None}
            self.crossing.inputs.append(joint(leaf, bool(wires)))
            wires.append(Wire(self.next_id, leaf_ty))
            self.next_id += 1
        self.crossing.params.append({"name": result, "ty": ret_json, "vis": vis})
        kind = "from" if committed else "show"
        regions.links.append({kind: [region, "return"], "to": [caller, result]})
        return self.shape_input(ret_ty, iter(wires), node, result, committed)
