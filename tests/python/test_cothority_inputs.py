"""Providers' inputs: a generated corpus of out-of-range, malformed and replayed records is
refused, 100 %, by the checks a server runs before it stores anything."""

from __future__ import annotations

import copy
import random

import pytest
from tests.python.cothority_cluster import Cluster

from zeenot import babyjub as bj
from zeenot import sigma
from zeenot.cothority import provider, wire


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    return Cluster(tmp_path_factory.mktemp("inputs"))


def _good(cluster, i: int, who: str = "h1") -> dict:
    key = cluster.nodes["s1"].keys.key
    return provider.encrypt_record(
        cluster.dep.name,
        cluster.dep.schema,
        key,
        who,
        f"g{i}",
        {"age": 30 + i % 100, "diagnosis": 1},
    )


def _out_of_range(cluster, i: int) -> dict:
    """A value of 300 for an 8-bit attribute, proved honestly with a 16-bit range proof."""
    key = cluster.nodes["s1"].keys.key
    body = _good(cluster, 1000 + i)
    r = bj.random_scalar()
    c = bj.encrypt(300, key, r)
    ctx = provider._context(cluster.dep.name, key, "h1", body["id"], "age")
    proof = sigma.plaintext_in_range(c, key, 16, method="bulletproofs").prove(300, r, context=ctx)
    body["columns"]["age"] = wire.ct_json(c)
    body["proofs"]["age"] = proof.to_bytes().hex()
    return body


def corpus(cluster) -> list[tuple[str, dict]]:
    rnd = random.Random(5)
    base = _good(cluster, 0)
    out = [(f"out of range {i}", _out_of_range(cluster, i)) for i in range(3)]
    mutations = {
        "missing column": lambda b: b["columns"].pop("diagnosis"),
        "extra field": lambda b: b.update(extra=1),
        "point off curve": lambda b: b["columns"]["age"].__setitem__(0, "11" * 32),
        "not hex": lambda b: b["columns"]["age"].__setitem__(1, "zz" * 32),
        "short ciphertext": lambda b: b["columns"].__setitem__("age", ["00" * 32]),
        "proof truncated": lambda b: b["proofs"].__setitem__("age", b["proofs"]["age"][:100]),
        "proof empty": lambda b: b["proofs"].__setitem__("diagnosis", ""),
        "proof oversized": lambda b: b["proofs"].__setitem__("age", "00" * 5000),
        "square swapped": lambda b: b["columns"].__setitem__("age^2", b["columns"]["age"]),
        "ciphertexts swapped": lambda b: b["columns"].update(
            age=b["columns"]["diagnosis"], diagnosis=b["columns"]["age"]
        ),
        "id changed (proof replayed into another record)": lambda b: b.update(id="other"),
        "provider changed": lambda b: b.update(provider="h2"),
        "id not a name": lambda b: b.update(id="a b"),
        "columns a list": lambda b: b.update(columns=[]),
    }
    for name, mutate in mutations.items():
        b = copy.deepcopy(base)
        mutate(b)
        out.append((name, b))
    for i in range(20):  # random byte flips in a proof
        b = copy.deepcopy(base)
        col = rnd.choice(["age", "age^2", "diagnosis"])
        p = bytearray(bytes.fromhex(b["proofs"][col]))
        p[rnd.randrange(len(p))] ^= 1 << rnd.randrange(8)
        b["proofs"][col] = p.hex()
        out.append((f"flipped bit {i} in {col}", b))
    return out


def test_generated_corpus_refused(cluster):
    node = cluster.nodes["s1"]
    bad = corpus(cluster)
    for name, body in bad:
        signer = "h2" if name == "provider changed" else "h1"
        out = node.accept([body], signer, False)
        assert out["accepted"] == 0 and len(out["refused"]) == 1, name
    assert node.db.count_records() == 0


def test_good_records_accepted_and_replays_refused(cluster):
    node = cluster.nodes["s2"]
    good = [_good(cluster, i) for i in range(3)]
    assert node.accept(good, "h1", False)["accepted"] == 3
    again = node.accept(good, "h1", False)  # the same records again: stored once
    assert again["new"] == 0 and node.db.count_records() == 3
    other = _good(cluster, 0)  # the same id, other content
    refused = node.accept([other], "h1", False)["refused"]
    assert refused and "replay" in refused[0]["reason"]
    assert node.accept([good[0]], "h2", False)["accepted"] == 0  # h2 sending h1's record
