"""The Python API: compile → setup → prove → verify, the same code path the CLI uses.

This is the façade: `compile` and `load` (a circuit, a template, or a program in regions), the
exports (snarkjs, Solidity), and re-exported from the modules below it the compiled artefacts
and their files (`zeenot.artifacts`: what a circuit directory and a proof file hold) and the
making and checking of proofs (`zeenot.proofs`). The `sigma` back end needs no keys: its proofs
are Pedersen commitments and sigma protocols on Baby Jubjub.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zeenot import _native, solidity
from zeenot.artifacts import (  # noqa: F401 - the API re-exports the artefacts
    BACKENDS,
    CIRCUIT_FILE,
    DEFAULT_MAX_GATES,
    DEFAULT_MAX_INSTRUCTIONS,
    IR_BINARY_FILE,
    IR_FILE,
    KEYS_FILE,
    MAX_LIST_LENGTH,
    PROOF_FORMAT,
    PROVING_KEY_FILE,
    REGIONS_FILE,
    TEMPLATE_FILE,
    VERIFYING_KEY_FILE,
    BackendMismatch,
    Circuit,
    Keys,
    Opening,
    Proof,
    Template,
    _circuit,
    _kind,
    _path,
    _seed,
    _sha256,
    _template,
    public_vector,
)
from zeenot.bundle import Regions
from zeenot.errors import (  # noqa: F401 - the errors the API raises, reachable from it
    CompileError,
    MalformedInput,
    ProofRejected,
    UsageError,
    ZeenotError,
)
from zeenot.files import check_output_dir, make_dir, write_atomic
from zeenot.ir import Program
from zeenot.lang import compile_function, load_function  # noqa: F401
from zeenot.lang.compiler import compile_program
from zeenot.proofs import (  # noqa: F401 - the API re-exports making and checking proofs
    _leaves,
    _prove_leaves,
    check_link,
    prove,
    prove_sigma,
    setup,
    verify,
    verify_sigma_batch,
)


def compile(  # noqa: A001 - the CLI verb
    target: str | Callable[..., Any],
    *,
    regions: bool = True,
    max_instructions: int | None = None,
    synthesize: bool = True,
) -> Circuit | Template | Regions:
    """Compile a `@zk` function, given as the function itself or as `"path/app.py:name"`.

    A function with unbounded list parameters gives a `Template` (compiled here at length 1,
    so that errors in its body are reported now); one that calls other `@zk` functions gives
    `Regions`, one circuit per region (zeenot.bundle; the calls' values cross as commitments),
    unless `regions=False`, which inlines them into one circuit (the runtime's regions).
    `max_instructions` raises (or lowers) the front end's limit on the unrolled program
    (ZN114 past it; default `zeenot.lang.emit.MAX_INSTRUCTIONS`). The circuit is synthesized
    once here, so that its size and any synthesis error are known now; `synthesize=False` leaves
    that to the first proof or statistic (the runtime's clients and peers: the server
    synthesized the same regions when it started)."""
    if isinstance(target, str):
        fn = load_target(target)
    elif inspect.isfunction(inspect.unwrap(target)):
        fn = target
    else:  # a partial, a class, a callable object: no `def` to compile
        raise UsageError(f"compile takes a @zk function or `FILE.py:FUNCTION`, not {_kind(target)}")
    if type(regions) is not bool:
        raise UsageError(f"`regions` is True or False, not {regions!r}")
    if max_instructions is not None and (type(max_instructions) is not int or max_instructions < 1):
        raise UsageError("`max_instructions` is a positive integer")
    if type(synthesize) is not bool:
        raise UsageError(f"`synthesize` is True or False, not {synthesize!r}")
    limit = {} if max_instructions is None else {"max_instructions": max_instructions}
    template = _template(fn)
    if template is not None:
        template.at(dict.fromkeys(template.unbounded, 1), max_instructions=max_instructions)
        return template
    doc = compile_program(fn, regions=regions, **limit)
    if "zeenot_regions" in doc:  # it calls other @zk functions: one circuit per region
        regions = Regions.from_document(doc)
        for circuit in regions.circuits.values():
            if synthesize:
                circuit.stats  # noqa: B018 - synthesize now, as below
        return regions
    circuit = Circuit(Program(doc))
    if synthesize:
        circuit.stats  # noqa: B018 - synthesize now: compiling reports size and synthesis errors
    return circuit


def load(directory: str | Path) -> Circuit | Template | Regions:
    """What `compile` saved in `directory`: a circuit, a template for unbounded lists, or a
    program's regions."""
    directory = _path(directory, "directory")
    if (directory / TEMPLATE_FILE).exists():
        return Template.load(directory)
    if (directory / REGIONS_FILE).exists():
        return Regions.load(directory)
    return Circuit.load(directory)


def load_target(target: str) -> Callable[..., Any]:
    """Resolve `"path/app.py:name"` to the function it names."""
    if not isinstance(target, str):
        raise UsageError(f"the target is a string `FILE.py:FUNCTION`, not {_kind(target)}")
    path, sep, name = target.rpartition(":")
    if not sep or not path or not name:
        raise MalformedInput(f"`{target}`: expected `FILE.py:FUNCTION`")
    return load_function(path, name)


def _snarkjs_texts(circuit: Circuit, verifying_key: bytes, proof: Proof) -> tuple[str, str, str]:
    """snarkjs's verification_key.json, proof.json and public.json texts for a groth16 proof."""
    if proof.backend != "groth16":
        raise UsageError(f"only Groth16 proofs can be exported; this is a {proof.backend} proof")
    if not isinstance(verifying_key, bytes):
        raise UsageError(
            f"the verifying key is bytes (Keys.verifying_key), not {_kind(verifying_key)}"
        )
    public = public_vector(circuit.program, proof)
    try:
        return _native.snarkjs_export(circuit.native, verifying_key, public, proof.proof)
    except _native.DecodeError as exc:
        raise MalformedInput(f"malformed proof or key: {exc}") from None
    except ValueError as exc:
        raise MalformedInput(str(exc)) from None


def solidity_verifier(circuit: Circuit, verifying_key: bytes) -> str:
    """Solidity source of a Groth16 verifier contract for this circuit's verifying key
    (`zeenot.solidity`); `solidity_calldata` gives `verifyProof`'s arguments for a proof."""
    circuit = _circuit(circuit)
    if not isinstance(circuit, Circuit) or not isinstance(verifying_key, bytes):
        raise UsageError("solidity_verifier takes a compiled `Circuit` and its verifying key")
    if not circuit.layout[0]:
        raise UsageError(
            f"`{circuit.program.ir['name']}` has no public values: a contract has nothing to "
            "check a proof of it against"
        )
    if circuit.layout[1]:
        # zeenot's verifiers check each Pedersen commitment is a point of Baby Jubjub's
        # prime-order subgroup before the pairing check; the contract has no such check yet
        raise UsageError(
            f"`{circuit.program.ir['name']}` has Committed values: the contract cannot yet check "
            "that their commitments are points of Baby Jubjub's prime-order subgroup, as "
            "`zeenot verify` does, so no contract is exported for it"
        )
    try:
        vk_json = _native.snarkjs_verifying_key(verifying_key)
    except _native.DecodeError as exc:
        raise MalformedInput(f"malformed verifying key: {exc}") from None
    name = circuit.program.ir["name"]
    return solidity.verifier_source(vk_json, name=name, program_hash=circuit.hash)


def solidity_calldata(circuit: Circuit, verifying_key: bytes, proof: Proof) -> list[Any]:
    """The arguments `[a, b, c, input]` of the exported contract's `verifyProof` for a groth16
    proof of this circuit (integers; `input` is the circuit's instance)."""
    circuit = _circuit(circuit)
    if not isinstance(circuit, Circuit) or not isinstance(proof, Proof):
        raise UsageError("solidity_calldata takes a compiled `Circuit` and a groth16 `Proof`")
    _, proof_json, public_json = _snarkjs_texts(circuit, verifying_key, proof)
    return solidity.calldata(proof_json, public_json)


def export_snarkjs(circuit: Circuit, verifying_key: bytes, proof: Proof, out: str | Path) -> Path:
    """Write the files `snarkjs groth16 verify` reads: verification key, proof, public values."""
    circuit = _circuit(circuit)
    if not isinstance(circuit, Circuit) or not isinstance(proof, Proof):
        raise UsageError("export_snarkjs takes a compiled `Circuit` and a groth16 `Proof`")
    if not isinstance(verifying_key, bytes):
        raise UsageError(
            f"the verifying key is bytes (Keys.verifying_key), not {_kind(verifying_key)}"
        )
    d = check_output_dir(_path(out, "the output directory"))
    vk_json, proof_json, public_json = _snarkjs_texts(circuit, verifying_key, proof)
    make_dir(d)
    write_atomic(d / "verification_key.json", vk_json, secret=False)
    write_atomic(d / "proof.json", proof_json, secret=False)
    write_atomic(d / "public.json", public_json, secret=False)
    return d
