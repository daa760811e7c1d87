"""The six programs a domain expert new to zeenot wrote from the README and docs (issue 28,
"Must show"), written the natural way: a median of payslips, a private set intersection on
`Field`, an encrypted vote with its tally on both back ends, a fixed-point credit score with `/`,
a client/server application, and a program in two regions. Each proves, verifies, and a
tampered output is rejected — what the newcomer checked by hand, kept as tests so that the
language's edges they met stay closed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from zeenot import api, bundle, load_function, simulate
from zeenot.application import load_application
from zeenot.babyjub import decrypt, encrypt, keygen, random_scalar
from zeenot.errors import Failure, ProofRejected
from zeenot.ir import to_json_value
from zeenot.runtime.client import Runner
from zeenot.runtime.service import Rejected, Service
from zeenot.runtime.store import Store

from .test_placement import _Local

MEDIAN = """
from zeenot import MaxSize, Private, check, u32, zk


@zk
def median_wage(wages: Private[MaxSize[list[u32], 31]]) -> u32:
    check(len(wages) % 2 == 1, "an odd number of payslips")
    return sorted(wages)[len(wages) // 2]
"""

PSI = """
from zeenot import Field, MaxSize, Private, Public, u32, zk


@zk
def common_contacts(
    mine: Private[MaxSize[list[Field], 16]], theirs: Public[MaxSize[list[Field], 16]]
) -> u32:
    return u32(len(set(mine) & set(theirs)))
"""

VOTE = """
from zeenot import Field, Private, Public, check, u8, zk
from zeenot.babyjub import Ciphertext, Point, encrypt, encrypts_in_range


@zk
def ballot(ct: Public[Ciphertext], pk: Public[Point], vote: Private[u8], r: Private[Field]) -> bool:
    check(encrypts_in_range(ct, pk, vote, r, u8(0), u8(1)), "a vote is 0 or 1")
    return True


@zk
def cast(pk: Public[Point], vote: Private[u8], r: Private[Field]) -> Ciphertext:
    check(vote <= 1, "a vote is 0 or 1")
    return encrypt(vote, pk, r)
"""

CREDIT = """
from zeenot import Fixed, Private, Public, i64, zk


class Money(Fixed):
    FRAC = 16


@zk
def credit_score(
    income: Private[Money], debt: Private[Money], cutoff: Public[Money]
) -> tuple[i64, bool]:
    ratio = debt / income
    score = (Money.of(1) - ratio) * Money.of(850)
    return score.floor(), ratio <= cutoff
"""

APPLICATION = """
from zeenot import Client, MaxSize, Private, Public, check, u32, worker, zk


@zk
def monthly_total(readings: Private[MaxSize[list[u32], 31]]) -> u32:
    for r in readings:
        check(r <= 100, "a day's reading is at most 100 kWh")
    return sum(readings)


@worker(tier="client")
def meter(readings: Private[list, Client]) -> u32:
    return monthly_total(readings)


@worker(tier="server")
def bill(total: u32) -> u32:
    return total * 30


def main(readings: Private[list, Client]) -> dict:
    total = meter(readings)
    cents = bill(total)
    return {"kwh": total, "cents": cents}
"""

TWO_REGIONS = """
from zeenot import MaxSize, Private, Public, check, u32, u64, zk


@zk
def cleaned(xs: Private[MaxSize[list[u32], 16]]) -> u32:
    for x in xs:
        check(x < 10_000, "implausible")
    return sum(xs)


@zk
def premium(xs: Private[MaxSize[list[u32], 16]], rate: Public[u32]) -> u64:
    return u64(cleaned(xs)) * u64(rate)
"""


def _load(tmp_path: Path, source: str, name: str) -> Any:
    path = tmp_path / f"{name}_program.py"
    path.write_text(source)
    return load_function(str(path), name)


def _tampered_is_rejected(circuit: Any, vk: bytes | None, proof: Any) -> None:
    """The same proof claiming another first output does not verify."""
    doc = json.loads(proof.to_json())
    outputs = doc["outputs"]
    if isinstance(outputs, list):
        outputs[0] = (not outputs[0]) if isinstance(outputs[0], bool) else int(outputs[0]) + 1
    else:
        doc["outputs"] = int(outputs) + 1
    with pytest.raises(ProofRejected):
        api.verify(circuit, vk, type(proof).from_json(json.dumps(doc)))


def test_a_median_of_payslips(tmp_path: Path) -> None:
    fn = _load(tmp_path, MEDIAN, "median_wage")
    rng = random.Random(28)
    wages = [rng.randint(1_500, 9_000) for _ in range(31)]
    assert simulate(fn, {"wages": wages}) == sorted(wages)[15]
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=1)
    proof = api.prove(circuit, keys, {"wages": wages[:9]}, seed=2)
    assert proof.outputs == sorted(wages[:9])[4]
    api.verify(circuit, keys.verifying_key, proof)
    _tampered_is_rejected(circuit, keys.verifying_key, proof)
    with pytest.raises(Failure, match="odd number"):
        simulate(fn, {"wages": wages[:4]})


def test_a_private_set_intersection_on_field(tmp_path: Path) -> None:
    """Hashed contacts are `Field` values: `set()` of them, `&`, `len` — no `key=` needed.
    Groth16: the sigma back end works modulo Baby Jubjub's group order, so it cannot compare
    BN254 field elements (it says so: `UnsupportedError`)."""
    fn = _load(tmp_path, PSI, "common_contacts")
    rng = random.Random(7)
    shared = [rng.getrandbits(250) for _ in range(3)]
    mine = shared + [rng.getrandbits(250) for _ in range(6)] + [shared[0]]  # a duplicate
    theirs = [rng.getrandbits(250) for _ in range(5)] + shared[::-1]
    inputs = {"mine": [str(v) for v in mine], "theirs": [str(v) for v in theirs]}
    assert simulate(fn, inputs) == 3
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=3)
    proof = api.prove(circuit, keys, inputs, seed=3)
    assert proof.outputs == 3
    api.verify(circuit, keys.verifying_key, proof)
    _tampered_is_rejected(circuit, keys.verifying_key, proof)


def _prove(circuit: Any, keys: Any, inputs: dict[str, Any], seed: int) -> Any:
    if keys is None:
        return api.prove_sigma(circuit, inputs, seed=seed)
    return api.prove(circuit, keys, inputs, seed=seed)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["groth16", "sigma"])
def test_an_encrypted_vote_and_its_tally(tmp_path: Path, backend: str) -> None:
    """Each voter encrypts 0 or 1 to the authority and proves it; the authority adds the
    ciphertexts and decrypts the tally. A ballot of 2 has no proof on either back end.

    Two natural shapes, both on both back ends: `cast` (the encryption is the proof's output,
    compared with the posted ballot) and `ballot` (`encrypts_in_range` against the posted
    ciphertext: for the sigma back end an asserted point equality, one group equation)."""
    keys_of = {}
    fns = {name: _load(tmp_path, VOTE, name) for name in ("cast", "ballot")}
    circuits = {name: api.compile(fn) for name, fn in fns.items()}
    for name, circuit in circuits.items():
        keys_of[name] = api.setup(circuit, seed=4) if backend == "groth16" else None
    sk, pk = keygen()
    votes = [1, 0, 1, 1]
    tally = None
    for i, vote in enumerate(votes):
        r = random_scalar()
        posted = encrypt(vote, pk, r)
        keys = keys_of["cast"]
        proof = _prove(circuits["cast"], keys, {"pk": pk, "vote": vote, "r": str(r)}, 10 + i)
        api.verify(circuits["cast"], keys.verifying_key if keys else None, proof)
        assert proof.outputs == {
            "c1": {"x": posted.c1.x, "y": posted.c1.y},
            "c2": {"x": posted.c2.x, "y": posted.c2.y},
        }
        tally = posted if tally is None else tally + posted
    assert tally is not None and decrypt(sk, tally, bits=8) == sum(votes)

    r = random_scalar()
    with pytest.raises(Failure, match="0 or 1"):
        simulate(fns["cast"], {"pk": pk, "vote": 2, "r": str(r)})
    with pytest.raises(Exception, match="0 or 1|fails|unsatisfied"):
        _prove(circuits["cast"], keys_of["cast"], {"pk": pk, "vote": 2, "r": str(r)}, 20)

    posted = encrypt(1, pk, r)
    keys = keys_of["ballot"]
    proof = _prove(circuits["ballot"], keys, {"ct": posted, "pk": pk, "vote": 1, "r": str(r)}, 21)
    vk = keys.verifying_key if keys else None
    api.verify(circuits["ballot"], vk, proof)
    doc = json.loads(proof.to_json())  # the proof against another posted ballot
    doc["public_inputs"]["ct"] = to_json_value(encrypt(0, pk, r))
    with pytest.raises(ProofRejected):
        api.verify(circuits["ballot"], vk, type(proof).from_json(json.dumps(doc)))
    wrong = {"ct": encrypt(0, pk, r), "pk": pk, "vote": 1, "r": str(r)}  # not its ciphertext
    with pytest.raises(Exception, match="check failed|fails|differs"):
        _prove(circuits["ballot"], keys, wrong, 22)
    bad = {"ct": encrypt(2, pk, r), "pk": pk, "vote": 2, "r": str(r)}
    with pytest.raises(Failure, match="0 or 1"):
        simulate(fns["ballot"], bad)
    with pytest.raises(Exception, match="0 or 1|fails|unsatisfied"):
        _prove(circuits["ballot"], keys, bad, 23)


def test_a_fixed_point_credit_score_with_division(tmp_path: Path) -> None:
    fn = _load(tmp_path, CREDIT, "credit_score")
    money = fn.__globals__["Money"]
    income, debt = money.of(4200), money.of(1050)  # a ratio of 0.25 exactly
    inputs = {
        "income": {"raw": income.raw},
        "debt": {"raw": debt.raw},
        "cutoff": {"raw": money.of("0.375").raw},
    }
    assert simulate(fn, inputs) == [637, True]  # 0.75 × 850 = 637.5, floored
    circuit = api.compile(fn)
    proof = api.prove_sigma(circuit, inputs, seed=5)
    assert proof.outputs == [637, True]
    api.verify(circuit, None, proof)
    _tampered_is_rejected(circuit, None, proof)
    with pytest.raises(Failure):
        simulate(fn, {**inputs, "income": {"raw": 0}})  # no score without an income


def test_a_client_server_application(tmp_path: Path) -> None:
    """A meter proves its month's total on the client; the supplier bills on the server and
    stores the verified result; a submission with a tampered total is refused."""
    path = tmp_path / "meter_app.py"
    path.write_text(APPLICATION)
    app = load_application(path)
    service = Service(app, Store(str(tmp_path / "supplier.db")))
    runner = Runner(load_application(path), "http://unused")
    runner.http = _Local(service)  # type: ignore[assignment]
    readings = [random.Random(d).randint(0, 100) for d in range(30)]
    body = runner.prepare({"readings": readings}, submission_id="2026-11")
    status, answer = service.submit(body)
    assert status == 201
    assert answer["result"] == {"kwh": sum(readings), "cents": 30 * sum(readings)}

    forged = json.loads(body)
    (proof,) = forged["proofs"].values()
    proof["outputs"] -= 1  # one kWh less than the readings add up to
    with pytest.raises(Rejected, match="does not verify"):
        service.submit(json.dumps(forged).encode())
    assert service.store.results(app.name) == [answer["result"]]  # the forgery left nothing


def test_a_program_in_two_regions(tmp_path: Path) -> None:
    """`premium` calls `cleaned`: two regions, proved as one bundle across back ends; a
    bundle whose region claims another sum is rejected."""
    fn = _load(tmp_path, TWO_REGIONS, "premium")
    regions = api.compile(fn)
    assert isinstance(regions, bundle.Regions) and set(regions.circuits) == {"premium", "cleaned"}
    inputs = {"xs": [120, 75, 9_999, 3], "rate": 7}
    assert simulate(fn, inputs) == (120 + 75 + 9_999 + 3) * 7
    keys = {"premium": api.setup(regions.circuits["premium"], seed=6)}
    backends = {"premium": "groth16", "cleaned": "sigma"}
    b = bundle.prove(regions, inputs, backends, keys, seed=7)
    vks = {"premium": keys["premium"].verifying_key, "cleaned": None}
    bundle.verify(regions, vks, bundle.Bundle.from_json(b.to_json()))
    assert b.outputs == simulate(fn, inputs)
    doc = json.loads(b.to_json())
    doc["proofs"]["premium"]["outputs"] += 7  # a premium for one more unit of usage
    with pytest.raises(ProofRejected):
        bundle.verify(regions, vks, bundle.Bundle.from_json(json.dumps(doc)))
