"""The server's protocol (`zeenot.runtime.service`): it verifies before it stores, checks every
public input against its own values, is idempotent per submission id, refuses replays, and a
refused submission leaves no row behind (only its line in the rejections log)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from zeenot import api
from zeenot.application import load_application
from zeenot.runtime.binding import CONTEXT
from zeenot.runtime.client import Runner
from zeenot.runtime.identity import Key
from zeenot.runtime.service import Rejected, Service
from zeenot.runtime.store import Store

ROOT = Path(__file__).resolve().parents[2]
PAYD = ROOT / "examples" / "payd" / "app.py"
LOG = json.loads((ROOT / "examples" / "payd" / "log.json").read_text())


class _Local:
    """Stands in for the HTTP client: the runner talks to the service directly."""

    def __init__(self, service: Service):
        self.service = service

    def get(self, url: str) -> Any:
        from types import SimpleNamespace

        if url.endswith("proving_key") or url.endswith("verifying_key"):
            region = self.service.regions[url.split("/")[-2]]
            assert region.keys is not None
            data = (
                region.keys.proving_key
                if url.endswith("proving_key")
                else region.keys.verifying_key
            )
            return SimpleNamespace(status_code=200, content=data)
        doc = self.service.descriptor()  # the bytes a server sends: the client parses them
        return SimpleNamespace(status_code=200, content=json.dumps(doc).encode(), json=lambda: doc)

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def payd(tmp_path_factory: pytest.TempPathFactory) -> tuple[Service, Runner, Store]:
    app = load_application(PAYD)
    store = Store(str(tmp_path_factory.mktemp("db") / "zeenot.db"))
    service = Service(app, store)
    runner = CarRunner(app, "http://unused")
    runner.http = _Local(service)  # type: ignore[assignment]
    return service, runner, store


class CarRunner(Runner):
    """Proves as the car `_send` signs for, `car-{submission id}`: the proofs of an
    application that knows its clients are bound to the client (runtime/binding.py)."""

    def prepare(self, inputs: dict[str, Any], *, submission_id: str | None = None) -> bytes:
        self.key = Key.generate(f"car-{submission_id or '0'}")
        return super().prepare(inputs, submission_id=submission_id)


def _body(runner: Runner, sid: str, **changes: Any) -> dict[str, Any]:
    return json.loads(runner.prepare({**LOG, **changes}, submission_id=sid))


def _send(service: Service, doc: dict[str, Any] | bytes) -> tuple[int, dict[str, Any]]:
    """Submit as a car of its own per submission id (payd takes one run per car per week;
    the signature that names the car is checked over HTTP: test_runtime_clients.py)."""
    raw = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    sid = doc.get("id") if isinstance(doc, dict) else None
    return service.submit(raw, f"car-{sid}" if isinstance(sid, str) else "car-0")


def _refused(service: Service, store: Store, doc: dict[str, Any] | bytes, status: int, words: str):
    before = store.count_submissions("payd")
    with pytest.raises(Rejected) as info:
        _send(service, doc)
    assert info.value.status == status, info.value.reason
    assert words in info.value.reason, info.value.reason
    assert store.count_submissions("payd") == before
    assert store.recent_rejections("payd", 1)[0]["reason"] == info.value.reason
    return info.value


def test_accepts_a_proved_run_and_stores_the_result(payd) -> None:
    service, runner, store = payd
    status, answer = _send(service, _body(runner, "ok-1"))
    assert status == 201
    # weekly_premium on the log, as `simulate` computes it with the published tariff (500, 4000)
    assert answer["result"] == {"policy": "P-1042", "premium_cents": 2603, "capped": False}
    stored = store.submission("payd", "ok-1")
    assert stored is not None and stored.result == answer["result"]


def test_a_retry_is_answered_from_the_database(payd) -> None:
    service, runner, store = payd
    doc = _body(runner, "retry-1", policy="P-7")
    first = _send(service, doc)
    again = _send(service, doc)
    assert first[0] == 201 and again[0] == 200 and first[1] == again[1]
    assert store.count_submissions("payd") == len(store.recent_submissions("payd", 500))


def test_an_id_reused_for_another_body_is_refused(payd) -> None:
    service, runner, store = payd
    _send(service, _body(runner, "reuse-1", policy="P-8"))
    _refused(service, store, _body(runner, "reuse-1", policy="P-9"), 409, "used for another")


def test_a_replayed_proof_is_refused(payd) -> None:
    service, runner, store = payd
    doc = _body(runner, "replay-1", policy="P-10")
    _send(service, doc)
    doc["id"] = "replay-2"  # the proof names the run it belongs to (runtime/binding.py)
    _refused(service, store, doc, 422, "belongs to another run")


def test_a_tampered_proof_is_refused(payd) -> None:
    service, runner, store = payd
    doc = _body(runner, "tamper-1")
    raw = bytearray.fromhex(doc["proofs"]["quote.0"]["proof"])
    raw[40] ^= 1
    doc["proofs"]["quote.0"]["proof"] = raw.hex()
    err = _refused(service, store, doc, 400, "proof `quote.0`")
    assert store.submission("payd", "tamper-1") is None
    del err


def test_a_changed_output_is_refused(payd) -> None:
    service, runner, store = payd
    doc = _body(runner, "output-1")
    doc["proofs"]["quote.0"]["outputs"][0] = 1  # a cheaper premium
    _refused(service, store, doc, 422, "rejected")


def test_a_proof_against_another_tariff_is_refused(payd) -> None:
    """The client proves honestly, but with a base premium of its choosing: the proof verifies,
    and the server refuses it because the public input is not its published value."""
    service, runner, store = payd
    circuit = runner.regions["weekly_premium"]
    keys = runner.keys("weekly_premium")
    doc = _body(runner, "tariff-1")
    context = doc["proofs"]["quote.0"]["public_inputs"][CONTEXT]  # bound to this very run
    cheap = api.prove(
        circuit,
        keys,
        {
            "km": LOG["km"],
            "night_km": LOG["night_km"],
            "base_cents": 0,
            "cap_cents": 4000,
            CONTEXT: context,
        },
    )
    doc["proofs"]["quote.0"] = json.loads(cheap.to_json())
    _refused(service, store, doc, 422, "public input `base_cents` is 0, the server's value is 500")


def test_a_proof_of_another_program_is_refused(payd) -> None:
    service, runner, store = payd
    doc = _body(runner, "program-1")
    doc["proofs"]["quote.0"]["program_hash"] = "0" * 64
    _refused(service, store, doc, 422, "not this circuit")


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        (lambda d: d.pop("proofs"), 400, "exactly the fields"),
        (lambda d: d.update(extra=1), 400, "exactly the fields"),
        (lambda d: d.update(id="../etc"), 400, "`id`"),
        (lambda d: d.update(id=""), 400, "`id`"),
        (lambda d: d.update(app="other"), 404, "not `other`"),
        (lambda d: d.update(zeenot_submission=2), 400, "not a zeenot submission"),
        (lambda d: d["proofs"].clear(), 422, "missing proof `quote.0`"),
        (lambda d: d["proofs"].update({"x.0": {}}), 422, "unexpected proof `x.0`"),
        (lambda d: d["inputs"].clear(), 422, "public inputs of `main`"),
        (lambda d: d["inputs"].update(km=[1] * 7), 422, "public inputs of `main`"),
        (lambda d: d["proofs"]["quote.0"].update(extra=1), 400, "unknown field"),
        (lambda d: d["proofs"]["quote.0"].update(proof="zz"), 400, "lowercase hex"),
    ],
)
def test_malformed_submissions_are_refused(payd, change, status, words) -> None:
    service, runner, store = payd
    doc = _body(runner, "malformed-1")
    change(doc)
    _refused(service, store, doc, status, words)


@pytest.mark.parametrize(
    ("raw", "status", "words"),
    [
        (b"{", 400, "the submission"),
        (b'{"a": 1, "a": 2}', 400, "duplicate"),
        (b"[]", 400, "not a zeenot submission"),
        (b"\xff\xfe", 400, "UTF-8"),
        (b" " * (1 << 20 + 1), 413, "larger than"),
    ],
)
def test_bodies_that_are_not_submissions_are_refused(payd, raw, status, words) -> None:
    service, _, store = payd
    _refused(service, store, raw, status, words)


def test_a_server_worker_failure_is_a_clean_refusal(tmp_path: Path) -> None:
    """A server worker that raises on the verified values refuses the run; nothing is stored."""
    source = PAYD.read_text().replace(
        'return {"policy": policy, "premium_cents": premium, "capped": capped}',
        'if policy.startswith("X"):\n        raise ValueError("unknown policy")\n'
        '    return {"policy": policy, "premium_cents": premium, "capped": capped}',
    )
    path = tmp_path / "app.py"
    path.write_text(source)
    app = load_application(path)
    store = Store(str(tmp_path / "db.sqlite"))
    service = Service(app, store)
    runner = CarRunner(app, "http://unused")
    runner.http = _Local(service)  # type: ignore[assignment]
    doc = json.loads(runner.prepare({**LOG, "policy": "X-1"}, submission_id="bad-policy"))
    with pytest.raises(Rejected) as info:
        _send(service, doc)
    assert info.value.status == 422 and "unknown policy" in info.value.reason
    assert store.count_submissions("payd") == 0


def test_the_client_refuses_a_server_running_another_program(payd, tmp_path: Path) -> None:
    from zeenot.runtime.client import RunError

    service, _, _ = payd
    path = tmp_path / "app.py"
    path.write_text(PAYD.read_text().replace("MAX_DAILY_KM = 1_600", "MAX_DAILY_KM = 1_700"))
    runner = CarRunner(load_application(path), "http://unused")
    runner.http = _Local(service)  # type: ignore[assignment]
    with pytest.raises(RunError, match="different versions"):
        runner.prepare(LOG)


def test_parameters_are_stored_once_and_shared(payd) -> None:
    service, _, store = payd
    again = Service(service.app, store)  # a second server process on the same database
    assert again.parameters == service.parameters == {0: [500, 4000]}
    assert again.descriptor()["regions"] == service.descriptor()["regions"]


def _service_for(source: str, tmp_path: Path) -> tuple[Service, Runner, Store]:
    path = tmp_path / "payd" / "app.py"  # an application is named after its directory
    path.parent.mkdir(parents=True)
    path.write_text(source)
    app = load_application(path)
    store = Store(str(tmp_path / "db.sqlite"))
    service = Service(app, store)
    runner = CarRunner(app, "http://unused")
    runner.http = _Local(service)  # type: ignore[assignment]
    return service, runner, store


def test_a_sigma_region_is_proved_and_verified(tmp_path: Path) -> None:
    """`BACKENDS` puts a region on the sigma back end: no keys, and the server checks the
    sigma proof and its public inputs as it checks Groth16 ones."""
    source = PAYD.read_text() + '\n\nBACKENDS = {"weekly_premium": "sigma"}\n'
    service, runner, store = _service_for(source, tmp_path)
    described = service.descriptor()["regions"]["weekly_premium"]
    assert described["backend"] == "sigma" and "proving_key_sha256" not in described
    doc = json.loads(runner.prepare(LOG, submission_id="sigma-1"))
    assert doc["proofs"]["quote.0"]["backend"] == "sigma"
    bad = json.loads(json.dumps(doc))
    bad["id"] = "sigma-bad"
    bad["proofs"]["quote.0"]["outputs"][0] = 1
    with pytest.raises(Rejected) as info:
        _send(service, bad)
    assert info.value.status == 422
    status, answer = _send(service, doc)
    assert status == 201 and answer["result"]["premium_cents"] == 2603
    # a groth16 proof where the application proves with sigma is refused
    groth = Service(load_application(PAYD), Store(str(tmp_path / "other.sqlite")))
    other = CarRunner(groth.app, "http://unused")
    other.http = _Local(groth)  # type: ignore[assignment]
    mixed = json.loads(other.prepare(LOG, submission_id="mixed-1"))
    with pytest.raises(Rejected) as info:
        _send(service, mixed)
    assert "is proved with sigma" in info.value.reason
    assert store.count_submissions("payd") == 1


def test_auto_regions_take_the_planners_choice(tmp_path: Path, monkeypatch) -> None:
    """`BACKENDS = "auto"`: the server's planner chooses (the shipped profile: Groth16 for
    payd), publishes the choice, and the client proves with it; under a profile where the
    sigma back end is cheaper, the same application is proved with sigma end to end."""
    from zeenot.runtime import service as service_module

    from .test_plan import linear_profile

    source = PAYD.read_text() + '\n\nBACKENDS = "auto"\n'
    monkeypatch.delenv("ZEENOT_PROFILE", raising=False)
    monkeypatch.setattr(service_module, "_PLANNED", {})
    service, runner, store = _service_for(source, tmp_path / "shipped")
    assert service.descriptor()["regions"]["weekly_premium"]["backend"] == "groth16"
    status, _ = _send(service, json.loads(runner.prepare(LOG, submission_id="auto-1")))
    assert status == 201

    cheap = tmp_path / "cheap-sigma.json"
    cheap.write_text(linear_profile(g16_prove=1e-3, g16_setup=0, sigma_prove=1e-7).to_json())
    monkeypatch.setenv("ZEENOT_PROFILE", str(cheap))
    monkeypatch.setattr(service_module, "_PLANNED", {})
    service, runner, store = _service_for(source, tmp_path / "cheap")
    assert service.descriptor()["regions"]["weekly_premium"]["backend"] == "sigma"
    doc = json.loads(runner.prepare(LOG, submission_id="auto-2"))
    assert doc["proofs"]["quote.0"]["backend"] == "sigma"
    status, answer = _send(service, doc)
    assert status == 201 and answer["result"]["premium_cents"] == 2603
    bad = source.replace('BACKENDS = "auto"', 'BACKENDS = {"weekly_premium": "fastest"}')
    with pytest.raises(Exception, match="one of groth16, sigma or auto"):
        _service_for(bad, tmp_path / "bad")


def test_a_region_with_lists_of_any_length(tmp_path: Path) -> None:
    """A region without MaxSize is a template: proved with sigma at the input's length."""
    source = """
from zeenot import Client, Private, Public, check, u32, worker, zk


@zk
def total(xs: Private[list[u32]], limit: Public[u32]) -> u32:
    s = sum(xs)
    check(s <= limit)
    return s


@worker(tier="server")
def limit() -> u32:
    return u32(1000)


@worker(tier="client")
def prove_total(xs: Private[list[u32], Client], lim: u32):
    return total(xs, lim)


@worker(tier="server")
def record(s: u32) -> dict:
    return {"total": s}


def main(xs: Private[list[u32], Client]):
    lim = limit()
    s = prove_total(xs, lim)
    return record(s)
"""
    service, runner, _ = _service_for(source, tmp_path)
    assert service.descriptor()["regions"]["total"]["template"] is True
    for n, sid in ((3, "short"), (9, "long")):
        status, answer = _send(
            service, json.loads(runner.prepare({"xs": [5] * n}, submission_id=sid))
        )
        assert status == 201 and answer["result"] == {"total": 5 * n}
    groth = source + '\nBACKENDS = {"total": "groth16"}\n'
    with pytest.raises(Exception, match="groth16 needs MaxSize"):
        _service_for(groth, tmp_path / "x")
