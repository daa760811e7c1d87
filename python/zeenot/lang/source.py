"""Locating a function's AST in its original file, with original line and column numbers."""

from __future__ import annotations

import ast
import inspect
import linecache
import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from zeenot.errors import CompileError, Diagnostic


@dataclass
class FunctionSource:
    node: ast.FunctionDef
    file: str
    text: str  # the text `node`'s positions refer to (the whole file when possible)


@lru_cache(maxsize=32)
def _lines(text: str) -> list[str]:
    """`text` split as `ast` counts lines (at \\r\\n, \\r and \\n only), each with its end."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def segment(text: str, node: ast.AST) -> str | None:
    """`ast.get_source_segment(text, node)`, without splitting `text` again on every call: a
    compiler quotes a node's source for every call and check it emits, so an unrolled loop
    would split the whole file thousands of times (most of a long template's compile)."""
    end_lineno = getattr(node, "end_lineno", None)
    end_col = getattr(node, "end_col_offset", None)
    if end_lineno is None or end_col is None:
        return None
    lines = _lines(text)
    first, last, col = node.lineno - 1, end_lineno - 1, node.col_offset  # type: ignore[attr-defined]
    if not 0 <= first <= last < len(lines):
        return None
    if first == last:
        return lines[first].encode()[col:end_col].decode()
    head = lines[first].encode()[col:].decode()
    tail = lines[last].encode()[:end_col].decode()
    return "".join([head, *lines[first + 1 : last], tail])


_MODULE_CACHE: dict[tuple[str, int], ast.Module] = {}
_FUNCTION_CACHE: dict[tuple[str, int, str, int], FunctionSource] = {}


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
        key = (file, hash(text), fn.__name__, code.co_firstlineno)
        found = _FUNCTION_CACHE.get(key)
        if found is not None:  # a helper inlined at every element: walk its module once
            return found
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
                    found = FunctionSource(node, file, text)
                    _FUNCTION_CACHE[key] = found
                    return found
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
    try:
        mod = ast.parse(text)
    except SyntaxError:  # a lambda's lines cut out of a larger expression
        raise CompileError(
            Diagnostic(
                "ZN001",
                f"cannot parse the source of `{fn.__name__}`",
                file,
                start,
                hint="@zk functions are `def` statements",
            )
        ) from None
    ast.increment_lineno(mod, start - 1)
    node = mod.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise CompileError(Diagnostic("ZN001", f"cannot parse the source of `{fn.__name__}`"))
    return FunctionSource(node, file, "\n" * (start - 1) + text)
