"""Locating a function's AST in its original file, with original line and column numbers."""

from __future__ import annotations

import ast
import inspect
import linecache
import textwrap
from dataclasses import dataclass
from typing import Any

from zeenot.errors import CompileError, Diagnostic


@dataclass
class FunctionSource:
    node: ast.FunctionDef
    file: str
    text: str  # the text `node`'s positions refer to (the whole file when possible)


_MODULE_CACHE: dict[tuple[str, int], ast.Module] = {}


def _parse(file: str, text: str) -> ast.Module:
    key = (file, hash(text))
    mod = _MODULE_CACHE.get(key)
    if mod is None:
        try:
            mod = ast.parse(text, filename=file)
        except SyntaxError as exc:
            raise CompileError(
                Diagnostic(
                    "ZN001",
                    f"syntax error: {exc.msg}",
                    file,
                    exc.lineno,
                    (exc.offset or 1) - 1,
                )
            ) from None
        _MODULE_CACHE[key] = mod
    return mod


def function_source(fn: Any) -> FunctionSource:
    """The `FunctionDef` of `fn` with positions in its original file."""
    code = getattr(fn, "__code__", None)
    if code is None:
        raise CompileError(
            Diagnostic("ZN001", f"`{getattr(fn, '__name__', fn)!s}` is not a Python function")
        )
    file = code.co_filename
    lines = linecache.getlines(file, getattr(fn, "__globals__", None))
    if lines:
        text = "".join(lines)
        mod = _parse(file, text)
        for node in ast.walk(mod):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                node.name == fn.__name__
            ):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if first == code.co_firstlineno:
                    if isinstance(node, ast.AsyncFunctionDef):
                        raise CompileError(
                            Diagnostic(
                                "ZN002",
                                "async functions are not supported",
                                file,
                                node.lineno,
                                node.col_offset,
                            )
                        )
                    return FunctionSource(node, file, text)
    try:
        src_lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        raise CompileError(
            Diagnostic(
                "ZN001",
                f"cannot find the source code of `{fn.__name__}`",
                hint="define @zk functions and their helpers in a .py file",
            )
        ) from None
    text = textwrap.dedent("".join(src_lines))
    mod = ast.parse(text)
    ast.increment_lineno(mod, start - 1)
    node = mod.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise CompileError(Diagnostic("ZN001", f"cannot parse the source of `{fn.__name__}`"))
    return FunctionSource(node, file, "\n" * (start - 1) + text)
