"""Statements: a function body run statement by statement (assignments, `if` on a run-time
condition as two guarded branches merged, `for` unrolled, `return` on every path).
"""

from __future__ import annotations

import ast
from typing import Any

from zeenot.lang.emit import MAX_ITERATIONS
from zeenot.lang.values import (
    NONE,
    Builtin,
    Closure,
    PlainWire,
    SymList,
    Undefined,
    Wire,
    describe,
    is_plain_int,
)
from zeenot.types import type_name

STMT_ERRORS: dict[type, tuple[str, str, str | None]] = {
    ast.While: (
        "ZN101",
        "`while` loops are not supported",
        "use `for i in range(N)` with a constant bound",
    ),
    ast.Break: ("ZN102", "`break` is not supported", "use an `if` inside the loop body"),
    ast.Continue: ("ZN102", "`continue` is not supported", "use an `if` inside the loop body"),
    ast.Try: ("ZN103", "`try` is not supported", "failures end the proof; use `check(cond)`"),
    ast.Raise: ("ZN103", "`raise` is not supported", "use `check(cond)` to reject inputs"),
    ast.With: ("ZN104", "`with` is not supported", None),
    ast.Global: ("ZN105", "`global` is not supported", "module constants are read-only"),
    ast.Nonlocal: ("ZN105", "`nonlocal` is not supported", None),
    ast.Delete: ("ZN106", "`del` is not supported", None),
    ast.Import: (
        "ZN107",
        "`import` inside a @zk function is not supported",
        "import at module level",
    ),
    ast.ImportFrom: (
        "ZN107",
        "`import` inside a @zk function is not supported",
        "import at module level",
    ),
    ast.ClassDef: ("ZN108", "class definitions are not supported", None),
    ast.Assert: ("ZN112", "`assert` is not supported", "use `check(cond)`"),
}
for _name, _code in (("AsyncFunctionDef", "ZN108"), ("AsyncFor", "ZN110"), ("AsyncWith", "ZN104")):
    STMT_ERRORS[getattr(ast, _name)] = (_code, f"`{_name}` is not supported", None)
if hasattr(ast, "TryStar"):
    STMT_ERRORS[ast.TryStar] = ("ZN103", "`try` is not supported", None)
if hasattr(ast, "Match"):
    STMT_ERRORS[ast.Match] = ("ZN113", "`match` is not supported", "use `if`/`elif`/`else`")


class Statements:
    """Statements of `Compiler` (a mixin: `stmt` dispatches to the `s_*` methods)."""

    frame: Any
    guard: Wire | None

    def run_body(self, fdef: ast.FunctionDef) -> Any:
        body = fdef.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and (isinstance(body[0].value.value, str))
        ):
            body = body[1:]
        for n in ast.walk(fdef):
            if isinstance(n, (ast.Yield, ast.YieldFrom)):
                self.err(n, "ZN002", "generators (`yield`) are not supported")
        done, ret = self.block(body)
        if not done:
            ret = NONE
        return self.coerce_return(ret, self.frame.ret_ty, self.frame.ret_node or fdef)

    def block(self, stmts: list[ast.stmt]) -> tuple[bool, Any]:
        """Run statements; `(True, value)` if the block ends in a `return`."""
        for i, s in enumerate(stmts):
            rest = stmts[i + 1 :]
            if isinstance(s, ast.Return):
                if rest:
                    self.err(
                        rest[0],
                        "ZN109",
                        "unreachable code after `return`",
                        "remove it, or move the `return` to the end",
                    )
                self.frame.ret_node = s
                return True, (NONE if s.value is None else self.value(s.value))
            if isinstance(s, ast.If) and _has_return(s):
                return True, self.if_returning(s, rest)
            self.stmt(s)
        return False, None

    def if_returning(self, s: ast.If, rest: list[ast.stmt]) -> Any:
        c = self.cond_value(s.test, "an `if` condition")
        then_stmts = s.body if _terminates(s.body) else s.body + rest
        else_stmts = s.orelse if _terminates(s.orelse) else s.orelse + rest
        if isinstance(c, bool):
            return self.returning_block(then_stmts if c else else_stmts, s)
        saved_env, saved_guard = self.frame.env, self.guard
        self.frame.env = dict(saved_env)
        self.guard = self.sub_guard(c, s)
        a = self.returning_block(then_stmts, s)
        self.frame.env = dict(saved_env)
        self.guard = saved_guard  # the else branch is guarded by the *enclosing* guard and not c
        self.guard = self.sub_guard(self.negate(c, s), s)
        b = self.returning_block(else_stmts, s)
        self.frame.env, self.guard = saved_env, saved_guard
        if a is NONE and b is NONE:
            return NONE
        if a is NONE or b is NONE:
            self.err(
                s,
                "ZN109",
                "one path through this `if` returns a value and the other does not",
                "return a value on every path",
            )
        self.frame.ret_node = s
        return self.merge(c, a, b, s, "the return value", self.frame.ret_ty)

    def returning_block(self, stmts: list[ast.stmt], s: ast.If) -> Any:
        done, v = self.block(stmts)
        return v if done else NONE

    def stmt(self, s: ast.stmt) -> None:
        m = getattr(self, "s_" + type(s).__name__, None)
        if m is not None:
            m(s)
            return
        code, msg, hint = STMT_ERRORS.get(
            type(s), ("ZN100", f"`{type(s).__name__}` statements are not supported", None)
        )
        node = _keyword_node(s, _KEYWORDS.get(type(s).__name__, ""))
        self.err(node, code, msg, hint)

    def s_Pass(self, s: ast.Pass) -> None:
        pass

    def s_Expr(self, s: ast.Expr) -> None:
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a string statement is a comment
        self.expr(s.value)

    def s_Assign(self, s: ast.Assign) -> None:
        v = self.value(s.value)
        for t in s.targets:
            self.assign(t, v)

    def assign(self, t: ast.expr, v: Any) -> None:
        if isinstance(t, ast.Name):
            self.frame.env[t.id] = v
            return
        if isinstance(t, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in t.elts):
                self.err(t, "ZN214", "starred assignment is not supported")
            if not isinstance(v, tuple):
                self.err(t, "ZN311", f"cannot unpack {describe(v)}")
            if len(v) != len(t.elts):
                self.err(
                    t, "ZN311", f"cannot unpack a tuple of {len(v)} values into {len(t.elts)} names"
                )
            for e, x in zip(t.elts, v, strict=False):
                self.assign(e, x)
            return
        if isinstance(t, ast.Subscript):
            self.err(
                t,
                "ZN214",
                "tuples are immutable; cannot assign to an element",
                "build a new tuple: `t = (a, t[1], t[2])`",
            )
        if isinstance(t, ast.Attribute):
            self.err(t, "ZN204", "attribute assignment is not supported")
        self.err(t, "ZN214", "unsupported assignment target")

    def s_AugAssign(self, s: ast.AugAssign) -> None:
        if not isinstance(s.target, ast.Name):
            self.err(s.target, "ZN214", "augmented assignment only to a plain name")
        cur = self.lookup(s.target.id, s.target)
        v = self.value(s.value)
        self.frame.env[s.target.id] = self.binop(s.op, cur, v, s)

    def s_AnnAssign(self, s: ast.AnnAssign) -> None:
        if not isinstance(s.target, ast.Name):
            self.err(s.target, "ZN214", "annotated assignment only to a plain name")
        if s.value is None:
            self.err(
                s,
                "ZN214",
                f"`{s.target.id}` is declared without a value",
                "give it a value: `x: u32 = u32(0)`",
            )
        obj = self.eval_annotation(self.frame.fn, "\0local", s.annotation)
        ty = self.resolve_type(obj, s.annotation)
        v = self.value(s.value)
        if self.static_ty(v) != ty:
            hint = None
            if is_plain_int(v) and isinstance(ty, str):
                hint = f"write `{s.target.id} = {type_name(ty)}({self.src(s.value)})`"
            self.err(
                s,
                "ZN307",
                f"`{s.target.id}` is annotated {type_name(ty)} but the value is {describe(v)}",
                hint,
            )
        self.frame.env[s.target.id] = v

    def s_If(self, s: ast.If) -> None:
        c = self.cond_value(s.test, "an `if` condition")
        if isinstance(c, bool):
            self.block(s.body if c else s.orelse)
            return
        env0, g0 = self.frame.env, self.guard
        self.frame.env = dict(env0)
        self.guard = self.sub_guard(c, s)
        self.block(s.body)
        env_a = self.frame.env
        self.frame.env = dict(env0)
        self.guard = g0  # the else branch is guarded by the *enclosing* guard and not c
        self.guard = self.sub_guard(self.negate(c, s), s)
        self.block(s.orelse)
        env_b = self.frame.env
        self.guard = g0
        merged: dict[str, Any] = {}
        for name in list(env_a) + [n for n in env_b if n not in env_a]:
            if name in env_a and name in env_b:
                merged[name] = self.merge(c, env_a[name], env_b[name], s, f"`{name}`", None, name)
            else:
                merged[name] = Undefined(name, s)
        self.frame.env = merged

    def s_FunctionDef(self, s: ast.FunctionDef) -> None:
        if s.decorator_list:
            self.err(
                s.decorator_list[0], "ZN108", "decorators on nested functions are not supported"
            )
        self.frame.env[s.name] = Closure(s, self.frame)

    def s_For(self, s: ast.For) -> None:
        if s.orelse:
            self.err(s.orelse[0], "ZN111", "`for ... else` is not supported")
        for n in ast.walk(s):
            if isinstance(n, ast.Return):
                self.err(
                    n,
                    "ZN109",
                    "`return` inside a `for` loop is not supported",
                    "assign to a variable and return after the loop",
                )
        items = self.iteration(s.iter)
        if isinstance(items, SymList):
            self.for_list(s, items)
            return
        for item in items:
            self.assign(s.target, item)
            self.block(s.body)

    def iteration(self, it: ast.expr) -> Any:
        if isinstance(it, ast.Call):
            f = self.expr(it.func)
            if f == Builtin("range"):
                if it.keywords or not 1 <= len(it.args) <= 3:
                    self.err(it, "ZN212", "`range()` takes 1 to 3 arguments")
                bounds = []
                for a in it.args:
                    v = self.value(a)
                    if len(it.args) == 1 and isinstance(v, PlainWire):
                        slots = self.range_of_len(v)
                        if slots is not None:  # `range(len(xs))`
                            return slots
                    if isinstance(v, bool) or not isinstance(v, int):
                        self.err(
                            a,
                            "ZN110",
                            f"`range()` bounds must be compile-time constants, "
                            f"`{self.src(a)}` is {describe(v)}",
                            "loops are unrolled: use a module constant or literal bound and "
                            "`if` inside the body, or loop over the list itself: `for x in xs`, "
                            "`for i, x in enumerate(xs)`",
                        )
                    bounds.append(v)
                if len(bounds) == 3 and bounds[2] == 0:
                    self.err(it, "ZN110", "`range()` step cannot be zero")
                r = range(*bounds)
                if len(r) > MAX_ITERATIONS:
                    self.err(it, "ZN114", f"a loop of {len(r)} iterations is too large to unroll")
                return r
            v = self.value(it)
        else:
            v = self.value(it)
        if isinstance(v, (tuple, SymList)):
            return v
        self.err(
            it,
            "ZN110",
            f"cannot loop over {describe(v)}",
            "use `for i in range(N)` with a constant bound, or loop over a tuple or list",
        )


def _has_return(s: ast.stmt) -> bool:
    return any(isinstance(n, ast.Return) for n in ast.walk(s))


def _terminates(stmts: list[ast.stmt]) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _terminates(last.body) and _terminates(last.orelse)
    return False


def _keyword_node(s: ast.stmt, word: str) -> ast.AST:
    """A node spanning the statement's leading keyword (for a tight caret)."""
    n = ast.Pass()
    n.lineno = n.end_lineno = s.lineno
    n.col_offset = s.col_offset
    n.end_col_offset = s.col_offset + (len(word) if word and " " not in word else 1)
    return n


_KEYWORDS = {
    "While": "while",
    "Try": "try",
    "TryStar": "try",
    "With": "with",
    "Global": "global",
    "Nonlocal": "nonlocal",
    "Delete": "del",
    "Import": "import",
    "ImportFrom": "from",
    "FunctionDef": "def",
    "ClassDef": "class",
    "Assert": "assert",
    "Raise": "raise",
    "Break": "break",
    "Continue": "continue",
    "Match": "match",
    "AsyncFunctionDef": "async",
    "AsyncFor": "async",
    "AsyncWith": "async",
}
