"""One statistic query for the collective authority and Prio (`zeenot.aggregate.query`): parsed
once, answered by Prio3 through the shared result type, equal to the plain computation and to
what the collective authority's querier finishes from the same count and sums."""

from __future__ import annotations

import secrets
import statistics

import pytest

from zeenot.aggregate.query import StatQuery, StatResult
from zeenot.errors import MalformedInput, UsageError
from zeenot.prio import Vdaf

ATTRS = {"age": 8, "income": 16}
VK = bytes(range(16))


def _prio(query: StatQuery, values: list[int]) -> StatResult:
    vdaf = Vdaf.from_description(query.prio_vdaf(ATTRS))
    leader, helper = [], []
    for v in values:
        nonce = secrets.token_bytes(16)
        public, (l_in, h_in) = vdaf.shard(query.prio_measurement(v), nonce)
        state, message = vdaf.leader_initialized(VK, nonce, public, l_in)
        h_out, reply = vdaf.helper_initialized(VK, nonce, public, h_in, message)
        leader.append(vdaf.leader_continued(state, reply))
        helper.append(h_out)
    result = vdaf.unshard([vdaf.aggregate(leader), vdaf.aggregate(helper)], len(values))
    return StatResult.from_prio(query, result, len(values))


@pytest.mark.parametrize("op", ["count", "sum", "mean", "variance"])
def test_prio_answers_the_shared_query_as_the_plain_computation(op: str) -> None:
    values = [secrets.randbelow(256) for _ in range(25)]
    doc = {"op": op} if op == "count" else {"op": op, "attribute": "age"}
    query = StatQuery.from_json(doc, ATTRS)
    row = _prio(query, values).row()
    plain = StatResult.of(
        query, len(values), [sum(values), sum(v * v for v in values)][: len(query.value_columns())]
    ).row()
    assert row == plain
    assert row["count"] == len(values)
    if op != "count":
        assert row["sum"] == sum(values)
    if op in ("mean", "variance"):
        assert row["mean"] == pytest.approx(statistics.fmean(values))
    if op == "variance":
        assert row["variance"] == pytest.approx(statistics.pvariance(values))


def test_the_collective_authority_reads_the_same_query() -> None:
    from zeenot import babyjub
    from zeenot.cothority import wire
    from zeenot.cothority.model import Query, Schema

    schema = Schema.from_json({"age": {"bits": 8, "square": True}, "income": {"bits": 16}})
    doc = {"op": "variance", "attribute": "age", "where": ["income", 3], "group_by": "age"}
    key = wire.point_hex(babyjub.keygen()[1])
    q = Query.from_json({"id": "q1", "querier_key": key, **doc}, schema)
    assert q.stat == StatQuery.from_json(doc, ATTRS)
    assert (q.op, q.attribute, q.where, q.group_by) == ("variance", "age", ("income", 3), "age")
    assert q.to_json()["where"] == ["income", 3]
    with pytest.raises(MalformedInput, match="needs its square"):
        bad = {"id": "q2", "querier_key": key, "op": "variance", "attribute": "income"}
        Query.from_json(bad, schema)


@pytest.mark.parametrize(
    "doc",
    [
        {"op": "median", "attribute": "age"},
        {"op": "count", "attribute": "age"},
        {"op": "sum", "attribute": "height"},
        {"op": "sum"},
        {"op": "sum", "attribute": "age", "where": ["age", 256]},
        {"op": "sum", "attribute": "age", "where": ["age", True]},
        {"op": "sum", "attribute": "age", "where": "age=3"},
        {"op": "sum", "attribute": "age", "group_by": 7},
    ],
)
def test_a_bad_query_is_refused(doc: dict) -> None:
    with pytest.raises(MalformedInput):
        StatQuery.from_json(doc, ATTRS)


def test_prio_refuses_where_and_group_by_and_wrong_sums() -> None:
    q = StatQuery.from_json({"op": "sum", "attribute": "age", "group_by": "income"}, ATTRS)
    with pytest.raises(UsageError, match="no WHERE"):
        q.prio_vdaf(ATTRS)
    v = StatQuery.from_json({"op": "variance", "attribute": "age"}, ATTRS)
    with pytest.raises(UsageError):
        StatResult.of(v, 3, [1])
    with pytest.raises(UsageError):
        StatResult.from_prio(v, 5, 3)
    assert StatResult.of(v, 0, [0, 0]).row()["mean"] is None
