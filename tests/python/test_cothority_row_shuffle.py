"""UnLynx's verifiable shuffle before the tags (cothority_cluster.py, in one process): for a
query with GROUP BY or WHERE every answering server in turn shuffles the query's rows (tag and
summed columns together, one row per record) with a Terelius-Wikström proof, the tags and sums
are computed on the last server's rows, and the result still equals the plain-Python
reference; a server that skips, falsifies or replays its shuffle is named by the leader (and
excluded), by the next server and by the querier and the auditor."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from tests.python.cothority_cluster import Cluster

from zeenot.cothority import crypto, provider, querier, steps, transcript
from zeenot.cothority.model import Query
from zeenot.cothority.node import StepRefused
from zeenot.cothority.transcript import Misbehaviour

VAR_BY = {"op": "variance", "attribute": "age", "group_by": "diagnosis"}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("cothority-rows"))
    rnd = random.Random(11)
    data = [{"age": rnd.randrange(0, 256), "diagnosis": rnd.randrange(1, 4)} for _ in range(24)]
    c.submit("h1", data[:12])
    c.submit("h2", data[12:], server="s2")
    c.data = data
    return c


def _reference(data: list[dict[str, int]], where: tuple[str, int] | None = None) -> dict:
    out: dict[int, list[int]] = {}
    for r in data:
        if where is None or r[where[0]] == where[1]:
            out.setdefault(r["diagnosis"], []).append(r["age"])
    return out


def _plain_rows(sk: int, rows: list[list[str]]) -> list[tuple[int, ...]]:
    width = len(rows[0])
    flat = crypto.decrypt_many(sk, bytes.fromhex("".join(c for r in rows for c in r)), 16)
    return [tuple(flat[i : i + width]) for i in range(0, len(flat), width)]


def _resign(cluster: Cluster, entry: dict) -> dict:
    body = {k: entry[k] for k in ("query", "step", "server", "output")}
    return transcript.signed_output(
        cluster.keys[entry["server"]], body["query"], body["step"], body["server"], body["output"]
    )


def test_rows_are_shuffled_by_every_server_before_the_tags(cluster):
    row, secret = cluster.done_query("rows1", VAR_BY)
    doc = row["transcript"]
    v = cluster.verify(doc)
    got = {r["diagnosis"]: r for r in querier.decrypt_result(cluster.dep, v, secret)}
    ref = _reference(cluster.data)
    assert sorted(got) == sorted(ref)
    for d, ages in ref.items():
        assert got[d]["count"] == len(ages)
        assert got[d]["sum"] == sum(ages)
        assert got[d]["sum_squares"] == sum(a * a for a in ages)
    answering = doc["answering"]
    shuffles = doc["shuffles"]
    assert [(e["step"], e["server"]) for e in shuffles] == [("shuffle", s) for s in answering]
    # the first server's input: the records' rows (diagnosis, age, age²) in digest order
    query = Query.from_json(doc["query"], cluster.dep.schema)
    assert query.row_columns() == ["diagnosis", "age", "age^2"]
    records = [provider.parse_record(b, cluster.dep.schema)[0].columns for b in doc["records"]]
    in_rows = [[steps.pack_cts([r[c]]).hex() for c in query.row_columns()] for r in records]
    sk = cluster.collective_secret(answering)
    plain_in = _plain_rows(sk, in_rows)
    want = Counter((r["diagnosis"], r["age"], r["age"] ** 2) for r in cluster.data)
    assert Counter(plain_in) == want
    seen = {c for r in in_rows for c in r}
    for entry in shuffles:
        out = entry["output"]["rows"]
        plain = _plain_rows(sk, out)
        assert Counter(plain) == Counter(plain_in), "the same rows, each moved whole"
        assert plain != plain_in, "in another order (24 distinct-enough rows: not by chance)"
        fresh = {c for r in out for c in r}
        assert not fresh & seen, "every ciphertext re-randomised"
        seen |= fresh
    # the tag chain starts from the last server's rows: the first tag step's input
    last = [[steps.list_entry(bytes.fromhex(c)) for c in r] for r in shuffles[-1]["output"]["rows"]]
    rows = [dict(zip(query.row_columns(), r, strict=True)) for r in last]
    first_tag = doc["tags"][0]["output"]
    idx = [cluster.dep.index(s) for s in answering]
    keys = cluster.nodes["s1"].keys
    ok = steps.tag_ok(
        transcript.tag_inputs(query, rows),
        [steps.list_entry(bytes.fromhex(a + b)) for a, b in first_tag["cts"]],
        transcript.wire.point(first_tag["S"]),
        bytes.fromhex(first_tag["proof"]),
        cluster.dep.index(answering[0]),
        keys.verification[answering[0]],
        steps.lagrange(cluster.dep.index(answering[0]), idx),
        transcript.ctx(cluster.dep, keys.key, "rows1", "tag", answering[0], answering),
    )
    assert ok


def test_where_shuffles_its_columns_and_equals_the_reference(cluster):
    spec = {"op": "sum", "attribute": "age", "where": ["diagnosis", 2]}
    row, secret = cluster.done_query("rows-where", spec)
    doc = row["transcript"]
    assert len(doc["shuffles"]) == 2
    assert all(len(r) == 2 for r in doc["shuffles"][0]["output"]["rows"])  # diagnosis, age
    (got,) = querier.decrypt_result(cluster.dep, cluster.verify(doc), secret)
    ages = _reference(cluster.data, ("diagnosis", 2))[2]
    assert (got["count"], got["sum"]) == (len(ages), sum(ages))


def test_a_query_without_tags_shuffles_nothing(cluster):
    row, secret = cluster.done_query("rows-count", {"op": "count"})
    doc = row["transcript"]
    assert doc["shuffles"] == []
    assert querier.decrypt_result(cluster.dep, cluster.verify(doc), secret)[0]["count"] == 24
    with_tags = cluster.done_query("rows-count-by", {"op": "count", "group_by": "diagnosis"})[0]
    d = copy.deepcopy(doc)  # a shuffle slipped into a query without tags: named
    d["shuffles"] = with_tags["transcript"]["shuffles"][:1]
    with pytest.raises(Misbehaviour) as err:
        cluster.verify(d)
    assert err.value.server == doc["answering"][0]
    assert "a row shuffle in a query without tags" in str(err.value)
    body = {"query": doc["query"], "answering": doc["answering"], "records": []}
    with pytest.raises(StepRefused) as refused:
        cluster.nodes[doc["answering"][1]].step("shuffle", body)
    assert refused.value.status == 400 and "no rows to shuffle" in refused.value.reason


@pytest.mark.parametrize(
    "fault,words",
    [
        ("shuffle-drop", "has 23 rows for 24 records"),
        ("shuffle-replace", "row shuffle's proof does not verify"),
        ("shuffle-key", "row shuffle's proof does not verify"),
        ("shuffle-replay", "row shuffle's proof does not verify"),
        ("shuffle-skip", "row shuffle's proof does not verify"),
    ],
)
def test_a_wrong_row_shuffle_is_named_and_excluded(cluster, fault, words):
    v, ex, secret = cluster.faulty_query("s2", fault, f"bad-{fault}", VAR_BY, "shuffle")
    assert v.answering == ["s1", "s3"]
    assert ex["server"] == "s2" and words in ex["reason"], ex["reason"]
    got = {r["diagnosis"]: r["sum"] for r in querier.decrypt_result(cluster.dep, v, secret)}
    assert got == {d: sum(a) for d, a in _reference(cluster.data).items()}


def test_the_next_server_refuses_to_build_on_a_bad_shuffle(cluster):
    """Asked directly (not through the leader): s2 checks s1's shuffle before its own, and the
    tag step checks every shuffle."""
    from zeenot import babyjub as bj
    from zeenot.cothority import wire

    spec = {"id": "direct", **VAR_BY, "querier_key": wire.point_hex(bj.keygen()[1])}
    digests = [d for d, _ in cluster.nodes["s1"].db.records()]
    body = {"query": spec, "answering": ["s1", "s2"], "records": digests, "shuffles": []}
    first = cluster.nodes["s1"].step("shuffle", copy.deepcopy(body))
    bad = copy.deepcopy(first)
    rows = bad["output"]["rows"]
    rows[0], rows[1] = rows[1], rows[0]
    bad = _resign(cluster, bad)
    with pytest.raises(StepRefused) as err:
        cluster.nodes["s2"].step("shuffle", {**body, "shuffles": [bad]})
    assert err.value.status == 422 and "`s1`" in err.value.reason
    assert "proof does not verify" in err.value.reason
    with pytest.raises(StepRefused) as err:  # a tag step asked before s2 shuffled
        cluster.nodes["s1"].step("tag", {**body, "shuffles": [first], "tags": []})
    assert err.value.status == 422 and "`s2`" in err.value.reason and "skipped" in err.value.reason
    second = cluster.nodes["s2"].step("shuffle", {**body, "shuffles": [first]})
    assert second["server"] == "s2" and len(second["output"]["rows"]) == len(digests)


def test_the_auditor_rejects_a_tampered_row_shuffle(cluster):
    doc = cluster.done_query("aud-rows1", VAR_BY)[0]["transcript"]
    other = cluster.done_query("aud-rows2", VAR_BY)[0]["transcript"]
    first, second = doc["answering"]
    cases = []
    d = copy.deepcopy(doc)  # a server that signs its rows with two of them swapped
    rows = d["shuffles"][1]["output"]["rows"]
    rows[0], rows[1] = rows[1], rows[0]
    d["shuffles"][1] = _resign(cluster, d["shuffles"][1])
    cases.append((d, second, "does not verify"))
    d = copy.deepcopy(doc)  # a server that passes its input on unshuffled, with its proof
    d["shuffles"][1]["output"]["rows"] = doc["shuffles"][0]["output"]["rows"]
    d["shuffles"][1] = _resign(cluster, d["shuffles"][1])
    cases.append((d, second, "does not verify"))
    d = copy.deepcopy(doc)  # two ciphertexts of one row swapped (columns are not movable)
    r0 = d["shuffles"][0]["output"]["rows"][0]
    r0[1], r0[2] = r0[2], r0[1]
    d["shuffles"][0] = _resign(cluster, d["shuffles"][0])
    cases.append((d, first, "does not verify"))
    d = copy.deepcopy(doc)  # a ciphertext that is no point: its server's, not the next one's
    raw = bytearray.fromhex(d["shuffles"][0]["output"]["rows"][3][0])
    raw[31] ^= 0x01
    d["shuffles"][0]["output"]["rows"][3][0] = raw.hex()
    d["shuffles"][0] = _resign(cluster, d["shuffles"][0])
    cases.append((d, first, "does not verify"))
    d = copy.deepcopy(doc)  # changed by the leader: not the server's signature
    rows = d["shuffles"][1]["output"]["rows"]
    rows[0], rows[1] = rows[1], rows[0]
    cases.append((d, second, "not signed"))
    d = copy.deepcopy(doc)  # a shuffle replayed from another query
    d["shuffles"][1] = other["shuffles"][1]
    cases.append((d, second, "replay"))
    d = copy.deepcopy(doc)  # a shuffle skipped
    del d["shuffles"][1]
    cases.append((d, second, "skipped"))
    d = copy.deepcopy(doc)  # a row dropped and re-signed
    d["shuffles"][0]["output"]["rows"].pop()
    d["shuffles"][0] = _resign(cluster, d["shuffles"][0])
    cases.append((d, first, "has 23 rows for 24 records"))
    d = copy.deepcopy(doc)  # a malformed row
    d["shuffles"][1]["output"]["rows"][2] = d["shuffles"][1]["output"]["rows"][2][:2]
    d["shuffles"][1] = _resign(cluster, d["shuffles"][1])
    cases.append((d, second, "malformed"))
    for bad, server, words in cases:
        with pytest.raises(Misbehaviour) as err:
            cluster.verify(bad)
        assert err.value.server == server and words in str(err.value), str(err.value)


def test_too_many_rows_fail_the_query_cleanly(cluster, monkeypatch):
    monkeypatch.setattr(transcript, "MAX_SHUFFLE_ENTRIES", 24 * 6 * 2 - 1)
    row, _ = cluster.query({"id": "rows-big", **VAR_BY})
    assert row["state"] == "failed"
    assert "row shuffle" in row["error"] and "24 rows of 3" in row["error"], row["error"]


def test_a_remembered_shuffle_is_keyed_by_its_shape():
    """A shuffle verified once is remembered by digest; rows of two ciphertexts must not pass
    for twice as many rows of one with the same bytes and proof."""
    _, pk = crypto.keygen(seed=21)
    cts = crypto.split_ciphertexts(crypto.encrypt(pk, [1, 2, 3, 4], seed=22))
    K = steps._unpack(pk)
    rows = [cts[:2], cts[2:]]
    out, proof = steps.shuffle_rows(K, rows, b"ctx")
    flat_in, flat_out = [[c] for c in cts], [[c] for r in out for c in r]
    assert steps.rows_shuffles_ok(K, [(rows, out, proof, b"ctx")]) == [True]
    assert steps.rows_shuffles_ok(K, [(flat_in, flat_out, proof, b"ctx")]) == [False]
    assert steps.rows_shuffles_ok(K, [(rows, out, proof, b"other")]) == [False]


def test_the_python_packing_is_the_cores():
    """`steps._pack` (in Python, for speed: rows are packed for every shuffle check) gives the
    core's packed encoding, for points of both signs of x and the identity."""
    from zeenot import _native
    from zeenot import babyjub as bj

    points = [bj.Point.identity(), bj.BASE8, -bj.BASE8]
    points += [bj.random_scalar() * bj.BASE8 for _ in range(64)]
    assert {int(p.x) > (bj.P - 1) // 2 for p in points} == {True, False}
    for p in points:
        assert steps._pack(p) == bytes(_native.bj_pack(str(int(p.x)), str(int(p.y))))
        assert steps._unpack(steps._pack(p)) == p
