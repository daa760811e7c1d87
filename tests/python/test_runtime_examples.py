"""Every case study deployed as a client/server application (issue 14, item 6).

Each runs through the server's protocol in process: the server's result carries what
`simulate` computes for the region on the same data with the published parameters, and a
submission with a tampered output is refused. Loyalty's terminal and the utility also refuse
a run whose public claim (the basket, the meter) is not theirs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from zeenot.application import load_application
from zeenot.runtime.client import Runner
from zeenot.runtime.service import Rejected, Service
from zeenot.runtime.store import Store
from zeenot.simulate import simulate

from .test_runtime_service import _Local

ROOT = Path(__file__).resolve().parents[2]

# example -> (the region the client proves, its inputs from run.json and the parameters,
#             a function of the server's result and simulate's outputs that must hold)
CASES: dict[str, Any] = {
    "payd": None,  # tests/python/test_runtime_service.py
    "fitbit": (
        "donation",
        lambda run: {"trace": run["trace"], "cents_per_1000_steps": 25, "cap_cents": 5000},
        lambda result, out: result
        == {"walker": "W-17", "donation_cents": out[0], "steps": out[1], "capped": out[2]},
    ),
    "study": (
        "study_summary",
        lambda run: {"readings": run["readings"], "high_systolic": 140, "high_diastolic": 90},
        lambda result, out: [
            result["readings"],
            result["moments"],
            result["high_bp_readings"],
            result["hr_range"],
            result["longest_gap_min"],
            result["first_hypo_minute"],
        ]
        == out,
    ),
    "loyalty": (
        "discount",
        lambda run: {"history": run["history"], "basket": run["basket"], "today": 20050},
        lambda result, out: (result["discount_cents"], result["tier"]) == tuple(out),
    ),
    "cnids": (
        "alert",
        lambda run: {
            "trace": run["trace"],
            "signature": [[445, 2, 0], [445, 16, 0], [445, 24, 1000]],
            "window_ms": 2000,
        },
        lambda result, out: (result["matches"], result["first"], result["t_ms"]) == tuple(out[1:]),
    ),
    "metering": (
        "bill",
        lambda run: {
            "meter": run["meter"],
            "readings": run["readings"],
            "cheap_cents": 18,
            "cents": 31,
        },
        lambda result, out: result == {"account": "A-1001", "amount_cents": out},
    ),
}


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Service, Runner]]:
    store = Store(str(tmp_path_factory.mktemp("examples") / "zeenot.db"))
    out = {}
    for name in CASES:
        app = load_application(ROOT / "examples" / name / "app.py")
        service = Service(app, store)
        runner = Runner(app, "http://unused")
        runner.http = _Local(service)  # type: ignore[assignment]
        out[name] = (service, runner)
    return out


def _run_json(name: str) -> dict[str, Any]:
    path = ROOT / "examples" / name / ("log.json" if name == "payd" else "run.json")
    return json.loads(path.read_text())


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c is not None])
def test_example_runs_as_an_application(deployed, name: str) -> None:
    service, runner = deployed[name]
    region, inputs_of, agrees = CASES[name]
    run = _run_json(name)
    status, answer = service.submit(runner.prepare(run, submission_id=f"{name}-1"))
    assert status == 201
    expected = simulate(service.app.regions[region], inputs_of(run))
    assert agrees(answer["result"], expected), (answer["result"], expected)


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c is not None])
def test_example_refuses_a_tampered_output(deployed, name: str) -> None:
    service, runner = deployed[name]
    doc = json.loads(runner.prepare(_run_json(name), submission_id=f"{name}-bad"))
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
    service, runner = deployed["loyalty"]
    run = _run_json("loyalty")
    run["basket"] = run["basket"][:-1]  # proved honestly, but not what lane 3 scanned
    with pytest.raises(Rejected, match="not the one lane lane-3 scanned"):
        service.submit(runner.prepare(run, submission_id="loyalty-other-basket"))


def test_the_utility_refuses_another_meter(deployed) -> None:
    """The readings are signed by the account's meter; a run claiming another meter key is
    refused: the proof is bound to the run's public inputs (runtime/binding.py), and its
    public `meter` is not the claimed one either."""
    service, runner = deployed["metering"]
    doc = json.loads(runner.prepare(_run_json("metering"), submission_id="meter-x"))
    from zeenot.babyjub import BASE8

    doc["inputs"]["meter"] = {"x": str(BASE8.x), "y": str(BASE8.y)}  # a valid point, not its key
    with pytest.raises(Rejected) as info:
        service.submit(json.dumps(doc).encode())
    assert info.value.status == 422 and "belongs to another run" in info.value.reason
