"""Certified data, path (b) over real HTTP (issue 30): the source, and two services with private
weights (the genome's five disease weights at 32 SNPs, the utility's tiered tariff at one day)
as `zeenot certified ... serve` processes, each with its own SQLite database.

The user proves her ciphertexts encrypt exactly her signed values (Groth16 for the signature,
sigma for the encryptions), the service verifies, computes with its weights homomorphically and
stores the encrypted sums before it answers them; she decrypts with DLEQ proofs, the service
verifies those and stores the results. Refused, with nothing stored: a ciphertext that does
not encrypt the signed value, a bundle on a block another key signed, a replayed bundle (409),
a wrong decryption, a decryption under another key, decryptions replayed once stored (409).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import httpx
import pytest

from zeenot import api, bundle
from zeenot.babyjub import encrypt, keygen, random_scalar
from zeenot.certified import Source
from zeenot.certified.client import fetch_block
from zeenot.certified.encrypted import decrypts_dleq, dleq_inputs, parse_ciphertexts
from zeenot.certified.encrypted_client import (
    decrypt_and_prove,
    prove_encrypted,
    submit_bundle,
    submit_decryptions,
)
from zeenot.certified.keys import SourceKey, UserKey
from zeenot.certified.store import CertifiedStore, point_key
from zeenot.errors import MalformedInput
from zeenot.ir import to_json_value
from zeenot.runtime.identity import Key, write_secret
from zeenot.runtime.store import Store

from .conftest import EXAMPLES
from .runtime_server import free_port
from .test_certified_parties import TOKEN, Party, cli, operator, register

GENOME = f"{EXAMPLES / 'genome' / 'certified_encrypted.py'}:encrypted_sigma_32"
METERING = f"{EXAMPLES / 'metering' / 'certified_encrypted.py'}:encrypted_bill_48"
SOURCE_ID = 4_242
G1, G2, G3, M1 = 1, 2, 3, 202_406


def module(path: Path):
    from zeenot.lang import load_module

    return load_module(str(path))


def genome_data():
    return module(EXAMPLES / "genome" / "data.py")


def metering_data():
    return module(EXAMPLES / "metering" / "certified_data.py")


@dataclass
class World:
    dir: Path
    source: Party
    genome: Party  # the insurer: disease weights
    metering: Party  # the utility: its tariff
    identity: Path
    user_key: Path
    genome_db: Path
    metering_db: Path

    def rows(self, db: Path) -> list:
        from zeenot.certified.store import encrypted

        cstore = CertifiedStore(Store(str(db)))
        with cstore.engine.connect() as conn:
            return list(conn.execute(encrypted.select()).mappings())

    def user(self) -> UserKey:
        return UserKey.load(self.user_key)

    def block(self, period: int):
        return fetch_block(self.source.url, Key.load(self.identity), self.user(), period)


def record(source: Party, period: int, values: list[int], bits: int) -> int:
    url = f"{source.url}/api/readings/household/{period}"
    return httpx.put(url, json={"bits": bits, "values": values}, headers=operator()).status_code


def compiled(target: str, directory: Path) -> Path:
    regions = api.compile(target)
    assert isinstance(regions, bundle.Regions)
    regions.save(directory)
    main = regions.circuits[regions.name]
    api.setup(main, seed=13).save(bundle.region_dir(directory, regions.name))
    return directory


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    d = tmp_path_factory.mktemp("certified-b")
    genome_dir = compiled(GENOME, d / "genome")
    metering_dir = compiled(METERING, d / "metering")
    g = genome_data()
    (d / "genome-weights.json").write_text(
        json.dumps(
            {
                "zeenot_certified_weights": 1,
                "names": list(g.DISEASES),
                "rows": [w[:32] for w in g.weights()],
            }
        )
    )
    tariff = module(EXAMPLES / "metering" / "certified_encrypted.py").tariff_weights()
    (d / "tariff.json").write_text(json.dumps(tariff))

    SourceKey("lab-and-meter", SOURCE_ID, bytes(range(7, 39))).save(d / "source.json")
    write_secret(d / "operators", TOKEN + "\n")
    household = Key.generate("household")
    household.save(d / "household.key")
    user = UserKey(g.USER_SK)
    user.save(d / "user.json")

    src_args = ["certified", "source", "serve", "--key", str(d / "source.json")]
    src_args += ["--db", str(d / "source.db"), "--operator-token-file", str(d / "operators")]
    source = Party("source", src_args, free_port(), d / "source.log")
    source.start()
    services = []
    try:
        for name, circuit, weights in (
            ("genome", genome_dir, d / "genome-weights.json"),
            ("metering", metering_dir, d / "tariff.json"),
        ):
            args = ["certified", "service", "serve", "--circuit", str(circuit)]
            args += ["--weights", str(weights), "--source", source.url]
            args += ["--db", str(d / f"{name}.db")]
            services.append(Party(name, args, free_port(), d / f"{name}.log"))
            services[-1].start()
        assert register(source, "household", household, user).status_code == 201
        for period, seed in ((G1, 1), (G2, 2), (G3, 3)):
            assert record(source, period, g.genotypes(32, seed), 8) == 201  # the lab's SNPs
        assert record(source, M1, metering_data().readings(1, 1), 16) == 201  # the meter's day
        yield World(
            d,
            source,
            services[0],
            services[1],
            d / "household.key",
            d / "user.json",
            d / "genome.db",
            d / "metering.db",
        )
    finally:
        for party in services:
            party.stop()
        source.stop()


def scores(world: World, period: int) -> dict[str, int]:
    """The five scores of her signed SNPs in plain Python (the insurer's weights, 32 SNPs)."""
    g = genome_data()
    snps = list(world.block(period).values)
    rows = [row[:32] for row in g.weights()]
    return {
        d: sum(w * s for w, s in zip(row, snps, strict=True))
        for d, row in zip(g.DISEASES, rows, strict=True)
    }


def test_genome_over_http_with_the_cli(world: World) -> None:
    """The user's CLI fetches her block, proves her ciphertexts; `submit --user-key` sends them,
    decrypts the insurer's five sums with proofs and sends those: 201, the scores stored equal
    the plain-Python reference; the same bundle again is a replay (409)."""
    out = world.dir / "g1.json"
    done = cli(
        "prove", "--circuit", str(world.dir / "genome"), "--source", world.source.url,
        "--identity", str(world.identity), "--user-key", str(world.user_key),
        "--period", str(G1), "-o", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"period": G1, "ciphertexts": 32}
    unkeyed = cli("submit", str(out), "--service", world.genome.url)
    assert unkeyed.returncode != 0 and "--user-key" in unkeyed.stderr
    sent = cli("submit", str(out), "--service", world.genome.url, "--user-key", str(world.user_key))
    assert sent.returncode == 0, sent.stderr
    answer = json.loads(sent.stdout)
    assert answer["status"] == 201 and answer["results"] == scores(world, G1)
    (row,) = world.rows(world.genome_db)
    assert (row["source_id"], row["period"]) == (SOURCE_ID, G1)
    assert row["user_key"] == point_key(world.user().public)
    assert json.loads(row["result"]) == list(scores(world, G1).values())

    again = cli(
        "submit", str(out), "--service", world.genome.url, "--user-key", str(world.user_key)
    )
    assert again.returncode == 1 and json.loads(again.stdout)["status"] == 409
    assert len(world.rows(world.genome_db)) == 1


def test_metering_bill_homomorphically_equals_path_a(world: World) -> None:
    """The utility's tariff on the household's ciphertexts (readings and tier energies) gives
    the bill path (a) proves."""
    m = metering_data()
    user = world.user()
    proved = prove_encrypted(str(world.dir / "metering"), world.block(M1), user)
    first = submit_bundle(world.metering.url, proved)
    assert first.status == 201, first.body
    values, proofs = decrypt_and_prove(user, parse_ciphertexts(first.body["sums"], "sums"))
    done = submit_decryptions(world.metering.url, user, M1, values, proofs)
    assert done.status == 201, done.body
    want = m.reference(m.inputs(days=1, seed=1, period=M1))  # path (a)'s, on the same readings
    assert done.body["results"] == {"bill_cents": want}
    (row,) = world.rows(world.metering_db)
    assert json.loads(row["result"]) == [done.body["results"]["bill_cents"]]


def test_a_ciphertext_of_another_value_or_block_is_refused(world: World) -> None:
    user = world.user()
    proved = prove_encrypted(str(world.dir / "genome"), world.block(G2), user)
    main = proved.program
    before = len(world.rows(world.genome_db))

    # one ciphertext replaced by an encryption of another value: the proofs no longer hold
    outputs = list(proved.proofs[main].outputs)
    outputs[3] = to_json_value(encrypt(2, user.public, random_scalar()))
    tampered = replace(
        proved, proofs={**proved.proofs, main: replace(proved.proofs[main], outputs=outputs)}
    )
    answer = submit_bundle(world.genome.url, tampered)
    assert answer.status == 422 and "does not verify" in answer.body["error"]

    # a block the user signed herself, as if she were the lab
    block = world.block(G2)
    forger = Source(bytes(32), SOURCE_ID)
    forged_block = forger.sign(user.public, G2, list(block.values), 8)
    forged = prove_encrypted(str(world.dir / "genome"), forged_block, user)
    answer = submit_bundle(world.genome.url, forged)
    assert answer.status == 422 and "another key" in answer.body["error"]

    # not a bundle of this service's program: the metering service's
    assert submit_bundle(world.metering.url, proved).status == 400
    assert len(world.rows(world.genome_db)) == before  # nothing stored

    assert submit_bundle(world.genome.url, proved).status == 201  # hers, once
    again = submit_bundle(world.genome.url, bundle.Bundle.from_json(proved.to_json()))
    assert again.status == 409


def test_a_wrong_decryption_is_refused_and_the_right_one_stored_once(world: World) -> None:
    user = world.user()
    assert submit_decryptions(world.genome.url, user, G3, [1], []).status == 404  # nothing sent
    proved = prove_encrypted(str(world.dir / "genome"), world.block(G3), user)
    first = submit_bundle(world.genome.url, proved)
    assert first.status == 201, first.body
    sums = parse_ciphertexts(first.body["sums"], "sums")
    values, proofs = decrypt_and_prove(user, sums)

    # a lowered score with her real proof
    lowered = [values[0] - 1, *values[1:]]
    answer = submit_decryptions(world.genome.url, user, G3, lowered, proofs)
    assert answer.status == 422 and "proofs[0]" in answer.body["error"]
    # a real proof about another sum (the proofs swapped)
    swapped = [proofs[1], proofs[0], *proofs[2:]]
    answer = submit_decryptions(world.genome.url, user, G3, values, swapped)
    assert answer.status == 422
    # a public-input edit the verifier catches: the proof's value raised along with the claim
    bent = replace(proofs[0], public_inputs={**proofs[0].public_inputs, "m": values[0] + 1})
    answer = submit_decryptions(world.genome.url, user, G3, [values[0] + 1, *values[1:]],
                                [bent, *proofs[1:]])  # fmt: skip
    assert answer.status == 422 and "does not verify" in answer.body["error"]
    # a real decryption proof under another key, of a ciphertext of the same value
    other_sk, other = keygen()
    theirs = encrypt(values[0], other, random_scalar())
    dleq = api.compile(decrypts_dleq)
    foreign = api.prove_sigma(dleq, dleq_inputs(other, theirs, values[0], other_sk))
    answer = submit_decryptions(world.genome.url, user, G3, values, [foreign, *proofs[1:]])
    assert answer.status == 422 and "another key" in answer.body["error"]
    # her sums do not decrypt under another key (below 2^40): no proof can be made
    with pytest.raises(MalformedInput, match="does not decrypt"):
        decrypt_and_prove(UserKey(other_sk), sums)
    (row,) = [r for r in world.rows(world.genome_db) if r["period"] == G3]
    assert row["result"] is None  # nothing stored

    done = submit_decryptions(world.genome.url, user, G3, values, proofs)
    assert done.status == 201 and done.body["results"] == scores(world, G3)
    again = submit_decryptions(world.genome.url, user, G3, values, proofs)
    assert again.status == 409


# ---- the store alone, on SQLite and PostgreSQL ----------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def cstore(request: pytest.FixtureRequest, tmp_path: Path) -> CertifiedStore:
    if request.param == "sqlite":
        return CertifiedStore(Store(str(tmp_path / "certified.db")))
    from .postgres import fresh_database

    return CertifiedStore(Store(fresh_database(request.getfixturevalue("postgres_url"))))


def test_encrypted_rows_and_results_are_written_once_under_concurrency(
    cstore: CertifiedStore,
) -> None:
    """Of eight services racing to store one user's period, one stores its sums; of eight
    racing to record the decrypted results, one records them (the others: nothing written)."""
    from concurrent.futures import ThreadPoolExecutor

    from zeenot.certified.store import Encrypted

    rows = [Encrypted(7, "1,2", 3, "r" * 64, f"{k:064x}", [{"k": k}]) for k in range(8)]
    with ThreadPoolExecutor(8) as pool:
        stored = list(pool.map(cstore.put_encrypted, rows))
    assert stored.count(True) == 1
    kept = cstore.encrypted_row(7, "1,2", 3)
    assert kept == rows[stored.index(True)]  # whole, its result still empty
    assert cstore.encrypted_row(7, "1,2", 4) is None

    with ThreadPoolExecutor(8) as pool:
        done = list(pool.map(lambda k: cstore.put_decrypted(7, "1,2", 3, [k]), range(8)))
    assert done.count(True) == 1
    final = cstore.encrypted_row(7, "1,2", 3)
    assert final is not None and final.result == [done.index(True)]
    assert not cstore.put_decrypted(7, "1,2", 4, [1])  # no row: nothing written
