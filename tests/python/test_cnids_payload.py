"""ZØ's CNIDS as the paper has it (examples/cnids: `payload_alert`): a masked byte pattern
matched over the TCP payload of a captured IPv4 packet a member's network tap signed, and the
attacker's address read from the signed packet's header. Against the example's independent
reference (`data.payload_reference`), by hand, tampered, malformed and foreign captures, and a
Groth16 proof end to end."""

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
    sig = d.eddsa_sign(d.TAP_SEED, d.capture_digest(inputs["packet"]))
    out["capture_sig"] = d.to_json_value(sig)
    return out


def test_the_example_capture_matches_the_reference():
    inputs = read_json(EXAMPLES / "cnids" / "payload_inputs.json")
    assert simulate(api.load_target(TARGET), inputs) == example_data("cnids").payload_reference(
        inputs
    )


@pytest.mark.parametrize("n", [48, 62, 100, 128])
def test_generated_captures_match_the_reference(n):
    d = example_data("cnids")
    fn = api.load_target(TARGET)
    for seed in (1, 2, 3):
        inputs = d.payload(n, seed, attacks=2, member=seed % d.K)
        want = d.payload_reference(inputs)
        assert want is not None and want[1] >= 1
        assert simulate(fn, inputs) == want


def packet_with(d, data: list[int], src: str = "203.0.113.9") -> list[int]:
    return d.ipv4_tcp(d.ip(src), d.SERVER, 40000, 80, data, 1)


def test_by_hand_the_mask_is_a_wildcard_and_headers_do_not_count():
    """The pattern at payload offsets 3 (masked byte 0x41) and 20 (0x00): both count, at
    packet offsets 43 and 60; the same bytes in the header (the IP identification and
    addresses are not payload) do not."""
    d = example_data("cnids")
    raw = [0x20] * 40
    for at, wild in ((3, 0x41), (20, 0x00)):
        raw[at : at + 8] = [0x90, 0x90, 0x90, 0xEB, 0x1F, wild, 0x5E, 0x89]
    inputs = resigned(d, {**d.payload(80, 1), "packet": packet_with(d, raw)})
    expected = [d.ip("203.0.113.9"), 2, 43]
    assert simulate(api.load_target(TARGET), inputs) == expected
    assert d.payload_reference(inputs) == expected
    in_header = packet_with(d, [0x20] * 40, src="144.144.144.235")  # 90 90 90 EB, then dst
    in_header[16:20] = [0x1F, 0x00, 0x5E, 0x89]  # the destination completes the pattern
    assert d.payload_reference(resigned(d, {**inputs, "packet": in_header})) is None
    with pytest.raises(Failure, match="does not occur"):
        simulate(api.load_target(TARGET), resigned(d, {**inputs, "packet": in_header}))


def test_captures_the_tap_did_not_sign_or_without_the_attack_have_no_proof():
    d = example_data("cnids")
    fn = api.load_target(TARGET)
    good = d.payload(100, 4)
    flipped = copy.deepcopy(good)
    flipped["packet"][60] ^= 1  # one bit of the capture changed: the signature no longer fits
    spoofed = copy.deepcopy(good)
    spoofed["packet"][15] ^= 1  # another source address: not what the tap saw
    cut = copy.deepcopy(good)
    cut["packet"].pop()  # a byte dropped: the length is hashed too
    foreign = copy.deepcopy(good)
    foreign["tap"] = d.to_json_value(d.eddsa_public_key(bytes(32)))
    clean = resigned(d, {**good, "packet": packet_with(d, [0x20] * 60)})  # no attack in it
    short = resigned(d, {**good, "packet": good["packet"][:30]})  # shorter than its headers
    wrong_length = copy.deepcopy(good)
    wrong_length["packet"][3] += 1  # the IPv4 total length says one byte more
    wrong_length = resigned(d, wrong_length)
    udp = copy.deepcopy(good)
    udp["packet"][9] = 17  # not TCP
    udp = resigned(d, udp)
    for bad in (flipped, spoofed, cut, foreign, clean, short, wrong_length, udp):
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
    assert set(proof.public_inputs) == {"pattern", "mask"}  # which member's tap stays private
    api.verify(circuit, keys.verifying_key, proof)
    flipped = copy.deepcopy(inputs)
    flipped["packet"][-1] ^= 0x80
    with pytest.raises(_native.UnsatisfiedError, match="not captured by the tap"):
        api.prove(circuit, keys, flipped)
