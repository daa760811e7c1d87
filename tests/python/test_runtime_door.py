"""Typed inputs at the door: a real `zeenot serve` process refuses what a client can send wrong
with a 4xx naming the problem, never a 5xx, and stores nothing for it."""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

import httpx
import pytest

from zeenot.application import load_application
from zeenot.application.inputs import MAX_TEXT, check_input, input_type
from zeenot.errors import CompileError
from zeenot.types import MaxSize, u8, u32

from .runtime_server import ROOT, bearer, operator_token, serve

PAYD = ROOT / "examples" / "payd" / "app.py"
LOG = json.loads((ROOT / "examples" / "payd" / "log.json").read_text())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    """payd without its client rule (unsigned runs reach the door), and an operator token."""
    here = tmp_path_factory.mktemp("door") / "payd"
    here.mkdir()
    source = PAYD.read_text().replace('CLIENTS = Clients(one_run_per="week")', "")
    assert "CLIENTS =" not in source
    (here / "app.py").write_text(source)
    token_file, token = operator_token(here)
    os.environ["ZEENOT_BODY_TIMEOUT"] = "2"
    try:
        with serve([here / "app.py"], str(here / "zeenot.db"), "--operator-token-file",
                   str(token_file)) as (url, _):  # fmt: skip
            READ.update(bearer(token))
            yield url
    finally:
        del os.environ["ZEENOT_BODY_TIMEOUT"]


READ: dict[str, str] = {}  # the operator's token, for reads


def _post(url: str, doc: object, **headers: str) -> httpx.Response:
    body = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    return httpx.post(
        f"{url}/api/apps/payd/submissions",
        content=body,
        headers={"content-type": "application/json", **headers},
        timeout=30,
    )


def _submission(policy: object) -> dict:
    return {"zeenot_submission": 1, "app": "payd", "id": "door-1", "inputs": {"policy": policy},
            "proofs": {}}  # fmt: skip


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "policy",
    [
        {"a": 1},
        ["P-1"],
        7,
        None,
        True,
        "x" * (MAX_TEXT + 1),
        "P\x00-1",
        "y" * 900_000,
        _nested(500),
    ],  # fmt: skip
)
def test_a_wrongly_typed_public_input_is_refused_by_name(server: str, policy: object) -> None:
    r = _post(server, _submission(policy))
    assert r.status_code in (400, 413), r.text
    if r.status_code == 400:
        assert "`policy`" in r.json()["reason"]
    listed = httpx.get(f"{server}/api/apps/payd/submissions", headers=READ).json()
    assert listed == []


def test_deep_nesting_anywhere_is_a_400(server: str) -> None:
    doc = _submission("P-1")
    doc["proofs"] = {"quote.0": _nested(500)}
    r = _post(server, doc)
    assert r.status_code == 400, r.text
    deeper = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
    assert _post(server, deeper).status_code in (400, 413)


@pytest.mark.parametrize("limit", ["²", "-1", "0", "x", "1e3", "9" * 40, "٣"])
def test_odd_limits_are_a_400(server: str, limit: str) -> None:
    for route in ("/api/apps/payd/submissions", "/api/rejections"):
        r = httpx.get(f"{server}{route}", params={"limit": limit}, headers=READ)
        assert r.status_code == 400, (route, limit, r.text)


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", ""])
def test_a_body_that_is_not_json_is_refused(server: str, kind: str) -> None:
    r = httpx.post(
        f"{server}/api/apps/payd/submissions",
        content=json.dumps(_submission("P-1")).encode(),
        headers={"content-type": kind} if kind else {},
    )
    assert r.status_code == 415


def test_a_stalled_body_is_closed_within_the_timeout(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /api/apps/payd/submissions HTTP/1.1\r\nHost: x\r\n"
            b'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"zee'
        )
        started = time.monotonic()
        answer = sock.recv(4096)
        waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert waited < 8


def test_annotations_of_public_inputs() -> None:
    assert input_type(str).kind == "str" and input_type(u32).ty is not None
    check_input("n", input_type(u8), 255)
    for bad in (256, -1, "7", 1.5, None):
        with pytest.raises(ValueError, match="`n`"):
            check_input("n", input_type(u8), bad)
    check_input("xs", input_type(MaxSize[list[u32], 2]), [1, 2])
    with pytest.raises(ValueError, match="`xs`"):
        check_input("xs", input_type(MaxSize[list[u32], 2]), [1, 2, 3])
    with pytest.raises(ValueError, match="MaxSize"):
        input_type(list[u32])
    with pytest.raises(ValueError, match="annotate"):
        input_type(float)


def test_an_unannotated_public_input_of_main_is_a_load_error(tmp_path: Path) -> None:
    source = PAYD.read_text().replace("def main(policy: str,", "def main(policy,")
    app = tmp_path / "app.py"
    app.write_text(source)
    with pytest.raises(CompileError, match="ZN507"):
        load_application(app)
