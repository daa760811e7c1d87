"""Run a `@zk` function as plain Python on JSON inputs: the language's reference semantics."""

from __future__ import annotations

import inspect
import os
import traceback
from typing import Any

from zeenot.errors import CheckFailure, InputError, UsageError, ZeenotError
from zeenot.ir import check_params, to_json_value
from zeenot.types import (
    SCALAR_CLASSES,
    ListTy,
    RecordTy,
    Ty,
    TypeAnnotationError,
    Visibility,
    type_from_obj,
)


class SignatureError(ZeenotError):
    """A `@zk` function whose parameters are not all `Private[T]` / `Public[T]`."""


class SimulationError(ZeenotError):
    """Running a `@zk` function as plain Python raised an error that is not one of the
    language's failures (and that the compiler does not diagnose either)."""


def _kind(value: Any) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def signature_of(fn: Any) -> tuple[list[dict[str, Any]], Ty | None]:
    """`([{name, ty, vis, tier}], return type or None)` from the run-time annotations."""
    fn = inspect.unwrap(fn)
    try:
        ann = inspect.get_annotations(fn, eval_str=True)
    except Exception as exc:  # noqa: BLE001
        raise SignatureError(f"cannot evaluate the annotations of `{fn.__name__}`: {exc}") from None
    params = []
    for p in inspect.signature(fn).parameters.values():
        obj = ann.get(p.name)
        if not isinstance(obj, Visibility):
            raise SignatureError(
                f"parameter `{p.name}` of `{fn.__name__}` must be annotated Private[T] or Public[T]"
            )
        try:
            ty = type_from_obj(obj.ty)
        except TypeAnnotationError as exc:
            raise SignatureError(f"parameter `{p.name}`: {exc}") from None
        params.append({"name": p.name, "ty": ty, "vis": obj.vis, "tier": obj.tier})
    ret = ann.get("return")
    if isinstance(ret, Visibility) and ret.vis == "committed":
        ret = ret.ty
    try:
        ret_ty = None if ret is None else type_from_obj(ret)
    except TypeAnnotationError as exc:
        raise SignatureError(f"return annotation: {exc}") from None
    return params, ret_ty


def to_runtime(ty: Ty, v: Any) -> Any:
    """A validated JSON value (int/bool/tuple/list/record object) as zeenot run-time values."""
    if isinstance(ty, ListTy):
        return [to_runtime(ty.elem, x) for x in v]
    if isinstance(ty, RecordTy):
        return ty.cls(**{n: to_runtime(f, v[n]) for n, f in ty.fields})
    if isinstance(ty, tuple):
        return tuple(to_runtime(t, x) for t, x in zip(ty, v, strict=False))
    return SCALAR_CLASSES[ty](v)


def simulate(fn: Any, inputs: dict[str, Any]) -> Any:
    """Call `fn` on `inputs` (JSON values keyed by parameter name) and return JSON outputs.

    A program the compiler rejects is rejected here first, with the compiler's diagnostic
    (`CompileError`): simulate runs exactly the programs that can be proved. Bad inputs raise
    `InputError` (a `MalformedInput` and a `ValueError`; the messages of
    `Program.flatten_inputs`); a failing program raises a
    `zeenot.errors.Failure` naming the source line.
    """
    if not inspect.isfunction(inspect.unwrap(fn)):  # not a partial, class or callable object
        raise UsageError(f"simulate takes a @zk function, not {_kind(fn)}")
    params, _ = signature_of(fn)
    try:
        values = check_params(params, inputs, public_only=False)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    _front_end(fn, _lengths(params, values))
    args = {p["name"]: to_runtime(p["ty"], v) for p, v in zip(params, values, strict=False)}
    try:
        result = fn(**args)
    except (ZeenotError, KeyboardInterrupt):
        raise
    except (IndexError, StopIteration, ValueError) as exc:
        # In the language these mean "no such element": an index past the end, `next` or
        # `min`/`max` of an empty list. No proof exists for them, as for a failed `check`.
        file, line = _user_frame(exc)
        what = {IndexError: "index out of range", StopIteration: "next(): no element"}.get(
            type(exc), str(exc)
        )
        raise CheckFailure(f"no element: {what}", file, line) from exc
    except BaseException as exc:  # noqa: BLE001 - SystemExit and type errors included
        raise _unexpected(fn, exc) from None
    return to_json_value(result)


def _unexpected(fn: Any, exc: BaseException) -> ZeenotError:
    """Why plain Python stopped with `exc` (`sys.exit()`, an error in a module the program
    imports) although the compiler accepted the program (`_front_end`, which already gave
    type errors such as `/` on `u32` their diagnostics): the error at the user's line."""
    file, line = _user_frame(exc)
    where = f" at {file}:{line}" if file is not None else ""
    return SimulationError(f"running `{fn.__name__}` raised {type(exc).__name__}{where}: {exc}")


def _lengths(params: list[dict[str, Any]], values: list[Any]) -> dict[str, int] | None:
    """The lengths of the unbounded list inputs (a template is compiled at them)."""
    lengths = {
        p["name"]: len(v)
        for p, v in zip(params, values, strict=False)
        if isinstance(p["ty"], ListTy) and p["ty"].max is None
    }
    return lengths or None


_CHECKED: dict[tuple[Any, tuple[tuple[str, int], ...]], None] = {}


def _front_end(fn: Any, lengths: dict[str, int] | None) -> None:
    """Raise the compiler's diagnostic if the compiler rejects `fn` (once per function and
    lengths: simulate is called many times on one program)."""
    from zeenot.lang import compile_function

    key = (inspect.unwrap(fn), tuple(sorted((lengths or {}).items())))
    if key not in _CHECKED:
        compile_function(fn, lengths)
        _CHECKED[key] = None


_PKG = os.path.dirname(os.path.abspath(__file__))


def _user_frame(exc: BaseException) -> tuple[str | None, int | None]:
    """The innermost traceback frame outside the zeenot package: the user's line."""
    found: tuple[str | None, int | None] = (None, None)
    for frame in traceback.extract_tb(exc.__traceback__):
        if not os.path.abspath(frame.filename).startswith(_PKG + os.sep):
            found = (frame.filename, frame.lineno)
    return found
