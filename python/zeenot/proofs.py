"""Making and checking proofs of one circuit: `setup` (Groth16 keys), `prove` (Groth16),
`prove_sigma` (no keys), `verify`, `verify_sigma_batch` and `check_link` (a `Committed` value
carried from one proof into another). `zeenot.api` re-exports them; `zeenot.bundle` proves a
program's regions with the same functions.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from zeenot import _native, keycache
from zeenot.artifacts import (
    DEFAULT_MAX_GATES,
    DEFAULT_MAX_INSTRUCTIONS,
    Circuit,
    Keys,
    Opening,
    Proof,
    Template,
    _circuit,
    _kind,
    _seed,
    _sha256,
)
from zeenot.errors import MalformedInput, ProofRejected, UsageError, ZeenotError
from zeenot.ir import Program, check_value, to_json_value
from zeenot.timing import Stages
from zeenot.verifier import SigmaChecks, Verifier, check_each, check_program, judge


def setup(circuit: Circuit | Template, *, seed: int | None = None) -> Keys:
    """Run the Groth16 setup. `seed` makes it deterministic: insecure, for tests only."""
    circuit = _circuit(circuit)
    if isinstance(circuit, Template):
        raise circuit.needs_bounds()
    pk, vk = _native.setup(circuit.native, _seed(seed))
    keycache.record(_sha256(pk))  # made here: valid by construction
    return Keys(circuit.hash, pk, vk)


def _public_inputs(program: Program, inputs: dict[str, Any], public: list[str]) -> dict[str, Any]:
    """The public parameters' values, and each committed parameter's commitments (taken from
    the proof's public vector, after the public leaves)."""
    # Values as validated (a Field given as "5" is written 5, as outputs are): one spelling.
    out = {
        p["name"]: to_json_value(check_value(p["name"], p["ty"], inputs[p["name"]]))
        for p in program.params
        if p["vis"] == "public"
    }
    pos = len(program.public_leaf_names())
    for p in program.committed_params():  # one commitment each, whatever its leaves
        out[p["name"]] = {"committed": [public[pos : pos + 2]]}
        pos += 2
    return out


def _opening(circuit: Circuit, leaves_in: list[str], blindings: list[str]) -> Opening | None:
    if not circuit.program.returns_committed:
        return None
    program = circuit.program
    n = program.n_return_leaves
    values = program.unflatten_values(_native.evaluate(circuit.native, leaves_in)[:n])
    return Opening(program.outputs_to_json(values), [int(b) for b in blindings[:1]])


def prove(
    circuit: Circuit | Template,
    keys: Keys,
    inputs: dict[str, Any],
    *,
    blindings: dict[str, Any] | None = None,
    seed: int | None = None,
    stages: Stages | None = None,
) -> Proof:
    """Prove the program on `inputs` (JSON-style values keyed by parameter name) with Groth16.

    `blindings` holds one blinding per `Committed` parameter (an `Opening`'s `blindings` from
    the proof that produced it). Raises `zeenot._native.UnsatisfiedError` when no proof exists
    (a failed `check`, an overflow, a division by zero), naming the source line. `stages`, if
    given, receives the time of each stage (`zeenot prove --profile`).
    """
    circuit = _circuit(circuit)
    if isinstance(circuit, Template):
        raise circuit.needs_bounds()
    seed = _seed(seed)
    if stages is not None and not isinstance(stages, Stages):
        raise UsageError(f"`stages` is a zeenot.timing.Stages or None, not {_kind(stages)}")
    leaves_in, blinds = _leaves(circuit, inputs, blindings)
    return _prove_leaves(circuit, "groth16", keys, leaves_in, blinds, seed, inputs, stages)


def prove_sigma(
    circuit: Circuit | Template,
    inputs: dict[str, Any],
    *,
    blindings: dict[str, Any] | None = None,
    seed: int | None = None,
) -> Proof:
    """Prove the program with the sigma back end: no keys, no trusted setup. A `Template` is
    proved at the lengths of its inputs' lists; the proof records them.

    Raises `zeenot._native.UnsatisfiedError` when no proof exists and
    `zeenot._native.UnsupportedError` for operations the back end lacks (naming them).
    """
    circuit = _circuit(circuit)
    seed = _seed(seed)
    if isinstance(circuit, Template):
        lengths = circuit.lengths_of(inputs)
        proof = prove_sigma(circuit.at(lengths), inputs, blindings=blindings, seed=seed)
        return replace(proof, lengths=lengths)
    leaves_in, blinds = _leaves(circuit, inputs, blindings)
    return _prove_leaves(circuit, "sigma", None, leaves_in, blinds, seed, inputs)


def _prove_leaves(
    circuit: Circuit,
    backend: str,
    keys: Keys | None,
    leaves_in: list[str],
    blinds: list[str],
    seed: int | None,
    inputs: dict[str, Any],
    stages: Stages | None = None,
) -> Proof:
    """A proof from input leaves and blindings (those of the committed inputs, then optionally
    of the committed outputs): `prove`, `prove_sigma` and `zeenot.bundle.prove`. `inputs`: the
    public parameters' JSON values, for the proof file."""
    if backend == "sigma":
        proof, public, out = _native.sigma_program_prove(circuit.native, leaves_in, blinds, seed)
        return _proof(circuit, inputs, leaves_in, public, out, proof, "sigma", None)
    stages = Stages() if stages is None else stages
    if not isinstance(keys, Keys):
        raise UsageError(f"prove needs the circuit's `Keys` (from `setup`), not {_kind(keys)}")
    if keys.program_hash != circuit.hash:
        raise MalformedInput("the keys were made for a different program: run `zeenot setup`")
    if "prepared" in keys.__dict__:  # decoded before (`for_proving`): nothing to time
        prepared = keys.prepared
    else:
        with stages.stage("proving key"):
            prepared = keys.prepared
    try:
        proof, public, out, timed = _native.prove_prepared(
            circuit.native, prepared, leaves_in, seed, blinds
        )
    except ValueError as exc:  # a key for another circuit behind a keys.json that claims this one
        raise MalformedInput(f"the proving key does not fit this program: {exc}") from None
    stages.extend(timed)
    return _proof(
        circuit, inputs, leaves_in, public, out, proof, "groth16", keys.verifying_key_hash
    )


def _leaves(
    circuit: Circuit, inputs: dict[str, Any], blindings: dict[str, Any] | None
) -> tuple[list[str], list[str]]:
    try:
        return circuit.program.flatten_inputs(inputs), circuit.program.blinding_values(blindings)
    except ValueError as exc:
        raise MalformedInput(str(exc)) from None


def _proof(
    circuit: Circuit,
    inputs: dict[str, Any],
    leaves_in: list[str],
    public: list[str],
    out_blindings: list[str],
    proof: bytes,
    backend: str,
    vk_hash: str | None,
) -> Proof:
    program = circuit.program
    n_ret = program.n_return_public
    n_sent = 2 * len(program.sends)
    end = len(public) - n_sent
    outputs = program.unflatten_outputs(public[end - n_ret : end])
    return Proof(
        program.ir["name"],
        circuit.hash,
        vk_hash,
        _public_inputs(program, inputs, public),
        program.outputs_to_json(outputs),
        proof,
        backend,
        sent=program.sent_from_public(public[end:]),
        opening=_opening(circuit, leaves_in, out_blindings),
    )


def verify(
    circuit: Circuit | Template,
    verifying_key: bytes | None,
    proof: Proof,
    *,
    max_instructions: int = DEFAULT_MAX_INSTRUCTIONS,
    max_gates: int = DEFAULT_MAX_GATES,
) -> None:
    """Return normally if `proof` is valid; raise `ProofRejected` with the reason otherwise.

    The proof names its back end; a sigma proof needs no verifying key (pass `None`). A
    `Template`'s proof is checked against the template specialised at the proof's lengths,
    which the proof chooses: `max_instructions` bounds the compiling and `max_gates` the sigma
    circuit proof's padded gates that cost this verifier (`ProofRejected` past either).
    Malformed keys, proofs or public values raise `MalformedInput`.
    """
    circuit = _circuit(circuit)
    if not isinstance(proof, Proof):
        raise UsageError(f"verify takes a `Proof` (Proof.from_json), not {_kind(proof)}")
    if verifying_key is not None and not isinstance(verifying_key, bytes):
        raise UsageError(
            f"the verifying key is bytes (Keys.verifying_key), not {_kind(verifying_key)}"
        )
    if type(max_instructions) is not int or max_instructions < 1:
        raise UsageError("`max_instructions` is a positive integer")
    if type(max_gates) is not int or max_gates < 1:
        raise UsageError("`max_gates` is a positive integer")
    if isinstance(circuit, Template):
        if proof.lengths is None or proof.backend != "sigma":
            raise ProofRejected(
                f"`{circuit.name}` has unbounded lists: expected a sigma proof that records "
                "their lengths"
            )
        template = circuit
        circuit = template.for_proof(proof.lengths, max_instructions)
        template.check_gates(proof.lengths, max_gates)
    elif proof.lengths is not None:
        raise ProofRejected("the proof is for a program with unbounded lists, not this circuit")
    check_program(circuit.program.ir["name"], circuit.hash, proof)
    if proof.backend == "sigma":
        checks = SigmaChecks(circuit, lengths=proof.lengths)  # a template's: specialised above
        judge(checks, checks.item(proof))
        return
    if verifying_key is None:
        raise MalformedInput("a groth16 proof needs the verifying key")
    Verifier.of(circuit, verifying_key).verify(proof)


def verify_sigma_batch(circuit: Circuit, proofs: list[Proof]) -> list[ZeenotError | None]:
    """Check many sigma proofs of one circuit: for each, `None` if valid, else why not
    (`ProofRejected`, or `MalformedInput` for a malformed one). The well-formed ones are checked
    together (one multi-exponentiation for all their compressed and circuit proofs, each with a
    random weight); only if that fails is each checked alone, to name the invalid ones."""
    circuit = _circuit(circuit)
    if not isinstance(circuit, Circuit):
        raise UsageError("verify_sigma_batch takes a compiled circuit (not a template)")
    if not isinstance(proofs, (list, tuple)):
        raise UsageError(f"verify_sigma_batch takes a list of `Proof`s, not {_kind(proofs)}")
    return check_each(SigmaChecks(circuit), proofs)


def check_link(producer: Proof, consumer: Proof, param: str) -> None:
    """Check that `consumer`'s `Committed` parameter `param` is the value `producer` returned
    as `Committed`: the commitments must be the same points. Verify both proofs as well; then
    the consumer's statement holds for the producer's (hidden) result. Raises `ProofRejected`
    otherwise, `MalformedInput` if either side is not committed."""
    if not (isinstance(producer, Proof) and isinstance(consumer, Proof)):
        raise UsageError("check_link takes two `Proof`s and a parameter name")
    if not isinstance(param, str):
        raise UsageError(f"the parameter name is a string, not {_kind(param)}")
    out = producer.outputs
    if not (isinstance(out, dict) and "committed" in out):
        raise MalformedInput(f"the proof of `{producer.program}` does not return a Committed value")
    given = consumer.public_inputs.get(param)
    if not (isinstance(given, dict) and "committed" in given):
        raise MalformedInput(f"`{param}` is not a Committed parameter of `{consumer.program}`")
    if given != out:
        raise ProofRejected(
            f"`{param}` of `{consumer.program}` is not the value `{producer.program}` committed to"
        )
