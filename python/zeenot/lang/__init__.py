"""The zeenot language front end: load a `@zk` function and compile it to IR v1."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping
from typing import Any

from zeenot.errors import CompileError, LoadError, UsageError
from zeenot.ir import Program
from zeenot.lang.compiler import MAX_INSTRUCTIONS, compile_program


def compile_function(
    fn: Any,
    lengths: Mapping[str, int] | None = None,
    *,
    max_instructions: int = MAX_INSTRUCTIONS,
) -> Program:
    """Compile a `@zk` function (or any annotated function) to a `Program`; `lengths`
    specialises its unbounded list parameters (see `zeenot.api.Template`). Compiling stops
    with ZN114 once the program has `max_instructions` instructions.

    Raises `CompileError` with a `Diagnostic` when the function is outside the subset.
    """
    if lengths is not None and not (
        isinstance(lengths, Mapping) and all(isinstance(k, str) for k in lengths)
    ):
        raise UsageError(f"`lengths` maps parameter names to lengths, not {_kind(lengths)}")
    if type(max_instructions) is not int or max_instructions < 1:
        raise UsageError("`max_instructions` is a positive integer")
    return Program(compile_program(fn, lengths, max_instructions=max_instructions))


_counter = [0]


def _kind(value: Any) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def load_module(path: str) -> Any:
    """Import a Python file by path as a fresh module."""
    if not isinstance(path, (str, os.PathLike)):
        raise UsageError(f"the module is a path (str or os.PathLike), not {_kind(path)}")
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise LoadError(f"cannot read `{path}`: no such file")
    _counter[0] += 1
    stem = os.path.splitext(os.path.basename(path))[0]
    modname = f"_zeenot_user_{_counter[0]}_{''.join(c if c.isalnum() else '_' for c in stem)}"
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise LoadError(f"cannot import `{path}`: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    directory = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, directory)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        from zeenot.errors import Diagnostic

        sys.modules.pop(modname, None)
        raise CompileError(
            Diagnostic(
                "ZN001", f"syntax error: {exc.msg}", path, exc.lineno, max((exc.offset or 1) - 1, 0)
            )
        ) from None
    except CompileError:
        sys.modules.pop(modname, None)
        raise
    except KeyboardInterrupt:
        sys.modules.pop(modname, None)
        raise
    except BaseException as exc:  # noqa: BLE001 - the user's module failed to import
        # BaseException: a module that calls `sys.exit()` must not end zeenot with its code
        # (a verifier would exit 0 on a forged proof without printing `valid`).
        sys.modules.pop(modname, None)
        tb = exc.__traceback__
        line = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == path:
                line = tb.tb_lineno
            tb = tb.tb_next
        where = f"{path}:{line}" if line else path
        raise LoadError(f"importing `{where}` failed: {type(exc).__name__}: {exc}") from None
    finally:
        try:
            sys.path.remove(directory)
        except ValueError:
            pass
    return module


def load_function(path: str, name: str) -> Any:
    """Import `path` and return its `@zk` function `name`."""
    if not isinstance(name, str):
        raise UsageError(f"the function's name is a string, not {_kind(name)}")
    module = load_module(path)
    fn = getattr(module, name, None)
    zk_fns = sorted(k for k, v in vars(module).items() if callable(v) and hasattr(v, "__zk__"))
    available = f" (@zk functions there: {', '.join(zk_fns)})" if zk_fns else " (it has none)"
    if fn is None:
        raise LoadError(f"`{path}` has no function `{name}`{available}")
    if not callable(fn) or not hasattr(fn, "__zk__"):
        raise LoadError(f"`{name}` in `{path}` is not decorated with @zk{available}")
    return fn


__all__ = ["compile_function", "load_function", "load_module"]
