"""ZØ's six case studies as `zeenot serve` runs them (issue 28, item 1): each application proves
the region ZØ describes (FitBit: a tracker-signed GPS trace, distance; Study: sensor-signed GSR
and camera batches; CNIDS: tap-signed packets, the attacker's address shared among the members
as a blocklist entry; Loyalty; Waze; Slice), the sources' signing keys are the application's
public parameters, and a tampered reading has no proof.

The runs themselves: tests/python/test_runtime_examples.py (each client/server application in
process, against `simulate`), tests/python/test_runtime_peers.py (Waze and Slice with 20 peer
processes) and, here, the CNIDS blocklist round with 5 peer processes against a `zeenot serve`.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from typing import Any

import httpx
import pytest

from zeenot import _native
from zeenot.application import load_application
from zeenot.babyjub import eddsa_public_key, eddsa_sign
from zeenot.errors import Failure
from zeenot.ir import to_json_value
from zeenot.runtime.service import Rejected
from zeenot.simulate import simulate

from .conftest import EXAMPLES, example_data
from .runtime_server import serve
from .test_runtime_examples import deployed, run_json  # noqa: F401 - `deployed` is a fixture

# example -> the regions its served application proves (a PeerSum's share and combine too)
SERVED = {
    "fitbit": {"distance_donation"},
    "study": {"stress_study"},
    "cnids": {"payload_alert", "share_blocklist", "sum_shares"},
    "loyalty": {"discount"},
    "waze": {"share_location", "sum_shares"},
    "slice": {"share_counts", "sum_shares"},
}


def served_regions(name: str) -> set[str]:
    app = load_application(EXAMPLES / name / "app.py")
    regions = {call.region for _, call in app.proved_calls()}
    if app.peer_sum is not None:
        regions |= {app.peer_sum.share.__name__, app.peer_sum.combine.__name__}
    return regions


@pytest.mark.parametrize("name", sorted(SERVED))
def test_each_case_study_serves_zos_region(name: str) -> None:
    assert served_regions(name) == SERVED[name]


def test_the_sources_keys_are_the_applications_parameters() -> None:
    """The keys the server publishes (FitBit, Study) or compiles in (CNIDS's member taps) are
    the example devices' keys: the proofs are checked against them, never the client's."""
    fitbit = load_application(EXAMPLES / "fitbit" / "app.py").module
    study = load_application(EXAMPLES / "study" / "app.py").module
    cnids = load_application(EXAMPLES / "cnids" / "app.py").module
    assert fitbit.sponsorship()[0] == eddsa_public_key(example_data("fitbit").TRACKER_SEED)
    d = example_data("study")
    keys = (eddsa_public_key(d.GSR_SEED), eddsa_public_key(d.CAMERA_SEED))
    assert study.protocol()[:2] == keys
    assert list(cnids.TAPS) == [eddsa_public_key(s) for s in example_data("cnids").TAP_SEEDS]


# ---- tampered readings ---------------------------------------------------------------------

# example -> (a reading of run.json changed after it was signed, the check that fails)
TAMPERED = {
    "fitbit": (lambda run: run["trace"][5].update(x=run["trace"][5]["x"] + 1), "tracker's"),
    "study": (
        lambda run: run["gsr"][3].update(conductance=run["gsr"][3]["conductance"] + 100),
        "not the GSR sensor's readings",
    ),
    "cnids": (lambda run: run["packet"].__setitem__(60, run["packet"][60] ^ 1), "not captured"),
}
SLOW = {"fitbit", "study"}  # 89k and 67k constraints to set up


def _names(names: list[str]) -> list[Any]:
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in names]


@pytest.mark.parametrize("name", _names(sorted(TAMPERED)))
def test_a_tampered_reading_has_no_proof(deployed, name: str) -> None:  # noqa: F811
    """The client cannot prove from a reading changed after its source signed it: the run
    never reaches the server."""
    service, runner = deployed(name)
    run = copy.deepcopy(run_json(name))
    change, failing = TAMPERED[name]
    change(run)
    with pytest.raises(_native.UnsatisfiedError, match=failing):
        runner.prepare(run, submission_id=f"{name}-tampered")


FOREIGN = bytes(range(200, 232))  # a key seed that is no example device's


@pytest.mark.parametrize("name", _names(["fitbit", "study"]))
def test_readings_signed_by_another_key_are_refused(deployed, name: str) -> None:  # noqa: F811
    """A client that signs its own readings and proves with its own key as the source's has
    a valid proof of the wrong statement: the server's published key is not in it (422)."""
    service, runner = deployed(name)
    run = copy.deepcopy(run_json(name))
    TAMPERED[name][0](run)
    d = example_data(name)
    foreign = to_json_value(eddsa_public_key(FOREIGN))
    if name == "fitbit":
        run["signature"] = to_json_value(eddsa_sign(FOREIGN, d.digest(run["trace"])))
    else:
        items = [(s["t"], s["conductance"]) for s in run["gsr"]]
        run["gsr_sig"] = to_json_value(eddsa_sign(FOREIGN, d.chain(items)))
    doc = runner.descriptor()
    params = next(v for v in doc["parameters"].values() if isinstance(v, list))
    runner._descriptor = {**doc, "parameters": {**doc["parameters"]}}
    step = next(k for k, v in doc["parameters"].items() if v is params)
    runner._descriptor["parameters"][step] = [foreign, *params[1:]]  # the client's own key
    body = runner.prepare(run, submission_id=f"{name}-foreign")
    runner._descriptor = doc
    with pytest.raises(Rejected) as info:
        service.submit(body)
    key = "tracker" if name == "fitbit" else "gsr_sensor"
    assert info.value.status == 422 and f"public input `{key}`" in info.value.reason


def test_a_capture_no_members_tap_signed_has_no_proof(deployed) -> None:  # noqa: F811
    """CNIDS compiles the members' tap keys in: a packet signed by any other key (here with
    the attack in it) cannot be proved, whatever key the client names."""
    service, runner = deployed("cnids")
    run = copy.deepcopy(run_json("cnids"))
    d = example_data("cnids")
    run["tap"] = to_json_value(eddsa_public_key(FOREIGN))
    run["capture_sig"] = to_json_value(eddsa_sign(FOREIGN, d.capture_digest(run["packet"])))
    with pytest.raises(_native.UnsatisfiedError, match="not a consortium member's tap"):
        runner.prepare(run, submission_id="cnids-foreign")


# ---- CNIDS: the attacker's address, and the blocklist ----------------------------------------


def test_the_alert_names_the_signed_packets_source() -> None:
    """`payload_alert`'s attacker is the IPv4 source of the tap-signed packet, as the
    plain-Python reference reads it, for every member's tap."""
    d = example_data("cnids")
    app = load_application(EXAMPLES / "cnids" / "app.py")
    for member in range(d.K):
        inputs = d.payload(120, seed=member, member=member, src=d.ip(f"198.18.0.{member + 1}"))
        out = simulate(app.regions["payload_alert"], inputs)
        assert out == d.payload_reference(inputs) and out[0] == d.ip(f"198.18.0.{member + 1}")


def test_power_sums_decode_to_the_reported_addresses() -> None:
    """`decode_power_sums` inverts the sum of the members' additions: every multiset of at
    most K addresses (repeats included), and refuses sums that are no such multiset."""
    app = load_application(EXAMPLES / "cnids" / "app.py").module
    rng = random.Random(5)
    k, p = app.K, app._P
    cases = [[], [0], [2**32 - 1], [7, 7, 7, 7, 7]] + [
        [rng.randrange(2**32) for _ in range(rng.randint(1, k))] for _ in range(20)
    ]
    cases.append([rng.randrange(2**32)] * 2 + [rng.randrange(2**32)] * 3)
    for addresses in cases:
        sums = [sum(pow(a, e, p) for a in addresses) % p for e in range(k + 1)]
        counts: dict[int, int] = {}
        for a in addresses:
            counts[a] = counts.get(a, 0) + 1
        assert app.decode_power_sums(sums) == sorted(counts.items())
    for junk in ([1, 5, 24, 0, 0, 0], [2, 2**33, 2**66, 2**99, 2**132, 2**165], [6] + [0] * k):
        with pytest.raises(ValueError):
            app.decode_power_sums(junk)


def test_the_blocklist_of_the_members_additions_is_the_reference() -> None:
    """In plain Python, as the peers and the server compute it: the members' additions summed
    and decoded give the reference blocklist; a tampered capture adds nothing (no proof)."""
    d = example_data("cnids")
    app = load_application(EXAMPLES / "cnids" / "app.py")
    m = app.module
    for seed in (1, 2, 3):
        captures = d.members(seed)
        total = [0] * m.W
        for capture in captures:
            entry = m.blocklist_entry(**_typed(app, capture))
            total = [(t + int(v)) % m._P for t, v in zip(total, entry, strict=True)]
        result = m.blocklist_of(total)
        assert result["blocklist"] == d.blocklist_reference(captures)
        assert result["alerts"] == 3 and len(result["blocklist"]) == 2
    tampered = copy.deepcopy(d.members(1)[0])
    tampered["packet"][15] ^= 1  # another attacker's address: the tap did not sign it
    with pytest.raises(Failure, match="not captured by the tap"):
        m.blocklist_entry(**_typed(app, tampered))
    masks = [["0"] * m.W for _ in range(m.K)]
    with pytest.raises(Failure, match="not captured by the tap"):
        simulate(
            app.regions["share_blocklist"],
            {**tampered, "masks": masks, "salts": ["0"] * m.K},
        )


def _typed(app: Any, data: dict[str, Any]) -> dict[str, Any]:
    """A member's data typed as its share region's parameters (as `zeenot peer` does)."""
    from zeenot.ir import check_params
    from zeenot.simulate import signature_of, to_runtime

    params = signature_of(app.peer_sum.share)[0][:-2]
    values = check_params(params, data, public_only=False)
    return {p["name"]: to_runtime(p["ty"], v) for p, v in zip(params, values, strict=True)}


@pytest.mark.slow
def test_the_blocklist_reaches_five_peers(tmp_path) -> None:
    """`zeenot serve examples/cnids/app.py` and 5 `zeenot peer` processes, one per member, each
    with its tap-signed capture: every member gets the blocklist, equal to the plain-Python
    one, and the server's round holds it (nobody's capture, nor who reported what)."""
    here = EXAMPLES / "cnids"
    d = example_data("cnids")
    expected = d.blocklist_reference(d.members(1))
    assert len(expected) == 2 and sum(e["reports"] for e in expected) == 3
    with serve([here / "app.py"], str(tmp_path / "cnids.db"), timeout=900) as (url, _):
        done = subprocess.run(
            [sys.executable, str(here / "run.py"), "--server", url, "--round", "b1"],
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout.splitlines()[0])
        status = httpx.get(f"{url}/api/apps/cnids/rounds/b1").json()
    assert summary["peers"] == 5 and summary["blocklist"] == expected
    assert "all 5 members got the blocklist" in done.stdout
    assert status["state"] == "done" and len(status["combined"]) == 5
    assert status["result"]["blocklist"] == expected
    assert status["result"]["labels"] == [e["address"] for e in expected]


def test_a_workers_record_is_json_data() -> None:
    """A parameter worker may return a record (FitBit's and Study's sensor keys are `Point`s):
    the runtime publishes it as an object of its fields."""
    from zeenot.runtime.service import to_json

    fitbit = load_application(EXAMPLES / "fitbit" / "app.py").module
    key = to_json(fitbit.sponsorship())[0]
    assert key == {"x": int(fitbit.TRACKER.x), "y": int(fitbit.TRACKER.y)}
