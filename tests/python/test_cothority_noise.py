"""Drynx's shuffled noise list in the query pipeline (cothority_cluster.py, in one process): the
noise added is exactly the first entry of the last shuffled list, every answering server
shuffles with a proof, a server that shuffles wrongly is named and excluded (the query
completes with t others), and the auditor rejects a tampered shuffle."""

from __future__ import annotations

import copy
import math
import random

import pytest
from tests.python.cothority_cluster import Cluster

from zeenot.cothority import crypto, querier, steps, transcript
from zeenot.cothority.transcript import Misbehaviour

# a short list for speed: δ(ε = 0.5, Δ = 1, L = 64) ≈ 0.063 (the test accepts up to 0.1)
NOISE = {"epsilon": 0.5, "list": 64, "delta": 0.1}
COUNT_BY = {"op": "count", "group_by": "diagnosis", "noise": NOISE}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("cothority-noise"))
    rnd = random.Random(3)
    data = [{"age": rnd.randrange(0, 256), "diagnosis": rnd.randrange(1, 4)} for _ in range(18)]
    c.submit("h1", data[:9])
    c.submit("h2", data[9:], server="s2")
    c.data = data
    return c


def _counts(data: list[dict[str, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for r in data:
        out[r["diagnosis"]] = out.get(r["diagnosis"], 0) + 1
    return out


def test_noise_added_is_exactly_the_first_entry_of_the_last_list(cluster):
    row, secret = cluster.done_query("shuf1", COUNT_BY)
    doc = row["transcript"]
    v = cluster.verify(doc)
    got = {r["diagnosis"]: r for r in querier.decrypt_result(cluster.dep, v, secret)}
    want = _counts(cluster.data)
    assert sorted(got) == sorted(want)
    public = list(steps.noise_list(0.5, 1, 64)[0])
    assert len(doc["noise"]) == len(doc["answering"]) == 2, "every answering server shuffled"
    sk = cluster.collective_secret(doc["answering"])
    last = doc["noise"][-1]["output"]["lists"]
    assert len(last) == len(want), "one list per released value (a count per group)"
    for k, lst in enumerate(last):
        values = crypto.decrypt_many(sk, bytes.fromhex("".join(lst)), 8, signed=True)
        assert sorted(values) == public, "the shuffled list holds the public list's values"
        first_list = doc["noise"][0]["output"]["lists"][k]
        assert first_list != lst and first_list[0] != lst[0], "re-randomised by the second"
        # the group's value order is the transcript's; its noise is entry 0 of its list
        noisy = querier.decrypt_result(cluster.dep, v, secret)[k]
        assert noisy["count"] - want[noisy["diagnosis"]] == values[0]
        assert noisy["count"] - v.groups[k]["count"] == values[0]
        assert 0 < noisy["noise_delta"] <= 0.1


def test_noise_follows_the_list_over_repeated_queries(cluster):
    """30 noisy counts (10 queries × 3 groups, each its own list): every noise value is in the
    public list, and their mean and variance match a uniform draw from it (the sorted list's
    first entry, an unshuffled list's noise, is its minimum: the mean test fails for it)."""
    public = list(steps.noise_list(0.5, 1, 64)[0])
    mu = sum(public) / len(public)
    var = sum((x - mu) ** 2 for x in public) / len(public)
    want = _counts(cluster.data)
    noise = []
    for i in range(10):
        row, secret = cluster.done_query(f"vary{i}", COUNT_BY)
        v = cluster.verify(row["transcript"])
        noise += [
            r["count"] - want[r["diagnosis"]]
            for r in querier.decrypt_result(cluster.dep, v, secret)
        ]
    assert set(noise) <= set(public)
    n = len(noise)
    mean = sum(noise) / n
    spread = sum((x - mean) ** 2 for x in noise) / (n - 1)
    assert abs(mean - mu) < 4 * math.sqrt(var / n), noise
    assert var / 4 < spread < 4 * var, (spread, var, noise)


@pytest.mark.parametrize(
    "fault,words",
    [
        ("noise-drop", "has 63 entries"),
        ("noise-replace", "does not verify"),
        ("noise-key", "does not verify"),
        ("noise-replay", "does not verify"),
    ],
)
def test_a_wrong_shuffle_is_named_and_excluded(cluster, fault, words):
    v, ex, secret = cluster.faulty_query("s2", fault, f"bad-{fault}", COUNT_BY, "noise")
    assert v.answering == ["s1", "s3"]
    assert ex["server"] == "s2" and words in ex["reason"], ex["reason"]
    got = querier.decrypt_result(cluster.dep, v, secret)
    public = set(steps.noise_list(0.5, 1, 64)[0])
    want = _counts(cluster.data)
    assert all(r["count"] - want[r["diagnosis"]] in public for r in got)


def _resign(cluster: Cluster, entry: dict) -> dict:
    body = {k: entry[k] for k in ("query", "step", "server", "output")}
    return transcript.signed_output(
        cluster.keys[entry["server"]], body["query"], body["step"], body["server"], body["output"]
    )


def test_auditor_rejects_a_tampered_shuffle(cluster):
    doc = cluster.done_query("aud1", COUNT_BY)[0]["transcript"]
    other = cluster.done_query("aud2", COUNT_BY)[0]["transcript"]
    second = doc["answering"][1]
    cases = []
    d = copy.deepcopy(doc)  # a server that signs a list with two entries swapped
    lst = d["noise"][1]["output"]["lists"][0]
    lst[0], lst[1] = lst[1], lst[0]
    d["noise"][1] = _resign(cluster, d["noise"][1])
    cases.append((d, second, "does not verify"))
    d = copy.deepcopy(doc)  # a server that signs its input list (no shuffle) with its proof
    d["noise"][1]["output"]["lists"] = doc["noise"][0]["output"]["lists"]
    d["noise"][1] = _resign(cluster, d["noise"][1])
    cases.append((d, second, "does not verify"))
    d = copy.deepcopy(doc)  # the same, but the leader changed it: not the server's signature
    d["noise"][1]["output"]["lists"] = doc["noise"][0]["output"]["lists"]
    cases.append((d, second, "not signed"))
    d = copy.deepcopy(doc)  # a shuffle replayed from another query
    d["noise"][1] = other["noise"][1]
    cases.append((d, second, "replay"))
    d = copy.deepcopy(doc)  # a shuffle skipped
    del d["noise"][1]
    cases.append((d, second, "skipped"))
    for bad, server, words in cases:
        with pytest.raises(Misbehaviour) as err:
            cluster.verify(bad)
        assert err.value.server == server and words in str(err.value), str(err.value)


def test_a_list_with_too_large_a_delta_is_refused(cluster):
    row, _ = cluster.query(
        {
            "id": "weak",
            "op": "sum",
            "attribute": "age",
            "noise": {"epsilon": 1, "list": 64, "delta": 0.5},
        }
    )
    assert row["state"] == "failed"
    assert "delta" in row["error"] and "sensitivity 255" in row["error"], row["error"]


def test_too_many_noise_entries_fail_the_query_cleanly(cluster, monkeypatch):
    monkeypatch.setattr(transcript, "MAX_NOISE_ENTRIES", 3 * 64 * 2 - 1)
    row, _ = cluster.query({"id": "big", **COUNT_BY})
    assert row["state"] == "failed"
    assert "3 lists of 64 values" in row["error"], row["error"]


@pytest.mark.parametrize(
    "noise,words",
    [
        ({"epsilon": 1, "clip": 5}, "`noise.clip` is not for `list`"),
        ({"epsilon": 1, "mechanism": "per_server", "list": 64}, "not for `per_server`"),
        ({"epsilon": 1, "mechanism": "mix"}, "mechanism"),
        ({"epsilon": 1, "list": 8}, "noise.list"),
        ({"epsilon": 1, "list": True}, "noise.list"),
        ({"epsilon": 1, "delta": 1}, "noise.delta"),
        ({"epsilon": 65}, "epsilon"),
    ],
)
def test_noise_parameters_are_checked(noise, words):
    from zeenot.cothority.model import Noise
    from zeenot.errors import MalformedInput

    with pytest.raises(MalformedInput) as err:
        Noise.from_json(noise)
    assert words in str(err.value), str(err.value)
    assert Noise.from_json({"epsilon": 1}).to_json() == {
        "epsilon": 1.0,
        "list": 1000,
        "delta": 0.01,
    }
