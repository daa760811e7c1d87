"""Proving keys validated once: a record, per user, of the keys this machine has checked.

Loading a proving key checks every point on the curve and in the prime-order subgroup (a prover
must not run its secret witness through a multi-exponentiation over points a malicious verifier
chose); for payd that is 0.2 s of a 0.3 s proof. After a key passes, or after `setup` made it
here, the SHA-256 of its exact bytes is recorded as an empty file named by the digest; a key
whose digest is recorded is decoded with the same bounds and encoding checks but without the
point checks.

What the record trusts: that nobody but this user can write it. It lives in
`$ZEENOT_CACHE_DIR` (empty: disabled), else `$XDG_CACHE_HOME/zeenot/validated-keys`, else
`~/.cache/zeenot/validated-keys`, created with mode 0700, and it is used only while it is a
directory owned by this user that no one else can write. A different key cannot pass for a
recorded one without a SHA-256 second preimage. Someone who can write this user's files can
replace zeenot itself, so the record adds nothing they could not already do.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def directory() -> Path | None:
    """Where the record lives, or None when it is disabled."""
    env = os.environ.get("ZEENOT_CACHE_DIR")
    if env is not None:
        return Path(env) if env else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "zeenot" / "validated-keys"


def _usable(d: Path) -> bool:
    try:
        st = d.stat()
    except OSError:
        return False
    private = not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and private


def is_validated(sha256: str) -> bool:
    d = directory()
    return d is not None and _usable(d) and (d / sha256).is_file()


def record(sha256: str) -> None:
    """Record a key as validated; a record that cannot be written is skipped (the next load
    validates again)."""
    d = directory()
    if d is None:
        return
    try:
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
        if _usable(d):
            (d / sha256).touch()
    except OSError:
        pass
