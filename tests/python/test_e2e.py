"""End to end through the Python API: simulate, compile, setup, prove, verify, tamper."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from zeenot import _native, api
from zeenot.errors import Failure
from zeenot.simulate import simulate

from .conftest import EXAMPLES


def test_payd_proof_matches_simulate_and_verifies(payd):
    circuit, keys, inputs = payd
    fn = api.load_target(f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium")
    expected = simulate(fn, inputs)
    assert expected == [2603, False]  # worked by hand in examples/payd/app.py's numbers
    proof = api.prove(circuit, keys, inputs)
    assert proof.outputs == expected
    assert proof.public_inputs == {"base_cents": 500, "cap_cents": 4000}
    api.verify(circuit, keys.verifying_key, proof)
    # the proof file round-trips
    again = api.Proof.from_json(proof.to_json())
    api.verify(circuit, keys.verifying_key, again)


def test_payd_discount_and_cap(payd):
    circuit, keys, inputs = payd
    fn = api.load_target(f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium")
    idle = dict(inputs, km=[0, 0, 0, 100, 0, 10, 0], night_km=[0] * 7)
    heavy = dict(inputs, km=[1600] * 7, night_km=[800] * 7)
    for case in (idle, heavy):
        proof = api.prove(circuit, keys, case)
        assert proof.outputs == simulate(fn, case)
        api.verify(circuit, keys.verifying_key, proof)
    assert simulate(fn, heavy)[1] is True


def test_implausible_log_has_no_proof(payd):
    circuit, keys, inputs = payd
    bad = dict(inputs, km=[1601, 0, 0, 0, 0, 0, 0])
    with pytest.raises(_native.UnsatisfiedError, match="check"):
        api.prove(circuit, keys, bad)
    night_over_total = dict(inputs, night_km=[50, 0, 0, 0, 0, 0, 0])
    with pytest.raises(_native.UnsatisfiedError):
        api.prove(circuit, keys, night_over_total)


def test_out_of_range_input_is_malformed(payd):
    circuit, keys, inputs = payd
    for bad in (dict(inputs, base_cents=-1), dict(inputs, base_cents=2**32)):
        with pytest.raises(api.MalformedInput):
            api.prove(circuit, keys, bad)
    with pytest.raises(api.MalformedInput):
        api.prove(circuit, keys, dict(inputs, km=[1, 2, 3]))


@pytest.mark.parametrize(
    "change",
    [
        lambda p: dataclasses.replace(p, outputs=[p.outputs[0] - 1, p.outputs[1]]),
        lambda p: dataclasses.replace(p, outputs=[p.outputs[0], not p.outputs[1]]),
        lambda p: dataclasses.replace(p, public_inputs={**p.public_inputs, "base_cents": 499}),
        lambda p: dataclasses.replace(p, public_inputs={**p.public_inputs, "cap_cents": 2603}),
    ],
)
def test_changed_public_value_is_rejected(payd, change):
    circuit, keys, inputs = payd
    proof = api.prove(circuit, keys, inputs)
    with pytest.raises(api.ProofRejected):
        api.verify(circuit, keys.verifying_key, change(proof))


def test_tampered_proof_bytes_are_rejected(payd):
    circuit, keys, inputs = payd
    proof = api.prove(circuit, keys, inputs)
    for i in (0, 40, len(proof.proof) - 1):
        raw = bytearray(proof.proof)
        raw[i] ^= 0x01
        tampered = dataclasses.replace(proof, proof=bytes(raw))
        with pytest.raises((api.ProofRejected, api.MalformedInput)):
            api.verify(circuit, keys.verifying_key, tampered)
    for raw in (b"", proof.proof[:-1], proof.proof + b"\x00", b"\xff" * len(proof.proof)):
        with pytest.raises(api.MalformedInput):
            api.verify(circuit, keys.verifying_key, dataclasses.replace(proof, proof=raw))


def test_proof_for_other_keys_or_program_is_rejected(payd):
    circuit, keys, inputs = payd
    proof = api.prove(circuit, keys, inputs)
    other = api.setup(circuit, seed=8)
    with pytest.raises(api.ProofRejected):
        api.verify(circuit, other.verifying_key, proof)
    # even when the file claims the other key's hash, the pairing check fails
    relabelled = dataclasses.replace(proof, verifying_key_hash=other.verifying_key_hash)
    with pytest.raises(api.ProofRejected):
        api.verify(circuit, other.verifying_key, relabelled)
    with pytest.raises(api.ProofRejected):
        api.verify(circuit, keys.verifying_key, dataclasses.replace(proof, program_hash="00" * 32))


def test_proof_file_wrong_shapes_are_malformed(payd):
    circuit, keys, inputs = payd
    doc = api.Proof.from_json(api.prove(circuit, keys, inputs).to_json())
    for outputs in ([2603], [2603, False, 1], "x", None, [2**64, False], [-1, False]):
        bad = copy.copy(doc)
        object.__setattr__(bad, "outputs", outputs)
        with pytest.raises(api.MalformedInput):
            api.verify(circuit, keys.verifying_key, bad)
    for text in ("", "[]", "{}", '{"zeenot_proof": 1, "backend": "groth16"}'):
        with pytest.raises(api.MalformedInput):
            api.Proof.from_json(text)


def test_out_of_range_input_fails_in_simulate_too(payd):
    fn = api.load_target(f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium")
    _, _, inputs = payd
    for bad in (dict(inputs, base_cents=-1), dict(inputs, km=[2**32] + inputs["km"][1:])):
        with pytest.raises((ValueError, Failure)):
            simulate(fn, bad)


def test_malformed_proving_key_is_malformed_input(payd):
    circuit, keys, inputs = payd
    for raw in (b"", keys.proving_key[:-1], keys.proving_key + b"\x00"):
        bad = api.Keys(keys.program_hash, raw, keys.verifying_key)
        with pytest.raises(api.MalformedInput):
            api.prove(circuit, bad, inputs)


def test_top_level_api_is_the_same_path():
    import zeenot

    assert zeenot.compile is api.compile and zeenot.verify is api.verify
    with pytest.raises(AttributeError):
        zeenot.no_such_thing  # noqa: B018


def test_loaded_program_agrees_with_the_text_and_is_kept(payd, tmp_path):
    circuit, _keys, inputs = payd
    text = circuit.ir_json
    loaded = _native.load_program(text)
    assert loaded.hash == circuit.hash
    assert _native.stats(loaded) == _native.stats(text)
    leaves, _ = api._leaves(circuit, inputs, None)
    assert _native.evaluate(loaded, leaves) == _native.evaluate(text, leaves)
    # a circuit read from disk keeps the program it validated: no second parse
    circuit.save(tmp_path)
    again = api.load(tmp_path)
    assert "native" in again.__dict__ and again.hash == circuit.hash
    for bad in ("{", '{"version": 1}', "[]"):
        with pytest.raises(_native.IrError):
            _native.load_program(bad)
