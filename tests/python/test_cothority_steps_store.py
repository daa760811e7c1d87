"""A server keeps each step it answered (`cothority_steps`, cothority/db.py) under a slot name
of at most 64 characters (the column is VARCHAR(64): PostgreSQL refuses a longer value, SQLite
does not check), for every step and the largest answering set, on both stores."""

from __future__ import annotations

import pytest
from tests.python.postgres import fresh_database

from zeenot.cothority.db import Db
from zeenot.cothority.node import step_slot
from zeenot.runtime.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path) -> Db:
    if request.param == "sqlite":
        return Db(Store(str(tmp_path / "s.db")))
    return Db(Store(fresh_database(request.getfixturevalue("postgres_url"))))


def test_every_step_slot_fits_its_column(db):
    answering = [f"server-{i:02d}" for i in range(40)]
    qid = "q" * 64
    for step in ("shuffle", "tag", "noise", "keyswitch"):
        for once in (False, True):
            slot = step_slot(step, answering, once)
            assert len(slot) <= 64
            digest, out = db.put_step(qid, slot, "d" * 64, {"step": step, "once": once})
            assert (digest, out) == ("d" * 64, {"step": step, "once": once})
            assert db.step(qid, slot) == ("d" * 64, {"step": step, "once": once})
    # two answering sets have two slots
    assert step_slot("tag", ["s1", "s2"], False) != step_slot("tag", ["s1", "s3"], False)


def test_a_step_kept_under_its_old_slot_is_still_answered_once(tmp_path):
    """A SQLite store written before the slots were cut keeps a step under the full digest:
    asked again with other inputs, the server still refuses (409) instead of answering twice."""
    from tests.python.cothority_cluster import Cluster

    from zeenot import babyjub as bj
    from zeenot.cothority import wire
    from zeenot.cothority.node import StepRefused

    c = Cluster(tmp_path)
    node = c.nodes["s2"]
    q = {"id": "old", "op": "count", "querier_key": wire.point_hex(bj.keygen()[1])}
    answering = ["s1", "s2"]
    node.db.put_step("old", f"keyswitch:{wire.digest(answering)}", "x" * 64, {"kept": 1})
    body = {"query": q, "answering": answering, "records": []}
    with pytest.raises(StepRefused) as err:
        node.step("keyswitch", body)
    assert err.value.status == 409
