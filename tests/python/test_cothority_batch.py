"""Batch verification of providers' range proofs: a submission's Bulletproofs are checked as
one batch; a false one (out of range, tampered, for another ciphertext or context, or valid
alone but swapped between ciphertexts) fails the batch and is named by index and column, and the
server stores the submission's good records only."""

from __future__ import annotations

import copy
import json

import pytest
from tests.python.cothority_cluster import Cluster

from zeenot import _native, sigma
from zeenot import babyjub as bj
from zeenot.cothority import provider, wire


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    return Cluster(tmp_path_factory.mktemp("batch"))


def _bodies(cluster, prefix: str, n: int) -> list[dict]:
    key = cluster.nodes["s1"].keys.key
    return [
        provider.encrypt_record(
            cluster.dep.name,
            cluster.dep.schema,
            key,
            "h1",
            f"{prefix}{i}",
            {"age": 20 + i, "diagnosis": 1 + i % 4},
        )
        for i in range(n)
    ]


def _reasons(cluster, bodies: list[dict]) -> list[str | None]:
    key = cluster.nodes["s1"].keys.key
    items = [provider.parse_record(b, cluster.dep.schema) for b in bodies]
    return provider.verify_records(cluster.dep.name, cluster.dep.schema, key, items)


def _out_of_range_proof(cluster, body: dict) -> None:
    """`age` = 300 (the schema says 8 bits), its Bulletproof made honestly for 16 bits."""
    key = cluster.nodes["s1"].keys.key
    r = bj.random_scalar()
    c = bj.encrypt(300, key, r)
    ctx = provider._context(cluster.dep.name, key, "h1", body["id"], "age")
    proof = sigma.plaintext_in_range(c, key, 16, method="bulletproofs").prove(300, r, context=ctx)
    body["columns"]["age"] = wire.ct_json(c)
    body["proofs"]["age"] = proof.to_bytes().hex()


def test_valid_batch_passes(cluster):
    assert _reasons(cluster, _bodies(cluster, "v", 6)) == [None] * 6


@pytest.mark.parametrize("bad", [0, 3, 5])
def test_one_false_range_proof_is_named(cluster, bad):
    bodies = _bodies(cluster, f"f{bad}-", 6)
    _out_of_range_proof(cluster, bodies[bad])
    reasons = _reasons(cluster, bodies)
    assert [i for i, r in enumerate(reasons) if r] == [bad]
    assert "range proof of `age`" in reasons[bad]


def test_tampered_bulletproof_is_named(cluster):
    bodies = _bodies(cluster, "t", 5)
    p = bytearray(bytes.fromhex(bodies[2]["proofs"]["diagnosis"]))
    p[-40] ^= 1  # inside the Bulletproof's last scalars (still canonical: a high byte is kept)
    bodies[2]["proofs"]["diagnosis"] = p.hex()
    reasons = _reasons(cluster, bodies)
    assert [i for i, r in enumerate(reasons) if r] == [2]
    assert "`diagnosis`" in reasons[2]


def test_proof_for_another_context_is_named(cluster):
    """A record's proofs copied into another record (another id: another context)."""
    bodies = _bodies(cluster, "c", 4)
    bodies[1]["columns"] = copy.deepcopy(bodies[3]["columns"])
    bodies[1]["proofs"] = copy.deepcopy(bodies[3]["proofs"])
    reasons = _reasons(cluster, bodies)
    assert [i for i, r in enumerate(reasons) if r] == [1]


def test_proof_for_another_ciphertext_is_named(cluster):
    bodies = _bodies(cluster, "o", 4)
    other = _bodies(cluster, "o-other", 1)[0]
    bodies[2]["columns"]["age"] = other["columns"]["age"]
    reasons = _reasons(cluster, bodies)
    assert [i for i, r in enumerate(reasons) if r] == [2]


def test_proofs_valid_alone_but_swapped_between_ciphertexts(cluster):
    bodies = _bodies(cluster, "s", 4)
    # Within a record: each column's proof is valid for its own ciphertext and context.
    p = bodies[0]["proofs"]
    p["age"], p["diagnosis"] = p["diagnosis"], p["age"]
    # Between records: the same column's proofs exchanged.
    a, b = bodies[2]["proofs"], bodies[3]["proofs"]
    a["diagnosis"], b["diagnosis"] = b["diagnosis"], a["diagnosis"]
    reasons = _reasons(cluster, bodies)
    assert [i for i, r in enumerate(reasons) if r] == [0, 2, 3]


def test_native_batch_verdicts(cluster):
    """`bp_range_verify_batch`: one verdict per item, malformed items False, the rest judged."""
    key = cluster.nodes["s1"].keys.key
    items = []
    for i in range(5):
        r = bj.random_scalar()
        c = bj.encrypt(i, key, r)
        ctx = f"ctx {i}".encode()
        lp = sigma.plaintext_in_range(c, key, 16, method="bulletproofs").prove(i, r, context=ctx)
        items.append(([lp.to_bytes()[:32]], lp.range_proof, 16, ctx))
    assert _native.bp_range_verify_batch(items) == [True] * 5
    assert _native.bp_range_verify_batch([]) == []
    bad = list(items)
    bad[1] = (items[1][0], items[1][1][:-32], 16, items[1][3])  # truncated
    bad[2] = (items[2][0], items[2][1], 8, items[2][3])  # another range
    bad[3] = (items[3][0], items[3][1], 16, b"ctx 4")  # another context
    bad[4] = ([b"\xff" * 32], items[4][1], 16, items[4][3])  # not a point
    assert _native.bp_range_verify_batch(bad) == [True, False, False, False, False]
    huge = ([items[0][0][0]] * 256, items[0][1], 64, b"")  # 2^14 bits: over the bound
    assert _native.bp_range_verify_batch([items[0], huge]) == [True, False]


def test_sigma_batch_verify_takes_log_range_items(cluster):
    key = cluster.nodes["s1"].keys.key
    items = []
    for i in range(4):
        r = bj.random_scalar()
        c = bj.encrypt(100 + i, key, r)
        st = sigma.plaintext_in_range(c, key, 8, method="bulletproofs")
        ctx = f"item {i}".encode()
        items.append((st, st.prove(100 + i, r, context=ctx), ctx))
    assert sigma.batch_verify(items)
    assert sigma.batch_verify([(st, p.to_bytes(), ctx) for st, p, ctx in items])
    moved = [*items[:3], (items[3][0], items[2][1], items[3][2])]
    assert not sigma.batch_verify(moved)
    assert not sigma.batch_verify([*items[:3], (items[3][0], items[3][1], b"other")])
    assert not sigma.batch_verify([*items[:3], (items[3][0], b"\x00" * 10, items[3][2])])


def test_intake_stores_the_good_records_and_names_the_bad(cluster):
    """A submission with false proofs: the good records are stored and acknowledged, each bad
    one refused with its index; nothing refused is stored."""
    node = cluster.nodes["s3"]
    before = node.db.count_records()
    bodies = _bodies(cluster, "in", 6)
    _out_of_range_proof(cluster, bodies[1])
    p = bodies[4]["proofs"]
    p["age"], p["diagnosis"] = p["diagnosis"], p["age"]
    out = node.accept(bodies, "h1", False)
    assert out["accepted"] == 4 and out["new"] == 4
    assert [r["index"] for r in out["refused"]] == [1, 4]
    assert node.db.count_records() == before + 4
    held = {json.loads(b)["id"] for _, b in node.db.records()}
    assert {"in0", "in2", "in3", "in5"} <= held and not {"in1", "in4"} & held
