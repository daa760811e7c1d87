"""A verifiable re-encryption shuffle of rows of exponential-ElGamal ciphertexts on Baby Jubjub.

```python
from zeenot.shuffle import shuffle, verify_shuffle

out_rows, proof = shuffle(pk, rows, context=b"query 17/server 2")
assert verify_shuffle(pk, rows, out_rows, proof, context=b"query 17/server 2")
```

* `pk`: the 32-byte packed public key (circomlibjs `packPoint`).
* `rows`: `N` records of `w` ciphertexts each (1 <= N <= 2^20, 1 <= w <= 256, at most 2^22
  ciphertexts), each the 64-byte packed `K || C` (`K = r·B8`, `C = m·B8 + r·pk`).
* `shuffle` moves whole records under a secret uniformly random permutation and re-randomises
  every ciphertext; the output decrypts to the same multiset of rows and cannot be linked to the
  input. The proof is the Terelius–Wikström proof of a shuffle (the algorithm of CHVote's
  `GenShuffleProof`), extended to rows: see `zeenot_crypto::shuffle` for the protocol and its
  soundness argument. It is bound to `pk`, both row lists and `context` (use the context for
  what the shuffle is for: a query, a server, a step), and is `3N + 3 + 2w` points and
  `2N + 3 + w` scalars long (160 KB for 1,000 rows of one ciphertext).
* `verify_shuffle` returns `True` or `False`. A malformed `pk` or input row is a `ValueError`
  (the verifier's own data); output rows or a proof that do not decode (a point off the curve
  or outside the prime-order subgroup, a wrong length), have another shape, or do not verify
  give `False`.
* `verify_batch` checks many shuffles at once, `[(pk, in_rows, out_rows, proof, context), ...]`,
  and returns one verdict per shuffle (what `verify_shuffle` would say): every proof's check
  is weighted by a fresh secret random 128-bit scalar and all are checked in one
  multi-scalar multiplication (a false proof passes with probability at most 2^-128 plus the
  single proof's soundness error; nothing of the proofs changes); only if the batch fails is
  each proof checked alone, to name the bad ones. A row list shared by two shuffles (one's
  output, the next one's input) is decoded once. `ValueError` (naming the item) for a
  malformed `pk`, `context` or shape of `in_rows`; unlike `verify_shuffle`, input ciphertexts
  that do not decode give that item's `False` (in a chain they are the previous shuffle's
  output, whose `False` names the culprit).
* `rng`: a `random.Random` makes `shuffle` reproducible, for tests only (its permutation and
  randomness then follow from 64 bits of it). By default the operating system's randomness.

Both run in the Rust core with the GIL released.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

# One shuffle to verify: (pk, in_rows, out_rows, proof, context).
Shuffle = tuple[bytes, Sequence[Sequence[bytes]], Sequence[Sequence[bytes]], bytes, bytes]

MAX_BATCH = 4096  # the most shuffles one `verify_batch` call takes

__all__ = ["CIPHERTEXT_LEN", "POINT_LEN", "shuffle", "verify_batch", "verify_shuffle"]

POINT_LEN = 32
CIPHERTEXT_LEN = 64


def _native() -> Any:
    from zeenot import _native

    return _native


def _bytes(value: object, length: int, what: str) -> bytes:
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise ValueError(f"{what} must be bytes, got {type(value).__name__}")
    b = bytes(value)
    if len(b) != length:
        raise ValueError(f"{what} must be {length} bytes, got {len(b)}")
    return b


def _flatten(rows: object, what: str) -> tuple[bytes, int, int]:
    """The rows' ciphertexts laid end to end, with `(N, w)`; `ValueError` if malformed."""
    if not isinstance(rows, Sequence) or isinstance(rows, (str, bytes, bytearray)):
        raise ValueError(f"{what} must be a list of rows (lists of 64-byte ciphertexts)")
    if not rows:
        raise ValueError(f"{what}: a shuffle needs at least one row")
    width = -1
    parts: list[bytes] = []
    for i, row in enumerate(rows):
        if not isinstance(row, Sequence) or isinstance(row, (str, bytes, bytearray)):
            raise ValueError(f"{what}[{i}] must be a list of 64-byte ciphertexts")
        if width < 0:
            width = len(row)
        if width == 0:
            raise ValueError(f"{what}: a row needs at least one ciphertext")
        if len(row) != width:
            raise ValueError(f"{what}[{i}] has {len(row)} ciphertexts, {what}[0] has {width}")
        parts.extend(_bytes(c, CIPHERTEXT_LEN, f"{what}[{i}][{k}]") for k, c in enumerate(row))
    return b"".join(parts), len(rows), width


def _context(context: object) -> bytes:
    if not isinstance(context, (bytes, bytearray, memoryview)):
        raise ValueError(f"context must be bytes, got {type(context).__name__}")
    return bytes(context)


def shuffle(
    pk: bytes,
    rows: Sequence[Sequence[bytes]],
    context: bytes,
    rng: random.Random | None = None,
) -> tuple[list[list[bytes]], bytes]:
    """Shuffle and re-randomise `rows` under `pk`: `(out_rows, proof)`, the proof bound to
    `context`. `ValueError` for a malformed key, ciphertext or shape."""
    key = _bytes(pk, POINT_LEN, "pk")
    flat, n, w = _flatten(rows, "rows")
    seed = None if rng is None else rng.getrandbits(64)
    out, proof = _native().shuffle_prove(key, flat, n, w, _context(context), seed)
    row, step = w * CIPHERTEXT_LEN, CIPHERTEXT_LEN
    out_rows = [[out[j : j + step] for j in range(i * row, (i + 1) * row, step)] for i in range(n)]
    return out_rows, bytes(proof)


def verify_shuffle(
    pk: bytes,
    in_rows: Sequence[Sequence[bytes]],
    out_rows: Sequence[Sequence[bytes]],
    proof: bytes,
    context: bytes,
) -> bool:
    """Whether `proof` shows `out_rows` to be a re-encryption shuffle of `in_rows` under `pk`
    for `context`. `ValueError` for a malformed `pk`, `in_rows` or `context`; `False` for
    output rows or a proof that are malformed, of another shape, or do not verify."""
    key = _bytes(pk, POINT_LEN, "pk")
    flat_in, n, w = _flatten(in_rows, "in_rows")
    ctx = _context(context)
    try:
        flat_out, n_out, w_out = _flatten(out_rows, "out_rows")
    except ValueError:
        return False
    if (n_out, w_out) != (n, w) or not isinstance(proof, (bytes, bytearray, memoryview)):
        return False
    return bool(_native().shuffle_verify(key, flat_in, flat_out, n, w, bytes(proof), ctx))


def verify_batch(items: Sequence[Shuffle]) -> list[bool]:
    """Per `(pk, in_rows, out_rows, proof, context)` of `items`, whether `verify_shuffle` would
    accept it (input ciphertexts that do not decode: `False`); all checked in one batch, one
    by one only if the batch fails. `ValueError` (naming the item) for a malformed `pk`,
    `context` or shape of `in_rows`, or more than 4096 items."""
    if not isinstance(items, Sequence) or isinstance(items, (str, bytes, bytearray)):
        raise ValueError("items must be a list of (pk, in_rows, out_rows, proof, context)")
    if len(items) > MAX_BATCH:
        raise ValueError(f"a batch takes at most {MAX_BATCH} shuffles, got {len(items)}")
    verdicts = [False] * len(items)
    native: list[tuple[bytes, bytes, bytes, int, int, bytes, bytes]] = []
    where: list[int] = []
    for i, item in enumerate(items):
        if not isinstance(item, tuple) or len(item) != 5:
            raise ValueError(f"items[{i}] must be (pk, in_rows, out_rows, proof, context)")
        pk, in_rows, out_rows, proof, context = item
        key = _bytes(pk, POINT_LEN, f"items[{i}] pk")
        flat_in, n, w = _flatten(in_rows, f"items[{i}] in_rows")
        ctx = _context(context)
        try:
            flat_out, n_out, w_out = _flatten(out_rows, "out_rows")
        except ValueError:
            continue
        if (n_out, w_out) != (n, w) or not isinstance(proof, (bytes, bytearray, memoryview)):
            continue
        native.append((key, flat_in, flat_out, n, w, bytes(proof), ctx))
        where.append(i)
    if not native:
        return verdicts
    try:
        ok = _native().shuffle_verify_batch(native)
    except ValueError as exc:  # "shuffle j: ...", j counting the items passed on
        m = re.match(r"shuffle (\d+): (.*)", str(exc), re.S)
        if m is None or int(m[1]) >= len(where):
            raise
        raise ValueError(f"items[{where[int(m[1])]}]: {m[2]}") from None
    for i, verdict in zip(where, ok, strict=True):
        verdicts[i] = bool(verdict)
    return verdicts
