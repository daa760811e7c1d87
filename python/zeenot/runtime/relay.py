"""The server's side of a peers' round (`zeenot.runtime.peers`): registration, verified shares,
mailboxes, verified partial sums and the result. State lives in the database only.

Each peer gets a random token at registration (only its SHA-256 is stored) and presents it for
everything it does later, so nobody else can share, read its mailbox or combine in its name.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from zeenot import api
from zeenot.errors import MalformedInput, ProofRejected
from zeenot.files import parse_json
from zeenot.runtime.binding import CONTEXT, round_context
from zeenot.runtime.peers import MAX_SEALED, PeerSum, check_name, check_public_key
from zeenot.runtime.service import Rejected, Service, normal
from zeenot.runtime.store import Conflict, PeerRow
from zeenot.types import P


class Relay:
    def __init__(self, service: Service):
        self.service, self.store = service, service.store
        self.app = service.app.name
        self.spec: PeerSum = service.app.peer_sum

    # registration and status -----------------------------------------------------------------

    def register(self, rnd: str, body: bytes) -> dict[str, Any]:
        doc = self._doc(body, {"peer", "public_key"})
        peer = self._checked(lambda: check_name(doc["peer"], "peer"))
        public_key = self._checked(lambda: check_public_key(doc["public_key"]))
        token = secrets.token_hex(32)
        for _ in range(20):  # two registrations racing for one position: the loser retries
            try:
                position = self.store.register_peer(
                    self.app, rnd, peer, public_key, _sha(token), self.spec.peers
                )
                return {"peer": peer, "position": position, "token": token}
            except Conflict:
                roster = self.store.peers(self.app, rnd)
                if any(p.peer == peer for p in roster):
                    raise Rejected(
                        409, f"`{peer}` is registered in round `{rnd}` already"
                    ) from None
                if len(roster) >= self.spec.peers:
                    raise Rejected(
                        409, f"round `{rnd}` is full ({self.spec.peers} peers)"
                    ) from None
        raise Rejected(503, "registration is contended: try again")

    def status(self, rnd: str) -> dict[str, Any]:
        roster = self.store.peers(self.app, rnd)
        shared = self.store.shares(self.app, rnd)
        partials = self.store.partials(self.app, rnd)
        return {
            "round": rnd,
            "size": self.spec.peers,
            "peers": [
                {"peer": p.peer, "position": p.position, "public_key": p.public_key} for p in roster
            ],
            "shared": sorted(shared),
            "combined": sorted(partials),
            "result": self._result(partials) if len(partials) == self.spec.peers else None,
        }

    def _result(self, partials: dict[str, list[str]]) -> Any:
        total = [0] * len(next(iter(partials.values())))
        for partial in partials.values():
            total = [(t + int(v)) % P for t, v in zip(total, partial, strict=True)]
        return self.spec.result(total) if self.spec.result is not None else total

    # shares ----------------------------------------------------------------------------------

    def share(self, rnd: str, token: str, body: bytes) -> dict[str, Any]:
        doc = self._doc(body, {"peer", "proof", "sealed"})
        me, roster = self._member(rnd, token, doc.get("peer"))
        if len(roster) < self.spec.peers:
            raise Rejected(409, f"round `{rnd}` is not full yet")
        sealed = doc["sealed"]
        names = [p.peer for p in roster]
        if not isinstance(sealed, dict) or sorted(sealed) != sorted(names):
            raise Rejected(422, f"`{me.peer}`: `sealed` holds one message for each peer {names}")
        messages = {}
        for recipient, text in sealed.items():
            if not (isinstance(text, str) and len(text) <= 2 * MAX_SEALED and _is_hex(text)):
                raise Rejected(422, f"`{me.peer}`: the message for `{recipient}` is not hex")
            messages[recipient] = bytes.fromhex(text)
        proof = self._verified(self.spec.share.__name__, doc["proof"], me.peer)
        self._check_context(proof, rnd, "share", me.peer, roster)
        commitments = [str(c) for c in proof.outputs]
        if len(commitments) != self.spec.peers:
            raise Rejected(
                422, f"`{me.peer}`: {len(commitments)} commitments for {len(names)} peers"
            )
        try:
            self.store.put_share(self.app, rnd, me.peer, commitments, messages, _sha(proof.proof))
        except Conflict:
            raise Rejected(409, f"`{me.peer}` has shared in round `{rnd}` already") from None
        return {"peer": me.peer, "status": "shared"}

    def mailbox(self, rnd: str, token: str, peer: str) -> dict[str, Any]:
        me, roster = self._member(rnd, token, peer)
        shares = self.store.shares(self.app, rnd)
        box = self.store.mailbox(self.app, rnd, me.peer)
        return {
            "messages": [
                {
                    "sender": sender,
                    "commitment": shares[sender][me.position],
                    "sealed": sealed.hex(),
                }
                for sender, sealed in sorted(box.items())
            ]
        }

    # partial sums ----------------------------------------------------------------------------

    def partial(self, rnd: str, token: str, body: bytes) -> dict[str, Any]:
        doc = self._doc(body, {"peer", "proof"})
        me, roster = self._member(rnd, token, doc.get("peer"))
        shares = self.store.shares(self.app, rnd)
        if len(shares) < self.spec.peers:
            raise Rejected(409, f"round `{rnd}`: not every peer has shared yet")
        proof = self._verified(self.spec.combine.__name__, doc["proof"], me.peer)
        self._check_context(proof, rnd, "combine", me.peer, roster)
        # the commitments the peer opened: the ones each sender proved, in roster order
        expected = [shares[p.peer][me.position] for p in roster]
        if normal(proof.public_inputs.get("commitments")) != normal(expected):
            raise Rejected(
                422, f"`{me.peer}`: the partial sum is over other shares than the ones relayed"
            )
        try:
            self.store.put_partial(
                self.app, rnd, me.peer, [str(v) for v in proof.outputs], _sha(proof.proof)
            )
        except Conflict:
            raise Rejected(409, f"`{me.peer}` has combined in round `{rnd}` already") from None
        return {"peer": me.peer, "status": "combined"}

    # helpers ---------------------------------------------------------------------------------

    def _doc(self, body: bytes, fields: set[str]) -> dict[str, Any]:
        if len(body) > self.service.max_body:
            raise Rejected(413, f"request larger than {self.service.max_body} bytes")
        try:
            doc = parse_json(body, "the request")
        except MalformedInput as exc:
            raise Rejected(400, str(exc)) from None
        if not isinstance(doc, dict) or set(doc) != fields:
            raise Rejected(400, f"the request has exactly the fields {sorted(fields)}")
        return doc

    def _checked(self, fn: Any) -> Any:
        try:
            return fn()
        except MalformedInput as exc:
            raise Rejected(400, str(exc)) from None

    def _member(self, rnd: str, token: str, peer: Any) -> tuple[PeerRow, list[PeerRow]]:
        roster = self.store.peers(self.app, rnd)
        me = next((p for p in roster if p.peer == peer), None)
        if me is None or not secrets.compare_digest(me.token_sha256, _sha(token.encode())):
            raise Rejected(403, f"not a registered peer of round `{rnd}` (or a wrong token)")
        return me, roster

    def _check_context(
        self, proof: api.Proof, rnd: str, step: str, peer: str, roster: list[PeerRow]
    ) -> None:
        """The proof must be bound to this round, step, sender and roster (runtime/binding.py):
        a share or partial sum proved for another round or by another peer is refused."""
        app = self.service.app
        expected = round_context(
            app.name,
            app.source_sha256,
            self.service.epoch,
            rnd,
            step,
            peer,
            [(p.peer, p.public_key) for p in roster],
        )
        if normal(proof.public_inputs.get(CONTEXT)) != normal(expected):
            raise Rejected(
                422, f"`{peer}`: the {step} proof is bound to another round, peer or roster"
            )

    def _verified(self, region: str, doc: Any, peer: str) -> api.Proof:
        try:
            proof = api.Proof.from_json(json.dumps(doc))
            if self.store.proof_owner(_sha(proof.proof)) is not None:
                raise Rejected(409, f"`{peer}`: replayed proof")
            self.service.regions[region].verify(proof)
        except MalformedInput as exc:
            raise Rejected(400, f"`{peer}`: {exc}") from None
        except ProofRejected as exc:
            raise Rejected(422, f"`{peer}`: the {region} proof is rejected: {exc}") from None
        return proof


def _sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def _is_hex(text: str) -> bool:
    return len(text) % 2 == 0 and all(c in "0123456789abcdef" for c in text)
