"""Property: whatever a client sends to any route, the server answers below 500 and keeps no
row for what it refused.

Hypothesis posts random JSON documents, random bytes and random mutations of a valid payd
submission (and of peers' requests) to every route of one ASGI application (the same `build`
that `zeenot serve` runs), with and without an operator's token, and checks the answer and the
database after each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from zeenot.application import load_application
from zeenot.runtime.client import Runner
from zeenot.runtime.identity import Gate, OperatorTokens
from zeenot.runtime.server import build
from zeenot.runtime.service import Service
from zeenot.runtime.store import Store

from .test_runtime_service import LOG, PAYD, _Local

TINY = Path(__file__).resolve().parent / "apps" / "tiny_peers.py"
TOKEN = "t" * 40
OPERATOR = {"authorization": f"Bearer {TOKEN}"}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**300), max_value=2**300)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=25,
)
names = st.sampled_from(["payd", "tiny_peers", "nope", "..", "%00", "a" * 70, "ok-1"])
segments = st.text(min_size=1, max_size=20).filter(lambda s: "/" not in s and "?" not in s)
# query values: any text, integers, and digits of other scripts (`str.isdigit` takes "²")
digits = st.characters(categories=("Nd", "No"))
limits = st.one_of(
    st.text(max_size=6), st.integers(-5, 10_000).map(str), st.text(digits, min_size=1, max_size=3)
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    here = tmp_path_factory.mktemp("fuzz") / "payd"
    here.mkdir()
    # without the client rule, unsigned mutations reach the proofs and the inputs
    (here / "app.py").write_text(
        PAYD.read_text().replace('CLIENTS = Clients(one_run_per="week")', "")
    )
    store = Store(str(here / "zeenot.db"))
    payd = Service(load_application(here / "app.py"), store)
    peers = Service(load_application(TINY), store)
    runner = Runner(payd.app, "http://unused")
    runner.http = _Local(payd)  # type: ignore[assignment]
    valid = json.loads(runner.prepare(LOG, submission_id="valid-1"))
    gate = Gate("zeenot", store, operators=OperatorTokens([TOKEN]))
    app = build({"payd": payd, "tiny_peers": peers}, store, gate)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield {"client": client, "store": store, "valid": valid}


def _rows(store: Store) -> int:
    return store.count_submissions("payd") + store.count_submissions("tiny_peers")


def _check(server: dict[str, Any], response: Any, before: int) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:300])
    if response.status_code not in (200, 201):
        assert _rows(server["store"]) == before


def _mutate(doc: Any, path: list[Any], value: Any, delete: bool) -> Any:
    """`doc` with the element at `path` replaced by `value` (or deleted)."""
    if not path:
        return value
    doc = json.loads(json.dumps(doc))
    node = doc
    for key in path[:-1]:
        node = node[key]
    if delete and isinstance(node, dict):
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    return doc


def _paths(doc: Any, prefix: list[Any] | None = None) -> list[list[Any]]:
    prefix = prefix or []
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, [*prefix, k])
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, [*prefix, i])
    return out


FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(data=st.data(), value=json_values, delete=st.booleans(), token=st.booleans())
def test_mutated_submissions(server, data, value, delete, token) -> None:
    valid = server["valid"]
    path = data.draw(st.sampled_from(_paths(valid)))
    doc = _mutate(valid, path, value, delete)
    before = _rows(server["store"])
    headers = {"content-type": "application/json", **(OPERATOR if token else {})}
    r = server["client"].post(
        "/api/apps/payd/submissions", content=json.dumps(doc).encode(), headers=headers
    )
    _check(server, r, before)


@FUZZ
@given(
    app=names,
    route=st.sampled_from(
        [
            "submissions",
            "clients",
            "rounds/r1/peers",
            "rounds/r1/shares",
            "rounds/r1/partials",
            "rounds/r1/complaints",
        ]
    ),  # fmt: skip
    body=st.one_of(json_values.map(lambda v: json.dumps(v).encode()), st.binary(max_size=200)),
    kind=st.sampled_from(["application/json", "text/plain", "application/json; charset=x", ""]),
    token=st.booleans(),
)
def test_random_posts(server, app, route, body, kind, token) -> None:
    headers = {**({"content-type": kind} if kind else {}), **(OPERATOR if token else {})}
    headers["authorization"] = headers.get("authorization", "Bearer " + "x" * 40)
    before = _rows(server["store"])
    url = f"/api/apps/{quote(app, safe='')}/{route}"
    r = server["client"].post(url, content=body, headers=headers)
    _check(server, r, before)


@FUZZ
@given(
    app=names,
    sid=segments,
    limit=limits,
    token=st.booleans(),
    route=st.sampled_from(
        [
            "",
            "/submissions",
            "/submissions/{sid}",
            "/dashboard",
            "/clients",
            "/regions/{sid}/proving_key",
            "/regions/weekly_premium/{sid}",
            "/rounds/{sid}",
            "/rounds/r1/mailbox/{sid}",
        ]  # fmt: skip
    ),
)
@example(app="payd", sid="x", limit="²", token=True, route="/submissions")  # the reviewer's
def test_random_reads(server, app, sid, limit, token, route) -> None:
    headers = OPERATOR if token else {"authorization": sid.encode("utf-8", "replace").hex()}
    before = _rows(server["store"])
    path = f"/api/apps/{quote(app, safe='')}{route.replace('{sid}', quote(sid, safe=''))}"
    for url in (path, "/api/rejections", "/api/health", "/api/identity", "/"):
        r = server["client"].get(url, params={"limit": limit}, headers=headers)
        _check(server, r, before)
