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

1. each peer registers a fresh X25519 key; the round is full at K peers;
2. each peer proves `share` and sends, for each peer j, its share sealed to j (X25519, HKDF-SHA256,
   ChaCha20-Poly1305; the server relays bytes it cannot read). The server verifies the proof and
   stores the commitments and the sealed messages in one transaction;
3. once every peer has shared, each opens its mailbox, checks every opening against the
   commitment its sender proved, proves `combine` and sends its partial sum. The server checks
   the proof's `commitments` against the ones it stored;
4. the result is the sum of the K partial sums (mod p): the sum of all contributions. The server
   sees only commitments, sealed bytes and partial sums, each a sum of uniformly random shares.

A peer whose share proof does not verify is refused and named; a peer that cannot open a message
names its sender and stops (the round then waits: re-running it without that peer is the
operator's decision, as in Prio; docs/runtime.md).
"""

from __future__ import annotations

import hashlib
import json
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
MAX_SEALED = 4096  # bytes of one sealed share


def commit(vector: list[int], salt: int) -> str:
    return str(int(poseidon(*[v % P for v in vector], salt % P)))


# ---- sealing a share for one peer -----------------------------------------------------------


def _channel_key(own: X25519PrivateKey, other_hex: str, info: bytes) -> bytes:
    shared = own.exchange(X25519PublicKey.from_public_bytes(bytes.fromhex(other_hex)))
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(shared)


def _info(app: str, rnd: str, sender: str, recipient: str) -> bytes:
    return f"zeenot peer share v1|{app}|{rnd}|{sender}|{recipient}".encode()


def seal(own: X25519PrivateKey, recipient_key: str, info: bytes, message: bytes) -> bytes:
    nonce = os.urandom(12)
    return nonce + ChaCha20Poly1305(_channel_key(own, recipient_key, info)).encrypt(
        nonce, message, info
    )


def unseal(own: X25519PrivateKey, sender_key: str, info: bytes, sealed: bytes) -> bytes:
    key = _channel_key(own, sender_key, info)
    return ChaCha20Poly1305(key).decrypt(sealed[:12], sealed[12:], info)


# ---- the peer (client side) -----------------------------------------------------------------


class PeerError(ZeenotError):
    """The round could not go on for this peer (named reason)."""


class Peer:
    """One peer of one round, run by `zeenot peer`."""

    def __init__(self, app: Any, server: str, rnd: str, peer: str, *, timeout: float = 300.0):
        self.app, self.round, self.peer, self.timeout = app, rnd, peer, timeout
        self.spec: PeerSum = app.peer_sum
        self.http = httpx.Client(base_url=server.rstrip("/"), timeout=60.0)
        self.base = f"/api/apps/{app.name}/rounds/{rnd}"
        self.key = X25519PrivateKey.generate()
        self.regions = bound_regions(app, [self.spec.share.__name__, self.spec.combine.__name__])
        self.token = ""
        self.epoch = ""

    def run(self, data: dict[str, Any]) -> Any:
        """Register, share, combine, and wait for the round's result."""
        keys = self._keys()
        self._register()
        roster = self._wait(lambda s: len(s["peers"]) == self.spec.peers, "all peers registered")
        self._share(data, roster["peers"], keys)
        status = self._wait(lambda s: len(s["shared"]) == self.spec.peers, "all peers shared")
        self._combine(status["peers"], keys)
        done = self._wait(lambda s: s["result"] is not None, "the round's result")
        return done["result"]

    def _context(self, step: str, roster: list[dict[str, Any]]) -> str:
        """What this peer's `step` proof is bound to (runtime/binding.py)."""
        members = [(m["peer"], m["public_key"]) for m in roster]
        app = self.app
        return round_context(
            app.name, app.source_sha256, self.epoch, self.round, step, self.peer, members
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
            pk = self.http.get(f"{base}/proving_key").content
            vk = self.http.get(f"{base}/verifying_key").content
            if hashlib.sha256(pk).hexdigest() != published["proving_key_sha256"]:
                raise PeerError(f"the proving key of `{name}` does not match its published hash")
            if hashlib.sha256(vk).hexdigest() != published["verifying_key_sha256"]:
                raise PeerError(f"the verifying key of `{name}` does not match its hash")
            out[name] = api.Keys(circuit.hash, pk, vk)
        return out

    def _register(self) -> None:
        public = self.key.public_key().public_bytes_raw().hex()
        answer = self._post(f"{self.base}/peers", {"peer": self.peer, "public_key": public})
        self.token = answer["token"]

    def _share(self, data: dict[str, Any], roster: list[dict[str, Any]], keys: dict) -> None:
        k = self.spec.peers
        vector = [int(v) % P for v in self.spec.contribution(**self._typed(data))]
        n = len(vector)
        masks = [[secrets.randbelow(P) for _ in range(n)] for _ in range(k)]
        salts = [secrets.randbelow(P) for _ in range(k)]
        last = [(vector[i] - sum(masks[j][i] for j in range(k - 1))) % P for i in range(n)]
        shares = [*masks[: k - 1], last]
        inputs = {
            **data,
            "masks": [[str(v) for v in m] for m in masks],
            "salts": [str(s) for s in salts],
            CONTEXT: self._context("share", roster),
        }
        name = self.spec.share.__name__
        proof = api.prove(self.regions[name], keys[name], inputs)
        commitments = [str(c) for c in proof.outputs]
        expected = [commit(shares[j], salts[j]) for j in range(k)]
        if commitments != expected:  # the region and `contribution` disagree: an app bug
            raise PeerError("the share proof's commitments differ from the shares being sent")
        sealed = {}
        for j, member in enumerate(roster):
            message = json.dumps({"share": [str(v) for v in shares[j]], "salt": str(salts[j])})
            info = _info(self.app.name, self.round, self.peer, member["peer"])
            sealed[member["peer"]] = seal(
                self.key, member["public_key"], info, message.encode()
            ).hex()
        self._post(
            f"{self.base}/shares",
            {"peer": self.peer, "proof": json.loads(proof.to_json()), "sealed": sealed},
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

    def _combine(self, roster: list[dict[str, Any]], keys: dict) -> None:
        box = self._get(f"{self.base}/mailbox/{self.peer}", auth=True)["messages"]
        by_sender = {m["sender"]: m for m in box}
        shares, salts, commitments = [], [], []
        for member in roster:
            message = by_sender.get(member["peer"])
            if message is None:
                raise PeerError(f"no share from `{member['peer']}` in the mailbox")
            info = _info(self.app.name, self.round, member["peer"], self.peer)
            try:
                opened = json.loads(
                    unseal(self.key, member["public_key"], info, bytes.fromhex(message["sealed"]))
                )
                share = [int(v) for v in opened["share"]]
                salt = int(opened["salt"])
            except Exception:  # noqa: BLE001 - any failure to open is the sender's fault
                raise PeerError(f"the share from `{member['peer']}` cannot be opened") from None
            if commit(share, salt) != message["commitment"]:
                raise PeerError(
                    f"the share from `{member['peer']}` does not open the commitment it proved"
                )
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
                CONTEXT: self._context("combine", roster),
            },
        )
        self._post(
            f"{self.base}/partials", {"peer": self.peer, "proof": json.loads(proof.to_json())}
        )

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
        return response.json()

    def _post(self, url: str, doc: dict[str, Any]) -> dict[str, Any]:
        headers = {"authorization": f"Bearer {self.token}"} if self.token else {}
        try:
            response = self.http.post(url, json=doc, headers=headers)
        except httpx.TransportError as exc:
            raise PeerError(f"cannot reach the server: {exc}") from None
        if response.status_code not in (200, 201):
            try:
                reason = response.json().get("reason")
            except ValueError:
                reason = response.text[:300]
            raise PeerError(f"the server refused ({response.status_code}): {reason}")
        return response.json()


def check_name(value: Any, what: str) -> str:
    if not (isinstance(value, str) and _NAME.fullmatch(value)):
        raise MalformedInput(f"`{what}` is 1 to 64 characters of A-Z a-z 0-9 . _ -")
    return value


def check_public_key(value: Any) -> str:
    if not (isinstance(value, str) and _HEX32.fullmatch(value)):
        raise MalformedInput("`public_key` is an X25519 public key: 64 lowercase hex digits")
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
