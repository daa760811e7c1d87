"""Groth16 verification without the IR: what a server keeps to check many proofs of a program.

A `Verifier` holds the program's name, hash and signature, the *layout* of its public values
(the type of each, where the Pedersen commitments sit) and the verifying key, prepared once.
`compile` writes the first three to `verifier.json`, so loading a verifier reads a few
kilobytes whatever the program's size, and each proof costs the pairing check plus a
multi-exponentiation over its public values. `verify_batch` checks many proofs with one random
linear combination (docs/threat-model.md: why that is sound) and names the invalid ones.

`check_each` is that batch-then-name mechanism for either back end, over a `Checks`:
`Groth16Checks` (a `Verifier`) or `SigmaChecks` (a compiled circuit's sigma proofs, one
multi-exponentiation for the lot); the server's `BatchingVerifier` uses the same `Checks`.

What `verifier.json` is trusted with: the same as the IR next to it. It is the verifier's own
file, written by `compile`; `keys.json` pins the program hash it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from zeenot import _native
from zeenot.artifacts import (  # noqa: F401 - VERIFIER_FILE/FORMAT and save_layout: old paths
    KEYS_FILE,
    VERIFIER_FILE,
    VERIFIER_FORMAT,
    Circuit,
    Keys,
    Proof,
    _path,
    _sha256,
    public_vector,
    save_layout,
)
from zeenot.errors import MalformedInput, ProofRejected, UsageError, ZeenotError
from zeenot.files import read_json
from zeenot.ir import Program


@dataclass(frozen=True)
class Verifier:
    """A Groth16 verifier for one program and one verifying key."""

    program: Program  # the name and signature only (no body): enough to read proof files
    program_hash: str
    verifying_key: bytes
    prepared: _native.Groth16Verifier

    @property
    def name(self) -> str:
        return str(self.program.ir["name"])

    @property
    def verifying_key_hash(self) -> str:
        return _sha256(self.verifying_key)

    @classmethod
    def of(cls, circuit: Circuit, verifying_key: bytes) -> Verifier:
        """A verifier for a compiled circuit and its verifying key."""
        if not isinstance(circuit, Circuit):
            raise UsageError(f"a Verifier needs a compiled Circuit, not {type(circuit).__name__}")
        if not isinstance(verifying_key, bytes):
            raise UsageError("the verifying key is bytes (Keys.verifying_key)")
        types, commitments = circuit.layout
        return cls(
            circuit.program,
            circuit.hash,
            verifying_key,
            _prepare(types, commitments, verifying_key),
        )

    @classmethod
    def load(cls, directory: str | Path) -> Verifier:
        """The verifier of a circuit directory: `verifier.json` and the verifying key (the IR
        is read only for a directory compiled before `verifier.json` existed)."""
        d = _path(directory, "directory")
        keys = Keys.load(d, proving=False)
        if not (d / VERIFIER_FILE).exists():
            verifier = cls.of(Circuit.load(d), keys.verifying_key)
        else:
            verifier = _from_document(read_json(d / VERIFIER_FILE, "the verifier"), keys, d)
        if keys.program_hash != verifier.program_hash:
            raise MalformedInput(f"`{d / KEYS_FILE}` pins another program than `{d}` holds")
        return verifier

    def public_values(self, proof: Proof) -> list[str]:
        """The proof's public vector, after checking that the proof is for this program and
        key (`ProofRejected`) and well formed (`MalformedInput`)."""
        if not isinstance(proof, Proof):
            raise UsageError(f"expected a `Proof` (Proof.from_json), not {type(proof).__name__}")
        if proof.backend != "groth16" or proof.lengths is not None:
            raise ProofRejected(f"a {proof.backend} proof: this verifier checks groth16 proofs")
        check_program(self.name, self.program_hash, proof)
        if proof.verifying_key_hash != self.verifying_key_hash:
            raise ProofRejected("the proof was made with a different verifying key")
        return public_vector(self.program, proof)

    def verify(self, proof: Proof) -> None:
        """Return if the proof is valid; raise `ProofRejected` with the reason otherwise."""
        checks = Groth16Checks(self)
        judge(checks, checks.item(proof))

    def verify_batch(self, proofs: Sequence[Proof]) -> list[ZeenotError | None]:
        """Check many proofs: for each, `None` if valid, else why not (`check_each`)."""
        return check_each(Groth16Checks(self), proofs)


Item = tuple[list[str], bytes]  # a proof's public values and bytes


class Checks(Protocol):
    """What batch verification needs of a back end."""

    def item(self, proof: Proof) -> Item:
        """The proof's public values and bytes (`ProofRejected` / `MalformedInput` early)."""
        ...

    def batch(self, items: list[Item]) -> bool:
        """Whether all verify (a native error or `ValueError` for a malformed member)."""
        ...

    def one(self, item: Item) -> bool:
        """Whether this one verifies (`_native.DecodeError` / `ValueError` if malformed)."""
        ...


class Groth16Checks:
    def __init__(self, verifier: Verifier):
        self.verifier = verifier

    def item(self, proof: Proof) -> Item:
        return self.verifier.public_values(proof), proof.proof

    def batch(self, items: list[Item]) -> bool:
        return bool(self.verifier.prepared.verify_batch(items))

    def one(self, item: Item) -> bool:
        return bool(self.verifier.prepared.verify(*item))


class SigmaChecks:
    """Sigma proofs of one compiled circuit (no keys: the program is the statement); for a
    template, the circuit specialised at `lengths`, which every proof must record."""

    def __init__(self, circuit: Circuit, lengths: dict[str, int] | None = None):
        self.circuit, self.lengths = circuit, lengths

    def item(self, proof: Proof) -> Item:
        if not isinstance(proof, Proof):
            raise UsageError(f"expected a `Proof` (Proof.from_json), not {type(proof).__name__}")
        if proof.backend != "sigma":
            raise MalformedInput(f"a {proof.backend} proof, not a sigma proof")
        if proof.lengths != self.lengths:
            raise ProofRejected("the proof is for a program with unbounded lists")
        check_program(self.circuit.program.ir["name"], self.circuit.hash, proof)
        return public_vector(self.circuit.program, proof), proof.proof

    def batch(self, items: list[Item]) -> bool:
        return bool(_native.sigma_program_verify_batch(self.circuit.native, items))

    def one(self, item: Item) -> bool:
        return bool(_native.sigma_program_verify(self.circuit.native, *item))


def judge(checks: Checks, item: Item) -> None:
    """Return if the item verifies; `ProofRejected` if not, `MalformedInput` if malformed."""
    try:
        ok = checks.one(item)
    except (_native.DecodeError, ValueError) as exc:
        raise MalformedInput(f"malformed proof: {exc}") from None
    if not ok:
        raise ProofRejected("the proof does not verify against these public inputs and outputs")


def check_each(checks: Checks, proofs: Sequence[Proof]) -> list[ZeenotError | None]:
    """For each proof, `None` if valid, else why not (`ProofRejected`, or `MalformedInput` for
    a malformed one). The well-formed ones are checked together (one random linear
    combination); only if that fails is each checked alone, to name the invalid ones."""
    reasons: list[ZeenotError | None] = [None] * len(proofs)
    batch: list[tuple[int, Item]] = []
    for k, proof in enumerate(proofs):
        try:
            batch.append((k, checks.item(proof)))
        except (ProofRejected, MalformedInput) as exc:
            reasons[k] = exc
    # one member: nothing to combine, so check it alone (not a batch and then a retry)
    if len(batch) > 1:
        try:
            if checks.batch([item for _, item in batch]):
                return reasons
        except (_native.ZeenotError, ValueError):
            pass  # a malformed member: the one-by-one pass below names it
    for k, item in batch:
        try:
            judge(checks, item)
        except (ProofRejected, MalformedInput) as exc:
            reasons[k] = exc
    return reasons


def check_program(name: str, program_hash: str, proof: Proof) -> None:
    """The proof names this program (by name and hash)."""
    if proof.program != name:
        raise ProofRejected(f"the proof is for program `{proof.program}`, not `{name}`")
    if proof.program_hash != program_hash:
        raise ProofRejected(
            f"the proof is for program `{proof.program}` ({proof.program_hash[:12]}…), "
            f"not this circuit ({program_hash[:12]}…)"
        )


def _prepare(types: list[str], commitments: list[int], vk: bytes) -> _native.Groth16Verifier:
    try:
        return _native.Groth16Verifier(types, commitments, vk)
    except _native.DecodeError as exc:
        raise MalformedInput(f"malformed verifying key: {exc}") from None
    except ValueError as exc:
        raise MalformedInput(str(exc)) from None


def _from_document(doc: Any, keys: Keys, d: Path) -> Verifier:
    where = f"`{d / VERIFIER_FILE}`"
    ok = (
        isinstance(doc, dict)
        and doc.get("zeenot_verifier") == VERIFIER_FORMAT
        and isinstance(doc.get("name"), str)
        and isinstance(doc.get("program_hash"), str)
        and isinstance(doc.get("signature"), dict)
        and isinstance(doc.get("instance"), dict)
    )
    if not ok:
        raise MalformedInput(f"{where} is not a zeenot verifier description")
    instance = doc["instance"]
    types, commitments = instance.get("types"), instance.get("commitments")
    if not (
        isinstance(types, list)
        and all(isinstance(t, str) for t in types)
        and isinstance(commitments, list)
        and all(type(c) is int and c >= 0 for c in commitments)
    ):
        raise MalformedInput(f"{where}: `instance` needs `types` and `commitments`")
    program = Program({"name": doc["name"], "signature": doc["signature"]})
    try:
        program.params  # noqa: B018 - validate the signature's types now
        program.returns  # noqa: B018
    except (ValueError, KeyError, TypeError) as exc:
        raise MalformedInput(f"{where}: malformed signature: {exc}") from None
    return Verifier(
        program,
        doc["program_hash"],
        keys.verifying_key,
        _prepare(types, commitments, keys.verifying_key),
    )
