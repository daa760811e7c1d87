"""The files zeenot reads from strangers and writes for its users.

Reading: every failure is a `MalformedInput` naming the file (unreadable, not UTF-8, not JSON,
nested too deeply, duplicate keys), never a bare exception. Writing: a file is replaced
atomically (a temporary file in the same directory, flushed, then renamed over it), so that a
reader sees the old content or the new, never half of it; output paths are checked before any
costly work so that a mistyped `-o` does not throw a finished proof away.

Every write states whether its file is secret: a public artefact (a proof, a verifying key, a
circuit, a plan, a bundle, a roster) is written mode 0644 so that whoever it is handed to can
read it; a secret (an opening, a blinding, a secret key, a token) is written 0600, its owner's
alone, from the moment the temporary file exists.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from zeenot.errors import MalformedInput


def read_text(path: str | os.PathLike[str], what: str) -> str:
    """The file's text; `what` names it in errors (`inputs`, `proof`, …)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise MalformedInput(f"cannot read {what} `{path}`: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedInput(
            f"{what} `{path}` is not UTF-8 text (invalid byte at offset {exc.start})"
        ) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"`{name}` is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key `{key}`")
        out[key] = value
    return out


def parse_json(text: str | bytes, what: str) -> Any:
    """Strict JSON: no NaN/Infinity, no duplicate keys (one meaning per document), bounded
    nesting (Python's recursion limit). Bytes must be UTF-8 (`json.loads` alone would also
    take UTF-16 and UTF-32)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise MalformedInput(f"{what} is nested too deeply to be a zeenot document") from None
    except UnicodeDecodeError as exc:
        raise MalformedInput(f"{what} is not UTF-8 text (invalid byte at {exc.start})") from None
    except ValueError as exc:
        raise MalformedInput(f"{what} is not valid JSON: {exc}") from None


def read_json(path: str | os.PathLike[str], what: str) -> Any:
    return parse_json(read_text(path, what), f"{what} `{path}`")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


PUBLIC_MODE = 0o644
SECRET_MODE = 0o600


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, secret: bool) -> None:
    """Replace `path` with `data` atomically (same directory, so the rename cannot cross file
    systems). On failure the old file, if any, is left as it was and no temporary remains.

    `secret` is required so that every caller says which kind of file it writes: secret files
    get mode 0600 (the temporary file is created so, never readable by others), public ones
    0644 (set before the rename, so the file never appears with another mode)."""
    target = Path(path)
    raw = data.encode() if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise MalformedInput(f"cannot write `{target}`: {exc.strerror or exc}") from None
    try:
        try:
            _write_all(fd, raw)
            if not secret:
                os.fchmod(fd, PUBLIC_MODE)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise MalformedInput(f"cannot write `{target}`: {exc.strerror or exc}") from None


def check_output_file(path: str | os.PathLike[str]) -> Path:
    """`path` can be written as a file: its directory exists and it is not itself a directory."""
    p = Path(path)
    if p.is_dir():
        raise MalformedInput(f"cannot write `{p}`: it is a directory (name a file)")
    parent = p.parent
    if not parent.is_dir():
        why = "not a directory" if parent.exists() else "no such directory"
        raise MalformedInput(f"cannot write `{p}`: `{parent}`: {why}")
    return p


def check_output_dir(path: str | os.PathLike[str]) -> Path:
    """`path` is, or can be made, a directory: it and its nearest existing ancestor are
    directories. Nothing is created here (see `make_dir`)."""
    p = Path(path)
    probe = p
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise MalformedInput(f"cannot write into `{p}`: `{probe}` is not a directory")
    return p


def make_dir(path: str | os.PathLike[str]) -> Path:
    p = check_output_dir(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MalformedInput(f"cannot create `{p}`: {exc.strerror or exc}") from None
    return p
