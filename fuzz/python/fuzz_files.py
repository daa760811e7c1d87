"""Coverage-guided fuzzing (atheris, libFuzzer) of the files a verifier takes from strangers, as
the Python layer reads them: proof files (Groth16, sigma, a template's sigma proof), inputs
JSON, IR documents and key directories. The Rust decoders under them have their own cargo-fuzz
targets (`fuzz/fuzz_targets/`).

A finding is any exception that is not one of zeenot's own errors (`ZeenotError`, the native
`ZeenotError`): those are the clear, exit-2 (or exit-1) answers to bad input; anything else
would be an internal error (exit 3) or a crash.

    .venv/bin/python fuzz/python/fuzz_files.py TARGET [libFuzzer flags, e.g. -runs=100000]

Targets: proof_groth16, proof_sigma, proof_template, inputs, ir, keys. Seeds come from the
examples, generated into a temporary directory at start-up.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from zeenot import _native, api
    from zeenot.errors import ZeenotError
    from zeenot.files import parse_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
EXPECTED = (ZeenotError, _native.ZeenotError)
# A template proof names the lengths the verifier compiles: keep each execution short.
MAX_INSTRUCTIONS = 2_000


def _example(name: str, fn: str) -> tuple[api.Circuit | api.Template, dict]:
    circuit = api.compile(f"{EXAMPLES / name / 'app.py'}:{fn}")
    return circuit, json.loads((EXAMPLES / name / "inputs.json").read_text())


def _setup(target: str, work: Path) -> tuple[Callable[[bytes], None], list[bytes]]:
    """The function to fuzz and its seeds."""
    if target in ("proof_groth16", "keys"):
        circuit, inputs = _example("payd", "weekly_premium")
        assert isinstance(circuit, api.Circuit)
        keys = api.setup(circuit, seed=1)
        proof = api.prove(circuit, keys, inputs, seed=1)
        if target == "proof_groth16":

            def run(data: bytes) -> None:
                api.verify(circuit, keys.verifying_key, api.Proof.from_json(data))

            return run, [proof.to_json().encode()]
        d = work / "keys"
        circuit.save(d)
        keys.save(d)

        def run_keys(data: bytes) -> None:
            # keys.json and the verifying key as the verifier reads them from its directory
            split = data.find(b"\0")
            meta, vk = (data, b"") if split < 0 else (data[:split], data[split + 1 :])
            (d / api.KEYS_FILE).write_bytes(meta)
            (d / api.VERIFYING_KEY_FILE).write_bytes(vk)
            loaded = api.Keys.load(d, proving=False)
            api.verify(circuit, loaded.verifying_key, proof)

        seed = (d / api.KEYS_FILE).read_bytes() + b"\0" + keys.verifying_key
        return run_keys, [seed]
    if target in ("proof_sigma", "proof_template"):
        if target == "proof_sigma":
            circuit, inputs = _example("payd", "weekly_premium")
        else:
            circuit, inputs = _example("fitbit", "donation_any_length")
            inputs["trace"] = inputs["trace"][:1]
        proof = api.prove_sigma(circuit, inputs, seed=1)

        def run_sigma(data: bytes) -> None:
            api.verify(circuit, None, api.Proof.from_json(data), max_instructions=MAX_INSTRUCTIONS)

        return run_sigma, [proof.to_json().encode()]
    if target == "inputs":
        programs = [_example(*e) for e in (("payd", "weekly_premium"), ("loyalty", "discount"))]
        programs.append(_example("metering", "bill"))

        def run_inputs(data: bytes) -> None:
            if not data:
                return
            circuit, _ = programs[data[0] % len(programs)]
            assert isinstance(circuit, api.Circuit)
            value = parse_json(data[1:], "inputs")
            api._leaves(circuit, value, None)

        seeds = [bytes([i]) + json.dumps(inp).encode() for i, (_, inp) in enumerate(programs)]
        return run_inputs, seeds
    if target == "ir":
        circuit, _ = _example("payd", "weekly_premium")
        assert isinstance(circuit, api.Circuit)
        d = work / "ir"
        circuit.save(d)

        def run_ir(data: bytes) -> None:
            (d / api.IR_FILE).write_bytes(data)
            api.Circuit.load(d)

        return run_ir, [circuit.ir_json.encode()]
    raise SystemExit(f"unknown target {target!r}")


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    target = sys.argv.pop(1)
    work = Path(tempfile.mkdtemp(prefix=f"zeenot-fuzz-{target}-"))
    run, seeds = _setup(target, work)
    corpus = work / "corpus"
    corpus.mkdir()
    for i, seed in enumerate(seeds):
        (corpus / f"seed{i}").write_bytes(seed)

    def one(data: bytes) -> None:
        try:
            run(data)
        except EXPECTED:
            pass

    flags = sys.argv[1:]
    if not any(f.startswith("-max_len=") for f in flags):
        flags.append(f"-max_len={max(len(s) for s in seeds) * 2}")
    atheris.Setup([sys.argv[0], *flags, str(corpus)], one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
