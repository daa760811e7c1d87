"""The collective authority's protocol in one process (cothority_cluster.py): results equal a
plain-Python reference, t of m answer, falsified, skipped and replayed steps are named."""

from __future__ import annotations

import copy
import random

import pytest
from tests.python.cothority_cluster import Cluster

from zeenot.cothority import querier
from zeenot.cothority.transcript import Misbehaviour


def rows(n: int, seed: int = 1) -> list[dict[str, int]]:
    rnd = random.Random(seed)
    return [{"age": rnd.randrange(0, 256), "diagnosis": rnd.randrange(1, 4)} for _ in range(n)]


def reference(data: list[dict[str, int]], where: tuple[str, int] | None = None):
    out: dict[int, list[int]] = {}
    for r in data:
        if where and r[where[0]] != where[1]:
            continue
        out.setdefault(r["diagnosis"], []).append(r["age"])
    return out


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("cothority"))
    data = rows(24)
    c.submit("h1", data[:12])
    c.submit("h2", data[12:], server="s2")
    c.data = data
    return c


def test_dkg_keys_agree(cluster):
    keys = [n.keys.to_json() for n in cluster.nodes.values()]
    assert keys[0] == keys[1] == keys[2]
    for n in cluster.nodes.values():  # each share matches its public verification key
        assert n.share * __import__("zeenot.babyjub").babyjub.BASE8 == n.keys.verification[n.name]


def test_variance_by_diagnosis_equals_reference(cluster):
    row, secret = cluster.query(
        {"id": "var", "op": "variance", "attribute": "age", "group_by": "diagnosis"}
    )
    assert row["state"] == "done", row["error"]
    v = cluster.verify(row["transcript"])
    got = {r["diagnosis"]: r for r in querier.decrypt_result(cluster.dep, v, secret)}
    ref = reference(cluster.data)
    assert sorted(got) == sorted(ref)
    for d, ages in ref.items():
        assert got[d]["count"] == len(ages)
        assert got[d]["sum"] == sum(ages)
        assert got[d]["sum_squares"] == sum(a * a for a in ages)


def test_sum_where(cluster):
    row, secret = cluster.query(
        {"id": "sw", "op": "sum", "attribute": "age", "where": ["diagnosis", 2]}
    )
    v = cluster.verify(row["transcript"])
    (got,) = querier.decrypt_result(cluster.dep, v, secret)
    ages = [r["age"] for r in cluster.data if r["diagnosis"] == 2]
    assert (got["count"], got["sum"]) == (len(ages), sum(ages))


def test_count_with_one_server_down(cluster):
    cluster.down = {"s2"}
    try:
        row, secret = cluster.query({"id": "down", "op": "count"})
    finally:
        cluster.down = set()
    assert row["state"] == "done"
    v = cluster.verify(row["transcript"])
    assert v.answering == ["s1", "s3"]
    assert [e["server"] for e in v.excluded] == ["s2"]
    assert querier.decrypt_result(cluster.dep, v, secret)[0]["count"] == len(cluster.data)


def test_fewer_than_t_fails_naming_them(cluster):
    cluster.down = {"s2", "s3"}
    try:
        row, _ = cluster.query({"id": "two-down", "op": "count"})
    finally:
        cluster.down = set()
    assert row["state"] == "failed"
    assert "s2" in row["error"] and "s3" in row["error"]


@pytest.mark.parametrize("step", ["keyswitch", "tag"])
def test_falsified_step_is_named_and_query_completes(cluster, step):
    cluster.nodes["s2"].fault = step
    try:
        row, secret = cluster.query(
            {"id": f"bad-{step}", "op": "sum", "attribute": "age", "group_by": "diagnosis"}
        )
    finally:
        cluster.nodes["s2"].fault = ""
    assert row["state"] == "done", row["error"]
    v = cluster.verify(row["transcript"])
    assert v.answering == ["s1", "s3"]
    (ex,) = v.excluded
    assert ex["server"] == "s2" and "proof does not verify" in ex["reason"]
    # the evidence is s2's own signed output (so the leader cannot frame an honest server)
    from zeenot.cothority import transcript

    name = "keyswitch" if step == "keyswitch" else "tag"
    transcript.check_signed(cluster.dep, ex["evidence"], f"bad-{step}", name, "s2")
    got = {r["diagnosis"]: r["sum"] for r in querier.decrypt_result(cluster.dep, v, secret)}
    assert got == {d: sum(a) for d, a in reference(cluster.data).items()}


def _done(cluster, qid, spec):
    row, _ = cluster.query({"id": qid, **spec})
    assert row["state"] == "done"
    return row["transcript"]


def test_tampered_transcripts_are_named(cluster):
    spec = {"op": "sum", "attribute": "age", "group_by": "diagnosis"}
    doc = _done(cluster, "t1", spec)
    other = _done(cluster, "t2", spec)
    second = doc["answering"][1]
    cases = []
    d = copy.deepcopy(doc)  # a key switch replayed from another query
    d["keyswitch"][1] = other["keyswitch"][1]
    cases.append((d, second, "replay"))
    d = copy.deepcopy(doc)  # a tag step skipped
    del d["tags"][1]
    cases.append((d, second, "skipped"))
    d = copy.deepcopy(doc)  # a key-switch part changed by the leader: not s3's signature
    d["keyswitch"][1]["output"]["parts"][0][1] = d["keyswitch"][1]["output"]["parts"][0][0]
    cases.append((d, second, "not signed"))
    d = copy.deepcopy(doc)  # a record dropped: the first row shuffle no longer matches
    d["records"].pop()
    cases.append((d, "s1", "has 24 rows for 23 records"))
    for bad, server, words in cases:
        with pytest.raises(Misbehaviour) as err:
            cluster.verify(bad)
        assert err.value.server == server and words in str(err.value), str(err.value)


def test_a_step_is_answered_once(cluster):
    doc = _done(cluster, "once", {"op": "count"})
    node = cluster.nodes[doc["answering"][1]]
    body = {
        "query": doc["query"],
        "answering": doc["answering"],
        "records": [],
        "tags": [],
        "noise": [],
    }
    from zeenot.cothority.node import StepRefused

    with pytest.raises(StepRefused) as err:  # the same query's key switch over other records
        node.step("keyswitch", body)
    assert err.value.status == 409


def test_noise_within_its_distribution(cluster):
    """Per-server noise (asked for): over repeated queries the noisy counts' mean and spread
    match the stated distribution (the sum of t discrete Laplace draws of scale 1/epsilon)."""
    eps, reps = 1.0, 12
    diffs = []
    for i in range(reps):
        row, secret = cluster.query(
            {
                "id": f"n{i}",
                "op": "count",
                "noise": {"epsilon": eps, "mechanism": "per_server", "clip": 20},
            }
        )
        v = cluster.verify(row["transcript"])
        diffs.append(querier.decrypt_result(cluster.dep, v, secret)[0]["count"] - len(cluster.data))
    import math

    b = 1 / eps
    var = 2 * (math.exp(-1 / b) * 2 / (1 - math.exp(-1 / b)) ** 2)  # two draws' variance
    mean = sum(diffs) / reps
    assert abs(mean) < 4 * math.sqrt(var / reps), diffs
    assert any(diffs), "noise was asked for and none was added"
    assert max(abs(x) for x in diffs) <= 2 * 20 * b + 2
