"""ZØ's FitBit as the paper has it (examples/fitbit: `distance_donation`): the donation pays for
the distance covered on foot or by bike, from a log the tracker signed once per batch. Against
the example's independent reference (`data.distance_reference`), by hand, tampered and foreign
logs, and a Groth16 proof end to end."""

from __future__ import annotations

import copy

import pytest

from zeenot import _native, api
from zeenot.errors import Failure
from zeenot.simulate import simulate

from .conftest import EXAMPLES, example_data, read_json

TARGET = f"{EXAMPLES / 'fitbit' / 'app.py'}:distance_donation"


def sample(t: int, x: int, y: int, steps: int = 0) -> dict:
    return {"t": t, "steps": steps, "x": x, "y": y}


def test_the_signed_example_matches_the_reference():
    inputs = read_json(EXAMPLES / "fitbit" / "signed_inputs.json")
    assert simulate(api.load_target(TARGET), inputs) == example_data("fitbit").distance_reference(
        inputs
    )
    assert example_data("fitbit").distance_reference(inputs) == [167, 5590, False]


@pytest.mark.parametrize("n", [0, 1, 2, 17, 64])
def test_generated_logs_match_the_reference(n):
    d = example_data("fitbit")
    for seed in (1, 2):
        inputs = d.signed(d.generate(n, seed))
        want = d.distance_reference(inputs)
        assert want is not None
        assert simulate(api.load_target(TARGET), inputs) == want


def test_by_hand_a_car_ride_earns_nothing():
    """A 300/400 m walk (500 m) in 60 s, then 3 km in 60 s (50 m/s: a car), then 5 m back."""
    d = example_data("fitbit")
    trace = [sample(0, 0, 0), sample(60, 300, 400), sample(120, 3300, 400), sample(180, 3297, 396)]
    inputs = d.signed({"trace": trace, "cap_cents": 10}, cents_per_km=40)
    assert simulate(api.load_target(TARGET), inputs) == [10, 505, True]  # 505 m * 40 / 1000 = 20
    assert d.distance_reference(inputs) == [10, 505, True]


def test_a_log_the_tracker_did_not_sign_has_no_proof():
    d = example_data("fitbit")
    fn = api.load_target(TARGET)
    good = d.signed(d.generate(12, 3))
    forged = copy.deepcopy(good)
    forged["trace"][5]["x"] += 1  # one metre moved: the signature no longer covers the log
    shortened = copy.deepcopy(good)
    shortened["trace"].pop()  # a sample left out: the length is in the hash chain too
    foreign = copy.deepcopy(good)
    foreign["tracker"] = d.to_json_value(d.eddsa_public_key(bytes(32)))  # another device's key
    for bad in (forged, shortened, foreign):
        assert d.distance_reference(bad) is None
        with pytest.raises(Failure):
            simulate(fn, bad)


@pytest.mark.slow
def test_distance_donation_proved_and_verified():
    d = example_data("fitbit")
    circuit = api.compile(TARGET)
    keys = api.setup(circuit, seed=5)
    inputs = read_json(EXAMPLES / "fitbit" / "signed_inputs.json")
    proof = api.prove(circuit, keys, inputs)
    assert proof.outputs == d.distance_reference(inputs)
    assert proof.public_inputs["cents_per_km"] == 30  # the trace and signature stay private
    assert set(proof.public_inputs) == {"tracker", "cents_per_km", "cap_cents"}
    api.verify(circuit, keys.verifying_key, proof)
    forged = copy.deepcopy(inputs)
    forged["trace"][3]["steps"] += 1
    with pytest.raises(_native.UnsatisfiedError, match="not the tracker's"):
        api.prove(circuit, keys, forged)
