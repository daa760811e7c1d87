"""Peers (ZØ's ClientShare tier): a secret-shared sum relayed through a real server process.

The fast tests use a 3-peer application (tests/python/apps/tiny_peers.py), each peer a thread
running `zeenot.runtime.peers.Peer` against a `zeenot serve` process; the slow one runs Waze
with 20 `zeenot peer` processes and compares the density map with a plain-Python count.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from zeenot.application import load_application
from zeenot.runtime.peers import Peer, PeerError

from .runtime_server import ROOT, bearer, operator_token, serve

TINY = Path(__file__).resolve().parent / "apps" / "tiny_peers.py"
_rounds = iter(range(10_000))
_lock = threading.Lock()


TOKEN: dict[str, str] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("peers")
    token_file, token = operator_token(tmp)
    TOKEN.update(bearer(token))
    with serve([TINY], str(tmp / "zeenot.db"), "--operator-token-file", str(token_file)) as (
        url,
        _,
    ):
        yield url


@pytest.fixture(scope="module")
def app():
    return load_application(TINY)


def _round() -> str:
    with _lock:
        return f"t{next(_rounds)}"


def _run(peers: list[Peer], data: list[dict[str, Any]]) -> list[Any]:
    """Run the peers concurrently; each result, or the exception it raised."""

    def one(pair: tuple[Peer, dict[str, Any]]) -> Any:
        try:
            return pair[0].run(pair[1])
        except Exception as exc:  # noqa: BLE001 - reported to the test
            return exc

    with ThreadPoolExecutor(len(peers)) as pool:
        return list(pool.map(one, zip(peers, data, strict=True)))


def test_three_peers_compute_the_counts(server: str, app) -> None:
    rnd = _round()
    peers = [Peer(app, server, rnd, f"p{i}", timeout=120) for i in range(3)]
    results = _run(peers, [{"cell": 1}, {"cell": 3}, {"cell": 1}])
    assert results == [[0, 2, 0, 1]] * 3
    status = httpx.get(f"{server}/api/apps/tiny_peers/rounds/{rnd}").json()
    assert status["result"] == [0, 2, 0, 1] and status["combined"] == ["p0", "p1", "p2"]


class _ForgedCommitments(Peer):
    """Shares that do not sum to a one-hot vector cannot be proved; this peer instead changes
    a commitment in an honest proof's outputs."""

    def _post(self, url: str, doc: dict[str, Any]) -> dict[str, Any]:
        if url.endswith("/shares"):
            doc["proof"]["outputs"][0] = "12345"
        return super()._post(url, doc)


def test_a_forged_share_proof_is_refused_and_the_peer_named(server: str, app) -> None:
    rnd = _round()
    peers = [Peer(app, server, rnd, f"p{i}", timeout=5) for i in range(2)]
    peers.append(_ForgedCommitments(app, server, rnd, "mallory", timeout=5))
    results = _run(peers, [{"cell": 0}, {"cell": 1}, {"cell": 2}])
    assert isinstance(results[2], PeerError) and "422" in str(results[2])
    assert "`mallory`" in str(results[2])
    rejections = httpx.get(f"{server}/api/rejections", headers=TOKEN).json()
    assert any("`mallory`" in r["reason"] and r["status"] == 422 for r in rejections)
    status = httpx.get(f"{server}/api/apps/tiny_peers/rounds/{rnd}").json()
    assert "mallory" not in status["shared"] and status["result"] is None


class _BadShareForOne(Peer):
    """Proves honestly, then seals a different vector to `p0` than the one it committed to."""

    def _post(self, url: str, doc: dict[str, Any]) -> dict[str, Any]:
        if url.endswith("/shares"):
            from zeenot.runtime.peers import _info, seal

            roster = self._get(self.base)["peers"]
            p0 = next(m for m in roster if m["peer"] == "p0")
            message = json.dumps({"share": ["1", "1", "1", "1"], "salt": "7"}).encode()
            info = _info(self.app.name, self.round, self.peer, "p0")
            doc["sealed"]["p0"] = seal(self.key, p0["public_key"], info, message).hex()
        return super()._post(url, doc)


def test_a_malformed_share_vector_is_named_by_its_recipient(server: str, app) -> None:
    rnd = _round()
    peers = [Peer(app, server, rnd, f"p{i}", timeout=5) for i in range(2)]
    peers.append(_BadShareForOne(app, server, rnd, "eve", timeout=5))
    results = _run(peers, [{"cell": 0}, {"cell": 1}, {"cell": 2}])
    assert isinstance(results[0], PeerError)
    assert "share from `eve` does not open the commitment" in str(results[0])


def test_registration_tokens_and_full_rounds(server: str, app) -> None:
    rnd = _round()
    base = f"{server}/api/apps/tiny_peers/rounds/{rnd}"
    key = "ab" * 32
    tokens = []
    for i in range(3):
        r = httpx.post(f"{base}/peers", json={"peer": f"q{i}", "public_key": key})
        assert r.status_code == 201 and r.json()["position"] == i
        tokens.append(r.json()["token"])
    assert httpx.post(f"{base}/peers", json={"peer": "q9", "public_key": key}).status_code == 409
    assert httpx.post(f"{base}/peers", json={"peer": "q0", "public_key": key}).status_code == 409
    bad = httpx.post(f"{base}/peers", json={"peer": "<script>", "public_key": key})
    assert bad.status_code == 400
    # another peer's mailbox, or no token: refused
    other = httpx.get(f"{base}/mailbox/q1", headers={"authorization": f"Bearer {tokens[0]}"})
    assert other.status_code == 403
    assert httpx.get(f"{base}/mailbox/q0").status_code == 403
    mine = httpx.get(f"{base}/mailbox/q0", headers={"authorization": f"Bearer {tokens[0]}"})
    assert mine.status_code == 200 and mine.json() == {"messages": []}
    early = httpx.post(
        f"{base}/partials",
        json={"peer": "q0", "proof": {}},
        headers={"authorization": f"Bearer {tokens[0]}"},
    )
    assert early.status_code == 409


class _Recording(Peer):
    """An honest peer that keeps a copy of the share request it posted."""

    posted: dict[str, Any]

    def _post(self, url: str, doc: dict[str, Any]) -> dict[str, Any]:
        if url.endswith("/shares"):
            self.posted = json.loads(json.dumps(doc))
        return super()._post(url, doc)


def _negated(proof: dict[str, Any]) -> dict[str, Any]:
    raw = bytearray.fromhex(proof["proof"])
    raw[31] ^= 0x80  # (-A, -B, C): another valid proof of the same statement
    raw[95] ^= 0x80
    return {**proof, "proof": raw.hex()}


def test_a_share_proof_replayed_in_another_round_or_by_another_peer_is_refused(
    server: str, app
) -> None:
    """A share proof names its round, sender and roster (runtime/binding.py): posted again in
    another round, or by another peer, it is refused whatever its bytes."""
    first = _round()
    peers = [_Recording(app, server, first, f"p{i}", timeout=120) for i in range(3)]
    assert _run(peers, [{"cell": 1}, {"cell": 2}, {"cell": 3}]) == [[0, 1, 1, 1]] * 3
    old = peers[0].posted
    second = _round()
    fresh = [Peer(app, server, second, f"p{i}", timeout=5) for i in range(3)]
    for peer in fresh:
        peer._keys()
        peer._register()
    url = f"{fresh[0].base}/shares"
    with pytest.raises(PeerError, match="409"):  # the same bytes: a replay by digest
        fresh[0]._post(url, old)
    with pytest.raises(PeerError, match="422.*bound to another round"):
        fresh[0]._post(url, {**old, "proof": _negated(old["proof"])})
    with pytest.raises(PeerError, match="422.*bound to another round"):  # another sender
        fresh[1]._post(url, {**old, "peer": "p1", "proof": _negated(old["proof"])})
    status = httpx.get(f"{server}/api/apps/tiny_peers/rounds/{second}").json()
    assert status["shared"] == []


@pytest.mark.slow
@pytest.mark.parametrize("example", ["waze", "slice"])
def test_case_study_with_twenty_peer_processes(tmp_path: Path, example: str) -> None:
    """ZØ's Waze and Slice: 20 `zeenot peer` processes each; the density map and the forest's
    counts equal the plain-Python computation over the same (pooled) data."""
    here = ROOT / "examples" / example
    with serve([here / "app.py"], str(tmp_path / "peers.db")) as (url, _):
        done = subprocess.run(
            [sys.executable, str(here / "run.py"), "--server", url],
            capture_output=True,
            text=True,
            timeout=900,
        )
    assert done.returncode == 0, done.stderr
    assert "plain-Python" in done.stdout
