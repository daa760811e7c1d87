"""Emission: the state every stage writes to (the IR body, the next id, the constants, the
guard, the frames being run) and the one place instructions are made, where the middle end's
per-instruction passes apply (lang/passes: folding, no guard where nothing can fail, shared
subexpressions). Diagnostics are raised here too (`err`), with the current frame's file.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, NoReturn

from zeenot.errors import CompileError, Diagnostic
from zeenot.lang.passes import FALLIBLE, Shared, can_fail, fold
from zeenot.lang.source import segment
from zeenot.lang.values import Wire
from zeenot.types import P, Ty

MAX_INSTRUCTIONS = 200_000
MAX_ITERATIONS = 1_000_000


@dataclass
class Frame:
    """A function being run: its source, its globals and its local names."""

    fn: Any
    file: str
    text: str
    globals: dict[str, Any]
    env: dict[str, Any] = field(default_factory=dict)
    ret_ty: Ty | None = None
    ret_node: ast.AST | None = None


class Emitter:
    """Emits IR instructions under the current guard (the base of `Compiler`)."""

    def __init__(self, max_instructions: int = MAX_INSTRUCTIONS) -> None:
        self.max_instructions = max_instructions
        self.body: list[dict[str, Any]] = []
        self.next_id = 0
        self.consts: dict[tuple[str, int], Wire] = {}
        self.const_values: dict[int, int] = {}  # id -> value of every integer constant
        self.shared = Shared()  # instructions by what they compute (lang/passes)
        self.guard: Wire | None = None
        self.stack: list[Any] = []  # the helpers and closures being run (recursion)
        self.frame: Frame = None  # type: ignore[assignment]
        # Inside one of zeenot's own helpers (`encrypts_in_range`): the user's call of it, the
        # source location its instructions carry (the IR's locations are in the user's file).
        self.user_site: ast.AST | None = None

    def err(self, node: ast.AST | None, code: str, msg: str, hint: str | None = None) -> NoReturn:
        f = self.frame
        if node is None or not hasattr(node, "lineno"):
            raise CompileError(Diagnostic(code, msg, f.file if f else None, hint=hint))
        end = getattr(node, "end_col_offset", None)
        if getattr(node, "end_lineno", None) != node.lineno:
            end = None
        raise CompileError(Diagnostic(code, msg, f.file, node.lineno, node.col_offset, end, hint))

    def src(self, node: ast.AST) -> str:
        return segment(self.frame.text, node) or ast.unparse(node)

    def emit(self, op: str, ty: str, args: list[Wire], node: ast.AST) -> Wire:
        if len(self.body) >= self.max_instructions:
            self.err(
                node,
                "ZN114",
                f"the program has more than {self.max_instructions} instructions after unrolling",
                "reduce loop bounds, or raise the limit (`zeenot compile --max-instructions N`)",
            )
        known = [self.const_values.get(a.id) for a in args]
        if op == "select" and known and known[0] is not None:  # a constant condition
            return args[1] if known[0] else args[2]
        if op == "index" and known and known[0] is not None and 0 <= known[0] < len(args) - 1:
            return args[1 + known[0]]
        if args and None not in known:
            value = fold(op, ty, known)  # type: ignore[arg-type]
            if value is not None:
                return self.const(ty, value)
        ins: dict[str, Any] = {"id": self.next_id, "op": op, "ty": ty}
        ins["args"] = [a.id for a in args]
        site = self.user_site or node
        ins["loc"] = [site.lineno, site.col_offset]
        if op in FALLIBLE:
            divisor = known[1] if len(known) > 1 else None
            fails = can_fail(op, ty, args[0].ty if args else None, divisor)
            ins["guard"] = self.guard.id if self.guard and fails else None
        earlier = self.shared.find(ins)
        if earlier is not None:  # computed before (under the same guard if it can fail)
            return Wire(earlier, ty)
        self.shared.remember(ins)
        self.body.append(ins)
        self.next_id += 1
        return Wire(ins["id"], ty)

    def rollback(self, mark: int, first_id: int) -> None:
        """Discard what was emitted since `len(self.body) == mark` (ids from `first_id` on),
        and every memory of it (constants, shared subexpressions)."""
        del self.body[mark:]
        self.consts = {k: w for k, w in self.consts.items() if w.id < first_id}
        self.const_values = {i: v for i, v in self.const_values.items() if i < first_id}
        self.shared.forget_from(first_id)

    def const(self, ty: str, v: int | bool) -> Wire:
        v = int(v)
        if ty == "field":
            v %= P
        key = (ty, v)
        w = self.consts.get(key)
        if w is None:
            if len(self.body) >= self.max_instructions:
                self.err(None, "ZN114", "the program is too large after unrolling")
            w = Wire(self.next_id, ty)
            self.body.append({"id": w.id, "op": "const", "ty": ty, "value": str(v)})
            self.next_id += 1
            self.consts[key] = w
            if ty != "field":
                self.const_values[w.id] = v
        return w

    def emit_check(self, cond: Wire, node: ast.AST, msg: str) -> None:
        if len(self.body) >= self.max_instructions:
            self.err(node, "ZN114", "the program is too large after unrolling")
        self.body.append(
            {
                "op": "check",
                "args": [cond.id],
                "guard": self.guard.id if self.guard else None,
                "loc": [(self.user_site or node).lineno, (self.user_site or node).col_offset],
                "msg": msg,
            }
        )

    def as_bool_wire(self, v: Any) -> Wire:
        return v if isinstance(v, Wire) else self.const("bool", v)

    def logic(self, op: str, a: Any, b: Any, node: ast.AST) -> Any:
        """`and`/`or` of two bool values, folding constants."""
        if isinstance(a, bool) and isinstance(b, bool):
            return (a and b) if op == "and" else (a or b)
        if isinstance(a, bool):
            a, b = b, a
        if isinstance(b, bool):
            if op == "and":
                return a if b else False
            return True if b else a
        if a == b:
            return a
        return self.emit(op, "bool", [a, b], node)

    def negate(self, c: Any, node: ast.AST) -> Any:
        if isinstance(c, bool):
            return not c
        return self.emit("not", "bool", [c], node)

    def sub_guard(self, cond: Any, node: ast.AST) -> Wire | None:
        """The guard for code that runs when `cond` holds inside the current guard."""
        g = self.logic("and", self.guard if self.guard else True, cond, node)
        return g if isinstance(g, Wire) else None

    def under(self, cond: Any, node: ast.AST, thunk: Any) -> Any:
        """Evaluate `thunk()` with the guard strengthened by `cond` (a bool wire)."""
        saved = self.guard
        self.guard = self.sub_guard(cond, node)
        try:
            return thunk()
        finally:
            self.guard = saved
