"""IR v1 documents (docs/ir.md) and the conversions between JSON values and IR leaves."""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zeenot.babyjub import SUBGROUP_ORDER
from zeenot.types import (
    INT_TYPES,
    LEN_TYPE,
    POINT_KIND,
    SCALAR_TYPES,
    ListTy,
    P,
    RecordTy,
    Ty,
    int_range,
    leaves,
    type_from_json,
    type_name,
    value_type_from_json,
    zero_value,
)

IR_VERSION = 1

_DECIMAL = re.compile(r"0|[1-9][0-9]*", re.ASCII)
_SIGNED_DECIMAL = re.compile(r"0|-?[1-9][0-9]*", re.ASCII)


def is_decimal(text: Any) -> bool:
    """Whether `text` is a canonical non-negative decimal: ASCII digits, no sign, no leading
    zero, no spaces or underscores. One spelling per number, so that a value has one meaning
    in every file (Python's `int()` also takes `" 5"`, `"+5"`, `"05"`, `"5_0"`, `"\u0665"`)."""
    return isinstance(text, str) and _DECIMAL.fullmatch(text) is not None


def parse_decimal(path: str, text: Any, *, signed: bool = False) -> int:
    """`text` as an int if it is canonical (`signed`: a `-` may lead a non-zero value)."""
    pattern = _SIGNED_DECIMAL if signed else _DECIMAL
    if not (isinstance(text, str) and pattern.fullmatch(text)):
        raise ValueError(
            f"`{path}`: expected a canonical decimal (digits 0-9, no sign, spaces or leading "
            f"zeros), got {_show(text)}"
        )
    return int(text)


def check_value(path: str, t: Ty, v: Any) -> Any:
    """Validate a JSON value for type `t`; returns it as int / bool / tuple / list / dict (a
    record). ValueError names the offending path (`miles[2]`)."""
    if isinstance(t, ListTy):
        if not isinstance(v, (list, tuple)):
            raise ValueError(f"`{path}`: expected a list of at most {t.max} values, got {_show(v)}")
        if t.exact and len(v) != t.max:
            raise ValueError(
                f"`{path}`: {len(v)} values, but this program was specialised for exactly {t.max}"
            )
        if t.max is not None and len(v) > t.max:
            raise ValueError(
                f"`{path}`: {len(v)} values, more than the maximum size {t.max} "
                f"(MaxSize[..., {t.max}])"
            )
        return [check_value(f"{path}[{i}]", t.elem, x) for i, x in enumerate(v)]
    if isinstance(t, RecordTy):
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            v = to_json_value(v)  # a Point, Ciphertext or Fixed value built in Python
        if not isinstance(v, dict):
            raise ValueError(
                f"`{path}`: expected an object with fields {', '.join(t.names)}, got {_show(v)}"
            )
        for k in v:
            if k not in t.names:
                raise ValueError(f"`{path}`: unexpected field `{k}` (fields: {', '.join(t.names)})")
        for k in t.names:
            if k not in v:
                raise ValueError(f"`{path}`: missing field `{k}`")
        out = {n: check_value(f"{path}.{n}", f, v[n]) for n, f in t.fields}
        if t.kind == POINT_KIND:
            from zeenot import _native

            if not _native.bj_check(str(out["x"]), str(out["y"])):
                raise ValueError(f"`{path}`: not a Baby Jubjub point in the prime-order subgroup")
        return out
    if isinstance(t, tuple):
        if not isinstance(v, (list, tuple)):
            raise ValueError(f"`{path}`: expected a list of {len(t)} values, got {_show(v)}")
        if len(v) != len(t):
            raise ValueError(f"`{path}`: expected a list of {len(t)} values, got {len(v)}")
        pairs = enumerate(zip(t, v, strict=True))
        return tuple(check_value(f"{path}[{i}]", e, x) for i, (e, x) in pairs)
    if t == "bool":
        if not isinstance(v, bool):
            raise ValueError(f"`{path}`: expected true or false (bool), got {_show(v)}")
        return v
    if t == "field" and isinstance(v, str):
        v = parse_decimal(path, v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"`{path}`: expected an integer ({type_name(t)}), got {_show(v)}")
    lo, hi = int_range(t)
    if not lo <= v <= hi:
        rng = "[0, p)" if t == "field" else f"{lo}..{hi}"
        raise ValueError(f"`{path}`: {v} is out of range for {type_name(t)} ({rng})")
    return int(v)


def check_spelling(path: str, t: Ty, v: Any) -> None:
    """A proof file's public value has one spelling: a `Field` is a JSON integer, as every
    writer writes it (`to_json_value`). An inputs file may also give a `Field` as a canonical
    decimal string (`check_value`), but a proof file that accepted both would have two forms.
    Only the spelling is checked here; shapes and ranges are `check_value`'s."""
    if isinstance(t, ListTy) or (isinstance(t, tuple) and not isinstance(t, str)):
        if isinstance(v, (list, tuple)):
            elems = [t.elem] * len(v) if isinstance(t, ListTy) else list(t)
            for i, (e, x) in enumerate(zip(elems, v, strict=False)):
                check_spelling(f"{path}[{i}]", e, x)
    elif isinstance(t, RecordTy):
        if isinstance(v, dict):
            for n, f in t.fields:
                if n in v:
                    check_spelling(f"{path}.{n}", f, v[n])
    elif t == "field" and isinstance(v, str):
        raise ValueError(
            f"`{path}`: a Field in a proof file is a JSON integer, not the string {v!r} "
            "(one spelling per proof)"
        )


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    if v is None:
        return "null"
    if isinstance(v, str):
        return f"the string {v!r}"
    return repr(v)


def _flatten(t: Ty, v: Any) -> list[str]:
    if isinstance(t, ListTy):
        assert t.max is not None
        padding = [check_value("", t.elem, zero_value(t.elem))] * (t.max - len(v))
        out = [str(len(v))]
        for x in list(v) + padding:
            out.extend(_flatten(t.elem, x))
        return out
    if isinstance(t, RecordTy):
        return [leaf for n, f in t.fields for leaf in _flatten(f, v[n])]
    if isinstance(t, tuple):
        out: list[str] = []
        for e, x in zip(t, v, strict=False):
            out.extend(_flatten(e, x))
        return out
    if t == "bool":
        return ["1" if v else "0"]
    return [str(int(v))]


def check_params(params: list[dict[str, Any]], values: Any, *, public_only: bool) -> list[Any]:
    """Validated values, one per (selected) parameter, in declaration order."""
    if not isinstance(values, dict):
        raise ValueError("inputs must be a JSON object keyed by parameter name")
    names = {p["name"] for p in params}
    selected = [p for p in params if not public_only or p["vis"] == "public"]
    for key in values:
        if key not in names:
            raise ValueError(f"unexpected input `{key}` (parameters: {', '.join(sorted(names))})")
    out = []
    for p in selected:
        if p["name"] not in values:
            raise ValueError(f"missing input `{p['name']}` ({type_name(p['ty'])})")
        out.append(check_value(p["name"], p["ty"], values[p["name"]]))
    return out


def _unflatten(t: Ty, leaves: list[str], pos: list[int]) -> Any:
    if isinstance(t, ListTy):
        assert t.max is not None
        n = _unflatten(LEN_TYPE, leaves, pos)
        if n > t.max:
            raise ValueError(f"output list length {n} exceeds its maximum size {t.max}")
        items = [_unflatten(t.elem, leaves, pos) for _ in range(t.max)]
        return items[:n]
    if isinstance(t, RecordTy):
        return {n: _unflatten(f, leaves, pos) for n, f in t.fields}
    if isinstance(t, tuple):
        return tuple(_unflatten(e, leaves, pos) for e in t)
    if pos[0] >= len(leaves):
        raise ValueError("too few output values")
    s = leaves[pos[0]]
    pos[0] += 1
    v = parse_decimal("output value", s, signed=True)
    if t == "bool":
        if v not in (0, 1):
            raise ValueError(f"output value {s} is not a bool")
        return v == 1
    lo, hi = int_range(t)
    if t in INT_TYPES and v > hi and v - P >= lo:
        v -= P  # a negative signed value given as its field representative
    if not lo <= v <= hi:
        raise ValueError(f"output value {s} is out of range for {type_name(t)}")
    return v


def format_inputs(inputs: dict[str, Any]) -> str:
    """JSON inputs as text with one list element per line (readable `inputs.json` files)."""
    lines = []
    for key, v in inputs.items():
        if isinstance(v, list) and v:
            body = ",\n".join(f"    {json.dumps(e)}" for e in v)
            lines.append(f"  {json.dumps(key)}: [\n{body}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(v)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def to_json_value(value: Any) -> Any:
    """Tuples and lists → lists, records → objects, typed ints → int, bools and strings (decimal
    commitment coordinates) stay as they are."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple
        return {n: to_json_value(getattr(value, n)) for n in value._fields}
    if isinstance(value, dict):
        return {k: to_json_value(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [to_json_value(v) for v in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    raise ValueError(f"cannot convert {value!r} to JSON")


@dataclass
class Program:
    """A compiled IR v1 document (`ir` is the JSON object of docs/ir.md).

    A program read from its binary form holds only the head in `ir` (everything but `body`):
    what a prover's Python side reads. `body` reads the instructions from `source` (the JSON
    file) the first time something asks for them."""

    ir: dict[str, Any]
    source: Path | None = None

    # -- serialisation -----------------------------------------------------------------------

    def to_json(self) -> str:
        """Canonical JSON: sorted keys, no whitespace. (The program hash is computed by the Rust
        core, `_native.load_program(text).hash`, over its own canonical form of this document.)"""
        return json.dumps({**self.ir, "body": self.body}, sort_keys=True, separators=(",", ":"))

    @property
    def body(self) -> list[dict[str, Any]]:
        """The instructions."""
        if "body" not in self.ir:
            if self.source is None:
                raise ValueError("this program holds no instructions")
            self.ir["body"] = Program.from_json(self.source.read_bytes()).ir["body"]
        body: list[dict[str, Any]] = self.ir["body"]
        return body

    @classmethod
    def from_head(cls, text: str | bytes, source: Path) -> Program:
        """A program from the head of its binary form (`_native.load_program_binary`); its body
        is read from `source`, the JSON file, when asked for."""
        return cls._from_doc(_parse(text), source)

    @classmethod
    def from_json(cls, text: str | bytes) -> Program:
        return cls._from_doc(_parse(text), None)

    @classmethod
    def _from_doc(cls, doc: dict[str, Any], source: Path | None) -> Program:
        lists = ("inputs", "outputs") if source is not None else ("inputs", "body", "outputs")
        for key in lists:
            if not isinstance(doc.get(key), list):
                raise ValueError(f"`{key}` must be a list")
        sig = doc.get("signature")
        if not isinstance(sig, dict) or not isinstance(sig.get("params"), list):
            raise ValueError("`signature` must be an object with `params`")
        for p in sig["params"]:
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise ValueError("`signature.params` entries need a `name`")
            if p.get("vis") not in ("private", "public", "committed"):
                raise ValueError(f"parameter `{p['name']}`: bad `vis`")
            value_type_from_json(p.get("ty"))
        type_from_json(sig.get("returns"))
        sends = sig.get("sends", [])
        if not isinstance(sends, list) or not all(
            isinstance(x, dict) and set(x) == {"name", "ty"} and isinstance(x["name"], str)
            for x in sends
        ):
            raise ValueError("`signature.sends` must be a list of {name, ty}")
        for x in sends:
            value_type_from_json(x["ty"])
        prog = cls(doc, source)
        for p in prog.params:
            if _unbounded(p["ty"]):
                raise ValueError(f"parameter `{p['name']}`: a list without a maximum size")
        if _unbounded(prog.returns):
            raise ValueError("`signature.returns`: a list without a maximum size")
        n_leaves = sum(len(_leaf_types(p["ty"])) for p in prog.params)
        if n_leaves != len(doc["inputs"]):
            raise ValueError("`signature.params` does not match `inputs`")
        n_sent = sum(len(_leaf_types(x["ty"])) for x in prog.sends)
        if len(_leaf_types(prog.returns)) + n_sent != len(doc["outputs"]):
            raise ValueError("`signature.returns` (and `sends`) does not match `outputs`")
        return prog

    # -- signature ---------------------------------------------------------------------------

    @property
    def params(self) -> list[dict[str, Any]]:
        """Parameters with `ty` as a descriptor: [{name, ty, vis}]."""
        return [
            {"name": p["name"], "ty": type_from_json(p["ty"]), "vis": p["vis"]}
            for p in self.ir["signature"]["params"]
        ]

    @property
    def returns(self) -> Ty | None:
        return type_from_json(self.ir["signature"].get("returns"))

    @property
    def sends(self) -> list[dict[str, Any]]:
        """A region's arguments to the regions it calls, committed outputs after the return
        value (docs/ir.md "Regions"): [{name (`premium(total_km)`), ty}]."""
        return [
            {"name": x["name"], "ty": type_from_json(x["ty"])}
            for x in self.ir["signature"].get("sends", [])
        ]

    @property
    def n_return_leaves(self) -> int:
        """How many output leaves the return value has (the sends' follow them)."""
        return len(_leaf_types(self.returns))

    @property
    def n_return_public(self) -> int:
        """How many public values the return value has: its leaves, or a `Committed` return's
        one commitment (two coordinates)."""
        return 2 if self.returns_committed else self.n_return_leaves

    @property
    def input_leaves(self) -> list[dict[str, Any]]:
        """The scalar input leaves in order: [{id, name (`miles[0]`), ty, vis, tier}]."""
        return [dict(i) for i in self.ir["inputs"]]

    def leaf_names(self) -> list[str]:
        """Names of all input leaves in order (`miles[0]`, `miles[1]`, `base`)."""
        return [i["name"] for i in self.ir["inputs"]]

    def public_leaf_names(self) -> list[str]:
        """Names of the public input leaves, in the order of `public_values`."""
        return [i["name"] for i in self.ir["inputs"] if i["vis"] == "public"]

    def output_names(self) -> list[str]:
        """Names of the output leaves (`return`, or `return[0]`, `return[1]`, ...)."""
        return [o["name"] for o in self.ir["outputs"]]

    # -- values ------------------------------------------------------------------------------

    def flatten_inputs(self, values: dict[str, Any]) -> list[str]:
        """JSON inputs keyed by parameter name → IR input leaves (decimal strings) in order."""
        params = self.params
        out: list[str] = []
        for p, v in zip(params, check_params(params, values, public_only=False), strict=False):
            out.extend(_flatten(p["ty"], v))
        return out

    def public_values(self, values: dict[str, Any]) -> list[str]:
        """Leaves of the public parameters only (private keys in `values` are ignored)."""
        params = self.params
        public = [p for p in params if p["vis"] == "public"]
        out: list[str] = []
        for p, v in zip(public, check_params(params, values, public_only=True), strict=False):
            out.extend(_flatten(p["ty"], v))
        return out

    @property
    def returns_committed(self) -> bool:
        """Whether the return value is `Committed[T]` (its commitments are the outputs)."""
        return self.ir["signature"].get("returns_vis") == "committed"

    def committed_params(self) -> list[dict[str, Any]]:
        return [p for p in self.params if p["vis"] == "committed"]

    def commitments_from_json(self, path: str, value: Any) -> list[str]:
        """`{"committed": [[x, y]]}` (a committed value: one Pedersen commitment, a vector
        commitment for several leaves; docs/ir.md "Committed values") → its two decimal
        coordinates. The point itself is checked by the back end."""
        pairs = value.get("committed") if isinstance(value, dict) else None
        if not isinstance(pairs, list) or len(pairs) != 1:
            raise ValueError(f'`{path}`: expected {{"committed": [[x, y]]}} (one commitment)')
        out: list[str] = []
        for i, pair in enumerate(pairs):
            ok = isinstance(pair, list) and len(pair) == 2
            if not ok or not all(is_decimal(c) for c in pair):
                raise ValueError(
                    f"`{path}` commitment {i}: expected [x, y] as canonical decimal strings"
                )
            out.extend(pair)
        return out

    def committed_public_values(self, values: dict[str, Any]) -> list[str]:
        """The commitments of the committed parameters, in instance order (docs/ir.md)."""
        out: list[str] = []
        for p in self.committed_params():
            if p["name"] not in values:
                raise ValueError(f"missing commitment for `{p['name']}`")
            out.extend(self.commitments_from_json(p["name"], values[p["name"]]))
        return out

    def blinding_values(self, blindings: dict[str, Any] | None) -> list[str]:
        """One blinding per committed parameter (an int, or an `Opening`'s one-element list),
        as decimal strings: a committed value is one commitment, whatever its leaves."""
        blindings = blindings or {}
        names = {p["name"] for p in self.committed_params()}
        for key in blindings:
            if key not in names:
                raise ValueError(f"blinding for `{key}`, which is not a Committed parameter")
        out: list[str] = []
        for p in self.committed_params():
            if p["name"] not in blindings:
                raise ValueError(f"missing blinding for the committed parameter `{p['name']}`")
            b = blindings[p["name"]]
            values = b if isinstance(b, list) else [b]
            if len(values) != 1:
                raise ValueError(f"`{p['name']}`: expected one blinding (one commitment)")
            for r in values:
                if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < SUBGROUP_ORDER:
                    raise ValueError(
                        f"`{p['name']}`: a blinding is a non-negative integer below the "
                        "subgroup order l: in [0, l)"
                    )
                out.append(str(r))
        return out

    def sent_from_public(self, leaves: list[str]) -> dict[str, Any] | None:
        """The sends' commitment coordinates (the public vector's tail) → `{name:
        {"committed": [[x, y]]}}`; `None` for a program without sends."""
        if not self.sends:
            return None
        out: dict[str, Any] = {}
        pos = 0
        for x in self.sends:
            out[x["name"]] = {"committed": [list(leaves[pos : pos + 2])]}
            pos += 2
        if pos != len(leaves):
            raise ValueError("the sends' commitments do not match the program")
        return out

    def sent_public_values(self, sent: Any) -> list[str]:
        """`{name: {"committed": [...]}}` (a region proof's `sent`) → its public values."""
        if not self.sends:
            if sent is not None:
                raise ValueError("`sent`: the program sends nothing to other regions")
            return []
        if not isinstance(sent, dict) or set(sent) != {x["name"] for x in self.sends}:
            names = ", ".join(x["name"] for x in self.sends)
            raise ValueError(f"`sent` must hold the commitments of exactly: {names}")
        out: list[str] = []
        for x in self.sends:
            out.extend(self.commitments_from_json(f"sent.{x['name']}", sent[x["name"]]))
        return out

    def unflatten_outputs(self, leaves: list[str]) -> Any:
        """Output leaves → a Python value shaped like the return type (tuples, ints, bools);
        for a `Committed` return, `{"committed": [[x, y]]}`."""
        t = self.returns
        if t is not None and self.returns_committed:
            if len(leaves) != 2:
                raise ValueError("a committed return is one commitment: two coordinates")
            return {"committed": [list(leaves)]}
        return self.unflatten_values(leaves)

    def unflatten_values(self, leaves: list[str]) -> Any:
        """Output *values* (not commitments, even for a `Committed` return) → a Python value."""
        t = self.returns
        if t is None:
            if leaves:
                raise ValueError("the program has no outputs")
            return None
        pos = [0]
        value = _unflatten(t, list(leaves), pos)
        if pos[0] != len(leaves):
            raise ValueError("too many output values")
        return value

    def outputs_to_json(self, value: Any) -> Any:
        return to_json_value(value)

    def flatten_outputs(self, value: Any) -> list[str]:
        """Structured (JSON) outputs → output leaves; ValueError on wrong shape/kind/range."""
        t = self.returns
        if t is None:
            if value is not None:
                raise ValueError("`outputs`: the program returns nothing")
            return []
        if self.returns_committed:
            return self.commitments_from_json("outputs", value)
        return _flatten(t, check_value("outputs", t, value))


def _parse(text: str | bytes) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise ValueError("an IR document must be a JSON object")
    if doc.get("version") != IR_VERSION:
        raise ValueError(f"unsupported IR version {doc.get('version')!r} (expected 1)")
    return doc


def _unbounded(t: Ty | None) -> bool:
    from zeenot.types import unbounded_list

    return t is not None and unbounded_list(t) is not None


def _leaf_types(t: Ty | None) -> list[str]:
    if t is None:
        return []
    ts = [ty for _, ty in leaves("", t)]
    assert all(ty in SCALAR_TYPES for ty in ts)
    return ts
