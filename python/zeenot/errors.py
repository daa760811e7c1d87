"""Errors raised by zeenot: compile-time diagnostics and run-time failures."""

from __future__ import annotations

import linecache
from dataclasses import dataclass


class ZeenotError(Exception):
    """Base class of every error zeenot raises on purpose."""


@dataclass(frozen=True)
class Diagnostic:
    """A compile-time error at a source location (line 1-based, col 0-based as in `ast`)."""

    code: str
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    end_col: int | None = None
    hint: str | None = None

    def render(self) -> str:
        """Ruff-style rendering with the offending line and a caret span (column shown 1-based)."""
        out = [f"error[{self.code}]: {self.message}"]
        if self.file is not None and self.line is not None:
            col = (self.col or 0) + 1
            num = str(self.line)
            pad = " " * len(num)
            out.append(f"{pad}--> {self.file}:{self.line}:{col}")
            text = linecache.getline(self.file, self.line).rstrip("\n").expandtabs(1)
            if text:
                start = self.col or 0
                end = self.end_col if self.end_col and self.end_col > start else len(text)
                end = min(end, len(text)) if len(text) > start else start + 1
                out.append(f"{pad} |")
                out.append(f"{num} | {text}")
                out.append(f"{pad} | {' ' * start}{'^' * max(1, end - start)}")
            if self.hint:
                out.append(f"{pad} = hint: {self.hint}")
        elif self.hint:
            out.append(f"  = hint: {self.hint}")
        return "\n".join(out)


class CompileError(ZeenotError):
    """The program is outside the compilable subset (or ill-typed). Carries a `Diagnostic`."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic
        where = ""
        d = diagnostic
        if d.file is not None and d.line is not None:
            where = f"{d.file}:{d.line}:{(d.col or 0) + 1}: "
        hint = f" (hint: {d.hint})" if d.hint else ""
        super().__init__(f"{where}{d.code}: {d.message}{hint}")

    @property
    def code(self) -> str:
        return self.diagnostic.code

    def render(self) -> str:
        return self.diagnostic.render()


class LoadError(ZeenotError):
    """A program file or function that cannot be loaded (missing, not `@zk`, import failed)."""


class MalformedInput(ZeenotError):
    """A file, key, proof or input value that cannot be parsed or has the wrong shape."""


class InputError(MalformedInput, ValueError):
    """An input value that does not fit its parameter (`simulate`): a zeenot error, and a
    `ValueError` as well, which callers of `simulate` have always caught."""


class ProofRejected(ZeenotError):
    """A well-formed proof that does not verify, with the reason."""


class UsageError(ZeenotError):
    """An API function called with an argument of the wrong type or out of its range."""


class Failure(ZeenotError):
    """The program fails on its inputs: no proof exists. `kind` says why."""

    kind = "failure"

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.file = file
        self.line = line
        self.detail = message
        where = f" at {file}:{line}" if file is not None and line is not None else ""
        super().__init__(f"{message}{where}")


class OverflowFailure(Failure):
    """An integer result (or a cast) outside its type's range."""

    kind = "overflow"


class RangeFailure(Failure):
    """A `Field` element converted to an integer type whose range does not contain it."""

    kind = "range"


class CheckFailure(Failure):
    """A `check(cond)` whose condition is false."""

    kind = "check"


class DivisionByZeroFailure(Failure):
    """`//` or `%` by zero."""

    kind = "division_by_zero"
