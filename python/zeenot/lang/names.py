"""Name resolution and inlining: what a name means (a local, a module constant turned into a
value, a builtin, a helper, a record class), and calls of helpers, closures and methods inlined
into the caller, each in a frame of its own.
"""

from __future__ import annotations

import ast
import functools
import os
import sys
import types as _pytypes
from typing import Any, NoReturn

from zeenot import babyjub
from zeenot.errors import CompileError, Diagnostic
from zeenot.lang.emit import Frame
from zeenot.lang.source import function_source
from zeenot.lang.values import (
    ALLOWED_BUILTINS,
    PY_BUILTINS,
    BoundMethod,
    Builtin,
    Closure,
    FuncRef,
    ModuleRef,
    PlainWire,
    RecordCtor,
    Undefined,
    describe,
)
from zeenot.types import (
    INT_CLASSES,
    Field,
    TypeAnnotationError,
    ZInt,
    check,
    find,
    group_sum,
    is_record_class,
    isqrt,
    poseidon,
    type_from_obj,
)


class Names:
    """Name resolution and inlining of `Compiler` (a mixin)."""

    frame: Any
    stack: list[Any]

    def global_value(self, obj: Any, node: ast.AST, name: str) -> Any:
        if isinstance(obj, bool):
            return obj
        if isinstance(obj, ZInt):
            return self.const(type(obj).NAME, int(obj))
        if isinstance(obj, Field):
            return self.const("field", int(obj))
        if isinstance(obj, int):
            return int(obj)
        if is_record_class(type(obj)):  # a module-level record constant
            ctor = self.global_value(type(obj), node, name)
            fields = [self.global_value(getattr(obj, n), node, name) for n in ctor.ty.names]
            return self.apply(ctor, fields, node)
        if isinstance(obj, (tuple, list)):  # a module-level list is a constant: a tuple here
            return tuple(self.global_value(e, node, name) for e in obj)
        if obj is check:
            return Builtin("check")
        if obj is find:
            return Builtin("find")
        if obj is group_sum:
            return Builtin("group_sum")
        if obj is poseidon:
            return Builtin("poseidon")
        if obj is isqrt:
            return Builtin("isqrt")
        if obj is babyjub.encrypt:
            return Builtin("encrypt")
        if obj is babyjub.rerandomize:
            return Builtin("rerandomize")
        if obj is babyjub.eddsa_verify:
            return Builtin("eddsa_verify")
        if obj is functools.reduce:
            return Builtin("reduce")
        if obj in (zip, enumerate, map, filter, list):
            return Builtin(obj.__name__)
        if obj in BABYJUB_RUNTIME_ONLY:
            self.err(
                node,
                "ZN205",
                f"`{name}` is not supported in @zk code (secrets and randomness come from "
                "outside the proof)",
                "call it outside the proof and pass its result as a parameter",
            )
        if is_record_class(obj):
            try:
                return RecordCtor(type_from_obj(obj))
            except TypeAnnotationError as exc:
                self.err(node, "ZN402", f"record `{name}`: {exc}", exc.hint)
        if isinstance(obj, type) and issubclass(obj, ZInt) and obj.NAME in INT_CLASSES:
            return Builtin(obj.NAME)
        if obj is Field:
            return Builtin("Field")
        if obj is bool:
            return Builtin("bool")
        if isinstance(obj, _pytypes.FunctionType):
            if is_standard_library(obj):
                self.refuse_standard_library(obj, node, name)
            return FuncRef(obj)
        if isinstance(obj, _pytypes.ModuleType):
            return ModuleRef(obj)
        if isinstance(obj, _pytypes.BuiltinFunctionType) and obj.__name__ in ALLOWED_BUILTINS:
            return Builtin(obj.__name__)
        if obj is range:
            return Builtin("range")
        if isinstance(obj, float):
            self.err(
                node,
                "ZN201",
                f"`{name}` is a float; floating point is not supported",
                "use integers, e.g. cents instead of euros",
            )
        if isinstance(obj, str):
            self.err(node, "ZN202", f"`{name}` is a string; strings are not supported")
        if isinstance(obj, (dict, set)):
            self.err(
                node,
                "ZN203",
                f"`{name}` is a {type(obj).__name__}; dicts and sets are not supported",
                "use a tuple indexed by a number, or a list of records and `find`",
            )
        self.err(
            node,
            "ZN312",
            f"`{name}` ({type(obj).__name__}) cannot be used in a @zk program",
            "module-level int, bool and tuple constants and functions can",
        )

    def lookup(self, name: str, node: ast.AST) -> Any:
        env = self.frame.env
        if name in env:
            v = env[name]
            if isinstance(v, Undefined):
                self.undefined(v, node)
            return v
        g = self.frame.globals
        if name in g:
            return self.global_value(g[name], node, name)
        if name in ALLOWED_BUILTINS:
            return Builtin(name)
        if name in PY_BUILTINS:
            self.err(
                node,
                "ZN205",
                f"the builtin `{name}` is not supported",
                BUILTIN_HINTS.get(name, "see docs/language.md for the builtins @zk code has"),
            )
        self.err(node, "ZN207", f"undefined name `{name}`")

    def undefined(self, v: Undefined, node: ast.AST) -> NoReturn:
        name = v.name
        if v.why == "loop":
            self.err(
                node,
                "ZN213",
                f"`{name}` is assigned only inside the loop over a list at line "
                f"{v.node.lineno}, which may be empty",  # type: ignore[attr-defined]
                f"assign `{name}` before the loop",
            )
        if v.why == "int":
            self.err(
                node,
                "ZN309",
                f"`{name}` is a plain int that depends on too many conditions (the "
                f"`if` at line {v.node.lineno} and earlier ones)",  # type: ignore[attr-defined]
                f"give it a type, e.g. `{name} = u32(0)`",
            )
        self.err(
            node,
            "ZN213",
            f"`{name}` is assigned in only one branch of the `if` at line {v.node.lineno}",  # type: ignore[attr-defined]
            f"assign `{name}` before the `if` or in every branch",
        )

    def bind_call(
        self,
        node: ast.Call,
        names: list[str],
        label: str,
        unit: str = "argument",
        complete: bool = True,
    ) -> dict[str, tuple[Any, ast.AST]]:
        """The call's positional and keyword arguments by name, each with its node (ZN212 for
        `*args`, too many, unknown or repeated keywords, and, if `complete`, a missing one)."""
        if any(isinstance(x, ast.Starred) for x in node.args):
            self.err(node, "ZN212", "`*args` in calls is not supported")
        if len(node.args) > len(names):
            self.err(
                node, "ZN212", f"`{label}()` takes {len(names)} {unit}s, {len(node.args)} given"
            )
        bound = {n: (self.value(x), x) for n, x in zip(names, node.args, strict=False)}
        for kw in node.keywords:
            if kw.arg is None or kw.arg not in names or kw.arg in bound:
                keyword = "keyword " if unit == "argument" else ""
                self.err(kw, "ZN212", f"bad {keyword}{unit} `{kw.arg}` for `{label}()`")
            bound[kw.arg] = (self.value(kw.value), kw.value)
        missing = [n for n in names if n not in bound]
        if complete and missing:
            self.err(node, "ZN212", f"`{label}()` is missing {unit} `{missing[0]}`")
        return bound

    def inline(self, fn: Any, node: ast.Call) -> Any:
        fsrc = function_source(fn)
        fdef = fsrc.node
        params = self.helper_params(fn, fdef, node)
        given = self.bind_call(node, params, fn.__name__, complete=False)
        bound = {p: v for p, (v, _) in given.items()}
        arg_nodes = {p: n for p, (_, n) in given.items()}
        defaults = fn.__defaults__ or ()
        for p, d in zip(params[len(params) - len(defaults) :], defaults, strict=False):
            if p not in bound:
                bound[p] = self.global_value(d, node, p)
        missing = [p for p in params if p not in bound]
        if missing:
            self.err(node, "ZN212", f"`{fn.__name__}()` is missing argument `{missing[0]}`")
        return self.run_helper(fn, bound, arg_nodes, node)

    def refuse_standard_library(self, fn: Any, node: ast.AST, name: str) -> NoReturn:
        """Python's standard library is not @zk code (it raises, builds dicts, uses floats):
        say what to write instead of inlining it and failing somewhere in its source."""
        qual = f"{fn.__module__}.{fn.__name__}"
        idiom = STANDARD_LIBRARY_IDIOMS.get(qual)
        self.err(
            node,
            "ZN205",
            f"`{name}`{'' if name == qual else f' ({qual})'} is Python's standard library, "
            "which @zk code does not run",
            idiom
            or "write it with the supported builtins (docs/language.md: `sorted`, `sum`, "
            "`min`, `max`, `len`, `isqrt`, comprehensions)",
        )

    def helper_params(self, fn: Any, fdef: ast.FunctionDef, node: ast.AST) -> list[str]:
        if fn in self.stack:
            self.err(
                node,
                "ZN206",
                f"recursive call to `{fn.__name__}` is not supported",
                "rewrite it as a `for` loop with a constant bound",
            )
        a = fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs:
            self.err(
                node,
                "ZN404",
                f"`{fn.__name__}` has *args, **kwargs or keyword-only "
                "parameters, which are not supported",
            )
        return [p.arg for p in a.posonlyargs + a.args]

    def inline_values(self, fn: Any, args: list[Any], node: ast.AST) -> Any:
        """Inline a helper called with positional values (from `reduce`, `find`, `map`...)."""
        fdef = function_source(fn).node
        params = self.helper_params(fn, fdef, node)
        if len(args) != len(params):
            self.err(
                node, "ZN212", f"`{fn.__name__}()` takes {len(params)} arguments, {len(args)} given"
            )
        return self.run_helper(fn, dict(zip(params, args, strict=True)), {}, node)

    def run_helper(
        self, fn: Any, bound: dict[str, Any], arg_nodes: dict[str, ast.AST], node: ast.AST
    ) -> Any:
        fsrc = function_source(fn)
        fdef = fsrc.node
        params = [p.arg for p in fdef.args.posonlyargs + fdef.args.args]
        callee = Frame(fn, fsrc.file, fsrc.text, fn.__globals__)
        caller = self.frame
        site = self.user_site
        if self.user_site is None and _in_library(fsrc.file) and not _in_library(caller.file):
            self.user_site = node if hasattr(node, "lineno") else None
        self.stack.append(fn)
        self.frame = callee
        try:
            ann = self.annotations(fn, fdef)
            for p in params:
                if p in ann and ann[p] is not None:
                    self.frame = caller
                    self.check_arg(bound[p], ann[p], arg_nodes.get(p, node), p, fn.__name__)
                    self.frame = callee
            for p in params:
                if isinstance(bound[p], PlainWire) and isinstance(ann.get(p), str):
                    self.frame = caller
                    bound[p] = self.coerce(bound[p], ann[p], arg_nodes.get(p, node))
                    self.frame = callee
            callee.env = dict(bound)
            callee.ret_ty = ann.get("return")
            try:
                ret = self.run_body(fdef)
            except CompileError as exc:
                raise at_user_call(exc, fn.__name__, caller.file, node) from None
        finally:
            self.frame = caller
            self.user_site = site
            self.stack.pop()
        return ret

    def apply(self, f: Any, args: list[Any], node: ast.AST) -> Any:
        """Call a function value (helper, lambda, nested def, some builtins) on values."""
        if isinstance(f, FuncRef):
            return self.inline_values(f.fn, args, node)
        if isinstance(f, BoundMethod):
            return self.inline_values(f.fn, [f.obj, *args], node)
        if isinstance(f, Closure):
            return self.call_closure(f, args, node)
        if isinstance(f, Builtin) and f.name in ("min", "max"):
            return self.call_minmax(f.name, args, node)
        if isinstance(f, Builtin) and f.name == "abs":
            return self.call_abs(args, node)
        if isinstance(f, RecordCtor):
            if len(args) != len(f.ty.fields):
                self.err(node, "ZN212", f"`{f.ty.name}()` takes {len(f.ty.fields)} fields")
            return self.make_record(f.ty, [(v, node) for v in args])
        self.err(node, "ZN205", f"{describe(f)} cannot be called here", "pass a helper or a lambda")

    def call_closure(self, clo: Closure, args: list[Any], node: ast.AST) -> Any:
        fnode = clo.node
        a = fnode.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults:
            self.err(node, "ZN404", f"`{clo.name}` must take plain parameters only")
        params = [p.arg for p in a.posonlyargs + a.args]
        if len(args) != len(params):
            self.err(
                node, "ZN212", f"`{clo.name}` takes {len(params)} arguments, {len(args)} given"
            )
        if clo.node in self.stack:
            self.err(node, "ZN206", f"recursive call to `{clo.name}` is not supported")
        outer = clo.frame
        callee = type(outer)(outer.fn, outer.file, outer.text, outer.globals)
        callee.env = dict(outer.env)  # late binding, as Python closures read their scope
        callee.env.update(zip(params, args, strict=True))
        caller = self.frame
        self.stack.append(clo.node)
        self.frame = callee
        try:
            if isinstance(fnode, ast.Lambda):
                return self.value(fnode.body)
            ann: dict[str, Any] = {}
            for p in a.posonlyargs + a.args:
                if p.annotation is not None:
                    obj = self.eval_annotation(outer.fn, "\0local", p.annotation)
                    ann[p.arg] = self.resolve_type(getattr(obj, "ty", obj), p.annotation)
            for p, v in zip(params, args, strict=True):
                if p in ann:
                    self.check_arg(v, ann[p], node, p, clo.name)
            if fnode.returns is not None:
                obj = self.eval_annotation(outer.fn, "\0local", fnode.returns)
                callee.ret_ty = None if obj is None else self.resolve_type(obj, fnode.returns)
            return self.run_body(fnode)
        finally:
            self.frame = caller
            self.stack.pop()


def is_standard_library(fn: Any) -> bool:
    module = getattr(fn, "__module__", None) or ""
    return module.split(".")[0] in sys.stdlib_module_names


_MEDIAN = (
    "`s = sorted(xs)`, `n = len(s)`, then {pick} (an empty list has no median: it fails "
    "there, as `statistics` raises)"
)


# What to write for the standard library's functions a newcomer reaches for first.
STANDARD_LIBRARY_IDIOMS = {
    "statistics.median": _MEDIAN.format(
        pick="`(s[(n - 1) // 2] + s[n // 2]) // 2` (the mean of the middle two, floored; "
        "convert to `u64` first if the sum can overflow, or use `Fixed` to keep the half)"
    ),
    "statistics.median_low": _MEDIAN.format(pick="`s[(n - 1) // 2]`"),
    "statistics.median_high": _MEDIAN.format(pick="`s[n // 2]`"),
    "statistics.mean": "`sum(u64(x) for x in xs) // len(xs)` (floored; an empty list fails "
    "as division by zero, as `statistics` raises), or divide `Fixed` values to keep fractions",
    "statistics.fmean": "`sum(u64(x) for x in xs) // len(xs)` (floored), or divide `Fixed` "
    "values to keep fractions",
}


_LIBRARY_DIR = os.path.dirname(os.path.dirname(os.path.abspath(babyjub.__file__)))


def _in_library(file: str | None) -> bool:
    return file is not None and os.path.abspath(file).startswith(_LIBRARY_DIR + os.sep)


def at_user_call(exc: CompileError, name: str, caller_file: str, node: ast.AST) -> CompileError:
    """A diagnostic raised inside one of zeenot's own helpers (`encrypts_in_range`, `Fixed`'s
    operators), moved to the user's call of it: the user's file and line, with the helper's
    line named in the message. Errors in the user's own helpers stay where they are."""
    d = exc.diagnostic
    if not _in_library(d.file) or _in_library(caller_file) or not hasattr(node, "lineno"):
        return exc
    inside = f"{os.path.relpath(d.file, _LIBRARY_DIR)}:{d.line}" if d.file and d.line else ""
    where = f" (inside `{name}`{', ' + inside if inside else ''})"
    end = getattr(node, "end_col_offset", None)
    if getattr(node, "end_lineno", None) != node.lineno:
        end = None
    moved = Diagnostic(
        d.code, d.message + where, caller_file, node.lineno, node.col_offset, end, d.hint
    )
    return CompileError(moved)


BABYJUB_RUNTIME_ONLY = (
    babyjub.decrypt,
    babyjub.keygen,
    babyjub.random_scalar,
    babyjub.eddsa_keygen,
    babyjub.eddsa_sign,
    babyjub.eddsa_public_key,
)


# What to write instead of the builtins @zk code lacks (each a ZN205 hint).
BUILTIN_HINTS = {
    "dict": "dicts are not supported: use a list of records and `find`, or a tuple indexed by a "
    "number",
    "frozenset": "use `set(xs)` (of integers): `len`, `in`, `&`, `|`, `-` and `^` work on it",
    "float": "no floating point: scale to an integer (e.g. cents, or `x * 1000`)",
    "round": "no floating point: use `//` on scaled integers",
    "pow": "use `*` (or a loop of `*`) on a sized integer",
    "divmod": "use `a // b` and `a % b`",
    "print": "@zk code has no output but its return value: use `zeenot simulate` to see values",
    "isinstance": "types are fixed at compile time: annotate instead",
    "reversed": "index from the end with a slice or `xs[len(xs) - 1 - i]` on a full list",
    "str": "@zk code has no strings: encode text as integers outside the proof",
    "bytes": "@zk code has no bytes: pass a tuple of u8",
    "hash": "use `poseidon(...)`, a hash that costs little in a circuit",
}
