"""A sigma statement's wire JSON written directly, for verifiers that check many proofs of one
shape (the bank's deposits): the same document `zeenot.sigma.Statement.to_json()` compiles
from the proof language, without building the statement's Python objects first.

The proof language stays the specification: each caller's statement is written there too (the
prover uses it) and the tests compare the two documents byte for byte, including the cases the
compiler's merging decides (two elements with one encoding are one element, named by its first
use). Only `AND` trees of equations: no `OR`, no constants (what the callers need).
"""

from __future__ import annotations

import json
from typing import Any

# An equation: the left-hand side's (name, packed point), then its terms
# (secret's name, element's name, element's packed point); points as 32 bytes.
Equation = tuple[tuple[str, bytes], list[tuple[str, str, bytes]]]
# A tree: an equation's index (an int) or a list of subtrees (an AND).
Tree = Any


class WireStatement:
    """Compiles equations in the order `Statement._compiled` walks them: each DLRep's
    left-hand side, then its terms, a secret (by name: callers use each name for one secret)
    and an element (by its encoding) numbered at first use."""

    def __init__(self) -> None:
        self._secrets: dict[str, int] = {}
        self._elements: dict[bytes, int] = {}
        self._element_docs: list[dict[str, str]] = []
        self._equations: list[dict[str, Any]] = []

    def _el(self, name: str, packed: bytes) -> int:
        i = self._elements.get(packed)
        if i is None:
            i = self._elements[packed] = len(self._element_docs)
            self._element_docs.append({"name": name, "point": packed.hex()})
        return i

    def equation(self, lhs: tuple[str, bytes], terms: list[tuple[str, str, bytes]]) -> int:
        """Adds `lhs = Σ secret·element`; its index for the tree."""
        left = self._el(*lhs)
        wire = []
        for s, name, packed in terms:
            k = self._secrets.setdefault(s, len(self._secrets))
            wire.append([k, self._el(name, packed)])
        self._equations.append({"lhs": left, "terms": wire})
        return len(self._equations) - 1

    def json(self, root: Tree) -> tuple[str, int]:
        """The document for this tree and the proof's length (32 bytes per equation and per
        secret: an AND has no OR challenges)."""

        def node(t: Tree) -> dict[str, Any]:
            return {"eq": t} if isinstance(t, int) else {"and": [node(c) for c in t]}

        doc = {
            "secrets": list(self._secrets),
            "elements": self._element_docs,
            "equations": self._equations,
            "root": node(root),
        }
        size = 32 * (len(self._equations) + len(self._secrets))
        return json.dumps(doc, separators=(",", ":")), size
