"""Certified data's parties as processes (issue 30): a source that signs blocks for its
authenticated accounts, the user's client that fetches her block and proves the bill locally,
a service that verifies before it stores. Real HTTP: `zeenot certified source serve` and
`zeenot certified service serve` run as subprocesses, each with its own SQLite database, and
the user's `zeenot certified prove|submit` as CLI processes; the metering use case at one day.

Refused, with nothing stored: a proof from a forged block (another source key), a proof whose
user was swapped for another's, a lowered bill, a replay (same user and period) with 409; at the
source, unsigned or unknown requests, and changed readings for a recorded period.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import httpx
import pytest

from zeenot import api
from zeenot.artifacts import Proof
from zeenot.babyjub import keygen
from zeenot.certified import Source
from zeenot.certified.client import fetch_block, prove_block, submit
from zeenot.certified.keys import SourceKey, UserKey
from zeenot.certified.store import CertifiedStore, point_key
from zeenot.errors import UsageError
from zeenot.ir import to_json_value
from zeenot.runtime.identity import Key, write_secret
from zeenot.runtime.store import Store

from .conftest import EXAMPLES
from .runtime_server import ROOT, ZEENOT, free_port, stop, wait_healthy

METERING = f"{EXAMPLES / 'metering' / 'certified.py'}:bill_day"
TOKEN = "operator-token-for-the-certified-tests"
P1, P2, P3 = 202_406, 202_407, 202_408


def metering():
    from zeenot.lang import load_module

    return load_module(str(EXAMPLES / "metering" / "certified_data.py"))


@dataclass
class Party:
    name: str
    args: list[str]
    port: int
    log: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        out = open(self.log, "ab")  # noqa: SIM115 - the process owns it
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [*ZEENOT, *self.args, "--port", str(self.port)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
        out.close()
        wait_healthy(self.proc, self.url + "/health", self.name, self.tail, timeout)

    def stop(self) -> None:
        stop(self.proc)

    def tail(self) -> str:
        return self.log.read_text()[-3000:] if self.log.exists() else ""


@dataclass
class World:
    dir: Path
    circuit: Path
    source: Party
    service: Party
    identity: Path  # the household's Ed25519 key (its account at the source)
    user_key: Path  # her Baby Jubjub key
    service_db: Path

    def results(self) -> list:
        return CertifiedStore(Store(str(self.service_db))).results()


def operator() -> dict[str, str]:
    return {"authorization": f"Bearer {TOKEN}"}


def register(source: Party, name: str, key: Key, user: UserKey) -> httpx.Response:
    body = {"name": name, "public_key": key.public_key, "user": to_json_value(user.public)}
    return httpx.post(f"{source.url}/api/accounts", json=body, headers=operator())


def record(source: Party, account: str, period: int, values: list[int]) -> httpx.Response:
    return httpx.put(
        f"{source.url}/api/readings/{account}/{period}",
        json={"bits": 16, "values": values},
        headers=operator(),
    )


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    d = tmp_path_factory.mktemp("certified")
    circuit_dir = d / "bill_day"
    circuit = api.compile(METERING)
    circuit.save(circuit_dir)
    api.setup(circuit, seed=11).save(circuit_dir)

    m = metering()
    SourceKey("meter-1001", m.METER_ID, m.METER_SEED).save(d / "source.json")
    write_secret(d / "operators", TOKEN + "\n")
    household = Key.generate("household")
    household.save(d / "household.key")
    user = UserKey(m.USER_SK)
    user.save(d / "user.json")

    src_args = ["certified", "source", "serve", "--key", str(d / "source.json")]
    src_args += ["--db", str(d / "source.db"), "--operator-token-file", str(d / "operators")]
    source = Party("source", src_args, free_port(), d / "source.log")
    source.start()
    svc_args = ["certified", "service", "serve", "--circuit", str(circuit_dir)]
    svc_args += ["--source", f"http://127.0.0.1:{source.port}", "--db", str(d / "service.db")]
    service = Party("service", svc_args, free_port(), d / "service.log")
    try:
        service.start()
        assert register(source, "household", household, user).status_code == 201
        assert register(source, "household", household, user).status_code == 200  # a retry
        for period, seed in ((P1, 1), (P2, 2), (P3, 3)):
            assert record(source, "household", period, m.readings(1, seed)).status_code == 201
        yield World(
            d, circuit_dir, source, service, d / "household.key", d / "user.json", d / "service.db"
        )
    finally:
        service.stop()
        source.stop()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*ZEENOT, "certified", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


# ---- the store alone, on SQLite and PostgreSQL ----------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def cstore(request: pytest.FixtureRequest, tmp_path: Path) -> CertifiedStore:
    if request.param == "sqlite":
        return CertifiedStore(Store(str(tmp_path / "certified.db")))
    from .postgres import fresh_database

    return CertifiedStore(Store(fresh_database(request.getfixturevalue("postgres_url"))))


def test_the_store_writes_once_under_concurrency(cstore: CertifiedStore) -> None:
    """Of eight services racing to store one user's period, exactly one stores it; readings
    and accounts are first-writer-wins, a retry is told apart from a conflict."""
    from concurrent.futures import ThreadPoolExecutor

    from zeenot.certified.store import Account, Result

    results = [Result(7, "1,2", 202_406, "h" * 64, 1_000 + k, f"{k:064x}") for k in range(8)]
    with ThreadPoolExecutor(8) as pool:
        stored = list(pool.map(cstore.put_result, results))
    assert stored.count(True) == 1
    (kept,) = cstore.results()
    assert kept == results[stored.index(True)]  # whole: every field of the one writer
    assert cstore.put_result(replace(results[0], period=202_407))  # another period: stored

    alice = Account("alice", "a" * 64, "1,2")
    assert cstore.add_account(alice) == "created"
    assert cstore.add_account(alice) == "repeated"
    assert cstore.add_account(replace(alice, user_key="3,4")) == "taken"
    assert cstore.account("alice") == alice
    assert cstore.put_reading("alice", 1, 16, [1, 2]) == "stored"
    assert cstore.put_reading("alice", 1, 16, [1, 2]) == "repeated"
    assert cstore.put_reading("alice", 1, 16, [1, 3]) == "final"
    assert cstore.put_reading("alice", 1, 8, [1, 2]) == "final"  # the width is part of it
    reading = cstore.reading("alice", 1)
    assert reading is not None and (reading.bits, reading.values) == (16, [1, 2])
    assert cstore.reading("alice", 2) is None


# ---- the three processes ------------------------------------------------------------------------


def test_three_processes_end_to_end(world: World) -> None:
    """The household fetches its signed day, proves the bill locally, the utility verifies and
    stores it; the same proof again is a replay: 409, nothing more stored."""
    m = metering()
    proof_path = world.dir / "p1.json"
    done = cli(
        "prove",
        "--circuit",
        str(world.circuit),
        "--source",
        world.source.url,
        "--identity",
        str(world.identity),
        "--user-key",
        str(world.user_key),
        "--period",
        str(P1),
        "--blocks",
        str(world.dir / "blocks.json"),
        "-o",
        str(proof_path),
    )
    assert done.returncode == 0, done.stderr
    want = m.reference(m.inputs(days=1, seed=1, period=P1))
    assert json.loads(done.stdout) == {"period": P1, "outputs": want}
    kept = json.loads((world.dir / "blocks.json").read_text())["blocks"]
    assert [b["period"] for b in kept] == [P1]  # she keeps her block

    sent = cli("submit", str(proof_path), "--service", world.service.url)
    assert sent.returncode == 0, sent.stderr
    assert json.loads(sent.stdout)["status"] == 201
    stored = world.results()
    user = point_key(UserKey(m.USER_SK).public)
    assert [(r.source_id, r.user_key, r.period, r.result) for r in stored] == [
        (m.METER_ID, user, P1, want)
    ]

    again = cli("submit", str(proof_path), "--service", world.service.url)
    assert again.returncode == 1
    assert json.loads(again.stdout)["status"] == 409
    assert len(world.results()) == 1


def test_the_service_refuses_forged_swapped_and_lowered(world: World) -> None:
    m = metering()
    user = UserKey.load(world.user_key)
    block = fetch_block(world.source.url, Key.load(world.identity), user, P2)
    proof = prove_block(str(world.circuit), block, user)
    before = len(world.results())

    # forged: a block the user signed herself with another key, as if she were the meter
    forger = Source(bytes(32), m.METER_ID)
    forged = prove_block(
        str(world.circuit), forger.sign(user.public, P2, list(block.values), 16), user
    )
    answer = submit(world.service.url, forged)
    assert answer.status == 422 and "another key" in answer.body["error"]

    # another user's key in place of hers (a proof is not transferable)
    _, other = keygen()
    swapped = replace(proof, public_inputs={**proof.public_inputs, "user": to_json_value(other)})
    answer = submit(world.service.url, swapped)
    assert answer.status == 422 and "does not verify" in answer.body["error"]

    # a lowered bill with her real proof
    lowered = replace(proof, outputs=proof.outputs - 1)
    assert submit(world.service.url, lowered).status == 422

    # proof bytes that are not a proof, then not a proof file at all
    garbage = submit(world.service.url, replace(proof, proof=bytes(128)))
    assert garbage.status in (400, 422), garbage
    resp = httpx.post(
        f"{world.service.url}/api/submissions",
        content=b'{"zeenot_proof": 1}',
        headers={"content-type": "application/json"},
    )
    assert resp.status_code == 400
    assert len(world.results()) == before  # nothing stored

    assert submit(world.service.url, proof).status == 201  # her own, once
    assert submit(world.service.url, Proof.from_json(proof.to_json())).status == 409
    assert len(world.results()) == before + 1


def test_the_source_serves_only_its_accounts_their_own_blocks(world: World) -> None:
    m = metering()
    user = UserKey.load(world.user_key)
    household = Key.load(world.identity)
    url = f"{world.source.url}/api/blocks/{P3}"
    assert httpx.get(url).status_code == 401  # unsigned
    stranger = Key.generate("household")  # the account's name, another key
    from zeenot.runtime.identity import SignedAuth

    with httpx.Client(auth=SignedAuth(stranger, "meter-1001")) as c:
        assert c.get(url).status_code == 401
    with httpx.Client(auth=SignedAuth(household, "another-source")) as c:
        assert c.get(url).status_code == 401  # signed for another audience

    # a second household sees its own blocks only, issued to its own key
    neighbour, n_user = Key.generate("neighbour"), UserKey.generate()
    assert register(world.source, "neighbour", neighbour, n_user).status_code == 201
    assert register(world.source, "neighbour", household, n_user).status_code == 409
    with pytest.raises(UsageError, match="404"):
        fetch_block(world.source.url, neighbour, n_user, P3)
    assert record(world.source, "neighbour", P3, m.readings(1, 9)).status_code == 201
    theirs = fetch_block(world.source.url, neighbour, n_user, P3)
    mine = fetch_block(world.source.url, household, user, P3)
    assert theirs.user == n_user.public and mine.user == user.public
    assert theirs.values != mine.values

    # a period's readings are final: the same again is a retry, other values a conflict,
    # and asking again answers the same signed block
    assert record(world.source, "household", P3, m.readings(1, 3)).status_code == 200
    assert record(world.source, "household", P3, m.readings(1, 4)).status_code == 409
    assert fetch_block(world.source.url, household, user, P3) == mine
    no_token = httpx.put(
        f"{world.source.url}/api/readings/household/{P3 + 1}", json={"bits": 16, "values": [1]}
    )
    assert no_token.status_code == 401
    assert record(world.source, "nobody", P3, [1]).status_code == 404


def test_the_key_commands_write_secret_files_and_print_public_halves(tmp_path: Path) -> None:
    from zeenot.errors import MalformedInput

    made = cli("source", "keygen", "--name", "lab-77", "--id", "77", "-o", str(tmp_path / "s.json"))
    assert made.returncode == 0, made.stderr
    key = SourceKey.load(tmp_path / "s.json")
    assert json.loads(made.stdout) == key.published().to_json()
    assert (key.name, key.source_id) == ("lab-77", 77)
    assert "seed" not in repr(key) and key.seed.hex() not in made.stdout + made.stderr
    made = cli("user", "keygen", "-o", str(tmp_path / "u.json"))
    assert made.returncode == 0, made.stderr
    user = UserKey.load(tmp_path / "u.json")
    assert json.loads(made.stdout) == to_json_value(user.public)
    for name in ("s.json", "u.json"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600
        (tmp_path / name).chmod(0o644)
    with pytest.raises(MalformedInput, match="readable by others"):
        SourceKey.load(tmp_path / "s.json")
    with pytest.raises(MalformedInput, match="readable by others"):
        UserKey.load(tmp_path / "u.json")
    refused = cli("source", "keygen", "--name", "x", "--id", str(2**32), "-o", str(tmp_path / "t"))
    assert refused.returncode != 0 and "source id" in refused.stderr
