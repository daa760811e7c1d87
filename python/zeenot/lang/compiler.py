"""The front end's driver: a `@zk` function compiled to an IR v1 document, in stages.

Plain Python is the specification. The function is run symbolically over IR wires: compile-time
values (ints, bools, tuples: loop indices and module constants) fold exactly as Python folds
them; everything derived from a parameter is a typed `Wire`. Both sides of a data-dependent `if`
run under guards and merge with `select`.

`Compiler` is assembled from one mixin per concern, each in its own module (from the bottom up):

* emit.py: the IR being built, guards, diagnostics; the per-instruction passes (lang/passes)
* typer.py: types, plain ints, merging two paths, annotations and coercion
* names.py: name resolution, helpers and closures inlined
* expressions.py, calls.py, statements.py: the Python subset, node by node
* lists.py, indexing.py, sets.py, records.py: lists, indexing, sorting and sets, records
  (points, ciphertexts, `Fixed`)
* regions.py: a call to another `@zk` function as a region of its own

`compile_program` runs the stages: the signature's parameters become input leaves, the body runs,
the result becomes output leaves, then dead code goes and ids are renumbered (lang/passes).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Mapping
from typing import Any

from zeenot.lang.calls import Calls
from zeenot.lang.emit import MAX_INSTRUCTIONS, Emitter, Frame
from zeenot.lang.expressions import Expressions
from zeenot.lang.indexing import Indexing
from zeenot.lang.lists import ListOps
from zeenot.lang.names import Names
from zeenot.lang.passes import eliminate_dead, pack_equalities, renumber
from zeenot.lang.records import Records
from zeenot.lang.regions import Crossing, RegionCalls, RegionDocs, joint
from zeenot.lang.sets import SetsAndSorting
from zeenot.lang.source import function_source
from zeenot.lang.statements import Statements
from zeenot.lang.typer import Typing, leaf_types
from zeenot.lang.values import NONE, PlainWire, SymList, SymRecord, Wire, describe
from zeenot.types import (
    ListTy,
    Ty,
    Visibility,
    leaves,
    type_from_json,
    type_name,
    type_to_json,
    unbounded_list,
)

__all__ = ["MAX_INSTRUCTIONS", "Compiler", "Frame", "compile_program"]


class Compiler(
    Expressions,
    Calls,
    Statements,
    Names,
    ListOps,
    Indexing,
    SetsAndSorting,
    Records,
    RegionCalls,
    Typing,
    Emitter,
):
    """The symbolic executor of one region: every stage's methods over one `Emitter`."""

    def __init__(self, max_instructions: int = MAX_INSTRUCTIONS) -> None:
        super().__init__(max_instructions)
        self.len_cache: dict[int, tuple[SymList, Any]] = {}
        self.len_source: dict[int, SymList] = {}  # id of a `len(xs)` wire -> xs
        # Compiling a template at its inputs' lengths: list lengths are known constants, but
        # they are the inputs', so an index past the end fails at run time, as in Python.
        self.specialised = False
        # Compiling in regions (lang/regions.py): a call to another @zk function is a region of
        # its own rather than inlined; `None`: every call is inlined.
        self.regions: RegionDocs | None = None
        self.region_name = ""
        self.crossing = Crossing()
        self.top_frame: Frame | None = None


# -- entry point ------------------------------------------------------------------------------


def compile_program(
    fn: Any,
    lengths: Mapping[str, int] | None = None,
    *,
    max_instructions: int = MAX_INSTRUCTIONS,
    regions: RegionDocs | bool = False,
    region: str | None = None,
    passed: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Compile a `@zk` function to an IR v1 document (a JSON-ready dict).

    `lengths` specialises the program: each parameter named there must be an unbounded list
    (`list[T]`, no `MaxSize`) and is compiled as a list of exactly that many elements.
    `max_instructions` bounds the work (ZN114 past it): a verifier sets it lower.

    `regions=True` compiles a call to another `@zk` function as a region of its own
    (lang/regions.py) instead of inlining it; when there is such a call the result is the
    application document of docs/ir.md "Regions" rather than an IR document. (Internally,
    `regions` is the collection a callee region is compiled into, named `region`, its
    parameters and return crossing as commitments, except those in `passed`: its caller's own
    parameters passed as they are, with their visibility there.)"""
    fn = inspect.unwrap(fn)
    fsrc = function_source(fn)
    fdef = fsrc.node
    c = Compiler(max_instructions)
    c.specialised = lengths is not None
    top = regions is True
    if regions is True:
        regions = RegionDocs(compile_program)
        region = regions.name_for(fn)
    if isinstance(regions, RegionDocs):
        c.regions, c.region_name = regions, region or fn.__name__
        regions.chain.append(fn)
    callee = isinstance(regions, RegionDocs) and not top  # a region that another one calls
    frame = Frame(fn, fsrc.file, fsrc.text, fn.__globals__)
    c.frame = frame
    # 1. the signature: parameters become input leaves, and values in the function's frame
    inputs, params, shapes = _parameters(c, fn, fdef, lengths, callee, passed)
    c.top_frame = frame
    ret_ty, ret_vis, declared_committed = _declared_return(c, fn, fdef, callee)
    frame.ret_ty = ret_ty
    # 2. the body, run symbolically (statements.py and below), emitting the IR
    c.stack.append(fn)
    result = c.run_body(fdef)
    # 3. the result becomes output leaves, and a region's calls their inputs and outputs
    ret_ty, ret_vis, outputs = _outputs(
        c, fn, fdef, result, ret_ty, ret_vis, declared_committed, callee
    )
    crossing = _crossing(c, inputs, params, outputs)
    # 4. the passes over the whole body (lang/passes), and the document
    values = [o["value"] for o in outputs]
    body = eliminate_dead(inputs, pack_equalities(inputs, c.body, values, c.next_id), values)
    _check_passed_unused(c, shapes, body, outputs)
    renumber(inputs, body, outputs)
    doc = {
        "version": 1,
        "name": c.region_name or fn.__name__,
        "source": {"file": fsrc.file, "function": fn.__name__, "line": fdef.lineno},
        "inputs": inputs,
        "body": body,
        "outputs": outputs,
        "signature": {
            "params": params,
            "returns": type_to_json(ret_ty),
            **({"returns_vis": "committed"} if ret_vis == "committed" else {}),
            **({"sends": crossing.sends} if crossing.sends else {}),
        },
    }
    if isinstance(regions, RegionDocs):
        regions.chain.pop()
        if top:
            regions.programs[c.region_name] = doc
            if len(regions.programs) > 1:
                return regions.manifest(c.region_name)
    return doc


def _parameters(
    c: Compiler,
    fn: Any,
    fdef: ast.FunctionDef,
    lengths: Mapping[str, int] | None,
    callee: bool,
    passed: Mapping[str, str] | None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[tuple[ast.arg, Ty, list[Wire]]]]:
    """The function's parameters as IR input leaves (`inputs`), signature entries (`params`) and
    `(parameter, type, leaf wires)`; each one's value is set in the frame (`c.frame.env`).
    A callee region's parameters are committed, except those `passed` as they are."""
    frame = c.frame
    a = fdef.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
        bad = (
            a.vararg
            or a.kwarg
            or (a.kwonlyargs[0] if a.kwonlyargs else None)
            or (a.defaults[0] if a.defaults else a.posonlyargs[0])
        )
        c.err(
            bad,
            "ZN404",
            "a @zk function takes plain parameters only (no *args, **kwargs, "
            "keyword-only or positional-only parameters, no defaults)",
        )
    inputs: list[dict[str, Any]] = []
    params: list[dict[str, Any]] = []
    shapes: list[tuple[ast.arg, Ty, list[Wire]]] = []
    exact_params: set[str] = set()
    for p in a.args:
        if p.annotation is None:
            c.err(
                p,
                "ZN401",
                f"parameter `{p.arg}` has no type annotation",
                f"annotate it, e.g. `{p.arg}: Private[u32]` or `{p.arg}: Public[u32]`",
            )
        obj = c.eval_annotation(fn, p.arg, p.annotation)
        if not isinstance(obj, Visibility):
            c.err(
                p.annotation,
                "ZN403",
                f"parameter `{p.arg}` must be `Private[T]` or `Public[T]`",
                f"write `{p.arg}: Private[{c.src(p.annotation)}]` (known only "
                "to the prover) or `Public[...]` (known to the verifier)",
            )
        ty = c.resolve_type(obj.ty, p.annotation)
        if callee:
            obj = Visibility((passed or {}).get(p.arg, "committed"), obj.ty, obj.tier)
        loose = unbounded_list(ty)
        if loose is not None and loose is ty and unbounded_list(loose.elem) is None:
            if lengths is None or p.arg not in lengths:
                c.err(
                    p.annotation,
                    "ZN402",
                    f"parameter `{p.arg}`: `{type_name(loose)}` has no maximum size",
                    f"bound it, `MaxSize[{type_name(loose)}, N]`, for the groth16 back end (the "
                    "length stays private); unbounded, it takes its length from the inputs and "
                    "the sigma back end proves it (`zeenot.api.Template`; the length is public)",
                )
            ty = ListTy(loose.elem, lengths[p.arg], exact=True)
            exact_params.add(p.arg)
        elif loose is not None:
            c.err(
                p.annotation,
                "ZN402",
                f"parameter `{p.arg}`: `{type_name(loose)}` has no maximum size",
                f"bound it: `MaxSize[{type_name(loose)}, N]`; only a parameter that is itself a "
                "list may leave its size open",
            )
        if obj.vis == "committed":
            what = f"parameter `{p.arg}`"
            if callee:
                what += f" of `{fn.__name__}` (a region: its arguments cross as commitments)"
            _check_committable(c, p.annotation, what, ty)
        wires = []
        for path, leaf_ty in leaves(p.arg, ty):
            leaf = {"id": c.next_id, "name": path, "ty": leaf_ty, "vis": obj.vis, "tier": obj.tier}
            inputs.append(joint(leaf, bool(wires)))
            wires.append(Wire(c.next_id, leaf_ty))
            c.next_id += 1
        shapes.append((p, ty, wires))
        params.append({"name": p.arg, "ty": type_to_json(ty), "vis": obj.vis})
    if lengths is not None and set(lengths) != exact_params:
        extra = ", ".join(sorted(set(lengths) - exact_params))
        raise ValueError(f"lengths given for parameters that are not unbounded lists: {extra}")
    for (p, ty, wires), param in zip(shapes, params, strict=True):
        # after all inputs: lists emit their length checks, private points their subgroup checks
        private = param["vis"] != "public"
        frame.env[p.arg] = c.shape_input(ty, iter(wires), p, p.arg, private)
        c.crossing.own[p.arg] = (frame.env[p.arg], param["vis"])
    return inputs, params, shapes


def _declared_return(
    c: Compiler, fn: Any, fdef: ast.FunctionDef, callee: bool
) -> tuple[Ty | None, str, bool]:
    """The declared return type (None: inferred from the value returned), the result's
    visibility, and whether it is declared `Committed[T]`."""
    ret_ty: Ty | None = None
    ret_vis = "committed" if callee else "public"
    declared_committed = False  # `-> Committed[T]`: never shown, even by a region
    if fdef.returns is not None:
        obj = c.eval_annotation(fn, "return", fdef.returns)
        if isinstance(obj, Visibility) and obj.vis == "committed":
            ret_vis = "committed"
            declared_committed = True
            obj = obj.ty
        elif callee and isinstance(obj, Visibility):
            obj = obj.ty  # a region's result crosses as a commitment whatever its annotation
        elif isinstance(obj, Visibility):
            c.err(
                fdef.returns,
                "ZN402",
                "return values are public (or `Committed[T]`); drop "
                "`Private`/`Public` from the return annotation",
            )
        ret_ty = None if obj is None else c.resolve_type(obj, fdef.returns)
    return ret_ty, ret_vis, declared_committed


def _outputs(
    c: Compiler,
    fn: Any,
    fdef: ast.FunctionDef,
    result: Any,
    ret_ty: Ty | None,
    ret_vis: str,
    declared_committed: bool,
    callee: bool,
) -> tuple[Ty | None, str, list[dict[str, Any]]]:
    """The returned value as IR output leaves, with its type (inferred if undeclared, exact for
    an unbounded list) and visibility."""
    frame = c.frame
    if ret_ty is None and result is not NONE:
        ret_ty = _infer(c, result, frame.ret_node or fdef)
    if ret_ty is not None and unbounded_list(ret_ty) is not None:
        ret_ty = _exact_return(c, result, ret_ty, fdef.returns or fdef)
    uncommittable = ret_ty is not None and "field" in [t for _, t in leaves("", ret_ty)]
    if callee and uncommittable and not declared_committed:
        ret_vis = "public"  # a region's result that cannot cross committed is shown (regions.py)
    outputs: list[dict[str, Any]] = []
    if result is not NONE:
        node = frame.ret_node or fdef
        flat = c.flat_output(result, ret_ty, True, node)
        if ret_vis == "committed":
            what = "the return value"
            if callee:
                what += f" of `{fn.__name__}` (a region: its result crosses as a commitment)"
            _check_committable(c, fdef.returns or fdef, what, ret_ty)
        for k, ((path, _), w) in enumerate(zip(leaves("return", ret_ty), flat, strict=True)):  # type: ignore[arg-type]
            out = {"name": path, "value": w.id}
            if ret_vis == "committed":
                out["vis"] = "committed"
            outputs.append(joint(out, k > 0))
    return ret_ty, ret_vis, outputs


def _crossing(
    c: Compiler,
    inputs: list[dict[str, Any]],
    params: list[dict[str, Any]],
    outputs: list[dict[str, Any]],
) -> Crossing:
    """A region's calls (lang/regions.py): their results are committed inputs after the
    parameters, their arguments committed outputs after the return value."""
    crossing = c.crossing
    inputs.extend(crossing.inputs)
    params.extend(crossing.params)
    sent = [
        (path, k)
        for send in crossing.sends
        for k, (path, _) in enumerate(leaves(send["name"], type_from_json(send["ty"])))
    ]
    for (path, k), w in zip(sent, crossing.send_wires, strict=True):
        outputs.append(joint({"name": path, "value": w.id, "vis": "committed"}, k > 0))
    return crossing


def _check_passed_unused(
    c: Compiler, shapes: list[Any], body: list[dict[str, Any]], outputs: list[dict[str, Any]]
) -> None:
    """A private parameter passed on to a region as it is must not be used here too: the two
    regions' proofs would not be bound to the same value (it does not cross as a commitment)."""
    if not c.crossing.passed_private:
        return
    # (its subgroup check, emitted for every private point parameter, is not a use)
    used = {a for ins in body if ins["op"] != "point_check" for a in ins.get("args", [])}
    used |= {o["value"] for o in outputs}
    used |= {ins["guard"] for ins in body if ins.get("guard") is not None}
    for p, _, wires in shapes:
        node = c.crossing.passed_private.get(p.arg)
        if node is not None and any(w.id in used for w in wires):
            c.err(
                node,
                "ZN406",
                f"`{p.arg}` is passed to a region as it is and also used here: a private value "
                "that does not cross as a commitment must be used in one region only",
                f"use `{p.arg}` only in the callee, or pass it a value that can cross (integers "
                "and bools cross as commitments)",
            )


def _exact_return(c: Compiler, v: Any, ty: Ty, node: ast.AST) -> Ty:
    """An unbounded returned list is as long as the value returned, when that length is known
    at compile time (a map over a specialised list)."""
    loose = unbounded_list(ty)
    full = isinstance(v, SymList) and all(a is True for a in v.active)
    if not (c.specialised and loose is ty and full and unbounded_list(loose.elem) is None):
        c.err(
            node,
            "ZN402",
            f"the return type `{type_name(ty)}` has no maximum size",
            f"annotate `-> MaxSize[{type_name(loose)}, N]`; an unbounded list may be returned "
            "only when its length is known from the inputs' lengths",
        )
    return ListTy(loose.elem, v.slots, exact=True)


def _check_committable(c: Compiler, node: ast.AST, what: str, ty: Ty | None) -> None:
    bad = [t for _, t in leaves("", ty)] if ty is not None else []
    bad = [t for t in bad if t == "field"]
    if bad or ty is None:
        c.err(
            node,
            "ZN406",
            f"{what} is `Committed[...]` but holds a `Field` (or point) value",
            "a commitment binds a value modulo the Baby Jubjub group order: commit integers "
            "and bools (u8 … u64, i8 … i64, bool) only",
        )


def _infer(c: Compiler, v: Any, node: ast.AST) -> Ty:
    if isinstance(v, PlainWire):
        c.err(
            node,
            "ZN309",
            "cannot infer the type of a returned plain int (such as `len(xs)`)",
            "annotate the return type (`-> u32`) or convert it, e.g. `u32(len(xs))`",
        )
    if isinstance(v, tuple):
        return tuple(_infer(c, e, node) for e in v)
    if isinstance(v, SymRecord):
        return v.ty
    if isinstance(v, SymList):
        elem = c.elem_type(list(v.elems))
        if elem is None or unbounded_list(elem) is not None or None in leaf_types(elem):
            c.err(
                node,
                "ZN309",
                "cannot infer the element type of the returned list",
                "annotate the return type, e.g. `-> MaxSize[list[u32], 10]`",
            )
        return ListTy(elem, v.slots)
    if isinstance(v, Wire):
        return v.ty
    if isinstance(v, bool):
        return "bool"
    c.err(
        node,
        "ZN309",
        f"cannot infer the type of the returned {describe(v)}",
        "annotate the return type (`-> u32`) or convert the value, e.g. `u32(5)`",
    )
