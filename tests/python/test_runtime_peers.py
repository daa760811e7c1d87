"""Peers (ZØ's ClientShare tier): a secret-shared sum relayed through a real server process.

The fast tests use a 3-peer application (tests/python/apps/tiny_peers.py, 6 s deadlines, 2 peers
enough to finish), each peer a thread running `zeenot.runtime.peers.Peer` against a `zeenot
serve` process; a round of 20 (tests/python/apps/twenty_peers.py) loses 3 peers and finishes
without them; the slow ones run Waze and Slice with 20 `zeenot peer` processes and compare with
a plain-Python computation.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from zeenot.application import load_application
from zeenot.runtime.peers import Peer, PeerError, _info, seal

from .runtime_server import ROOT, bearer, operator_token, serve

TINY = Path(__file__).resolve().parent / "apps" / "tiny_peers.py"
TWENTY = Path(__file__).resolve().parent / "apps" / "twenty_peers.py"
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
            doc["proof"]["outputs"][0] = 12345
        return super()._post(url, doc)


def test_a_forged_share_proof_is_refused_and_the_round_goes_on_without_it(server: str, app) -> None:
    """Mallory's share is refused (422, named); at the sharing deadline the round restarts
    without it and the two others finish."""
    rnd = _round()
    peers = [Peer(app, server, rnd, f"p{i}", timeout=60) for i in range(2)]
    peers.append(_ForgedCommitments(app, server, rnd, "mallory", timeout=60))
    results = _run(peers, [{"cell": 0}, {"cell": 1}, {"cell": 2}])
    assert isinstance(results[2], PeerError) and "422" in str(results[2])
    assert "`mallory`" in str(results[2])
    assert results[:2] == [[1, 1, 0, 0]] * 2
    rejections = httpx.get(f"{server}/api/rejections", headers=TOKEN).json()
    assert any("`mallory`" in r["reason"] and r["status"] == 422 for r in rejections)
    assert any(
        "`mallory` dropped in attempt 0: did not share" in r["reason"] and r["status"] == 408
        for r in rejections
    )
    status = httpx.get(f"{server}/api/apps/tiny_peers/rounds/{rnd}").json()
    assert status["attempt"] == 1 and status["result"] == [1, 1, 0, 0]
    assert [(s["peer"], s["attempt"]) for s in status["stalled"]] == [("mallory", 0)]


class _BadShareForOne(Peer):
    """Proves honestly, then seals a different vector to `p0` than the one it committed to."""

    def _post(self, url: str, doc: dict[str, Any]) -> dict[str, Any]:
        if url.endswith("/shares"):
            attempt = doc["attempt"]
            roster = self._get(self.base)["peers"]
            p0 = next(m for m in roster if m["peer"] == "p0")
            message = json.dumps({"share": ["1", "1", "1", "1"], "salt": "7"}).encode()
            info = _info(self.app.name, self.round, attempt, self.peer, "p0")
            own = self.attempt_keys[attempt]
            doc["sealed"]["p0"] = seal(own, p0["public_key"], info, message).hex()
        return super()._post(url, doc)


def test_a_malformed_share_is_named_by_its_recipient_and_the_round_goes_on(
    server: str, app
) -> None:
    """p0 cannot use eve's share: it names eve and complains; the server opens the share with
    the key p0 reveals, drops eve, and the round restarts at once and finishes without her."""
    rnd = _round()
    peers = [Peer(app, server, rnd, f"p{i}", timeout=60) for i in range(2)]
    peers.append(_BadShareForOne(app, server, rnd, "eve", timeout=60))
    results = _run(peers, [{"cell": 0}, {"cell": 1}, {"cell": 2}])
    assert results[:2] == [[1, 1, 0, 0]] * 2
    assert peers[0].complaints == ["the share from `eve` does not open the commitment it proved"]
    assert isinstance(results[2], PeerError) and "named by `p0`'s complaint" in str(results[2])
    status = httpx.get(f"{server}/api/apps/tiny_peers/rounds/{rnd}").json()
    assert status["stalled"] == [
        {
            "attempt": 0,
            "peer": "eve",
            "reason": "named by `p0`'s complaint: its share does not open the commitment it proved",
        }
    ]
    rejections = httpx.get(f"{server}/api/rejections", headers=TOKEN).json()
    assert any(
        "`eve` dropped in attempt 0: named by `p0`'s complaint" in r["reason"] for r in rejections
    )


class _FalseAccuser(Peer):
    """Complains about `p0` whose share is fine: the complaint costs it its place."""

    def _combine(self, status: dict[str, Any], keys: dict) -> None:
        self.complain(int(status["attempt"]), "p0", "the share from `p0` is not to my liking")


def test_a_false_complaint_drops_the_accuser(server: str, app) -> None:
    rnd = _round()
    peers = [Peer(app, server, rnd, f"p{i}", timeout=60) for i in range(2)]
    peers.append(_FalseAccuser(app, server, rnd, "liar", timeout=60))
    results = _run(peers, [{"cell": 2}, {"cell": 2}, {"cell": 3}])
    assert results[:2] == [[0, 0, 2, 0]] * 2
    assert isinstance(results[2], PeerError)
    assert "complained about `p0`, whose share opens" in str(results[2])


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
        json={"peer": "q0", "attempt": 0, "proof": {}},
        headers={"authorization": f"Bearer {tokens[0]}"},
    )
    assert early.status_code == 409


P25519 = 2**255 - 19
LOW_ORDER = [  # u-coordinates of the small-order points, then every encoding of each
    0,
    1,
    P25519 - 1,
    325606250916557431795983626356110631294008115727848805560023387167927233504,
    39382357235489614581723060781553021112529911719440698176882885853963445705823,
]


def _encodings(u: int) -> list[str]:
    values = [v for v in (u, u + P25519) if v < 2**255]
    return [(v | top).to_bytes(32, "little").hex() for v in values for top in (0, 1 << 255)]


def test_low_order_x25519_keys_are_refused_at_registration(server: str) -> None:
    """The all-zero key (and every other low-order encoding) would make every shared secret
    all-zero: refused with 400, nothing registered."""
    rnd = _round()
    base = f"{server}/api/apps/tiny_peers/rounds/{rnd}"
    zero = httpx.post(f"{base}/peers", json={"peer": "z", "public_key": "00" * 32})
    assert zero.status_code == 400 and "low-order" in zero.json()["reason"]
    keys = [k for u in LOW_ORDER for k in _encodings(u)]
    assert len(keys) == 14
    for i, key in enumerate(keys):
        answer = httpx.post(f"{base}/peers", json={"peer": f"z{i}", "public_key": key})
        assert answer.status_code == 400, key
    for bad in ["AB" * 32, "ab" * 31, "zz" * 32, 7]:
        assert httpx.post(f"{base}/peers", json={"peer": "y", "public_key": bad}).status_code == 400
    status = httpx.get(base).json()
    assert status["registered"] == [] and status["state"] == "registering"


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


class _Stopped(Exception):
    """A peer that stops (its process killed, its network gone)."""


class _StopsAfterRegistering(Peer):
    def run(self, data: dict[str, Any]) -> Any:
        self._keys()
        self._register()
        raise _Stopped(self.peer)


class _StopsAfterSharing(Peer):
    def _share(self, data: dict[str, Any], status: dict[str, Any], keys: dict) -> None:
        super()._share(data, status, keys)
        raise _Stopped(self.peer)


class _ReplaysAttemptZero(_Recording):
    """Honest, but first posts its attempt-0 share again in attempt 1 (as the same bytes, and
    re-randomised with the attempt number changed): both are refused."""

    refusals: list[str]

    def _share(self, data: dict[str, Any], status: dict[str, Any], keys: dict) -> None:
        if status["attempt"] == 1:
            self.refusals = []
            names = [m["peer"] for m in status["peers"]]
            old = {
                **self.posted,
                "attempt": 1,
                "sealed": {p: v for p, v in self.posted["sealed"].items() if p in names},
                "absent": {"p2": {"share": ["0"] * 4, "salt": "1"}},
            }
            for doc in (old, {**old, "proof": _negated(old["proof"])}):
                try:
                    self._post(f"{self.base}/shares", doc)
                except PeerError as exc:
                    self.refusals.append(str(exc))
        super()._share(data, status, keys)


def test_a_peer_silent_after_sharing_is_dropped_and_old_proofs_do_not_carry_over(
    server: str, app
) -> None:
    """p2 shares and stops: at the combining deadline the round restarts with p0 and p1, who
    share again (p2's slot absent: zero shares) and finish. A share proof of attempt 0 posted
    in attempt 1 is refused: by its bytes, and re-randomised by its context (attempt, keys)."""
    rnd = _round()
    peers = [
        _ReplaysAttemptZero(app, server, rnd, "p0", timeout=60),
        Peer(app, server, rnd, "p1", timeout=60),
        _StopsAfterSharing(app, server, rnd, "p2", timeout=60),
    ]
    results = _run(peers, [{"cell": 3}, {"cell": 1}, {"cell": 1}])
    assert results[:2] == [[0, 1, 0, 1]] * 2 and isinstance(results[2], _Stopped)
    assert "409" in peers[0].refusals[0] and "replayed proof" in peers[0].refusals[0]
    assert "422" in peers[0].refusals[1]
    assert "bound to another round, attempt" in peers[0].refusals[1]
    status = httpx.get(f"{server}/api/apps/tiny_peers/rounds/{rnd}").json()
    assert status["state"] == "done" and status["attempt"] == 1
    assert sorted(m["peer"] for m in status["peers"]) == ["p0", "p1"]
    assert status["stalled"][0]["peer"] == "p2"
    assert status["stalled"][0]["reason"].startswith("did not combine by the deadline")


@pytest.fixture(scope="module")
def twenty(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("twenty")
    token_file, token = operator_token(tmp)
    with serve([TWENTY], str(tmp / "zeenot.db"), "--operator-token-file", str(token_file)) as (
        url,
        _,
    ):
        yield url, bearer(token)


def test_twenty_peers_finish_without_the_three_that_stopped(twenty) -> None:
    """20 peers; p3 and p11 stop after registering, p7 after sharing. The round restarts at
    each sharing deadline without the silent ones and finishes with 17: the result equals the
    plain-Python count over the 17 that stayed, and the round's status and the rejections log
    name the three."""
    server, token = twenty
    app = load_application(TWENTY)
    rnd = _round()
    cells = [random.Random(i).randrange(2) for i in range(20)]
    gone = {"p3": _StopsAfterRegistering, "p11": _StopsAfterRegistering, "p7": _StopsAfterSharing}
    peers = [gone.get(f"p{i}", Peer)(app, server, rnd, f"p{i}", timeout=300) for i in range(20)]
    results = _run(peers, [{"cell": c} for c in cells])
    stayed = [i for i in range(20) if f"p{i}" not in gone]
    expected = [sum(1 for i in stayed if cells[i] == c) for c in range(2)]
    assert [results[i] for i in stayed] == [expected] * 17
    assert all(isinstance(results[int(p[1:])], _Stopped) for p in gone)
    status = httpx.get(f"{server}/api/apps/twenty_peers/rounds/{rnd}").json()
    assert status["state"] == "done" and status["result"] == expected
    assert len(status["peers"]) == 17
    assert {s["peer"] for s in status["stalled"]} == set(gone)
    assert all(s["reason"].startswith("did not share by the deadline") for s in status["stalled"])
    rejections = httpx.get(f"{server}/api/rejections", headers=token).json()
    for peer in gone:
        assert any(f"`{peer}` dropped in attempt" in r["reason"] for r in rejections), peer
    panel = httpx.get(f"{server}/api/apps/twenty_peers/dashboard", headers=token).json()
    assert {s["peer"] for s in panel["rounds"][0]["stalled"]} == set(gone)


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
