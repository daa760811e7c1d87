"""Every case study deployed as a client/server application (issue 14, item 6; issue 28: the
regions ZØ describes, from signed readings).

Each runs through the server's protocol in process: the server's result carries what
`simulate` computes for the region on the same data with the published parameters, and a
submission with a tampered output is refused. Loyalty's terminal and the utility also refuse
a run whose public claim (the basket, the meter) is not theirs. FitBit, Study and CNIDS prove
from signed readings (tests/python/test_case_studies.py: tampered readings have no proof, the
CNIDS blocklist round); Waze and Slice are rounds of peers (tests/python/test_runtime_peers.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from zeenot.application import load_application
from zeenot.ir import to_json_value
from zeenot.runtime.client import Runner
from zeenot.runtime.service import Rejected, Service
from zeenot.runtime.store import Store
from zeenot.simulate import simulate

from .test_runtime_service import _Local

ROOT = Path(__file__).resolve().parents[2]

# example -> (the region the client proves, its inputs from run.json and the application's
#             module (the published parameters), a function of the server's result and
#             simulate's outputs that must hold)
CASES: dict[str, Any] = {
    "payd": None,  # tests/python/test_runtime_service.py
    "fitbit": (
        "distance_donation",
        lambda run, m: {
            "trace": run["trace"],
            "signature": run["signature"],
            "tracker": to_json_value(m.TRACKER),
            "cents_per_km": 30,
            "cap_cents": 5000,
        },
        lambda result, out: result
        == {"walker": "W-17", "donation_cents": out[0], "metres": out[1], "capped": out[2]},
    ),
    "study": (
        "stress_study",
        lambda run, m: {
            **{k: run[k] for k in ("gsr", "gsr_sig", "frames", "frames_sig")},
            "gsr_sensor": to_json_value(m.GSR_SENSOR),
            "camera": to_json_value(m.CAMERA),
            "stress_level": 800,
            "min_frames": 3,
        },
        lambda result, out: [
            result["gsr_samples"],
            result["conductance_sum"],
            result["stressed_samples"],
            result["stress_episodes"],
            result["peak_conductance"],
            result["interactions"],
            result["frames_with_face"],
        ]
        == out,
    ),
    "loyalty": (
        "discount",
        lambda run, m: {"history": run["history"], "basket": run["basket"], "today": 20050},
        lambda result, out: (result["discount_cents"], result["tier"]) == tuple(out),
    ),
    "cnids": (
        "payload_alert",
        lambda run, m: {
            **{k: run[k] for k in ("packet", "capture_sig", "tap")},
            "pattern": list(m.PATTERN),
            "mask": list(m.MASK),
        },
        lambda result, out: result
        == {
            "monitor": "edge-1",
            "attacker": ".".join(str((out[0] >> s) & 255) for s in (24, 16, 8, 0)),
            "matches": out[1],
            "first": out[2],
        },
    ),
    "metering": (
        "bill",
        lambda run, m: {
            "meter": run["meter"],
            "readings": run["readings"],
            "cheap_cents": 18,
            "cents": 31,
        },
        lambda result, out: result == {"account": "A-1001", "amount_cents": out},
    ),
}
# the largest circuits (89k and 67k constraints: EdDSA and hash chains over the readings)
SLOW = {"fitbit", "study"}
NAMES = [
    pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n
    for n, c in CASES.items()
    if c is not None
]


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[Service, Runner]]:
    """Each example deployed on first use (its keys set up once for the module)."""
    store = Store(str(tmp_path_factory.mktemp("examples") / "zeenot.db"))
    out: dict[str, tuple[Service, Runner]] = {}

    def deploy(name: str) -> tuple[Service, Runner]:
        if name not in out:
            out[name] = serve_in_process(name, store)
        return out[name]

    return deploy


def serve_in_process(name: str, store: Store) -> tuple[Service, Runner]:
    """examples/NAME served from `store`, and a client whose requests go straight to it."""
    app = load_application(ROOT / "examples" / name / "app.py")
    service = Service(app, store)
    runner = Runner(app, "http://unused")
    runner.http = _Local(service)  # type: ignore[assignment]
    return service, runner


def module_of(service: Service) -> ModuleType:
    return service.app.module


def run_json(name: str) -> dict[str, Any]:
    path = ROOT / "examples" / name / ("log.json" if name == "payd" else "run.json")
    return json.loads(path.read_text())


@pytest.mark.parametrize("name", NAMES)
def test_example_runs_as_an_application(deployed, name: str) -> None:
    service, runner = deployed(name)
    region, inputs_of, agrees = CASES[name]
    run = run_json(name)
    assert {c.region for _, c in service.app.proved_calls()} == {region}
    status, answer = service.submit(runner.prepare(run, submission_id=f"{name}-1"))
    assert status == 201
    expected = simulate(service.app.regions[region], inputs_of(run, module_of(service)))
    assert agrees(answer["result"], expected), (answer["result"], expected)


@pytest.mark.parametrize("name", NAMES)
def test_example_refuses_a_tampered_output(deployed, name: str) -> None:
    service, runner = deployed(name)
    doc = json.loads(runner.prepare(run_json(name), submission_id=f"{name}-bad"))
    proof = next(iter(doc["proofs"].values()))
    outputs = proof["outputs"]
    if isinstance(outputs, list):
        outputs[0] = outputs[0] + 1 if isinstance(outputs[0], int) else outputs[0]
    else:
        proof["outputs"] = outputs + 1
    with pytest.raises(Rejected) as info:
        service.submit(json.dumps(doc).encode())
    assert info.value.status == 422


def test_the_terminal_refuses_another_basket(deployed) -> None:
    service, runner = deployed("loyalty")
    run = run_json("loyalty")
    run["basket"] = run["basket"][:-1]  # proved honestly, but not what lane 3 scanned
    with pytest.raises(Rejected, match="not the one lane lane-3 scanned"):
        service.submit(runner.prepare(run, submission_id="loyalty-other-basket"))


def test_the_utility_refuses_another_meter(deployed) -> None:
    """The readings are signed by the account's meter; a run claiming another meter key is
    refused: the proof is bound to the run's public inputs (runtime/binding.py), and its
    public `meter` is not the claimed one either."""
    service, runner = deployed("metering")
    doc = json.loads(runner.prepare(run_json("metering"), submission_id="meter-x"))
    from zeenot.babyjub import BASE8

    doc["inputs"]["meter"] = {"x": str(BASE8.x), "y": str(BASE8.y)}  # a valid point, not its key
    with pytest.raises(Rejected) as info:
        service.submit(json.dumps(doc).encode())
    assert info.value.status == 422 and "belongs to another run" in info.value.reason
