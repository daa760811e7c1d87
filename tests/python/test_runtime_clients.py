"""Clients the server knows (payd: `CLIENTS = Clients(one_run_per="week")`), over HTTP.

A real `zeenot serve` with an operator token: the operator registers cars' public keys; a car
signs its run (`zeenot run --client-key`); a second run of the same car in the same week is
refused by the database (409); a run signed with another car's key, an unregistered key, or not
signed at all is refused and leaves no row; reads need the operator's token, and a car reads
only its own runs.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import httpx
import pytest

from zeenot.application import load_application
from zeenot.runtime.client import Runner, RunRefused
from zeenot.runtime.identity import Key, SignedAuth

from .runtime_server import ROOT, ZEENOT, bearer, operator_token, serve

PAYD = ROOT / "examples" / "payd" / "app.py"
LOG = ROOT / "examples" / "payd" / "log.json"


@pytest.fixture(scope="module")
def insurer(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("clients")
    token_file, token = operator_token(tmp)
    keys = {}
    for name in ("car-1", "car-2", "car-3"):
        keys[name] = Key.generate(name)
        keys[name].save(tmp / f"{name}.key")
    args = ["--name", "insurer", "--operator-token-file", str(token_file)]
    with serve([PAYD], str(tmp / "zeenot.db"), *args) as (url, _):
        yield url, token, token_file, keys, tmp


def _count(url: str, token: str) -> int:
    rows = httpx.get(f"{url}/api/apps/payd/submissions?limit=500", headers=bearer(token))
    assert rows.status_code == 200, rows.text
    return len(rows.json())


def _run(url: str, key: Path, sid: str) -> subprocess.CompletedProcess[str]:
    cmd = [*ZEENOT, "run", str(PAYD), "--server", url, "--inputs", str(LOG), "--id", sid]
    return subprocess.run(
        [*cmd, "--client-key", str(key)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_registration_is_an_operators(insurer) -> None:
    url, token, token_file, keys, tmp = insurer
    public = {"name": "car-1", "public_key": keys["car-1"].public_key}
    assert httpx.post(f"{url}/api/apps/payd/clients", json=public).status_code == 401
    wrong = bearer("x" * 40)
    assert httpx.post(f"{url}/api/apps/payd/clients", json=public, headers=wrong).status_code == 401
    (tmp / "car-1.pub.json").write_text(json.dumps(public))
    done = subprocess.run(
        [*ZEENOT, "clients", "add", "payd", "--server", url, "--operator-token-file"]
        + [str(token_file), "--client", str(tmp / "car-1.pub.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    again = httpx.post(f"{url}/api/apps/payd/clients", json=public, headers=bearer(token))
    assert again.status_code == 409
    car2 = {"name": "car-2", "public_key": keys["car-2"].public_key}
    assert (
        httpx.post(f"{url}/api/apps/payd/clients", json=car2, headers=bearer(token)).status_code
        == 201
    )
    listed = httpx.get(f"{url}/api/apps/payd/clients", headers=bearer(token)).json()
    assert [c["name"] for c in listed] == ["car-1", "car-2"]
    bad = {"name": "car 9", "public_key": "zz"}
    assert (
        httpx.post(f"{url}/api/apps/payd/clients", json=bad, headers=bearer(token)).status_code
        == 400
    )


def test_one_run_per_car_per_week(insurer) -> None:
    url, token, _, keys, tmp = insurer
    before = _count(url, token)
    first = _run(url, tmp / "car-1.key", "week-1")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["result"]["premium_cents"] == 2603
    second = _run(url, tmp / "car-1.key", "week-1-again")
    assert second.returncode == 1
    assert "(409)" in second.stderr and "one run per client per week" in second.stderr
    assert _count(url, token) == before + 1
    other = _run(url, tmp / "car-2.key", "week-2")  # another car, the same week: its own run
    assert other.returncode == 0, other.stderr
    assert _count(url, token) == before + 2


JSON = {"content-type": "application/json"}


def test_runs_not_signed_by_a_registered_car_are_refused(insurer) -> None:
    url, token, _, keys, tmp = insurer
    before = _count(url, token)
    runner = Runner(load_application(PAYD), url)
    body = runner.prepare(json.loads(LOG.read_text()), submission_id="unsigned-1")
    unsigned = httpx.post(f"{url}/api/apps/payd/submissions", content=body, headers=JSON)
    assert unsigned.status_code == 401 and "registered clients only" in unsigned.text
    # car-3 is not registered
    stranger = httpx.post(
        f"{url}/api/apps/payd/submissions",
        content=body,
        headers=JSON,
        auth=SignedAuth(keys["car-3"], "insurer"),
    )
    assert stranger.status_code == 401 and "not a registered client" in stranger.text
    # car-2's key signing in car-1's name
    impostor = Key("car-1", keys["car-2"].private)
    forged = httpx.post(
        f"{url}/api/apps/payd/submissions",
        content=body,
        headers=JSON,
        auth=SignedAuth(impostor, "insurer"),
    )
    assert forged.status_code == 401 and "does not verify" in forged.text
    # signed for another server
    elsewhere = httpx.post(
        f"{url}/api/apps/payd/submissions",
        content=body,
        headers=JSON,
        auth=SignedAuth(keys["car-1"], "other"),
    )
    assert elsewhere.status_code == 401
    # a signed request replayed: refused before the body is looked at
    signed = keys["car-1"].sign_request("POST", "/api/apps/payd/submissions", body, "insurer")
    signed = {**signed, **JSON}
    once = httpx.post(f"{url}/api/apps/payd/submissions", content=body, headers=signed)
    assert once.status_code == 422  # proved by no client: its proof is not bound to car-1
    replay = httpx.post(f"{url}/api/apps/payd/submissions", content=body, headers=signed)
    assert replay.status_code == 401 and "replayed" in replay.text
    assert _count(url, token) == before
    reasons = [
        r["reason"] for r in httpx.get(f"{url}/api/rejections", headers=bearer(token)).json()
    ]
    assert any("not a registered client" in r for r in reasons)
    runner.close()


def test_reads_need_a_token_and_a_car_reads_its_own(insurer) -> None:
    url, token, _, keys, tmp = insurer
    for path in ("/api/apps/payd/submissions", "/api/rejections", "/api/apps/payd/dashboard"):
        answer = httpx.get(url + path)
        assert answer.status_code == 401, path
        assert "operator's token" in answer.json()["reason"]
        assert httpx.get(url + path, headers=bearer(token)).status_code == 200
    assert httpx.get(f"{url}/api/apps/payd/submissions/week-1").status_code == 401
    app = load_application(PAYD)
    car1 = Runner(app, url, key=keys["car-1"])
    assert [s["id"] for s in car1.mine()] == ["week-1"]
    assert car1.mine("week-1")["result"]["premium_cents"] == 2603
    car2 = Runner(app, url, key=keys["car-2"])
    assert [s["id"] for s in car2.mine()] == ["week-2"]
    with pytest.raises(RunRefused, match="404"):
        car2.mine("week-1")  # another car's run: not found, for this car
    car3 = Runner(app, url, key=keys["car-3"])  # not registered
    with pytest.raises(RunRefused, match="401"):
        car3.mine()
    for r in (car1, car2, car3):
        r.close()
    # the descriptor says what the application asks of its clients
    assert httpx.get(f"{url}/api/apps/payd").json()["clients"] == {
        "registered": True,
        "one_run_per": "week",
    }
