"""Lists: the list half of the symbolic executor.

A list of at most `N` elements is `N` *slots* (see `SymList`). Every list operation runs over
all slots, and an operation on a slot runs under the guard "this slot holds an element", so a
failure in padding never counts and padding never reaches a result: `sum` adds `select(active,
x, 0)`, a `for` loop merges each variable with `select(active, new, old)`, `min`/`max`/`next`
keep the first qualifying element. This is ZØ's Select / Aggregate / First / Zip, unrolled to
IR v1 (the groth16 back end needs static bounds anyway); the cost of each is in
docs/circuits.md.

Here: list parameters shaped from their input leaves (and returned values flattened to output
leaves), `len`, loops and comprehensions over lists, and the builtins over lists. Indexing and
slicing are in indexing.py, sorting and sets in sets.py, records in records.py.
"""

from __future__ import annotations

import ast
from typing import Any

from zeenot.errors import CompileError
from zeenot.lang.typer import leaf_types
from zeenot.lang.values import (
    PLAIN_TY,
    IntChoice,
    PlainWire,
    SymList,
    SymRecord,
    Undefined,
    Wire,
    describe,
)
from zeenot.types import CIPHERTEXT_KIND, LEN_TYPE, POINT_KIND, ListTy, RecordTy, type_name


class ListOps:
    """List operations of `Compiler` (a mixin, which uses its emission and typing helpers)."""

    frame: Any
    guard: Wire | None
    stack: list[Any]
    body: list[dict[str, Any]]
    len_cache: dict[int, tuple[SymList, Any]]
    len_source: dict[int, SymList]

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

    def const_list(self, elems: list[Any]) -> SymList:
        return SymList(tuple(elems), (True,) * len(elems), len(elems), self.elem_type(elems), True)

    def as_list(self, v: Any, node: ast.AST, what: str) -> SymList:
        """A list or a tuple (a list of known length) as a `SymList`."""
        if isinstance(v, SymList):
            return v
        if isinstance(v, tuple):
            return self.const_list(list(v))
        self.err(node, "ZN303", f"{what} needs a list, got {describe(v)}")

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


MAX_SLOTS = 1 << 20
