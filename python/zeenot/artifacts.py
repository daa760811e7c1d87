"""Compiled artefacts and their files: a `Circuit` (a program and what the Rust core derives from
it), a `Template` (lists without `MaxSize`: a family of circuits), Groth16 `Keys`, a `Proof` with
the public values it speaks about, and the directory layout they are saved in.

A *circuit directory* holds everything a prover and a verifier share::

    program.ir.json   the IR (docs/ir.md), canonical JSON
    program.ir.bin    the same program's binary form (docs/ir.md, "Binary form"): what a
                      prover loads, without parsing JSON, while it names this JSON file's hash
    circuit.json      program hash and constraint statistics
    verifier.json     name, hash, signature and public-value layout: all a verifier reads
                      besides the verifying key (`zeenot.verifier`)
    proving.key       Groth16 proving key (arkworks canonical compressed)
    verifying.key     Groth16 verifying key (arkworks canonical compressed)
    keys.json         program hash and SHA-256 of both keys, so a party can pin what it was given

A proof file is JSON: the back end that made it, the structured public inputs and outputs, the
program hash, the verifying key hash (groth16 only) and the proof bytes in hex. `public_vector`
rebuilds a proof's public vector from the structured values and the program's signature; it
never trusts a pre-flattened list.

This module sits below `zeenot.proofs` (making and checking proofs), `zeenot.verifier` and
`zeenot.bundle`, which all speak of these types; `zeenot.api` re-exports them.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from zeenot import _native, keycache
from zeenot.errors import CompileError, MalformedInput, ProofRejected, UsageError, ZeenotError
from zeenot.files import make_dir, parse_json, read_json, read_text, write_atomic
from zeenot.ir import Program, check_spelling
from zeenot.lang import compile_function, load_function
from zeenot.lang.compiler import MAX_INSTRUCTIONS
from zeenot.simulate import signature_of
from zeenot.types import ListTy

PROOF_FORMAT = 1
BACKENDS = ("groth16", "sigma")

IR_FILE = "program.ir.json"
IR_BINARY_FILE = "program.ir.bin"
CIRCUIT_FILE = "circuit.json"
PROVING_KEY_FILE = "proving.key"
VERIFYING_KEY_FILE = "verifying.key"
KEYS_FILE = "keys.json"
VERIFIER_FILE = "verifier.json"
VERIFIER_FORMAT = 1
REGIONS_FILE = "regions.json"  # a program in regions (zeenot.bundle)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Circuit:
    """A compiled program; its constraint statistics are computed on first use."""

    program: Program

    @cached_property
    def stats(self) -> dict[str, int]:
        """Constraints, public and private inputs, witnesses (synthesizes the circuit once)."""
        return _native.stats(self.native)

    @cached_property
    def ir_json(self) -> str:
        return self.program.to_json()

    @cached_property
    def native(self) -> _native.LoadedProgram:
        """The IR as the Rust core holds it: parsed, validated and hashed once, then passed to
        every proof, evaluation and statistic instead of the text."""
        return _native.load_program(self.ir_json)

    @property
    def hash(self) -> str:
        return self.native.hash

    @cached_property
    def layout(self) -> tuple[list[str], list[int]]:
        """The public values' types, and where each commitment's `x` sits (docs/ir.md)."""
        return _native.instance_layout(self.native)

    def summary(self) -> dict[str, Any]:
        return {"name": self.program.ir["name"], "program_hash": self.hash, **self.stats}

    def save(self, directory: str | Path) -> Path:
        out = make_dir(_path(directory, "directory"))
        (out / TEMPLATE_FILE).unlink(missing_ok=True)  # a directory holds one program
        (out / IR_BINARY_FILE).unlink(missing_ok=True)  # names the old JSON until rewritten
        text = (self.ir_json + "\n").encode()
        write_atomic(out / IR_FILE, text, secret=False)
        try:
            binary = _native.encode_program_binary(self.ir_json, _sha256(text))
        except _native.IrError:
            pass  # a document the binary form cannot hold exactly: the JSON serves alone
        else:
            write_atomic(out / IR_BINARY_FILE, binary, secret=False)
        write_atomic(out / CIRCUIT_FILE, json.dumps(self.summary(), indent=2) + "\n", secret=False)
        save_layout(self, out)
        return out

    @classmethod
    def load(cls, directory: str | Path) -> Circuit:
        directory = _path(directory, "directory")
        if (Path(directory) / TEMPLATE_FILE).exists():
            raise MalformedInput(
                f"`{directory}` holds a template (lists without MaxSize), not a circuit: "
                "load it with `zeenot.api.load`"
            )
        if (Path(directory) / REGIONS_FILE).exists():
            raise MalformedInput(
                f"`{directory}` holds a program in regions: load it with `zeenot.api.load`; "
                "each region's circuit is in its `regions/NAME` directory"
            )
        path = Path(directory) / IR_FILE
        text = read_text(path, "the program")
        loaded = _load_binary(Path(directory) / IR_BINARY_FILE, path, text)
        try:
            native, program = loaded or (_native.load_program(text), Program.from_json(text))
        except (ValueError, _native.ZeenotError) as exc:
            raise MalformedInput(f"`{path}` is not a valid zeenot IR: {exc}") from None
        circuit = cls(program)
        circuit.__dict__["native"] = native  # the cached_property, filled: parsed once
        return circuit


def _load_binary(
    path: Path, json_path: Path, text: str
) -> tuple[_native.LoadedProgram, Program] | None:
    """The program from its binary form, if `path` holds one written from this very JSON text
    (a JSON file edited since, or a binary form this build cannot read, leaves the JSON to
    serve). The binary form is checked by every rule of the IR, its hash recomputed."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        native, head, source = _native.load_program_binary(data)
        if source != _sha256(text.encode()):
            return None
        return native, Program.from_head(head, json_path)
    except (ValueError, _native.ZeenotError):
        return None


@dataclass(frozen=True)
class Keys:
    """Groth16 proving and verifying keys for one circuit."""

    program_hash: str
    proving_key: bytes
    verifying_key: bytes

    @property
    def verifying_key_hash(self) -> str:
        return _sha256(self.verifying_key)

    @cached_property
    def prepared(self) -> _native.PreparedProvingKey:
        """The proving key decoded and validated once per process, and once per machine for
        its point checks (`zeenot.keycache`: the dominant cost of a one-shot proof)."""
        digest = _sha256(self.proving_key)
        known = keycache.is_validated(digest)
        try:
            prepared = _native.prepare_proving_key(self.proving_key, known)
        except _native.DecodeError as exc:
            raise MalformedInput(f"malformed proving key: {exc}") from None
        if not known:
            keycache.record(digest)
        return prepared

    def for_proving(self) -> Keys:
        """These keys with the proving key decoded and validated (`prepared`) and its bytes let
        go: what a prover holds while it proves (the encoded key is 0.4 kB per constraint, as
        large again as the decoded one). Such keys prove and verify; they cannot be saved."""
        keys = replace(self, proving_key=b"")
        keys.__dict__["prepared"] = self.prepared  # the cached_property, filled
        return keys

    def save(self, directory: str | Path, *, overwrite: bool = False) -> None:
        """Write the keys into a circuit directory. Keys already there are replaced only with
        `overwrite=True`: proofs made with them would no longer verify. Each file is replaced
        atomically and `keys.json`, which pins both keys, last: a reader sees either the old
        set or the new one, or a hash mismatch it reports, never half a key."""
        out = _path(directory, "directory")
        if not self.proving_key:
            raise UsageError(
                "these keys hold no proving key (loaded with proving=False, or for_proving()): "
                "save the keys setup returned"
            )
        if not out.is_dir():
            raise MalformedInput(f"`{out}` is not a circuit directory (run `zeenot compile`)")
        existing = [
            n for n in (PROVING_KEY_FILE, VERIFYING_KEY_FILE, KEYS_FILE) if (out / n).exists()
        ]
        if existing and not overwrite:
            raise MalformedInput(
                f"`{out}` already has keys ({', '.join(existing)}); proofs made with them would "
                "no longer verify. Replace them with `zeenot setup --force` (API: overwrite=True)"
            )
        meta = {
            "program_hash": self.program_hash,
            "proving_key_sha256": _sha256(self.proving_key),
            "verifying_key_sha256": self.verifying_key_hash,
        }
        (out / KEYS_FILE).unlink(missing_ok=True)  # while the keys change, nothing pins them
        write_atomic(out / PROVING_KEY_FILE, self.proving_key, secret=False)
        write_atomic(out / VERIFYING_KEY_FILE, self.verifying_key, secret=False)
        write_atomic(out / KEYS_FILE, json.dumps(meta, indent=2) + "\n", secret=False)

    @classmethod
    def load(cls, directory: str | Path, *, proving: bool = True) -> Keys:
        """Load keys; with `proving=False` only the (small) verifying key is read."""
        d = _path(directory, "directory")
        if not (d / KEYS_FILE).exists():
            raise MalformedInput(f"missing `{d / KEYS_FILE}`: run `zeenot setup {d}` first")
        meta = read_json(d / KEYS_FILE, "keys")
        try:
            vk = (d / VERIFYING_KEY_FILE).read_bytes()
            pk = (d / PROVING_KEY_FILE).read_bytes() if proving else b""
        except FileNotFoundError as exc:
            raise MalformedInput(
                f"missing `{exc.filename}`: run `zeenot setup {d}` first"
            ) from None
        except OSError as exc:
            raise MalformedInput(f"cannot read keys in `{d}`: {exc.strerror or exc}") from None
        if not isinstance(meta, dict) or meta.get("verifying_key_sha256") != _sha256(vk):
            raise MalformedInput(f"`{d / VERIFYING_KEY_FILE}` does not match `{KEYS_FILE}`")
        if proving and meta.get("proving_key_sha256") != _sha256(pk):
            raise MalformedInput(f"`{d / PROVING_KEY_FILE}` does not match `{KEYS_FILE}`")
        return cls(str(meta.get("program_hash")), pk, vk)


@dataclass(frozen=True)
class Proof:
    """A proof (Groth16 or sigma) with the public values it speaks about."""

    program: str
    program_hash: str
    verifying_key_hash: str | None  # None for the sigma back end (no keys)
    public_inputs: dict[str, Any]
    outputs: Any
    proof: bytes
    backend: str = "groth16"
    # For a `Template`'s proof: the length of each unbounded list (public; picks the circuit).
    lengths: dict[str, int] | None = None
    # For a region that calls others (docs/ir.md "Regions"): the commitments to the arguments
    # it sends them, `{send name: {"committed": [[x, y]]}}` (public, like the outputs).
    sent: dict[str, Any] | None = None
    # The prover's openings of a `Committed` return: secret, never written to the proof file.
    opening: Opening | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> str:
        doc = {
            "zeenot_proof": PROOF_FORMAT,
            "backend": self.backend,
            "program": self.program,
            "program_hash": self.program_hash,
            "verifying_key_hash": self.verifying_key_hash,
            "public_inputs": self.public_inputs,
            "outputs": self.outputs,
            "proof": self.proof.hex(),
        }
        if self.lengths is not None:
            doc["lengths"] = self.lengths
        if self.sent is not None:
            doc["sent"] = self.sent
        return json.dumps(doc, indent=2)

    @classmethod
    def from_json(cls, text: str | bytes) -> Proof:
        """Parse a proof file. It has exactly one accepted form: the fields `to_json` writes
        and no others, hashes and proof bytes in lowercase hex, `lengths` only in a sigma
        proof. Whether its public values fit the program is checked by `verify`."""
        if not isinstance(text, (str, bytes)):
            raise UsageError(f"Proof.from_json takes the file's text, not {type(text).__name__}")
        doc = parse_json(text, "the proof file")
        if not isinstance(doc, dict):
            raise MalformedInput("proof file must be a JSON object")
        version = doc.get("zeenot_proof")
        backend = doc.get("backend")
        if type(version) is not int or version != PROOF_FORMAT or backend not in BACKENDS:
            raise MalformedInput(
                f"not a zeenot proof (expected `zeenot_proof: {PROOF_FORMAT}` and a `backend` "
                f"of {', '.join(BACKENDS)})"
            )
        unknown = sorted(set(doc) - _PROOF_FIELDS)
        if unknown:
            raise MalformedInput(
                f"proof file: unknown field `{unknown[0]}` (a proof file has only: "
                f"{', '.join(sorted(_PROOF_FIELDS))})"
            )
        for key in ("program", "program_hash", "proof"):
            if not isinstance(doc.get(key), str):
                raise MalformedInput(f"proof file: `{key}` must be a string")
        vk_hash = doc.get("verifying_key_hash")
        if backend == "groth16" and not _is_sha256(vk_hash):
            raise MalformedInput("proof file: `verifying_key_hash` must be a SHA-256 in hex")
        if backend == "sigma" and vk_hash is not None:
            raise MalformedInput("proof file: a sigma proof has no verifying key (`null`)")
        if not _is_sha256(doc["program_hash"]):
            raise MalformedInput("proof file: `program_hash` must be a SHA-256 in hex")
        if not isinstance(doc.get("public_inputs"), dict) or "outputs" not in doc:
            raise MalformedInput("proof file: needs `public_inputs` (object) and `outputs`")
        if not _LOWER_HEX.fullmatch(doc["proof"]) or len(doc["proof"]) % 2:
            raise MalformedInput("proof file: `proof` must be lowercase hex (two digits a byte)")
        raw = bytes.fromhex(doc["proof"])
        lengths = doc.get("lengths")
        if "lengths" in doc and backend != "sigma":
            raise MalformedInput("proof file: `lengths` belongs to sigma proofs of templates")
        if "lengths" in doc and not (
            isinstance(lengths, dict) and all(type(n) is int and n >= 0 for n in lengths.values())
        ):
            raise MalformedInput(
                "proof file: `lengths` must map parameter names to non-negative integers"
            )
        if "sent" in doc and not isinstance(doc["sent"], dict):
            raise MalformedInput("proof file: `sent` must be an object")
        return cls(
            doc["program"],
            doc["program_hash"],
            vk_hash,
            doc["public_inputs"],
            doc["outputs"],
            raw,
            backend,
            lengths,
            doc.get("sent"),
        )


_PROOF_FIELDS = {
    "zeenot_proof",
    "backend",
    "program",
    "program_hash",
    "verifying_key_hash",
    "public_inputs",
    "outputs",
    "proof",
    "lengths",
    "sent",
}
_LOWER_HEX = re.compile(r"[0-9a-f]*", re.ASCII)


def _is_sha256(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and _LOWER_HEX.fullmatch(value) is not None


class BackendMismatch(ZeenotError):
    """A program that the chosen back end cannot prove as written (with a hint)."""


MAX_LIST_LENGTH = 1 << 16  # elements of one unbounded list, whoever compiles it
# IR instructions a verifier compiles for one template proof before it rejects it: the lengths
# come from the proof file, so they are the sender's to choose. About a second of compiling
# on the reference machine; a verifier expecting longer lists raises it.
DEFAULT_MAX_INSTRUCTIONS = 10_000
# Padded gates of the sigma circuit proof a verifier checks for one template proof: its cost
# (deriving 2 generators a gate, the multi-exponentiation over them) is the sender's to choose
# through the lengths. 2^15 gates verify in about 0.2 s, 1 s with the generators derived cold
# (benchmarks/forged_templates.py); a verifier expecting longer lists raises it.
DEFAULT_MAX_GATES = 1 << 15
TEMPLATE_FILE = "template.json"


@dataclass(frozen=True)
class Template:
    """A program whose list parameters have no `MaxSize` (`xs: Private[list[u32]]`): a family
    of circuits, one per length of those lists.

    The sigma back end proves it at the lengths of the inputs (`at(lengths)`, IR v1 with lists
    of exactly that length: no padding slots, so proofs cover just the actual elements); the
    proof records the lengths, which are therefore public, as a sigma proof's size reveals them
    anyway. The verifier specialises the same source at the recorded lengths and checks the
    program hash. The groth16 back end needs `MaxSize` bounds (one setup per circuit)."""

    fn: Callable[..., Any]
    unbounded: tuple[str, ...]
    # Applied to each specialised program (the runtime appends its `@context` input).
    transform: Callable[[Program], Program] | None = field(default=None, compare=False)
    _circuits: dict[tuple[int, ...], Circuit] = field(
        default_factory=dict, compare=False, repr=False
    )
    _gates: dict[tuple[int, ...], int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def name(self) -> str:
        return str(self.fn.__name__)

    def at(self, lengths: dict[str, int], *, max_instructions: int | None = None) -> Circuit:
        """The circuit for these lengths (compiled once per lengths). `max_instructions`
        bounds the compiler's work (ZN114 past it; default: the compiler's own limit)."""
        key = self._key(lengths)
        if max_instructions is not None and (
            type(max_instructions) is not int or max_instructions < 1
        ):
            raise UsageError("`max_instructions` is a positive integer")
        if key not in self._circuits:
            limit = MAX_INSTRUCTIONS if max_instructions is None else max_instructions
            program = compile_function(self.fn, lengths, max_instructions=limit)
            # The hash must not depend on where each party keeps the source: the file's name
            # only (`save` keeps it).
            program.ir["source"]["file"] = self.source_name
            if self.transform is not None:
                program = self.transform(program)
            self._circuits[key] = Circuit(program)
        return self._circuits[key]

    def for_proof(self, lengths: dict[str, int], max_instructions: int) -> Circuit:
        """The circuit that a proof's (untrusted) lengths name, compiled only within the
        verifier's limit. The size is predicted first from the sizes at lengths 1 and 2 (exact
        for programs linear in their lists), so a forged length is refused at once; a program
        that grows faster is stopped by the compiler at the limit."""
        key = self._key(lengths)
        if key in self._circuits:
            return self._circuits[key]
        shown = ", ".join(f"{n}: {lengths[n]}" for n in self.unbounded)
        refusal = (
            f"the proof's lengths ({shown}) need more than this verifier's limit of "
            f"{max_instructions:,} instructions to check{{}}; raise the limit "
            "(`zeenot verify --max-instructions N`, API `max_instructions=N`) if proofs "
            "over such lists are expected"
        )
        predicted = self.predicted_size(lengths)
        if predicted > max_instructions:
            raise ProofRejected(refusal.format(f" (about {predicted:,})"))
        try:
            return self.at(lengths, max_instructions=max_instructions)
        except CompileError as exc:
            if exc.code != "ZN114":
                raise
            raise ProofRejected(refusal.format("")) from None

    def check_gates(self, lengths: dict[str, int], max_gates: int) -> None:
        """Refuse a proof whose lengths make the sigma circuit proof larger than `max_gates`
        padded gates, before any generator is derived. Call after `for_proof` (which compiles
        within the instruction limit)."""
        key = self._key(lengths)
        if key not in self._gates:  # counted once per lengths, not proved: every input counted
            circuit = self.at(lengths)  # as private, an upper bound
            leaves = [None] * len(circuit.program.ir["inputs"])
            shape = dict(_native.sigma_program_shape(circuit.native, leaves))
            self._gates[key] = int(shape.get("padded_gates", 0))
        padded = self._gates[key]
        if padded > max_gates:
            shown = ", ".join(f"{n}: {lengths[n]}" for n in self.unbounded)
            raise ProofRejected(
                f"the proof's lengths ({shown}) make a circuit of {padded:,} gates, more than this "
                f"verifier's limit of {max_gates:,}; raise it (`zeenot verify --max-gates N`, API "
                "`max_gates=N`) if proofs over such lists are expected"
            )

    def predicted_size(self, lengths: dict[str, int]) -> int:
        """IR instructions at `lengths`, extrapolated linearly from lengths 1 and 2."""
        ones = dict.fromkeys(self.unbounded, 1)
        base = len(self.at(ones).program.body)
        total = base
        for name in self.unbounded:
            step = len(self.at({**ones, name: 2}).program.body) - base
            total += max(step, 0) * (lengths[name] - 1)
        return total

    def _key(self, lengths: dict[str, int]) -> tuple[int, ...]:
        if not isinstance(lengths, dict) or set(lengths) != set(self.unbounded):
            raise MalformedInput(
                f"`{self.name}` needs the length of exactly: {', '.join(self.unbounded)}"
            )
        for name, n in lengths.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_LIST_LENGTH:
                raise MalformedInput(
                    f"`{name}`: length {n!r} is not an integer in 0..{MAX_LIST_LENGTH}"
                )
        return tuple(lengths[n] for n in self.unbounded)

    @property
    def source_path(self) -> Path:
        path = inspect.getsourcefile(self.fn)
        if path is None:
            raise MalformedInput(f"`{self.name}` has no source file")
        return Path(path)

    @property
    def source_name(self) -> str:
        return self.source_path.name

    def lengths_of(self, inputs: dict[str, Any]) -> dict[str, int]:
        """The length of each unbounded list in `inputs` (JSON-style values)."""
        if not isinstance(inputs, dict):
            raise MalformedInput("inputs must be a JSON object keyed by parameter name")
        out = {}
        for name in self.unbounded:
            v = inputs.get(name)
            if not isinstance(v, list):
                raise MalformedInput(f"`{name}`: expected a list, got {type(v).__name__}")
            out[name] = len(v)
        return out

    def needs_bounds(self) -> BackendMismatch:
        lists = ", ".join(f"`{n}`" for n in self.unbounded)
        return BackendMismatch(
            f"`{self.name}` has lists without a maximum size ({lists}): the groth16 back end "
            "needs `MaxSize[list[T], N]` on them; prove with `--backend sigma`, or bound them"
        )

    def save(self, directory: str | Path) -> Path:
        """Write the program's source file and `template.json`: a verifier specialises the
        source at each proof's lengths, so it must be self-contained (zeenot and the standard
        library only)."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        source = self.source_path.read_bytes()
        (out / self.source_name).write_bytes(source)
        meta = {
            "zeenot_template": 1,
            "source": self.source_name,
            "function": self.name,
            "unbounded": list(self.unbounded),
            "source_sha256": _sha256(source),
        }
        (out / TEMPLATE_FILE).write_text(json.dumps(meta, indent=2) + "\n")
        for stale in (IR_FILE, CIRCUIT_FILE):  # a directory holds one program
            (out / stale).unlink(missing_ok=True)
        return out

    @classmethod
    def load(cls, directory: str | Path) -> Template:
        d = _path(directory, "directory")
        meta = read_json(d / TEMPLATE_FILE, "the program template")
        if not isinstance(meta, dict) or meta.get("zeenot_template") != 1:
            raise MalformedInput(f"`{d / TEMPLATE_FILE}` is not a zeenot template")
        name = meta.get("source")
        if not isinstance(name, str) or Path(name).name != name:
            raise MalformedInput(f"`{d / TEMPLATE_FILE}`: `source` must be a file name")
        try:
            source = (d / name).read_bytes()
        except OSError as exc:
            raise MalformedInput(f"cannot read `{d / name}`: {exc.strerror}") from None
        if meta.get("source_sha256") != _sha256(source):
            raise MalformedInput(f"`{d / name}` does not match `{TEMPLATE_FILE}`")
        template = _template(load_function(str(d / name), str(meta.get("function"))))
        if template is None or list(template.unbounded) != meta.get("unbounded"):
            raise MalformedInput(f"`{d / TEMPLATE_FILE}` does not match its program")
        return template


def _unbounded_params(fn: Callable[..., Any]) -> tuple[str, ...]:
    """Parameters that are lists without `MaxSize` (empty when the signature is malformed:
    compiling reports that with a diagnostic)."""
    try:
        params, _ = signature_of(fn)
    except ZeenotError:
        return ()
    return tuple(p["name"] for p in params if isinstance(p["ty"], ListTy) and p["ty"].max is None)


def _template(fn: Callable[..., Any]) -> Template | None:
    names = _unbounded_params(fn)
    return Template(fn, names) if names else None


@dataclass(frozen=True)
class Opening:
    """What the prover keeps of a `Committed` return: the values (shaped like the return type)
    and the blinding of their one commitment (a one-element list). Pass them on as the next
    proof's `Committed` input (`inputs` and `blindings`); never publish them."""

    values: Any
    blindings: list[int]

    def __repr__(self) -> str:  # secrets stay out of logs
        return f"Opening(<{len(self.blindings)} committed value(s)>)"


def public_vector(program: Program, proof: Proof) -> list[str]:
    """The Groth16 public input: public parameter leaves, then output leaves. The proof's
    `public_inputs` must name exactly the public and committed parameters: a value for a
    private one would sit in a valid proof file unproved."""
    vis = {p["name"]: p["vis"] for p in program.params}
    for name in proof.public_inputs:
        if vis.get(name) == "private":
            raise MalformedInput(
                f"proof file: `{name}` is private: a proof file carries only public and "
                "committed parameters"
            )
    try:
        for p in program.params:
            if p["vis"] == "public" and p["name"] in proof.public_inputs:
                check_spelling(p["name"], p["ty"], proof.public_inputs[p["name"]])
        if program.returns is not None and not program.returns_committed:
            check_spelling("outputs", program.returns, proof.outputs)
        return (
            program.public_values(proof.public_inputs)
            + program.committed_public_values(proof.public_inputs)
            + program.flatten_outputs(proof.outputs)
            + program.sent_public_values(proof.sent)
        )
    except ValueError as exc:
        raise MalformedInput(f"proof file: {exc}") from None


def save_layout(circuit: Circuit, directory: Path) -> None:
    """Write `verifier.json` for a compiled circuit (called by `Circuit.save`)."""
    types, commitments = circuit.layout
    doc = {
        "zeenot_verifier": VERIFIER_FORMAT,
        "name": circuit.program.ir["name"],
        "program_hash": circuit.hash,
        "signature": circuit.program.ir["signature"],
        "instance": {"types": types, "commitments": commitments},
    }
    write_atomic(
        directory / VERIFIER_FILE, json.dumps(doc, separators=(",", ":")) + "\n", secret=False
    )


# -- checks at the API boundary: a caller's mistake is a zeenot error with a message ------------


def _kind(value: Any) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def _path(value: Any, what: str) -> Path:
    if isinstance(value, (str, os.PathLike)):
        path = Path(value)
        if "\0" in str(path):  # the OS cannot name it: every file call would raise ValueError
            raise MalformedInput(f"{what} `{str(path)!r}` contains a NUL byte")
        return path
    raise UsageError(f"{what} is a path (str or os.PathLike), not {_kind(value)}")


def _circuit(value: Any) -> Circuit | Template:
    if isinstance(value, (Circuit, Template)):
        return value
    raise UsageError(
        f"expected a compiled `Circuit` or `Template` (zeenot.compile or zeenot.load), "
        f"not {_kind(value)}"
    )


def _seed(seed: Any) -> int | None:
    """`None` (fresh randomness) or a 64-bit seed, which makes the run deterministic: for
    tests only, never for real proofs or keys."""
    if seed is None or (type(seed) is int and 0 <= seed < 1 << 64):
        return seed
    raise UsageError(f"`seed` is None or an integer in 0..2^64-1, not {seed!r}")
