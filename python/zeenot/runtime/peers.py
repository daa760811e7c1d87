"""Peers (ZØ's ClientShare tier): a sum over many clients' private vectors, computed by the
clients themselves through the server acting as a relay, with a proof at every step.

An application declares it with `PeerSum(share=..., combine=..., contribution=..., peers=K)`:

* `contribution(**data) -> list` — a plain helper: the vector a client adds (Waze: the one-hot
  vector of its map cell). The `share` region calls the same helper, so the runtime and the
  proof agree on it.
* `share(**data, masks, salts)` — a `@zk` region with no public inputs. It splits the
  contribution into K additive shares (the first K-1 are the random `masks`, the last is what
  remains) and returns the K commitments `poseidon(*share_j, salt_j)`: a proof that the shares
  are well formed, i.e. sum to a contribution the client could compute from its data.
* `combine(shares, salts, commitments: Public)` — a `@zk` region proving that a peer's partial
  sum is the sum of the K shares it received, each opening the commitment its sender proved.

A round (`zeenot peer APP.py --round R --peer ID --inputs IN.json`, one process per peer):

1. each peer registers a fresh X25519 key (low-order points refused); the round is full at K
   peers, and its attempt 0 starts;
2. each peer of the attempt proves `share` and sends, for each present peer j, its share sealed
   to j (X25519, HKDF-SHA256, ChaCha20-Poly1305; the server relays bytes it cannot read), the
   opened zero share of each absent slot, and its key for the next attempt. The server verifies
   the proof and stores the commitments and the sealed messages in one transaction;
3. once every present peer has shared, each opens its mailbox, checks every opening against the
   commitment its sender proved, proves `combine` and sends its partial sum. The server checks
   the proof's `commitments` against the ones it stored;
4. the result is the sum of the present peers' partial sums (mod p): the sum of their
   contributions. The server sees only commitments, sealed bytes and partial sums, each a sum of
   uniformly random shares.

A peer that misses a phase's deadline is dropped and the round restarts without it (the next
attempt); a peer that cannot use a share names its sender and complains, and the server judges
the complaint (runtime/relay.py; docs/runtime.md, "Peers").
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

import httpx
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from zeenot import api
from zeenot.application.peersum import PeerSum  # noqa: F401 - applications import it here too
from zeenot.errors import MalformedInput, ZeenotError
from zeenot.runtime.binding import CONTEXT, bound_regions, round_context
from zeenot.types import P, poseidon

_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}", re.ASCII)
_HEX32 = re.compile(r"[0-9a-f]{64}", re.ASCII)
_DECIMAL = re.compile(r"0|[1-9][0-9]{0,77}", re.ASCII)
MAX_SEALED = 4096  # bytes of one sealed share
log = logging.getLogger("zeenot.peer")


def commit(vector: list[int], salt: int) -> str:
    return str(int(poseidon(*[v % P for v in vector], salt % P)))


# ---- keys ------------------------------------------------------------------------------------

_P25519 = 2**255 - 19
# The u-coordinates (mod p) of the points of small order on Curve25519 and its twist: 0 (order
# 2), 1 and p-1 (order 4), and the two points of order 8. X25519 with a clamped scalar (a
# multiple of 8) maps each of them to the all-zero secret, whatever the private key (RFC 7748
# §6.1); every encoding of them (the top bit set, u+p for the small ones) reduces to this set.
SMALL_ORDER = frozenset(
    {
        0,
        1,
        _P25519 - 1,
        325606250916557431795983626356110631294008115727848805560023387167927233504,
        39382357235489614581723060781553021112529911719440698176882885853963445705823,
    }
)


def check_public_key(value: Any, what: str = "public_key") -> str:
    """An X25519 public key as 64 lowercase hex digits that contributes to every shared secret:
    a low-order point (all-zero, order 2/4/8, non-canonical encodings) is refused."""
    if not (isinstance(value, str) and _HEX32.fullmatch(value)):
        raise MalformedInput(f"`{what}` is an X25519 public key: 64 lowercase hex digits")
    u = (int.from_bytes(bytes.fromhex(value), "little") & ((1 << 255) - 1)) % _P25519
    if u in SMALL_ORDER:
        raise MalformedInput(
            f"`{what}` is a low-order X25519 point: every shared secret with it is all-zero"
        )
    try:  # belt and braces: the library's own all-zero check
        X25519PrivateKey.generate().exchange(
            X25519PublicKey.from_public_bytes(bytes.fromhex(value))
        )
    except ValueError:
        raise MalformedInput(f"`{what}` gives an all-zero X25519 shared secret") from None
    return value


def public_hex(key: X25519PrivateKey) -> str:
    return key.public_key().public_bytes_raw().hex()


# ---- sealing a share for one peer -----------------------------------------------------------


def _channel_key(own: X25519PrivateKey, other_hex: str, info: bytes) -> bytes:
    shared = own.exchange(X25519PublicKey.from_public_bytes(bytes.fromhex(other_hex)))
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(shared)


def _info(app: str, rnd: str, attempt: int, sender: str, recipient: str) -> bytes:
    return f"zeenot peer share v2|{app}|{rnd}|{attempt}|{sender}|{recipient}".encode()


def seal(own: X25519PrivateKey, recipient_key: str, info: bytes, message: bytes) -> bytes:
    nonce = os.urandom(12)
    return nonce + ChaCha20Poly1305(_channel_key(own, recipient_key, info)).encrypt(
        nonce, message, info
    )


def unseal(own: X25519PrivateKey, sender_key: str, info: bytes, sealed: bytes) -> bytes:
    key = _channel_key(own, sender_key, info)
    return ChaCha20Poly1305(key).decrypt(sealed[:12], sealed[12:], info)


def _element(value: Any) -> int:
    if not (isinstance(value, str) and _DECIMAL.fullmatch(value) and int(value) < P):
        raise ValueError("holds a value that is not a field element in decimal")
    return int(value)


def open_share(
    own: X25519PrivateKey, sender_key: str, info: bytes, sealed_hex: Any, commitment: Any
) -> tuple[list[int], int]:
    """Open one sealed share and check it against the commitment its sender proved; a
    `ValueError` says what is wrong with it (the peer and the server judging a complaint run
    this same function, so they agree)."""
    try:
        plain = unseal(own, sender_key, info, bytes.fromhex(sealed_hex))
    except Exception:  # noqa: BLE001 - any failure to open is the sender's
        raise ValueError("cannot be opened (not sealed to this peer's key)") from None
    try:
        doc = json.loads(plain)
    except ValueError:
        raise ValueError("is not JSON") from None
    if not (isinstance(doc, dict) and set(doc) == {"share", "salt"}):
        raise ValueError("is not a {share, salt} object")
    if not (isinstance(doc["share"], list) and 1 <= len(doc["share"]) <= 4096):
        raise ValueError("holds no share vector")
    share = [_element(v) for v in doc["share"]]
    salt = _element(doc["salt"])
    if commit(share, salt) != commitment:
        raise ValueError("does not open the commitment it proved")
    return share, salt


# ---- the peer (client side) -----------------------------------------------------------------


class PeerError(ZeenotError):
    """The round could not go on for this peer (named reason)."""


class Peer:
    """One peer of one round, run by `zeenot peer`. It follows the round's attempts: when an
    attempt restarts without peers that stalled or cheated (runtime/relay.py), it shares and
    combines again, with the key it announced for that attempt."""

    def __init__(self, app: Any, server: str, rnd: str, peer: str, *, timeout: float = 300.0):
        self.app, self.round, self.peer, self.timeout = app, rnd, peer, timeout
        self.spec: PeerSum = app.peer_sum
        self.http = httpx.Client(base_url=server.rstrip("/"), timeout=60.0)
        self.base = f"/api/apps/{app.name}/rounds/{rnd}"
        self.key = X25519PrivateKey.generate()  # attempt 0's; each share announces the next's
        self.attempt_keys: dict[int, X25519PrivateKey] = {0: self.key}
        names = [self.spec.share.__name__, self.spec.combine.__name__]
        self.regions = bound_regions(app, names, synthesize=False)
        self.token = ""
        self.epoch = ""
        self.width = 0  # the length of the contribution vector
        self.complaints: list[str] = []  # what this peer reported (for its log and tests)

    def run(self, data: dict[str, Any]) -> Any:
        """Register, then share and combine in every attempt of the round that includes this
        peer, until the round's result; `PeerError` if it is dropped or the round fails."""
        keys = self._keys()
        self._register()
        done: set[tuple[int, str]] = set()
        while True:
            status = self._wait(lambda s: self._next(s, done) is not None, "the round's next step")
            step = self._next(status, done)
            if step == "failed":
                raise PeerError(f"round `{self.round}` failed: {status['failed']}")
            if step == "dropped":
                raise PeerError(self._dropped(status))
            if step == "done":
                return status["result"]
            attempt = int(status["attempt"])
            try:
                if step == "share":
                    self._share(data, status, keys)
                else:
                    self._combine(status, keys)
            except PeerError:
                if self._get(self.base).get("attempt") == attempt:
                    raise
                # the attempt ended meanwhile (a deadline, a complaint): follow the next one
            done.add((attempt, step))

    def _next(self, status: dict[str, Any], done: set[tuple[int, str]]) -> str | None:
        if status.get("failed"):
            return "failed"
        if status["state"] == "registering":
            return None
        if self.peer not in [m["peer"] for m in status["peers"]]:
            return "dropped"
        if status["state"] == "done":
            return "done"
        step = {"sharing": "share", "combining": "combine"}[status["state"]]
        return None if (int(status["attempt"]), step) in done else step

    def _dropped(self, status: dict[str, Any]) -> str:
        why = [s for s in status.get("stalled", []) if s["peer"] == self.peer]
        if not why:
            return f"`{self.peer}` is not a peer of round `{self.round}`"
        last = why[-1]
        return (
            f"`{self.peer}` was dropped from round `{self.round}` in attempt {last['attempt']}: "
            f"{last['reason']}"
        )

    def _context(self, step: str, attempt: int, roster: list[dict[str, Any]]) -> str:
        """What this peer's `step` proof is bound to (runtime/binding.py)."""
        members = [(m["peer"], m["public_key"]) for m in roster]
        app = self.app
        return round_context(
            app.name, app.source_sha256, self.epoch, self.round, step, self.peer, members, attempt
        )

    def _keys(self) -> dict[str, api.Keys]:
        doc = self._get(f"/api/apps/{self.app.name}")
        self.epoch = str(doc["epoch"])
        out = {}
        for name, circuit in self.regions.items():
            published = doc["regions"][name]
            if published["program_hash"] != circuit.hash:
                raise PeerError(f"the server runs another version of `{name}`")
            base = f"/api/apps/{self.app.name}/regions/{name}"
            try:
                pk = self.http.get(f"{base}/proving_key").content
                vk = self.http.get(f"{base}/verifying_key").content
            except httpx.TransportError as exc:
                raise PeerError(f"cannot reach the server: {exc}") from None
            if hashlib.sha256(pk).hexdigest() != published["proving_key_sha256"]:
                raise PeerError(f"the proving key of `{name}` does not match its published hash")
            if hashlib.sha256(vk).hexdigest() != published["verifying_key_sha256"]:
                raise PeerError(f"the verifying key of `{name}` does not match its hash")
            out[name] = api.Keys(circuit.hash, pk, vk)
        return out

    def _register(self) -> None:
        answer = self._post(
            f"{self.base}/peers", {"peer": self.peer, "public_key": public_hex(self.key)}
        )
        self.token = answer["token"]

    def _share(self, data: dict[str, Any], status: dict[str, Any], keys: dict) -> None:
        """Split the contribution over the attempt's present slots (an absent slot's share is
        zero, its salt revealed so the server can check it), prove `share`, seal each share to
        its recipient and announce the key for the next attempt."""
        k, attempt, roster = self.spec.peers, int(status["attempt"]), status["peers"]
        vector = [int(v) % P for v in self.spec.contribution(**self._typed(data))]
        n = self.width = len(vector)
        present = sorted(int(m["position"]) for m in roster)
        shares = [[0] * n for _ in range(k)]
        for j in present[:-1]:
            shares[j] = [secrets.randbelow(P) for _ in range(n)]
        shares[present[-1]] = [
            (vector[i] - sum(shares[j][i] for j in present[:-1])) % P for i in range(n)
        ]
        salts = [secrets.randbelow(P) for _ in range(k)]
        inputs = {
            **data,
            "masks": [[str(v) for v in m] for m in [*shares[: k - 1], [0] * n]],
            "salts": [str(s) for s in salts],
            CONTEXT: self._context("share", attempt, roster),
        }
        name = self.spec.share.__name__
        proof = api.prove(self.regions[name], keys[name], inputs)
        commitments = [str(c) for c in proof.outputs]
        expected = [commit(shares[j], salts[j]) for j in range(k)]
        if commitments != expected:  # the region and `contribution` disagree: an app bug
            raise PeerError("the share proof's commitments differ from the shares being sent")
        own = self.attempt_keys[attempt]
        sealed = {}
        for member in roster:
            j = int(member["position"])
            message = json.dumps({"share": [str(v) for v in shares[j]], "salt": str(salts[j])})
            info = _info(self.app.name, self.round, attempt, self.peer, member["peer"])
            try:
                box = seal(own, member["public_key"], info, message.encode())
            except ValueError:
                raise PeerError(f"cannot seal a share to `{member['peer']}`: its key") from None
            sealed[member["peer"]] = box.hex()
        absent = {
            m["peer"]: {"share": ["0"] * n, "salt": str(salts[int(m["position"])])}
            for m in status["registered"]
            if int(m["position"]) not in present
        }
        following = X25519PrivateKey.generate()
        self.attempt_keys[attempt + 1] = following
        self._post(
            f"{self.base}/shares",
            {
                "peer": self.peer,
                "attempt": attempt,
                "proof": json.loads(proof.to_json()),
                "sealed": sealed,
                "absent": absent,
                "next_key": public_hex(following),
            },
        )

    def _typed(self, data: dict[str, Any]) -> dict[str, Any]:
        """The peer's data as the share region's parameters type it (records, sized ints),
        checked as `simulate` checks inputs."""
        from zeenot.ir import check_params
        from zeenot.simulate import signature_of, to_runtime

        params = signature_of(self.spec.share)[0][:-2]
        try:
            values = check_params(params, data, public_only=False)
        except ValueError as exc:
            raise MalformedInput(f"inputs: {exc}") from None
        return {p["name"]: to_runtime(p["ty"], v) for p, v in zip(params, values, strict=True)}

    def _combine(self, status: dict[str, Any], keys: dict) -> None:
        """Open every present sender's share, check it against the commitment the sender
        proved, prove `combine` and send the partial sum. A share that fails any check names
        its sender: this peer reports it (`complain`) and follows the attempt that follows."""
        attempt, roster = int(status["attempt"]), status["peers"]
        box = self._get(f"{self.base}/mailbox/{self.peer}?attempt={attempt}", auth=True)
        by_sender = {m.get("sender"): m for m in box["messages"] if isinstance(m, dict)}
        by_position = {int(m["position"]): m for m in roster}
        own = self.attempt_keys[attempt]
        zero = [0] * self.width
        shares, salts, commitments = [], [], []
        for j in range(self.spec.peers):
            member = by_position.get(j)
            if member is None:  # an absent slot: the zero share under salt 0
                shares.append(["0"] * self.width)
                salts.append("0")
                commitments.append(commit(zero, 0))
                continue
            sender = member["peer"]
            message = by_sender.get(sender)
            if message is None:
                raise PeerError(f"the server relayed no share from `{sender}`")
            info = _info(self.app.name, self.round, attempt, sender, self.peer)
            try:
                share, salt = open_share(
                    own,
                    member["public_key"],
                    info,
                    message.get("sealed"),
                    message.get("commitment"),
                )
            except ValueError as exc:
                self.complain(attempt, sender, f"the share from `{sender}` {exc}")
                return
            shares.append([str(v) for v in share])
            salts.append(str(salt))
            commitments.append(message["commitment"])
        name = self.spec.combine.__name__
        proof = api.prove(
            self.regions[name],
            keys[name],
            {
                "shares": shares,
                "salts": salts,
                "commitments": commitments,
                CONTEXT: self._context("combine", attempt, roster),
            },
        )
        self._post(
            f"{self.base}/partials",
            {"peer": self.peer, "attempt": attempt, "proof": json.loads(proof.to_json())},
        )

    def complain(self, attempt: int, sender: str, reason: str) -> None:
        """Report a sender whose share this peer cannot use. The complaint reveals this peer's
        key of this attempt (never used again: the next attempt has its own), so the server can
        open the share itself and drop whoever is wrong: the sender, or this peer if the share
        is fine. A refused complaint stops this peer with the sender named."""
        self.complaints.append(reason)
        log.warning("%s: %s; complaining to the server", self.peer, reason)
        doc = {
            "peer": self.peer,
            "attempt": attempt,
            "accused": sender,
            "private_key": self.attempt_keys[attempt].private_bytes_raw().hex(),
        }
        try:
            self._post(f"{self.base}/complaints", doc)
        except PeerError as exc:
            raise PeerError(f"{reason}; the complaint was not taken: {exc}") from None

    def _wait(self, ready: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        delay = 0.05
        while True:
            status = self._get(self.base)
            if ready(status):
                return status
            if time.monotonic() > deadline:
                raise PeerError(f"timed out waiting for {what}")
            time.sleep(delay)
            delay = min(delay * 1.5, 1.0)

    def _get(self, url: str, *, auth: bool = False) -> dict[str, Any]:
        headers = {"authorization": f"Bearer {self.token}"} if auth else {}
        try:
            response = self.http.get(url, headers=headers)
        except httpx.TransportError as exc:
            raise PeerError(f"cannot reach the server: {exc}") from None
        if response.status_code != 200:
            raise PeerError(f"GET {url}: {response.status_code} {response.text[:300]}")
        try:
            doc = response.json()
        except ValueError:
            raise PeerError(f"GET {url}: the server's answer is not JSON") from None
        if not isinstance(doc, dict):
            raise PeerError(f"GET {url}: the server's answer is not a JSON object")
        return doc

    def _post(self, url: str, doc: dict[str, Any]) -> dict[str, Any]:
        headers = {"authorization": f"Bearer {self.token}"} if self.token else {}
        try:
            response = self.http.post(url, json=doc, headers=headers)
        except httpx.TransportError as exc:
            raise PeerError(f"cannot reach the server: {exc}") from None
        if response.status_code not in (200, 201):
            try:
                reason = response.json().get("reason")
            except (ValueError, AttributeError):
                reason = response.text[:300]
            raise PeerError(f"the server refused ({response.status_code}): {reason}")
        return response.json()


def check_name(value: Any, what: str) -> str:
    if not (isinstance(value, str) and _NAME.fullmatch(value)):
        raise MalformedInput(f"`{what}` is 1 to 64 characters of A-Z a-z 0-9 . _ -")
    return value


def spawn_round(
    app_path: str, server: str, rnd: str, data: list[dict[str, Any]], *, timeout: float = 1800
) -> list[dict[str, Any]]:
    """Run one `zeenot peer` process per element of `data` (peer `p0`, `p1`, ...) and return
    their answers; `PeerError` naming the first peer that failed. For scripts and tests."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for i, inputs in enumerate(data):
            path = Path(tmp) / f"p{i}.json"
            path.write_text(json.dumps(inputs))
            cmd = [sys.executable, "-m", "zeenot.cli", "peer", app_path, "--server", server]
            cmd += ["--round", rnd, "--peer", f"p{i}", "--inputs", str(path)]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        answers, failed = [], None
        for proc in procs:
            out, err = proc.communicate(timeout=timeout)
            if proc.returncode != 0 and failed is None:
                failed = err.decode().strip()
            elif proc.returncode == 0:
                answers.append(json.loads(out))
    if failed is not None:
        raise PeerError(f"a peer failed: {failed}")
    return answers
