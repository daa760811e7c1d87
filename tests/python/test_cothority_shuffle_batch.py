"""The noise lists' shuffles of a transcript are verified in one batch (steps.shuffles_ok via
transcript.check_shuffles): the culprit is still named exactly (the server and the list), the
first one in server order when two servers misbehave, and a list entry that does not decode is
its server's bad shuffle (not a crash at the next server)."""

from __future__ import annotations

import copy
import random

import pytest
from tests.python.cothority_cluster import Cluster

from zeenot.cothority import transcript
from zeenot.cothority.transcript import Misbehaviour

NOISE = {"epsilon": 0.5, "list": 64, "delta": 0.1}
COUNT_BY = {"op": "count", "group_by": "diagnosis", "noise": NOISE}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("cothority-shuffle-batch"))
    rnd = random.Random(5)
    data = [{"age": rnd.randrange(0, 256), "diagnosis": rnd.randrange(1, 4)} for _ in range(12)]
    c.submit("h1", data)
    return c


def _resign(cluster: Cluster, entry: dict) -> dict:
    body = {k: entry[k] for k in ("query", "step", "server", "output")}
    return transcript.signed_output(
        cluster.keys[entry["server"]], body["query"], body["step"], body["server"], body["output"]
    )


def _swap(entry: dict, a: int) -> None:
    lst = entry["output"]["lists"][a]
    lst[0], lst[1] = lst[1], lst[0]


def test_the_culprit_is_named_from_a_batch(cluster):
    row, _ = cluster.query({"id": "batch1", **COUNT_BY})
    assert row["state"] == "done", row["error"]
    doc = row["transcript"]
    cluster.verify(doc)  # the honest transcript verifies in one batch
    first, second = doc["answering"][0], doc["answering"][1]
    n = len(doc["noise"][0]["output"]["lists"])
    assert n > 1
    cases = []
    d = copy.deepcopy(doc)  # the second server's last list: named by its index
    _swap(d["noise"][1], n - 1)
    d["noise"][1] = _resign(cluster, d["noise"][1])
    cases.append((d, second, f"noise list {n - 1}'s proof does not verify"))
    d = copy.deepcopy(doc)  # both servers wrong: the first in server order is named
    _swap(d["noise"][0], 1)
    d["noise"][0] = _resign(cluster, d["noise"][0])
    _swap(d["noise"][1], 0)
    d["noise"][1] = _resign(cluster, d["noise"][1])
    cases.append((d, first, "noise list 1's proof does not verify"))
    d = copy.deepcopy(doc)  # a bad first shuffle, then a malformed second one
    _swap(d["noise"][0], 0)
    d["noise"][0] = _resign(cluster, d["noise"][0])
    d["noise"][1]["output"]["lists"][0] = d["noise"][1]["output"]["lists"][0][1:]
    d["noise"][1] = _resign(cluster, d["noise"][1])
    cases.append((d, first, "noise list 0's proof does not verify"))
    d = copy.deepcopy(doc)  # an entry that is no point: its server's shuffle, not the next's
    raw = bytearray.fromhex(d["noise"][0]["output"]["lists"][0][3])
    raw[31] ^= 0x01  # K's y: almost surely no longer a point of the subgroup
    d["noise"][0]["output"]["lists"][0][3] = raw.hex()
    d["noise"][0] = _resign(cluster, d["noise"][0])
    cases.append((d, first, "noise list 0's proof does not verify"))
    for bad, server, words in cases:
        with pytest.raises(Misbehaviour) as err:
            cluster.verify(bad)
        assert err.value.server == server and words in str(err.value), str(err.value)
