"""ZØ's CNIDS as the paper has it (examples/cnids: `payload_alert`): a masked byte pattern
matched over the raw bytes of a capture the network tap signed. Against the example's
independent reference (`data.payload_reference`), by hand, tampered and foreign captures, and
a Groth16 proof end to end."""

from __future__ import annotations

import copy

import pytest

from zeenot import _native, api
from zeenot.errors import Failure
from zeenot.simulate import simulate

from .conftest import EXAMPLES, example_data, read_json

TARGET = f"{EXAMPLES / 'cnids' / 'app.py'}:payload_alert"


def resigned(d, inputs: dict) -> dict:
    """The same inputs with the tap's signature over their (edited) bytes."""
    out = dict(inputs)
    sig = d.eddsa_sign(d.TAP_SEED, d.capture_digest(inputs["payload"]))
    out["capture_sig"] = d.to_json_value(sig)
    return out


def test_the_example_capture_matches_the_reference():
    inputs = read_json(EXAMPLES / "cnids" / "payload_inputs.json")
    assert simulate(api.load_target(TARGET), inputs) == example_data("cnids").payload_reference(
        inputs
    )


@pytest.mark.parametrize("n", [8, 31, 62, 100, 128])
def test_generated_captures_match_the_reference(n):
    d = example_data("cnids")
    fn = api.load_target(TARGET)
    for seed in (1, 2, 3):
        inputs = d.payload(n, seed, attacks=2)
        want = d.payload_reference(inputs)
        assert want is not None
        assert simulate(fn, inputs) == want


def test_by_hand_the_mask_is_a_wildcard():
    """The pattern at 3 with its masked byte 0x41, and at 20 with 0x00: both count."""
    d = example_data("cnids")
    raw = [0x20] * 40
    for at, wild in ((3, 0x41), (20, 0x00)):
        raw[at : at + 8] = [0x90, 0x90, 0x90, 0xEB, 0x1F, wild, 0x5E, 0x89]
    inputs = resigned(d, {**d.payload(40, 1), "payload": raw})
    assert simulate(api.load_target(TARGET), inputs) == [2, 3]
    assert d.payload_reference(inputs) == [2, 3]


def test_captures_the_tap_did_not_sign_or_without_the_attack_have_no_proof():
    d = example_data("cnids")
    fn = api.load_target(TARGET)
    good = d.payload(100, 4)
    flipped = copy.deepcopy(good)
    flipped["payload"][0] ^= 1  # one bit of the capture changed: the signature no longer fits
    cut = copy.deepcopy(good)
    cut["payload"].pop()  # a byte dropped: the length is hashed too
    foreign = copy.deepcopy(good)
    foreign["tap"] = d.to_json_value(d.eddsa_public_key(bytes(32)))
    clean = resigned(d, {**good, "payload": [0x20] * 100})  # signed, but no attack in it
    short = resigned(d, {**good, "payload": [0x90] * 7})  # shorter than the pattern
    for bad in (flipped, cut, foreign, clean, short):
        assert d.payload_reference(bad) is None
        with pytest.raises(Failure):
            simulate(fn, bad)


def test_payload_alert_proved_and_verified():
    d = example_data("cnids")
    circuit = api.compile(TARGET)
    keys = api.setup(circuit, seed=6)
    inputs = read_json(EXAMPLES / "cnids" / "payload_inputs.json")
    proof = api.prove(circuit, keys, inputs)
    assert proof.outputs == d.payload_reference(inputs)
    assert set(proof.public_inputs) == {"tap", "pattern", "mask"}
    api.verify(circuit, keys.verifying_key, proof)
    flipped = copy.deepcopy(inputs)
    flipped["payload"][-1] ^= 0x80
    with pytest.raises(_native.UnsatisfiedError, match="not captured by the tap"):
        api.prove(circuit, keys, flipped)
