"""ZØ's study as the paper has it (examples/study: `stress_study`): stress from a galvanic skin
response sensor and face-to-face interactions from a camera's per-frame face counts, each batch
signed by its sensor. Against the example's independent reference (`data.sensors_reference`),
by hand, tampered and foreign batches, and a Groth16 proof end to end."""

from __future__ import annotations

import copy

import pytest

from zeenot import _native, api
from zeenot.errors import Failure
from zeenot.simulate import simulate

from .conftest import EXAMPLES, example_data, read_json

TARGET = f"{EXAMPLES / 'study' / 'app.py'}:stress_study"


def signed(d, gsr: list[tuple[int, int]], frames: list[tuple[int, int]], **params) -> dict:
    """Inputs for hand-made batches, signed by the example sensors."""
    inputs = d.sensors(0, 0)
    inputs["gsr"] = [{"t": t, "conductance": c} for t, c in gsr]
    inputs["frames"] = [{"t": t, "faces": f} for t, f in frames]
    inputs["gsr_sig"] = d.to_json_value(d.eddsa_sign(d.GSR_SEED, d.chain(gsr)))
    inputs["frames_sig"] = d.to_json_value(d.eddsa_sign(d.CAMERA_SEED, d.chain(frames)))
    return {**inputs, **params}


def test_the_example_batches_match_the_reference():
    inputs = read_json(EXAMPLES / "study" / "sensor_inputs.json")
    assert simulate(api.load_target(TARGET), inputs) == example_data("study").sensors_reference(
        inputs
    )


@pytest.mark.parametrize(("n_gsr", "n_frames"), [(0, 0), (1, 1), (20, 50), (64, 96)])
def test_generated_batches_match_the_reference(n_gsr, n_frames):
    d = example_data("study")
    fn = api.load_target(TARGET)
    for seed in (1, 2, 3):
        inputs = d.sensors(n_gsr, n_frames, seed)
        want = d.sensors_reference(inputs)
        assert want is not None
        assert simulate(fn, inputs) == want


def test_by_hand_episodes_and_interactions():
    """Stressed at 900, 950 then 1000 after a calm sample: two episodes (a stressed start is
    one), three stressed samples; faces in frames 2-4 and 6-7 with min_frames 2: two talks."""
    d = example_data("study")
    gsr = [(60, 900), (120, 950), (180, 300), (240, 1000)]
    frames = [(10, 0), (20, 1), (30, 2), (40, 1), (50, 0), (60, 3), (70, 1), (80, 0)]
    inputs = signed(d, gsr, frames, stress_level=900, min_frames=2)
    want = [4, 3150, 3, 2, 1000, 2, 5]
    assert simulate(api.load_target(TARGET), inputs) == want
    assert d.sensors_reference(inputs) == want


def test_batches_the_sensors_did_not_sign_have_no_proof():
    d = example_data("study")
    fn = api.load_target(TARGET)
    good = d.sensors(10, 12, 5)
    calmer = copy.deepcopy(good)
    calmer["gsr"][3]["conductance"] -= 1  # a calmer reading than the sensor's
    edited = copy.deepcopy(good)
    edited["frames"][4]["faces"] ^= 1  # a face added or removed
    foreign = copy.deepcopy(good)
    foreign["camera"] = d.to_json_value(d.eddsa_public_key(bytes(32)))
    backwards = signed(d, [(60, 400), (60, 500)], [(1, 0)])  # signed, but time stands still
    for bad in (calmer, edited, foreign, backwards):
        assert d.sensors_reference(bad) is None
        with pytest.raises(Failure):
            simulate(fn, bad)


@pytest.mark.slow
def test_stress_study_proved_and_verified():
    d = example_data("study")
    circuit = api.compile(TARGET)
    keys = api.setup(circuit, seed=7)
    inputs = read_json(EXAMPLES / "study" / "sensor_inputs.json")
    proof = api.prove(circuit, keys, inputs)
    assert proof.outputs == d.sensors_reference(inputs)
    assert set(proof.public_inputs) == {"gsr_sensor", "camera", "stress_level", "min_frames"}
    api.verify(circuit, keys.verifying_key, proof)
    calmer = copy.deepcopy(inputs)
    calmer["gsr"][0]["conductance"] += 1
    with pytest.raises(_native.UnsatisfiedError, match="not the GSR sensor's"):
        api.prove(circuit, keys, calmer)
