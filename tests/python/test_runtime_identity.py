"""Who is speaking (`zeenot.runtime.identity`): keys, rosters, signed requests and operators.

A signed request is accepted once, from a known signer, for this server, within the clock
bound; forged, foreign, tampered, expired and replayed ones are refused, in process and by a
real `zeenot serve` whose roster names the servers it accepts.
"""

from __future__ import annotations

import datetime as dt
import json
import stat
import time
from pathlib import Path

import httpx
import pytest

from zeenot.errors import MalformedInput
from zeenot.runtime.identity import (
    AuthError,
    Key,
    OperatorTokens,
    Roster,
    SignedAuth,
    verify_request,
)
from zeenot.runtime.store import Store

from .runtime_server import ROOT, ZEENOT, serve

PAYD = ROOT / "examples" / "payd" / "app.py"


def test_a_key_is_written_for_its_owner_only_and_read_back(tmp_path: Path) -> None:
    key = Key.generate("insurer")
    key.save(tmp_path / "k.json")
    assert stat.S_IMODE((tmp_path / "k.json").stat().st_mode) == 0o600
    again = Key.load(tmp_path / "k.json")
    assert again.name == "insurer" and again.public_key == key.public_key
    (tmp_path / "k.json").chmod(0o644)
    with pytest.raises(MalformedInput, match="readable by others"):
        Key.load(tmp_path / "k.json")
    with pytest.raises(MalformedInput, match="1 to 64 characters"):
        Key.generate("no spaces")


def test_keys_new_on_the_command_line(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run(
        [*ZEENOT, "keys", "new", "--name", "car-1", "--out", str(tmp_path / "car.key")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    public = json.loads(done.stdout)
    assert public == {"name": "car-1", "public_key": Key.load(tmp_path / "car.key").public_key}
    assert "private" not in done.stdout
    again = subprocess.run(
        [*ZEENOT, "keys", "new", "--name", "car-1", "--out", str(tmp_path / "car.key")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert again.returncode != 0 and "--force" in again.stderr


def _roster(path: Path, **keys: Key) -> Path:
    doc = {
        "zeenot_roster": 1,
        "servers": {n: {"public_key": k.public_key} for n, k in keys.items()},
    }
    path.write_text(json.dumps(doc))
    return path


def test_a_roster_is_checked(tmp_path: Path) -> None:
    a, b = Key.generate("a"), Key.generate("b")
    roster = Roster.load(_roster(tmp_path / "r.json", a=a, b=b))
    assert sorted(roster.servers) == ["a", "b"]
    bad = {
        "zeenot_roster": 1,
        "servers": {"a": {"public_key": a.public_key}, "b": {"public_key": a.public_key}},
    }
    (tmp_path / "dup.json").write_text(json.dumps(bad))
    with pytest.raises(MalformedInput, match="shares its key"):
        Roster.load(tmp_path / "dup.json")
    bad = {"zeenot_roster": 1, "servers": {"a b": {"public_key": a.public_key}}}
    (tmp_path / "name.json").write_text(json.dumps(bad))
    with pytest.raises(MalformedInput, match="1 to 64 characters"):
        Roster.load(tmp_path / "name.json")
    bad = {"zeenot_roster": 1, "servers": {f"s{i}": {"public_key": "00" * 32} for i in range(300)}}
    (tmp_path / "big.json").write_text(json.dumps(bad))
    with pytest.raises(MalformedInput, match="1 to 256"):
        Roster.load(tmp_path / "big.json")


@pytest.fixture
def nonces(tmp_path: Path) -> Store:
    return Store(str(tmp_path / "nonces.db"))


def _verify(store: Store, headers: dict[str, str], known: dict[str, Key], **kw):
    args = {"method": "POST", "target": "/api/x?y=1", "body": b"{}"} | kw
    return verify_request(
        args["method"],
        args["target"],
        args["body"],
        headers,
        audience="helper",
        lookup=lambda n: known[n].private.public_key() if n in known else None,
        use_nonce=store.use_nonce,
        scope="server",
    )


def test_signed_requests_forged_foreign_tampered_expired_replayed(nonces: Store) -> None:
    leader, mallory = Key.generate("leader"), Key.generate("leader")  # mallory claims the name
    known = {"leader": leader}
    good = leader.sign_request("POST", "/api/x?y=1", b"{}", "helper")
    assert _verify(nonces, good, known) == "leader"
    with pytest.raises(AuthError, match="used this nonce before"):
        _verify(nonces, good, known)  # the same request again: a replay
    forged = mallory.sign_request("POST", "/api/x?y=1", b"{}", "helper")
    with pytest.raises(AuthError, match="does not verify"):
        _verify(nonces, forged, known)
    fresh = leader.sign_request("POST", "/api/x?y=1", b"{}", "helper")
    for change in ({"body": b"{ }"}, {"target": "/api/x?y=2"}, {"method": "PUT"}):
        with pytest.raises(AuthError, match="does not verify"):
            _verify(nonces, fresh, known, **change)
    with pytest.raises(AuthError, match="another server"):
        _verify(nonces, leader.sign_request("POST", "/api/x?y=1", b"{}", "other"), known)
    old = leader.sign_request(
        "POST", "/api/x?y=1", b"{}", "helper", timestamp=int(time.time()) - 301
    )
    with pytest.raises(AuthError, match="at most 300 s"):
        _verify(nonces, old, known)
    with pytest.raises(AuthError, match="unknown signer `stranger`"):
        _verify(
            nonces,
            Key.generate("stranger").sign_request("POST", "/api/x?y=1", b"{}", "helper"),
            known,
        )
    with pytest.raises(AuthError, match="not a signed request"):
        _verify(nonces, {}, known)
    # a refused request does not burn its nonce: the signature is checked first
    assert _verify(nonces, fresh, known) == "leader"
    # expired nonces are forgotten (the retention job does this every hour)
    assert nonces.purge_nonces(dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1)) >= 2


def test_operator_tokens(tmp_path: Path) -> None:
    tokens = OperatorTokens(["a" * 32, "b" * 32])
    assert tokens.check("Bearer " + "b" * 32) and not tokens.check("Bearer " + "c" * 32)
    assert not tokens.check(None) and not tokens.check("b" * 32)
    with pytest.raises(MalformedInput, match="at least 20"):
        OperatorTokens(["short"])


def test_a_server_accepts_only_its_roster(tmp_path: Path) -> None:
    """A real `zeenot serve` named `helper` with a roster of one server, `leader`."""
    helper, leader = Key.generate("helper"), Key.generate("leader")
    helper.save(tmp_path / "helper.key")
    roster = _roster(tmp_path / "roster.json", leader=leader)
    db = str(tmp_path / "zeenot.db")
    args = ["--identity", str(tmp_path / "helper.key"), "--roster", str(roster)]
    with serve([PAYD], db, *args) as (url, _):
        assert httpx.get(f"{url}/api/identity").json() == {
            "name": "helper",
            "public_key": helper.public_key,
        }
        with httpx.Client(base_url=url, auth=SignedAuth(leader, "helper")) as http:
            answer = http.get("/api/servers/whoami")
            assert answer.status_code == 200, answer.text
            assert answer.json()["you"] == "leader" and answer.json()["name"] == "helper"
            assert http.get("/api/servers/whoami").status_code == 200  # signed afresh
        outsider = Key.generate("outsider")
        with httpx.Client(base_url=url, auth=SignedAuth(outsider, "helper")) as http:
            refused = http.get("/api/servers/whoami")
            assert refused.status_code == 403 and "not in this server's roster" in refused.text
        impostor = Key.generate("leader")  # the roster's name, another key
        with httpx.Client(base_url=url, auth=SignedAuth(impostor, "helper")) as http:
            refused = http.get("/api/servers/whoami")
            assert refused.status_code == 401 and "does not verify" in refused.text
        with httpx.Client(base_url=url, auth=SignedAuth(leader, "someone-else")) as http:
            assert http.get("/api/servers/whoami").status_code == 401
        signed = leader.sign_request("GET", "/api/servers/whoami", b"", "helper")
        assert httpx.get(f"{url}/api/servers/whoami", headers=signed).status_code == 200
        replay = httpx.get(f"{url}/api/servers/whoami", headers=signed)
        assert replay.status_code == 401 and "replayed" in replay.text
        assert httpx.get(f"{url}/api/servers/whoami").status_code == 401  # unsigned
