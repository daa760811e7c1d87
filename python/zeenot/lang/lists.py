"""Lists, records (Baby Jubjub points, ciphertexts and signatures among them) and functions as
values: the list half of the symbolic executor.

A list of at most `N` elements is `N` *slots* (see `SymList`). Every list operation runs over
all slots, and an operation on a slot runs under the guard "this slot holds an element", so a
failure in padding never counts and padding never reaches a result: `sum` adds `select(active,
x, 0)`, a `for` loop merges each variable with `select(active, new, old)`, `min`/`max`/`next`
keep the first qualifying element. This is ZØ's Select / Aggregate / First / Zip, unrolled to
IR v1 (the groth16 back end needs static bounds anyway); the cost of each is in
docs/circuits.md.

`ListOps` is a mixin of `Compiler` (compiler.py): it uses its emission and typing helpers.
"""

from __future__ import annotations

import ast
import types as _pytypes
from typing import TYPE_CHECKING, Any, NoReturn

from zeenot import babyjub
from zeenot.errors import CompileError
from zeenot.lang.values import (
    PLAIN_TY,
    BoundMethod,
    Builtin,
    Closure,
    FuncRef,
    IntChoice,
    PlainWire,
    RecordCtor,
    SignatureCheck,
    SymList,
    SymRecord,
    Undefined,
    Wire,
    describe,
)
from zeenot.types import (
    CIPHERTEXT_KIND,
    INT_TYPES,
    LEN_TYPE,
    POINT_KIND,
    ListTy,
    RecordTy,
    int_range,
    is_signed,
    type_from_obj,
    type_name,
)

SUBGROUP_ORDER = babyjub.SUBGROUP_ORDER

MAX_SLOTS = 1 << 20


class ListOps:
    """List, record and function-value operations of `Compiler` (which provides `emit`,
    `const`, `merge`, `compare`, `binop`, `err` ..., and the state below)."""

    frame: Any
    guard: Wire | None
    stack: list[Any]
    body: list[dict[str, Any]]
    len_cache: dict[int, tuple[SymList, Any]]
    len_source: dict[int, SymList]
    specialised: bool

    if TYPE_CHECKING:

        def err(self, node: Any, code: str, msg: str, hint: str | None = None) -> NoReturn: ...
        def bind_call(
            self, node: Any, names: list[str], label: str, unit: str = ..., complete: bool = ...
        ) -> dict[str, tuple[Any, Any]]: ...

    # -- building lists -----------------------------------------------------------------------

    def shape_input(self, ty: Any, wires: Any, node: ast.AST, name: str, private: bool) -> Any:
        """The value of a parameter from its input leaves (in `types.leaves` order). A list
        gets `check(len <= N)` and its active flags `a_i = a_{i-1} and len != i`; a private
        point `point_check` (on the curve, in the prime-order subgroup: the verifier checks
        public points itself when it reads them). Padding slots of a point list hold the
        identity, a valid point."""
        if isinstance(ty, tuple):
            return tuple(
                self.shape_input(t, wires, node, f"{name}[{i}]", private) for i, t in enumerate(ty)
            )
        if isinstance(ty, RecordTy):
            vals = tuple(
                self.shape_input(t, wires, node, f"{name}.{n}", private) for n, t in ty.fields
            )
            if ty.kind == POINT_KIND and private:
                self.body.append({"op": "point_check", "args": [vals[0].id, vals[1].id]})
            return SymRecord(ty, vals)
        if isinstance(ty, ListTy):
            n = next(wires)
            elems = [
                self.shape_input(ty.elem, wires, node, f"{name}[{i}]", private)
                for i in range(ty.max)
            ]
            return self.input_list(n, elems, ty, node, name)
        return next(wires)

    def input_list(self, n: Wire, elems: list[Any], ty: ListTy, node: ast.AST, name: str) -> Any:
        limit = self.const(LEN_TYPE, ty.max)
        if ty.exact:
            # A specialised list: its length is the program's, so every slot holds an element
            # and `len(xs)` is a compile-time constant (loops over `range(len(xs))` unroll).
            self.emit_check(
                self.emit("eq", "bool", [n, limit], node), node, f"len({name}) == {ty.max}"
            )
            return SymList(tuple(elems), (True,) * len(elems), len(elems), ty.elem, True)
        self.emit_check(self.emit("le", "bool", [n, limit], node), node, f"len({name}) <= {ty.max}")
        active: list[Any] = []
        prev: Any = True
        for i in range(ty.max):
            here = self.emit("ne", "bool", [n, self.const(LEN_TYPE, i)], node)
            prev = self.logic("and", prev, here, node)
            active.append(prev)
        length = PlainWire(self.emit("cast", PLAIN_TY, [n], node).id, PLAIN_TY)
        return SymList(tuple(elems), tuple(active), length, ty.elem, True)

    def const_list(self, elems: list[Any]) -> SymList:
        return SymList(tuple(elems), (True,) * len(elems), len(elems), self.elem_type(elems), True)

    def as_list(self, v: Any, node: ast.AST, what: str) -> SymList:
        """A list or a tuple (a list of known length) as a `SymList`."""
        if isinstance(v, SymList):
            return v
        if isinstance(v, tuple):
            return self.const_list(list(v))
        self.err(node, "ZN303", f"{what} needs a list, got {describe(v)}")

    def elem_type(self, elems: list[Any]) -> Any:
        for e in elems:
            t = self.value_type(e)
            if t is not None:
                return t
        return None

    def value_type(self, v: Any) -> Any:
        """The type descriptor of a value, `None` for plain ints."""
        if isinstance(v, Wire):
            return v.ty
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, tuple):
            return tuple(self.value_type(e) for e in v)
        if isinstance(v, SymRecord):
            return v.ty
        if isinstance(v, SymList):
            return ListTy(v.elem_ty, v.slots)
        return None

    def zero_like(self, v: Any) -> Any:
        """A well-typed filler shaped like `v` (for padding slots)."""
        if isinstance(v, Wire):
            return self.const(v.ty, 0)
        if isinstance(v, bool):
            return False
        if isinstance(v, tuple):
            return tuple(self.zero_like(e) for e in v)
        if isinstance(v, SymRecord):
            return self.zero_of(v.ty)
        if isinstance(v, SymList):
            elems = tuple(self.zero_like(e) for e in v.elems)
            return SymList(elems, (False,) * v.slots, 0, v.elem_ty, True)
        return 0

    def list_len(self, xs: SymList, node: ast.AST) -> Any:
        """`len(xs)`: a plain int, known at compile time or only at run time (`PlainWire`).
        The length of a dense list remembers its list, so `range(len(xs))` reuses its flags."""
        if xs.length is not None:
            if isinstance(xs.length, PlainWire) and xs.dense:
                self.len_source.setdefault(xs.length.id, xs)
            return xs.length
        key = id(xs)
        hit = self.len_cache.get(key)
        if hit is not None and hit[0] is xs:
            return hit[1]
        acc: Any = 0
        for a in xs.active:
            if a is True:
                acc = self.binop(ast.Add(), acc, 1, node)
            elif a is not False:
                one = PlainWire(self.emit("cast", PLAIN_TY, [a], node).id, PLAIN_TY)
                acc = self.binop(ast.Add(), acc, one, node)
        self.len_cache[key] = (xs, acc)
        if isinstance(acc, PlainWire) and xs.dense:
            self.len_source.setdefault(acc.id, xs)
        return acc

    def range_of_len(self, n: PlainWire) -> SymList | None:
        """`range(len(xs))` for a dense `xs`: its slot numbers, active exactly where `xs` is."""
        xs = self.len_source.get(n.id)
        if xs is None:
            return None
        return SymList(tuple(range(xs.slots)), xs.active, n, None, True)

    def need_dense(self, xs: SymList, node: ast.AST, what: str) -> None:
        if not xs.dense:
            self.err(
                node,
                "ZN215",
                f"{what} a filtered list is not supported",
                "filters leave gaps; index, slice or zip the unfiltered lists and filter last",
            )

    # -- iteration ------------------------------------------------------------------------------

    def for_list(self, s: ast.For, xs: SymList) -> None:
        """`for x in xs:`: each slot's body runs under its active flag, as `if active: body`."""
        for x, a in zip(xs.elems, xs.active, strict=True):
            if a is False:
                continue
            if a is True:
                self.assign(s.target, x)
                self.block(s.body)
                continue
            env0, g0 = self.frame.env, self.guard
            self.frame.env = dict(env0)
            self.guard = self.sub_guard(a, s)
            try:
                self.assign(s.target, x)
                self.block(s.body)
            finally:
                self.guard = g0
            env_a = self.frame.env
            merged: dict[str, Any] = {}
            for name, v in env_a.items():
                if name in env0:
                    merged[name] = self.merge(a, v, env0[name], s, f"`{name}`", None, name)
                else:
                    merged[name] = Undefined(name, s, "loop")
            self.frame.env = merged

    def slots_of(self, it: ast.expr) -> tuple[list[tuple[Any, Any]], bool, Any]:
        """`(item, active)` pairs of an iterable, whether they form a dense list, its length."""
        v = self.iteration(it)
        if isinstance(v, SymList):
            return list(zip(v.elems, v.active, strict=True)), v.dense, v.length
        items = list(v)
        return [(x, True) for x in items], True, len(items)

    def comprehension(self, node: ast.ListComp | ast.GeneratorExp, stop: Any = None) -> SymList:
        """`[elt for x in xs if cond]` (and generator expressions, which are lists here).

        `stop(value, active)`, for a generator consumed by `next`/`any`/`all`, says when the
        consumer stops pulling: Python never evaluates the later elements and filters, so they
        run under the extra guard "not stopped yet" and their failures do not count."""
        gens = node.generators
        live: list[Any] = [True]  # no earlier element stopped the consumer

        def now(c: Any) -> Any:
            return self.logic("and", c, live[0], node) if stop is not None else c

        elems: list[Any] = []
        active: list[Any] = []
        info: dict[str, Any] = {"dense": len(gens) == 1 and not gens[0].ifs, "length": None}
        saved_env = self.frame.env
        self.frame.env = dict(saved_env)

        def go(k: int, cond: Any) -> None:
            if k == len(gens):
                v = self.under(now(cond), node, lambda: self.value(node.elt))
                elems.append(v)
                active.append(cond)
                if stop is not None:
                    hit = stop(v, cond)
                    live[0] = self.logic("and", live[0], self.negate(hit, node), node)
                if len(elems) > MAX_SLOTS:
                    self.err(node, "ZN114", "the comprehension is too large")
                return
            g = gens[k]
            if g.is_async:
                self.err(node, "ZN110", "async comprehensions are not supported")
            pairs, dense, length = self.under(now(cond), node, lambda: self.slots_of(g.iter))
            if k == 0:
                info["dense"] = info["dense"] and dense
                info["length"] = length
            env_outer = self.frame.env
            for item, a in pairs:
                c = self.logic("and", cond, a, node)
                if c is False:
                    continue
                self.frame.env = dict(env_outer)
                self.assign(g.target, item)
                for test in g.ifs:
                    t = self.under(now(c), test, lambda t=test: self.cond_value(t, "a filter"))
                    c = self.logic("and", c, t, test)
                    if c is False:
                        break
                if c is not False:
                    go(k + 1, c)
            self.frame.env = env_outer

        try:
            go(0, True)
            elem_ty = self.elem_type(elems) if elems else self.dead_elem_type(node)
        finally:
            self.frame.env = saved_env
        length = info["length"] if info["dense"] else None
        if all(a is True for a in active):
            length = len(elems)
        return SymList(tuple(elems), tuple(active), length, elem_ty, info["dense"])

    def dead_elem_type(self, node: ast.ListComp | ast.GeneratorExp) -> Any:
        """The element type of a comprehension over a list that is always empty: Python never
        evaluates the element, so evaluate it once on a filler under a false guard (nothing it
        emits can fail or reach a result) to learn its type."""
        if len(node.generators) != 1:
            return None
        g = node.generators[0]
        src = self.iteration(g.iter)
        if not isinstance(src, SymList) or src.elem_ty is None:
            return None
        saved = self.guard
        self.guard = self.const("bool", False)
        env = self.frame.env
        self.frame.env = dict(env)
        mark, first_id = len(self.body), self.next_id
        try:
            self.assign(g.target, self.zero_of(src.elem_ty))
            return self.value_type(self.value(node.elt))
        except CompileError:  # e.g. a constant that never meets its type: Python never runs it
            self.rollback(mark, first_id)
            return None
        finally:
            self.guard = saved
            self.frame.env = env

    # -- builtins over lists ------------------------------------------------------------------

    def call_list_builtin(self, name: str, node: ast.Call) -> Any:
        """`len sum min max any all zip enumerate next map filter list reduce find` on lists;
        `NotImplemented` when the call is the scalar form (handled by the caller)."""
        if any(isinstance(a, ast.Starred) for a in node.args):
            self.err(node, "ZN212", "`*args` in calls is not supported")
        kw = {k.arg: k for k in node.keywords}
        if None in kw:
            self.err(node, "ZN212", "`**kwargs` in calls is not supported")

        def allow(*names: str) -> None:
            for k in kw:
                if k not in names:
                    self.err(kw[k], "ZN212", f"`{name}()` takes no keyword argument `{k}`")

        nargs = len(node.args)
        if name in ("min", "max"):
            allow("default")
            if nargs != 1:
                if kw:
                    self.err(node, "ZN212", f"`{name}(..., default=)` takes one list")
                return NotImplemented
            v = self.value(node.args[0])
            if isinstance(v, tuple) and not kw:
                return NotImplemented
            xs = self.as_list(v, node.args[0], f"`{name}()`")
            default = self.value(kw["default"].value) if "default" in kw else None
            return self.list_minmax(name, xs, default, node)
        if name == "len":
            allow()
            if nargs != 1:
                self.err(node, "ZN212", "`len()` takes one argument")
            v = self.value(node.args[0])
            if isinstance(v, tuple):
                return len(v)
            if isinstance(v, SymList):
                return self.list_len(v, node)
            self.err(node, "ZN212", f"`len()` of {describe(v)} is not supported")
        if name == "sum":
            allow("start")
            if not 1 <= nargs <= 2 or (nargs == 2 and kw):
                self.err(node, "ZN212", "`sum()` takes a list and an optional start")
            xs = self.as_list(self.value(node.args[0]), node, "`sum()`")
            start_node = node.args[1] if nargs == 2 else (kw["start"].value if kw else None)
            start = self.value(start_node) if start_node is not None else 0
            return self.list_sum(xs, start, node)
        if name in ("any", "all"):
            allow()
            if nargs != 1:
                self.err(node, "ZN212", f"`{name}()` takes one argument")
            arg = node.args[0]
            if isinstance(arg, ast.GeneratorExp):  # lazy: stops at the first True (False)

                def stop(v: Any, c: Any) -> Any:
                    if not (isinstance(v, bool) or (isinstance(v, Wire) and v.ty == "bool")):
                        self.err(node, "ZN305", f"`{name}()` needs bools, got {describe(v)}")
                    return self.logic("and", c, v if name == "any" else self.negate(v, node), node)

                xs = self.comprehension(arg, stop)
            else:
                xs = self.as_list(self.value(arg), node, f"`{name}()`")
            return self.list_anyall(name, xs, node)
        if name == "zip":
            allow("strict")
            strict = False
            if "strict" in kw:
                sv = self.value(kw["strict"].value)
                if not isinstance(sv, bool):
                    self.err(kw["strict"], "ZN212", "`strict=` must be True or False")
                strict = sv
            lists = [self.as_list(self.value(a), a, "`zip()`") for a in node.args]
            return self.list_zip(lists, strict, node)
        if name == "enumerate":
            allow("start")
            if not 1 <= nargs <= 2 or (nargs == 2 and kw):
                self.err(node, "ZN212", "`enumerate()` takes a list and an optional start")
            xs = self.as_list(self.value(node.args[0]), node, "`enumerate()`")
            start_node = node.args[1] if nargs == 2 else (kw["start"].value if kw else None)
            start = self.value(start_node) if start_node is not None else 0
            if isinstance(start, bool) or not isinstance(start, int):
                self.err(node, "ZN212", "the start of `enumerate()` must be a constant int")
            self.need_dense(xs, node, "`enumerate()` of")
            elems = tuple((start + i, x) for i, x in enumerate(xs.elems))
            return SymList(elems, xs.active, xs.length, (None, xs.elem_ty), True)
        if name == "next":
            allow()
            if not 1 <= nargs <= 2:
                self.err(node, "ZN212", "`next()` takes a generator and an optional default")
            arg = node.args[0]
            if isinstance(arg, ast.GeneratorExp):  # lazy: stops at the first element
                xs = self.comprehension(arg, lambda v, c: c)
            else:
                xs = self.as_list(self.value(arg), node, "`next()`")
            default = self.value(node.args[1]) if nargs == 2 else None
            return self.first(xs, default, node, "next(): the generator is empty")
        if name in ("map", "filter"):
            allow()
            if nargs < 2 or (name == "filter" and nargs != 2):
                self.err(node, "ZN212", f"`{name}()` takes a function and a list")
            f = self.expr(node.args[0])
            lists = [self.as_list(self.value(a), a, f"`{name}()`") for a in node.args[1:]]
            if name == "filter":
                return self.list_filter(f, lists[0], node)
            zipped = lists[0] if len(lists) == 1 else self.list_zip(lists, False, node)
            elems = []
            for x, a in zip(zipped.elems, zipped.active, strict=True):
                args = [x] if len(lists) == 1 else list(x)
                elems.append(self.under(a, node, lambda args=args: self.apply(f, args, node)))
            return SymList(
                tuple(elems), zipped.active, zipped.length, self.elem_type(elems), zipped.dense
            )
        if name == "list":
            allow()
            if nargs != 1:
                self.err(node, "ZN212", "`list()` takes one argument")
            return self.as_list(self.value(node.args[0]), node, "`list()`")
        if name == "group_sum":
            allow()
            if nargs != 3:
                self.err(node, "ZN212", "`group_sum()` takes a list, a key and a value function")
            xs = self.as_list(self.value(node.args[0]), node, "`group_sum()`")
            key, value = self.expr(node.args[1]), self.expr(node.args[2])
            return self.list_group_sum(xs, key, value, node)
        if name == "set":
            allow()
            if nargs != 1:
                self.err(node, "ZN212", "`set()` takes one list here (an empty set never grows)")
            return self.list_set(self.as_list(self.value(node.args[0]), node, "`set()`"), node)
        if name == "sorted":
            allow("key", "reverse")
            if nargs != 1:
                self.err(node, "ZN212", "`sorted()` takes one list (and `key=`, `reverse=`)")
            reverse = self.value(kw["reverse"].value) if "reverse" in kw else False
            if not isinstance(reverse, bool):
                self.err(node, "ZN212", "`reverse=` must be True or False (a constant)")
            xs = self.as_list(self.value(node.args[0]), node.args[0], "`sorted()`")
            key = self.expr(kw["key"].value) if "key" in kw else None
            return self.list_sorted(xs, key, reverse, node)
        if name == "reduce":
            allow()
            if nargs != 3:
                self.err(
                    node,
                    "ZN212",
                    "`reduce()` needs an initial value here",
                    "write `reduce(f, xs, initial)`: a list may be empty",
                )
            f = self.expr(node.args[0])
            xs = self.as_list(self.value(node.args[1]), node, "`reduce()`")
            acc = self.value(node.args[2])
            for x, a in zip(xs.elems, xs.active, strict=True):
                if a is False:
                    continue
                new = self.under(a, node, lambda x=x, acc=acc: self.apply(f, [acc, x], node))
                acc = new if a is True else self.merge(a, new, acc, node, "the accumulator")
            return acc
        if name == "find":
            allow("default")
            if not 2 <= nargs <= 3 or (nargs == 3 and kw):
                self.err(
                    node, "ZN212", "`find()` takes a list, a predicate and an optional default"
                )
            xs = self.as_list(self.value(node.args[0]), node, "`find()`")
            f = self.expr(node.args[1])
            dnode = node.args[2] if nargs == 3 else (kw["default"].value if kw else None)
            default = self.value(dnode) if dnode is not None else None
            hits = self.list_filter(f, xs, node, lazy=True)
            return self.first(hits, default, node, "find(): no element matched")
        return NotImplemented

    def contains(self, x: Any, xs: SymList, node: ast.AST) -> Any:
        """`x in xs`: some element equals `x` (scalar elements)."""
        acc: Any = False
        for e, a in zip(xs.elems, xs.active, strict=True):
            if not isinstance(e, (Wire, bool, int, IntChoice)) or isinstance(x, (tuple, SymList)):
                self.err(node, "ZN303", f"`in` compares scalars, got {describe(e)}")
            same = self.compare(ast.Eq(), x, e, node)
            acc = self.logic("or", acc, self.logic("and", a, same, node), node)
        return acc

    def list_filter(self, f: Any, xs: SymList, node: ast.AST, lazy: bool = False) -> SymList:
        """The elements for which `f` holds. `lazy` (for `find`): stop calling `f` after the
        first match, as Python does, so later calls run under a false guard."""
        active = []
        live: Any = True
        for x, a in zip(xs.elems, xs.active, strict=True):
            g = self.logic("and", a, live, node)
            p = (
                self.under(g, node, lambda x=x: self.apply(f, [x], node))
                if g is not False
                else False
            )
            if not (isinstance(p, bool) or (isinstance(p, Wire) and p.ty == "bool")):
                self.err(node, "ZN305", f"the predicate must return a bool, got {describe(p)}")
            hit = self.logic("and", a, p, node)
            active.append(hit)
            if lazy:
                live = self.logic("and", live, self.negate(hit, node), node)
        return SymList(xs.elems, tuple(active), None, xs.elem_ty, False)

    def mask(self, a: Any, x: Any, node: ast.AST) -> Any:
        """`x if a else 0` for a scalar (the identity for a point or ciphertext)."""
        if a is True:
            return x
        if a is False:
            return self.zero_like(x)
        if isinstance(x, SymRecord) and x.ty.kind in (POINT_KIND, CIPHERTEXT_KIND):
            return self.merge(a, x, self.zero_like(x), node, "a padded element")
        if isinstance(x, Wire):
            return self.emit("select", x.ty, [a, x, self.const(x.ty, 0)], node)
        if isinstance(x, bool):
            return self.logic("and", a, x, node)
        if isinstance(x, (int, IntChoice)):
            return self.choice(a, x, 0, node)
        self.err(node, "ZN303", f"cannot add up {describe(x)} values")

    def list_sum(self, xs: SymList, start: Any, node: ast.AST) -> Any:
        acc = start
        for x, a in zip(xs.elems, xs.active, strict=True):
            if isinstance(x, bool) or (isinstance(x, Wire) and x.ty == "bool"):
                self.err(node, "ZN303", "`sum()` of bools", "count with `sum(u32(b) for b in bs)`")
            if a is False:
                continue
            acc = self.binop(ast.Add(), acc, self.mask(a, x, node), node)
        return acc

    def list_anyall(self, name: str, xs: SymList, node: ast.AST) -> Any:
        acc: Any = name == "all"
        for x, a in zip(xs.elems, xs.active, strict=True):
            if not (isinstance(x, bool) or (isinstance(x, Wire) and x.ty == "bool")):
                self.err(node, "ZN305", f"`{name}()` needs bools, got {describe(x)}")
            if name == "any":
                acc = self.logic("or", acc, self.logic("and", a, x, node), node)
            else:
                acc = self.logic("and", acc, self.logic("or", self.negate(a, node), x, node), node)
        return acc

    def list_minmax(self, name: str, xs: SymList, default: Any, node: ast.AST) -> Any:
        """The first smallest (largest) element, as Python's `min` (`max`)."""
        found: Any = False
        acc: Any = None
        op = ast.Lt() if name == "min" else ast.Gt()
        for x, a in zip(xs.elems, xs.active, strict=True):
            if a is False:
                continue
            if acc is None:
                acc, found = x, a
                continue
            better = self.compare(op, x, acc, node)
            take = self.logic(
                "and", a, self.logic("or", self.negate(found, node), better, node), node
            )
            acc = self.pick(take, x, acc, node, f"`{name}()`")
            found = self.logic("or", found, a, node)
        return self.finish_first(found, acc, default, node, f"{name}() of an empty list", xs)

    def first(self, xs: SymList, default: Any, node: ast.AST, msg: str) -> Any:
        """The element in the first active slot (ZØ's First)."""
        found: Any = False
        acc: Any = None
        for x, a in zip(xs.elems, xs.active, strict=True):
            if a is False:
                continue
            if found is True:
                break
            if acc is None:
                acc, found = x, a
                continue
            take = self.logic("and", a, self.negate(found, node), node)
            acc = self.pick(take, x, acc, node, "the first match")
            found = self.logic("or", found, a, node)
        return self.finish_first(found, acc, default, node, msg, xs)

    def finish_first(
        self, found: Any, acc: Any, default: Any, node: ast.AST, msg: str, xs: SymList
    ) -> Any:
        if default is not None:
            if acc is None:
                return default
            return self.pick(found, acc, default, node, "the result")
        if acc is None or found is not True:
            self.emit_check(self.as_bool_wire(found), node, msg)
        if acc is None:  # always empty: fails wherever it is reached
            if xs.elem_ty is None or None in leaf_types(xs.elem_ty):
                self.err(node, "ZN212", f"{msg}: the list is always empty")
            return self.zero_of(xs.elem_ty)
        return acc

    def list_sorted(self, xs: SymList, key: Any, reverse: bool, node: ast.AST) -> SymList:
        """`sorted(xs, key=..., reverse=...)` by Batcher's odd-even merge sort (`sort_slots`).
        Empty slots sort last, so the result has the list's (private) length and its active
        prefix. With `key=`, ties keep the original order (as Python's sort is stable: each
        element carries its slot number as a second key); without it, elements are integers
        and equal ones are indistinguishable. A filtered list (or a set) sorts to a dense one."""
        if key is None:
            keys = list(xs.elems)
            key_ty = xs.elem_ty
        else:
            keys = [
                self.under(a, node, lambda x=x: self.apply(key, [x], node))
                for x, a in zip(xs.elems, xs.active, strict=True)
            ]
            key_ty = self.elem_type(keys) if keys else "u32"
        self.need_int_keys(key_ty, keys, "`sorted()`", node)
        _, (vals,), act = self.sort_slots(
            keys, [list(xs.elems)], list(xs.active), key_ty, reverse, key is not None, node
        )
        if xs.dense:  # the same active prefix: keep its flags (and the length they define)
            return SymList(tuple(vals), xs.active, xs.length, xs.elem_ty, True)
        return SymList(tuple(vals), tuple(act), xs.length, xs.elem_ty, True)

    def need_int_keys(self, key_ty: Any, keys: list[Any], what: str, node: ast.AST) -> None:
        if key_ty not in INT_TYPES:
            self.err(
                node,
                "ZN303",
                f"{what} sorts by integers, not {describe(keys[0]) if keys else key_ty}",
                "sort integers (u8 … u64, i8 … i64), or give `key=` returning one",
            )

    def sort_slots(
        self,
        keys: list[Any],
        columns: list[list[Any]],
        act: list[Any],
        key_ty: Any,
        reverse: bool,
        stable: bool,
        node: ast.AST,
    ) -> tuple[list[Any], list[list[Any]], list[Any]]:
        """Sort slots by (active first, key, and with `stable` the slot number) with a fixed
        network of O(n log² n) compare-exchanges over the slots padded to a power of two,
        never O(n²). Returns the keys, each column and the active flags, in sorted order."""
        slots = len(keys)
        n = 1 << max(slots - 1, 0).bit_length()
        pad = n - slots
        keys = keys + [self.const(key_ty, 0)] * pad
        columns = [list(c) + [c[0] if c else 0] * pad for c in columns]
        act = list(act) + [False] * pad
        order: list[Any] = [self.const("u32", k) for k in range(n)] if stable else []
        op: ast.cmpop = ast.Lt() if reverse else ast.Gt()
        for i, j in _odd_even_merge_network(n):
            # slot i should hold the earlier element: active first, then by key, then by slot
            later = self.compare(op, keys[i], keys[j], node)
            if order:
                tie = self.logic(
                    "and",
                    self.compare(ast.Eq(), keys[i], keys[j], node),
                    self.compare(ast.Gt(), order[i], order[j], node),
                    node,
                )
                later = self.logic("or", later, tie, node)
            swap = self.logic(
                "or",
                self.logic("and", self.negate(act[i], node), act[j], node),
                self.logic("and", self.logic("and", act[i], act[j], node), later, node),
                node,
            )
            if swap is False:
                continue
            for column in (keys, *columns, order) if order else (keys, *columns):
                column[i], column[j] = (
                    self.pick(swap, column[j], column[i], node, "`sorted()`"),
                    self.pick(swap, column[i], column[j], node, "`sorted()`"),
                )
            act[i], act[j] = (
                self.logic("or", act[i], act[j], node),
                self.logic("and", act[i], act[j], node),
            )
        return keys[:slots], [c[:slots] for c in columns], act[:slots]

    # -- sets: distinct values, by sorting or by pairwise equality -----------------------------

    def list_set(self, xs: SymList, node: ast.AST) -> SymList:
        """`set(xs)` of integers: a sparse list of the distinct values (each value's first slot
        kept active), on which `len`, `in`, `sum`, comprehensions, `sorted` and `& | - ^` work.
        Built the cheaper way for the list's size (`_set_by_sorting`): by the sorting network,
        O(n log² n) comparisons, or by pairwise equality tests, O(n²) but each a few
        constraints where a comparison costs one per bit."""
        if xs.distinct:
            return xs
        self.need_int_keys(xs.elem_ty, list(xs.elems), "`set()`", node)
        if not _set_by_sorting(xs.slots, xs.slots * (xs.slots - 1) // 2, xs.elem_ty):
            first = []
            for i, (x, a) in enumerate(zip(xs.elems, xs.active, strict=True)):
                seen: Any = False
                for y, b in zip(xs.elems[:i], xs.active[:i], strict=True):
                    same = self.logic("and", b, self.compare(ast.Eq(), x, y, node), node)
                    seen = self.logic("or", seen, same, node)
                first.append(self.logic("and", a, self.negate(seen, node), node))
            return SymList(xs.elems, tuple(first), None, xs.elem_ty, False, True)
        keys, _, act = self.sort_slots(
            list(xs.elems), [], list(xs.active), xs.elem_ty, False, False, node
        )
        first = [
            a
            if i == 0
            else self.logic("and", a, self.compare(ast.NotEq(), keys[i], keys[i - 1], node), node)
            for i, a in enumerate(act)
        ]
        return SymList(tuple(keys), tuple(first), None, xs.elem_ty, False, True)

    def list_group_sum(self, xs: SymList, key: Any, value: Any, node: ast.AST) -> SymList:
        """`group_sum(xs, key, value)`: the slots sorted by key, stably (so each group's values
        are added in the list's order, as Python does), running sums that restart at each new
        key, and the last slot of each group kept: a filtered list of `(key, total)`."""
        keys, vals = [], []
        for x, a in zip(xs.elems, xs.active, strict=True):
            keys.append(self.under(a, node, lambda x=x: self.apply(key, [x], node)))
            vals.append(self.under(a, node, lambda x=x: self.apply(value, [x], node)))
        key_ty = self.elem_type(keys) if keys else "u32"
        val_ty = self.elem_type(vals) if vals else "u32"
        self.need_int_keys(key_ty, keys, "`group_sum()`", node)
        if val_ty not in INT_TYPES:
            self.err(
                node,
                "ZN303",
                f"`group_sum()` adds integers, not {describe(vals[0]) if vals else val_ty}",
                "give the value a sized type, e.g. `lambda p: u64(p.cents)` or `lambda p: u32(1)`",
            )
        keys, (vals,), act = self.sort_slots(
            keys, [vals], list(xs.active), key_ty, False, True, node
        )
        same_prev = self.repeats(keys, act, node)
        totals: list[Any] = []
        zero = self.const(val_ty, 0)
        for i, a in enumerate(act):
            before = (
                self.pick(same_prev[i], totals[i - 1], zero, node, "`group_sum()`") if i else zero
            )
            totals.append(self.binop(ast.Add(), before, self.mask(a, vals[i], node), node))
        last = [
            self.logic("and", a, self.negate(same_prev[i + 1], node), node)
            if i + 1 < len(act)
            else a
            for i, a in enumerate(act)
        ]
        pairs = tuple(zip(keys, totals, strict=True))
        return SymList(pairs, tuple(last), None, (key_ty, val_ty), False)

    def repeats(self, keys: list[Any], act: list[Any], node: ast.AST) -> list[Any]:
        """For sorted slots (active ones first, so an active slot's predecessor is active):
        whether each is active and holds its predecessor's key."""
        return [False] + [
            self.logic("and", act[i], self.compare(ast.Eq(), keys[i], keys[i - 1], node), node)
            for i in range(1, len(keys))
        ]

    def set_binop(self, op: ast.operator, sym: str, a: Any, b: Any, node: ast.AST) -> SymList:
        """`a & b`, `a | b`, `a - b`, `a ^ b` on sets (each side distinct), the cheaper way:
        both sides' values sorted together, where equal neighbours are exactly the values in
        both; or every pair of values tested for equality."""
        if not (
            isinstance(a, SymList) and isinstance(b, SymList) and a.distinct and b.distinct
        ) or not isinstance(op, (ast.BitAnd, ast.BitOr, ast.Sub, ast.BitXor)):
            self.err(
                node,
                "ZN303",
                f"unsupported operation {describe(a)} {sym} {describe(b)}",
                "`&`, `|`, `-` and `^` combine sets made with `set(xs)`",
            )
        ty = self.elem_type([*a.elems, *b.elems]) if a.elems or b.elems else a.elem_ty
        if _set_by_sorting(a.slots + b.slots, a.slots * b.slots, ty):
            return self.set_binop_sorted(op, a, b, ty, node)
        # in_b[i]: a's value i is one of b's; in_a[j]: b's value j is one of a's
        in_b: list[Any] = [False] * a.slots
        in_a: list[Any] = [False] * b.slots
        for i, (x, p) in enumerate(zip(a.elems, a.active, strict=True)):
            for j, (y, q) in enumerate(zip(b.elems, b.active, strict=True)):
                both = self.logic(
                    "and", self.logic("and", p, q, node), self.compare(ast.Eq(), x, y, node), node
                )
                in_b[i] = self.logic("or", in_b[i], both, node)
                in_a[j] = self.logic("or", in_a[j], both, node)

        def only(active: tuple[Any, ...], other: list[Any]) -> list[Any]:
            return [
                self.logic("and", p, self.negate(o, node), node)
                for p, o in zip(active, other, strict=True)
            ]

        if isinstance(op, ast.BitAnd):
            return SymList(a.elems, tuple(in_b), None, ty, False, True)
        if isinstance(op, ast.Sub):
            return SymList(a.elems, tuple(only(a.active, in_b)), None, ty, False, True)
        left = list(a.active) if isinstance(op, ast.BitOr) else only(a.active, in_b)
        keep = (*left, *only(b.active, in_a))
        return SymList((*a.elems, *b.elems), keep, None, ty, False, True)

    def set_binop_sorted(
        self, op: ast.operator, a: SymList, b: SymList, ty: Any, node: ast.AST
    ) -> SymList:
        keys = [*a.elems, *b.elems]
        from_a = [True] * a.slots + [False] * b.slots
        keys, (from_a,), act = self.sort_slots(
            keys, [from_a], [*a.active, *b.active], ty, False, False, node
        )
        same_prev = self.repeats(keys, act, node)
        same_next = [*same_prev[1:], False]
        keep: list[Any] = []
        for i, a_i in enumerate(act):
            if isinstance(op, ast.BitAnd):  # the second of an equal pair
                k = same_prev[i]
            elif isinstance(op, ast.BitOr):  # the first of each value
                k = self.logic("and", a_i, self.negate(same_prev[i], node), node)
            else:  # a value with no equal neighbour: in one set only
                alone = self.logic(
                    "and",
                    self.negate(same_prev[i], node),
                    self.negate(same_next[i], node),
                    node,
                )
                k = self.logic("and", a_i, alone, node)
                if isinstance(op, ast.Sub):
                    k = self.logic("and", k, from_a[i], node)
            keep.append(k)
        return SymList(tuple(keys), tuple(keep), None, ty, False, True)

    def pick(self, c: Any, a: Any, b: Any, node: ast.AST, what: str) -> Any:
        if c is True:
            return a
        if c is False:
            return b
        return self.merge(c, a, b, node, what)

    def list_zip(self, lists: list[SymList], strict: bool, node: ast.AST) -> SymList:
        if not lists:
            return self.const_list([])
        for xs in lists:
            self.need_dense(xs, node, "`zip()` of")
        slots = min(xs.slots for xs in lists)
        elems = tuple(tuple(xs.elems[i] for xs in lists) for i in range(slots))
        active = []
        for i in range(slots):
            a: Any = True
            for xs in lists:
                a = self.logic("and", a, xs.active[i], node)
            active.append(a)
        if strict:
            n0 = self.list_len(lists[0], node)
            for xs in lists[1:]:
                same = self.compare(ast.Eq(), n0, self.list_len(xs, node), node)
                if same is not True:
                    self.emit_check(
                        self.as_bool_wire(same),
                        node,
                        "zip(strict=True): lists of different lengths",
                    )
        lengths = [xs.length for xs in lists]
        length = lengths[0] if all(n is lengths[0] for n in lengths) else None
        ety = tuple(xs.elem_ty for xs in lists)
        return SymList(elems, tuple(active), length, ety, True)

    # -- indexing -------------------------------------------------------------------------------

    def index_list(self, xs: SymList, idx: Any, node: ast.Subscript) -> Any:
        self.need_dense(xs, node.value, "indexing")
        if isinstance(idx, int) and not isinstance(idx, bool):
            if idx < 0:
                if all(a is True for a in xs.active):
                    idx += xs.slots
                else:
                    self.err(
                        node.slice,
                        "ZN209",
                        "a negative index into a list of private length is not supported",
                        "write `xs[len(xs) - 1]`",
                    )
            if not 0 <= idx < xs.slots:
                if self.specialised and xs.elem_ty is not None:
                    bad = f"{self.src(node)}: index out of range"
                    self.emit_check(self.const("bool", False), node, bad)
                    return self.zero_of(xs.elem_ty)
                self.err(
                    node.slice,
                    "ZN209",
                    f"index {idx} is beyond the list's maximum size {xs.slots}",
                )
            a = xs.active[idx]
            if a is not True:
                self.emit_check(self.as_bool_wire(a), node, f"{self.src(node)}: index out of range")
            return xs.elems[idx]
        if isinstance(idx, IntChoice):
            w = self.materialize(idx, PLAIN_TY, node)
            idx = PlainWire(w.id, w.ty)
        if not isinstance(idx, Wire):
            self.err(node.slice, "ZN209", f"cannot index a list with {describe(idx)}")
        bad = f"{self.src(node)}: index out of range"
        if xs.slots == 0:  # always out of range: fails wherever it is reached
            if xs.elem_ty is None:
                self.err(node, "ZN209", "indexing a list that is always empty")
            self.emit_check(self.const("bool", False), node, bad)
            return self.zero_of(xs.elem_ty)
        n = self.list_len(xs, node)
        if isinstance(idx, PlainWire):  # a run-time plain int: negative counts from the end
            neg = self.compare(ast.Lt(), idx, 0, node)
            back = self.under(neg, node, lambda: self.binop(ast.Add(), idx, n, node))
            idx = self.merge(neg, back, idx, node, "the index")
            ok = self.compare(ast.GtE(), idx, 0, node)
            self.emit_check(self.as_bool_wire(ok), node, bad)
        else:
            self.check_index_type(idx, node)
        always_below = (
            isinstance(n, int) and not isinstance(idx, PlainWire) and n > int_range(idx.ty)[1]
        )
        if not always_below:  # fails as a `check`, like Python's IndexError in `simulate`
            ok = self.compare(ast.Lt(), idx, n, node)
            if ok is not True:
                self.emit_check(self.as_bool_wire(ok), node, bad)
        return self.lookup_values(idx, list(xs.elems), node)

    def check_index_type(self, idx: Wire, node: ast.Subscript) -> None:
        if idx.ty in ("bool", "field") or is_signed(idx.ty):
            self.err(
                node.slice,
                "ZN209",
                f"a private index must have an unsigned integer type, got {type_name(idx.ty)}",
                "convert it, e.g. `xs[u32(i)]` (negative indices are not supported)",
            )

    def index_tuple(self, t: tuple, idx: Wire, node: ast.Subscript) -> Any:
        self.check_index_type(idx, node)
        if not t:
            self.err(node, "ZN209", "indexing an empty tuple")
        if len(t) <= int_range(idx.ty)[1]:  # fails as `check` does, like an index into a list
            ok = self.compare(ast.Lt(), idx, len(t), node)
            self.emit_check(self.as_bool_wire(ok), node, f"{self.src(node)}: index out of range")
        return self.lookup_values(idx, list(t), node)

    def lookup_values(self, idx: Wire, values: list[Any], node: ast.AST) -> Any:
        """`values[idx]` for a private `idx`: one `index` instruction per scalar leaf (the groth16
        back end shares one one-hot selector between them)."""
        v0 = values[0]
        if isinstance(v0, tuple):
            if not all(isinstance(v, tuple) and len(v) == len(v0) for v in values):
                self.err(node, "ZN306", "a private index needs elements of one shape")
            return tuple(
                self.lookup_values(idx, [v[k] for v in values], node) for k in range(len(v0))
            )
        if isinstance(v0, SymRecord):
            if not all(isinstance(v, SymRecord) and v.ty == v0.ty for v in values):
                self.err(node, "ZN306", "a private index needs elements of one type")
            fields = range(len(v0.values))
            return SymRecord(
                v0.ty,
                tuple(self.lookup_values(idx, [v.values[k] for v in values], node) for k in fields),
            )
        if isinstance(v0, SymList):
            if not all(isinstance(v, SymList) and v.slots == v0.slots for v in values):
                self.err(node, "ZN306", "a private index needs lists of one maximum size")
            elems = tuple(
                self.lookup_values(idx, [v.elems[k] for v in values], node) for k in range(v0.slots)
            )
            active = tuple(
                self.lookup_values(idx, [v.active[k] for v in values], node)
                for k in range(v0.slots)
            )
            lens = [self.list_len(v, node) for v in values]
            length = self.lookup_values(idx, lens, node)
            return SymList(elems, active, length, v0.elem_ty, all(v.dense for v in values))
        ty = self.scalar_lookup_type(idx, values, node)
        wires = [self.materialize(v, ty, node) if not isinstance(v, Wire) else v for v in values]
        w = self.emit("index", ty, [idx, *wires], node)
        if all(isinstance(v, PlainWire) or type(v) is int for v in values):
            return PlainWire(w.id, w.ty)  # lengths of nested lists stay plain ints
        return w

    def scalar_lookup_type(self, idx: Wire, values: list[Any], node: ast.AST) -> str:
        tys = {v.ty for v in values if isinstance(v, Wire)}
        if any(isinstance(v, bool) for v in values):
            tys.add("bool")
        for v in values:
            if not isinstance(v, (Wire, bool, int, IntChoice)):
                self.err(node, "ZN303", f"cannot index elements of type {describe(v)}")
        if len(tys) > 1:
            self.err(node, "ZN306", "a private index needs elements of one type")
        if tys:
            return tys.pop()
        # plain ints (a constant table): they take the index's type, as a literal would
        lo, hi = int_range(idx.ty)
        for v in values:
            if isinstance(v, int) and not lo <= v <= hi:
                self.err(
                    node,
                    "ZN302",
                    f"the table entry {v} does not fit {type_name(idx.ty)}, the index's type",
                    "type the table's entries, e.g. `(u32(500), u32(900))`",
                )
        return idx.ty

    def slice_list(self, xs: SymList, parts: list[Any], node: ast.Subscript) -> SymList:
        lo, hi, step = parts
        if step not in (None, 1):
            self.err(node.slice, "ZN209", "list slices take no step")
        if (lo is not None and lo < 0) or (hi is not None and hi < 0):
            if not all(a is True for a in xs.active):
                self.err(
                    node.slice,
                    "ZN209",
                    "negative slice bounds on a list of private length are not supported",
                    "slice from the front: `xs[1:]`, `xs[:k]`",
                )
        self.need_dense(xs, node.value, "slicing")
        r = slice(lo, hi)
        elems, active = xs.elems[r], xs.active[r]
        length = len(elems) if all(a is True for a in active) else None
        return SymList(elems, active, length, xs.elem_ty, True)

    # -- records ------------------------------------------------------------------------------

    def record_binop(self, op: ast.operator, sym: str, a: Any, b: Any, node: ast.AST) -> Any:
        """An operator a record class defines (`__add__`, `__mul__`, …); `+` and `-` on points
        (complete addition) and ciphertexts (homomorphic), and `0 +` as `sum` starts."""
        dunder = OPERATOR_METHODS.get(type(op))
        if dunder is not None:
            result = self.user_operator(dunder, a, b, node)
            if result is not NotImplemented:
                return result
        kinds = (POINT_KIND, CIPHERTEXT_KIND)
        if isinstance(op, ast.Sub) and isinstance(b, SymRecord) and b.ty.kind in kinds:
            if isinstance(a, SymRecord) and a.ty == b.ty:
                return self.record_binop(ast.Add(), "+", a, self.negate_point(b, node), node)
        if isinstance(op, ast.Add):
            for x, y in ((a, b), (b, a)):
                if type(x) is int and x == 0 and isinstance(y, SymRecord) and y.ty.kind in kinds:
                    return y  # `sum(...)` starts from 0
            if isinstance(a, SymRecord) and isinstance(b, SymRecord) and a.ty == b.ty:
                if a.ty.kind == POINT_KIND:
                    return self.point_add(a, b, node)
                if a.ty.kind == CIPHERTEXT_KIND:
                    c1 = self.point_add(a.values[0], b.values[0], node)
                    c2 = self.point_add(a.values[1], b.values[1], node)
                    return SymRecord(a.ty, (c1, c2))
        if isinstance(op, ast.Mult):
            k, v = (a, b) if isinstance(b, SymRecord) else (b, a)
            if isinstance(v, SymRecord) and v.ty.kind in kinds and not isinstance(k, SymRecord):
                return self.scalar_mul(k, v, node)
        self.err(node, "ZN303", f"unsupported operation {describe(a)} {sym} {describe(b)}")

    def scalar(self, k: Any, node: ast.AST) -> Wire:
        """A scalar for point multiplication: an unsigned integer or a Field wire; a constant
        is reduced modulo the subgroup order `l` first (so `-1 * p` is `-p`, as in Python)."""
        if isinstance(k, int) and not isinstance(k, bool):
            return self.const("field", k % SUBGROUP_ORDER)
        if isinstance(k, Wire) and not isinstance(k, PlainWire):
            if k.ty == "field" or (k.ty in INT_TYPES and not is_signed(k.ty)):
                return k
        self.err(
            node,
            "ZN303",
            f"a point's scalar must be an unsigned integer or a Field, got {describe(k)}",
            "convert it, e.g. `u64(k)` or `Field(k)`",
        )

    def scalar_mul(self, k: Any, v: SymRecord, node: ast.AST) -> SymRecord:
        """`k * p` (exact for integer scalars; a Field scalar's integer in `[0, p)`), and
        `k * c` for a ciphertext (both points)."""
        kw = self.scalar(k, node)
        if v.ty.kind == CIPHERTEXT_KIND:
            return SymRecord(v.ty, tuple(self.scalar_mul(kw, q, node) for q in v.values))
        args = [kw, *v.values]
        x = self.emit("point_mul_x", "field", args, node)
        y = self.emit("point_mul_y", "field", args, node)
        return SymRecord(v.ty, (x, y))

    def encrypt(self, m: Any, pk: Any, r: Any, node: ast.AST) -> SymRecord:
        """`(r·B8, m·B8 + r·pk)`, as `zeenot.babyjub.encrypt`."""
        if not (isinstance(pk, SymRecord) and pk.ty.kind == POINT_KIND):
            self.err(node, "ZN303", f"`encrypt` needs a Point public key, got {describe(pk)}")
        base = self.global_value(babyjub.BASE8, node, "BASE8")
        rw = self.scalar(r, node)
        c1 = self.scalar_mul(rw, base, node)
        c2 = self.point_add(self.scalar_mul(m, base, node), self.scalar_mul(rw, pk, node), node)
        ty = type_from_obj(babyjub.Ciphertext)
        return SymRecord(ty, (c1, c2))

    def eddsa_verify(self, pk: Any, msg: Any, sig: Any, node: ast.AST) -> SignatureCheck:
        if not (isinstance(pk, SymRecord) and pk.ty.kind == POINT_KIND):
            self.err(node, "ZN303", f"`eddsa_verify` needs a Point key, got {describe(pk)}")
        if not (isinstance(sig, SymRecord) and sig.ty == type_from_obj(babyjub.Signature)):
            self.err(node, "ZN303", f"`eddsa_verify` needs a Signature, got {describe(sig)}")
        if isinstance(msg, int) and not isinstance(msg, bool):
            msg = self.const("field", msg)
        if not (isinstance(msg, Wire) and msg.ty == "field"):
            self.err(
                node,
                "ZN301",
                f"the signed message is a Field element, got {describe(msg)}",
                "convert it, e.g. `Field(reading)` or `poseidon(...)` of several values",
            )
        r8, s = sig.values
        return SignatureCheck((*pk.values, msg, *r8.values, s))

    def negate_point(self, p: SymRecord, node: ast.AST) -> SymRecord:
        """`-p` is `(-x, y)` on the twisted Edwards curve; `-c` negates both points."""
        if p.ty.kind == CIPHERTEXT_KIND:
            return SymRecord(p.ty, tuple(self.negate_point(q, node) for q in p.values))
        x, y = p.values
        return SymRecord(p.ty, (self.emit("neg", "field", [x], node), y))

    def point_add(self, p: SymRecord, q: SymRecord, node: ast.AST) -> SymRecord:
        args = [*p.values, *q.values]
        x = self.emit("point_add_x", "field", args, node)
        y = self.emit("point_add_y", "field", args, node)
        return SymRecord(p.ty, (x, y))

    def record_eq(self, a: Any, b: Any, node: ast.AST) -> Any:
        if not (isinstance(a, SymRecord) and isinstance(b, SymRecord) and a.ty == b.ty):
            self.err(node, "ZN303", f"cannot compare {describe(a)} with {describe(b)}")
        acc: Any = True
        for x, y in zip(a.values, b.values, strict=True):
            same = self.record_eq(x, y, node) if isinstance(x, SymRecord) else None
            if same is None:
                same = self.compare(ast.Eq(), x, y, node)
            acc = self.logic("and", acc, same, node)
        return acc

    def construct_record(self, ctor: RecordCtor, node: ast.Call) -> SymRecord:
        ty = ctor.ty
        if ty.kind == POINT_KIND:
            self.err(
                node,
                "ZN303",
                "points cannot be built from coordinates in @zk code",
                "take the point as a parameter (it is checked on the curve and in the subgroup)",
            )
        names = list(ty.names)
        got = self.bind_call(node, names, ty.name, unit="field")
        return self.make_record(ty, [got[n] for n in names])

    def make_record(self, ty: RecordTy, fields: list[tuple[Any, ast.AST]]) -> SymRecord:
        """A record from `(value, node)` per field, in order: each value must fit its field's
        type (as a helper argument must), plain ints take it."""
        vals = []
        for (n, fty), (v, vnode) in zip(ty.fields, fields, strict=True):
            if not self.compatible(v, fty):
                self.err(
                    vnode,
                    "ZN405",
                    f"field `{n}` of `{ty.name}` is {type_name(fty)} but got {describe(v)}",
                    f"convert explicitly: {type_name(fty)}(x)" if isinstance(fty, str) else None,
                )
            vals.append(self.coerce(v, fty, vnode))
        return SymRecord(ty, tuple(vals))

    def record_field(self, rec: SymRecord, name: str, node: ast.AST) -> Any:
        """A field, a method (bound to the record) or a class constant of a record."""
        if name in rec.ty.names:
            return rec.get(name)
        member = user_member(rec.ty, name)
        if isinstance(member, _pytypes.FunctionType):
            return BoundMethod(member, rec)
        if member is not None and not callable(member):
            return self.global_value(member, node, f"{rec.ty.name}.{name}")
        self.err(
            node,
            "ZN204",
            f"`{rec.ty.name}` has no field or method `{name}`",
            f"fields: {', '.join(rec.ty.names)}",
        )

    def user_operator(self, dunder: str, a: Any, b: Any, node: ast.AST) -> Any:
        """`a.__add__(b)` and friends, where `a` is a record whose class defines the method
        (inlined as any helper is); NotImplemented where it does not."""
        if not isinstance(a, SymRecord):
            return NotImplemented
        method = user_member(a.ty, dunder)
        if not isinstance(method, _pytypes.FunctionType):
            return NotImplemented
        return self.inline_values(method, [a, b], node)

    # -- functions as values --------------------------------------------------------------------

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

    # -- outputs --------------------------------------------------------------------------------

    def flat_output(self, v: Any, ty: Any, a: Any, node: ast.AST) -> list[Wire]:
        """The output leaves of `v` (of type `ty`), padding masked to zero so that outputs are a
        function of the result alone. `a`: the enclosing slot's active flag."""
        if isinstance(ty, tuple):
            return [w for x, t in zip(v, ty, strict=True) for w in self.flat_output(x, t, a, node)]
        if isinstance(ty, RecordTy):
            return [
                w
                for x, (_, t) in zip(v.values, ty.fields, strict=True)
                for w in self.flat_output(x, t, a, node)
            ]
        if isinstance(ty, ListTy):
            if not isinstance(v, SymList):
                self.err(node, "ZN308", f"returns {describe(v)} but is annotated {type_name(ty)}")
            self.need_dense(v, node, "returning")
            out = self.flat_output(self.list_len(v, node), LEN_TYPE, a, node)
            for i in range(ty.max):
                if i < v.slots:
                    ai = self.logic("and", a, v.active[i], node)
                    out.extend(self.flat_output(v.elems[i], ty.elem, ai, node))
                else:
                    out.extend(self.flat_output(self.zero_of(ty.elem), ty.elem, False, node))
            return out
        plain = isinstance(v, PlainWire) or not isinstance(v, Wire)
        w = self.materialize(v, ty, node) if plain else v
        if a is True:
            return [w]
        if a is False:
            return [self.const(ty, 0)]
        return [self.emit("select", ty, [a, w, self.const(ty, 0)], node)]

    def zero_of(self, ty: Any) -> Any:
        if isinstance(ty, RecordTy) and ty.kind == POINT_KIND:  # the identity
            return SymRecord(ty, (self.const("field", 0), self.const("field", 1)))
        if isinstance(ty, tuple):
            return tuple(self.zero_of(t) for t in ty)
        if isinstance(ty, RecordTy):
            return SymRecord(ty, tuple(self.zero_of(t) for _, t in ty.fields))
        if isinstance(ty, ListTy):
            return SymList((), (), 0, ty.elem, True)
        return False if ty == "bool" else self.const(ty, 0)

    def coerce_list(self, v: Any, ty: ListTy, node: ast.AST) -> SymList:
        if not isinstance(v, SymList):
            self.err(node, "ZN308", f"returns {describe(v)} but is annotated {type_name(ty)}")
        if ty.max is not None and v.slots > ty.max:
            self.err(
                node,
                "ZN308",
                f"returns a list of up to {v.slots} elements but is annotated {type_name(ty)}",
                f"raise the bound: MaxSize[list[...], {v.slots}]",
            )
        elems = tuple(self.coerce(x, ty.elem, node) for x in v.elems)
        return SymList(elems, v.active, v.length, ty.elem, v.dense)

    def merge_lists(self, c: Wire, a: Any, b: Any, node: ast.AST, what: str) -> SymList:
        if not (isinstance(a, SymList) and isinstance(b, SymList)):
            self.err(
                node, "ZN306", f"{what} is {describe(a)} on one path and {describe(b)} on the other"
            )
        n = max(a.slots, b.slots)
        a, b = self.pad(a, n), self.pad(b, n)
        elems = tuple(
            self.merge(c, x, y, node, what) for x, y in zip(a.elems, b.elems, strict=True)
        )
        active = tuple(
            self.pick(c, x, y, node, what) for x, y in zip(a.active, b.active, strict=True)
        )
        length = self.merge(c, self.list_len(a, node), self.list_len(b, node), node, what)
        return SymList(elems, active, length, a.elem_ty or b.elem_ty, a.dense and b.dense)

    def pad(self, xs: SymList, n: int) -> SymList:
        if xs.slots >= n:
            return xs
        if xs.slots:
            filler = self.zero_like(xs.elems[0])
        elif xs.elem_ty is not None:
            filler = self.zero_of(xs.elem_ty)
        else:
            filler = 0
        extra = n - xs.slots
        return SymList(
            xs.elems + (filler,) * extra,
            xs.active + (False,) * extra,
            xs.length,
            xs.elem_ty,
            xs.dense,
        )


def leaf_types(t: Any) -> list[Any]:
    """The types in a (possibly nested) tuple descriptor; `None` marks a plain int."""
    if isinstance(t, tuple):
        return [x for e in t for x in leaf_types(e)]
    return [t]


# Constraint costs for choosing how to build a set, fitted on distinct counts of u8 and u32
# lists of 16 to 256 values: an equality test with its bookkeeping, and a compare-exchange of
# the sorting network per key bit (a comparison range-checks the difference) plus its selects.
_EQ_PAIR_COST = 6
_EXCHANGE_COST = 5


def _set_by_sorting(slots: int, pairs: int, ty: Any) -> bool:
    """Whether sorting `slots` values of type `ty` costs less than `pairs` equality tests."""
    n = 1 << max(slots - 1, 0).bit_length()
    lo, hi = int_range(ty) if ty in INT_TYPES else (0, 1)
    bits = max((hi - lo).bit_length(), 1)
    by_sorting = len(_odd_even_merge_network(n)) * (bits + _EXCHANGE_COST) + _EQ_PAIR_COST * slots
    return by_sorting < _EQ_PAIR_COST * pairs


# Operators a record class may define for itself (inlined as helpers are).
OPERATOR_METHODS = {
    ast.Add: "__add__",
    ast.Sub: "__sub__",
    ast.Mult: "__mul__",
    ast.FloorDiv: "__floordiv__",
    ast.Mod: "__mod__",
}
COMPARISON_METHODS = {ast.Lt: "__lt__", ast.LtE: "__le__", ast.Gt: "__gt__", ast.GtE: "__ge__"}


def user_member(ty: Any, name: str) -> Any:
    """What the record class (or a base class of the user's) defines under `name`: a method or
    a class constant; None for what Python, `dataclasses` or `typing` provide."""
    cls = getattr(ty, "cls", None)
    if cls is None or getattr(ty, "kind", ""):
        return None  # zeenot's points and ciphertexts have their gadgets
    for klass in cls.__mro__:
        if klass is object or klass.__module__ in ("builtins", "typing", "dataclasses"):
            continue
        if name in vars(klass):
            member = vars(klass)[name]
            if isinstance(member, _pytypes.FunctionType) and (
                member.__code__.co_filename == "<string>" or member.__module__ == "collections"
            ):
                return None  # generated: a dataclass's __eq__/__lt__, NamedTuple's helpers
            return member
    return None


def _odd_even_merge_network(n: int) -> list[tuple[int, int]]:
    """Batcher's odd-even merge sort for `n` (a power of two) slots: the compare-exchanges
    `(i, j)`, `i < j`, that sort any input ascending (191 for 32 slots)."""
    out = []
    p = 1
    while p < n:
        k = p
        while k >= 1:
            for j in range(k % p, n - k, 2 * k):
                for i in range(min(k, n - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        out.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return out
