"""The server's side of a peers' round (`zeenot.runtime.peers`): registration, verified shares,
mailboxes, verified partial sums, complaints, deadlines and the result. State lives in the
database only.

Each peer gets a random token at registration (only its SHA-256 is stored) and presents it for
everything it does later, so nobody else can share, read its mailbox, combine or complain in its
name.

A round runs in *attempts*. Attempt 0 starts when the roster is full, with every registered
peer. Each attempt has two phases, sharing and combining, each with the application's
`deadline` (seconds): sharing from the attempt's start, combining from its last share. When a
phase's deadline passes with peers missing, or a complaint is judged, the attempt is over and
the next one starts at once with the peers that did their part (those that shared, those that
combined, everyone but the one a complaint convicts); each keeps its position, the others'
slots are absent (zero shares). Fewer than the application's `threshold` peers left: the round
fails. Deadlines are computed from times stored in the database and acted on by whichever
process next looks at the round (every request does), so they hold across processes and
restarts; an attempt is recorded once (its key is unique), whoever decides it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from zeenot import api
from zeenot.errors import MalformedInput, ProofRejected
from zeenot.files import parse_json
from zeenot.runtime.binding import CONTEXT, round_context
from zeenot.runtime.peers import (
    MAX_SEALED,
    PeerSum,
    _info,
    check_name,
    check_public_key,
    commit,
    open_share,
    public_hex,
)
from zeenot.runtime.service import Rejected, Service, normal
from zeenot.runtime.store import AttemptRow, Conflict, PeerRow, ShareRow, now
from zeenot.types import P

STALLED = 408  # the status a dropped peer's line in the rejections log carries
CONVICTED = 422


@dataclass
class Round:
    """A round as the database has it now."""

    registered: list[PeerRow]
    attempts: list[AttemptRow]
    shares: dict[str, ShareRow] = field(default_factory=dict)
    partials: dict[str, list[str]] = field(default_factory=dict)
    combined_at: dict[str, dt.datetime] = field(default_factory=dict)

    @property
    def current(self) -> AttemptRow | None:
        return self.attempts[-1] if self.attempts else None

    @property
    def present(self) -> list[str]:
        return [m["peer"] for m in self.current.roster] if self.current else []

    @property
    def state(self) -> str:
        if self.current is None:
            return "registering"
        if self.current.failed:
            return "failed"
        present = self.present
        if any(p not in self.shares for p in present):
            return "sharing"
        if any(p not in self.partials for p in present):
            return "combining"
        return "done"

    def deadline(self, seconds: float) -> dt.datetime | None:
        state = self.state
        if state == "sharing":
            return self.current.started_at + dt.timedelta(seconds=seconds)
        if state == "combining":
            last = max(self.shares[p].shared_at for p in self.present)
            return last + dt.timedelta(seconds=seconds)
        return None


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
        r = self.advance(rnd)
        current = r.current
        state = r.state
        deadline = r.deadline(self.spec.deadline)
        if current is None:
            peers = [
                {"peer": p.peer, "position": p.position, "public_key": p.public_key}
                for p in r.registered
            ]
        else:
            peers = current.roster
        stalled = [{"attempt": a.attempt - 1, **d} for a in r.attempts for d in a.dropped]
        return {
            "round": rnd,
            "size": self.spec.peers,
            "threshold": self.spec.threshold,
            "deadline_seconds": self.spec.deadline,
            "state": state,
            "attempt": None if current is None else current.attempt,
            "deadline": None if deadline is None else deadline.isoformat(),
            "registered": [{"peer": p.peer, "position": p.position} for p in r.registered],
            "peers": peers,
            "shared": sorted(p for p in r.shares if p in r.present),
            "combined": sorted(p for p in r.partials if p in r.present),
            "result": self._result(r.partials) if state == "done" else None,
            "failed": None if current is None else current.failed,
            "attempts": [
                {
                    "attempt": a.attempt,
                    "peers": [m["peer"] for m in a.roster],
                    "started_at": a.started_at.isoformat(),
                    "dropped": a.dropped,
                }
                for a in r.attempts
            ],
            "stalled": stalled,
        }

    def _result(self, partials: dict[str, list[str]]) -> Any:
        total = [0] * len(next(iter(partials.values())))
        for partial in partials.values():
            total = [(t + int(v)) % P for t, v in zip(total, partial, strict=True)]
        return self.spec.result(total) if self.spec.result is not None else total

    # attempts and deadlines ------------------------------------------------------------------

    def read(self, rnd: str) -> Round:
        registered = self.store.peers(self.app, rnd)
        r = Round(registered, self.store.attempts(self.app, rnd))
        if r.current is not None:
            g = r.current.attempt
            r.shares = self.store.share_rows(self.app, rnd, g)
            r.partials = self.store.partials(self.app, rnd, g)
        return r

    def advance(self, rnd: str) -> Round:
        """The round now: attempt 0 started once the roster is full; an attempt whose phase
        is past its deadline replaced by the next one, without the peers that missed it."""
        for _ in range(self.spec.peers + 2):
            r = self.read(rnd)
            if r.current is None:
                if len(r.registered) < self.spec.peers:
                    return r
                roster = [
                    {"peer": p.peer, "position": p.position, "public_key": p.public_key}
                    for p in r.registered
                ]
                started = max(p.registered_at for p in r.registered if p.registered_at)
                self._start(rnd, AttemptRow(0, roster, [], None, started))
                continue
            deadline = r.deadline(self.spec.deadline)
            if deadline is None or now() < deadline:
                return r
            if r.state == "sharing":
                missing, why = [p for p in r.present if p not in r.shares], "share"
            else:
                missing, why = [p for p in r.present if p not in r.partials], "combine"
            reason = f"did not {why} by the deadline ({self.spec.deadline:g} s)"
            self._restart(rnd, r, {p: reason for p in missing}, STALLED)
        return self.read(rnd)

    def _restart(self, rnd: str, r: Round, dropped: dict[str, str], status: int) -> bool:
        """Start the attempt after `r`'s without the `dropped` peers (name: why); False if
        another process started it first."""
        current = r.current
        assert current is not None
        keep = [m for m in current.roster if m["peer"] not in dropped]
        roster = [
            {**m, "public_key": r.shares[m["peer"]].next_key}
            for m in keep
            if m["peer"] in r.shares and r.shares[m["peer"]].next_key
        ]
        failed = None
        if len(roster) < self.spec.threshold:
            failed = (
                f"{len(roster)} peers left after attempt {current.attempt}, fewer than the "
                f"{self.spec.threshold} the round needs"
            )
        listed = [{"peer": p, "reason": why} for p, why in dropped.items()]
        if not self._start(rnd, AttemptRow(current.attempt + 1, roster, listed, failed, now())):
            return False
        where = f"round {rnd}"
        for peer, why in dropped.items():
            self.store.reject(
                self.app, where, status, f"`{peer}` dropped in attempt {current.attempt}: {why}"
            )
        if failed:
            self.store.reject(self.app, where, STALLED, f"round `{rnd}` failed: {failed}")
        return True

    def _start(self, rnd: str, attempt: AttemptRow) -> bool:
        try:
            self.store.start_attempt(self.app, rnd, attempt)
        except Conflict:
            return False  # another process decided this attempt first: theirs holds
        return True

    def _phase(self, rnd: str, doc: dict[str, Any], state: str, me: PeerRow) -> Round:
        """The round, checked to be in `state` in the attempt the request names, before its
        deadline, with `me` present."""
        r = self.advance(rnd)
        attempt = doc.get("attempt")
        current = r.current
        if current is None:
            raise Rejected(409, f"round `{rnd}` is not full yet")
        if current.failed:
            raise Rejected(409, f"round `{rnd}` failed: {current.failed}")
        if attempt != current.attempt or isinstance(attempt, bool):
            raise Rejected(
                409, f"`{me.peer}`: round `{rnd}` is in attempt {current.attempt}, not {attempt!r}"
            )
        if me.peer not in r.present:
            raise Rejected(
                409, f"`{me.peer}` is not a peer of attempt {current.attempt} of round `{rnd}`"
            )
        if r.state != state:
            raise Rejected(409, f"round `{rnd}` is {r.state}, not {state}")
        return r

    # shares ----------------------------------------------------------------------------------

    def share(self, rnd: str, token: str, body: bytes) -> dict[str, Any]:
        doc = self._doc(body, {"peer", "attempt", "proof", "sealed", "absent", "next_key"})
        me, _ = self._member(rnd, token, doc.get("peer"))
        r = self._phase(rnd, doc, "sharing", me)
        if me.peer in r.shares:
            raise Rejected(409, f"`{me.peer}` has shared in this attempt of round `{rnd}` already")
        current = r.current
        assert current is not None
        names = r.present
        sealed = doc["sealed"]
        if not isinstance(sealed, dict) or sorted(sealed) != sorted(names):
            raise Rejected(422, f"`{me.peer}`: `sealed` holds one message for each peer {names}")
        messages = {}
        for recipient, text in sealed.items():
            if not (isinstance(text, str) and len(text) <= 2 * MAX_SEALED and _is_hex(text)):
                raise Rejected(422, f"`{me.peer}`: the message for `{recipient}` is not hex")
            messages[recipient] = bytes.fromhex(text)
        absent_slots = {p.peer: p.position for p in r.registered if p.peer not in names}
        absent = doc["absent"]
        if not isinstance(absent, dict) or sorted(absent) != sorted(absent_slots):
            raise Rejected(
                422, f"`{me.peer}`: `absent` opens the share of each absent slot {absent_slots}"
            )
        next_key = self._checked(lambda: check_public_key(doc["next_key"], "next_key"))
        proof = self._verified(self.spec.share.__name__, doc["proof"], me.peer)
        self._check_context(proof, rnd, "share", me.peer, current)
        commitments = [str(c) for c in proof.outputs]
        if len(commitments) != self.spec.peers:
            raise Rejected(
                422, f"`{me.peer}`: {len(commitments)} commitments for {self.spec.peers} slots"
            )
        for peer, position in absent_slots.items():  # a zero share: nothing leaves the sum
            opening = absent[peer]
            if not _zero_opening(opening, commitments[position]):
                raise Rejected(
                    422, f"`{me.peer}`: the share for absent `{peer}` is not an opened zero"
                )
        at = now()
        if at >= (r.deadline(self.spec.deadline) or at):
            raise Rejected(409, f"`{me.peer}`: the sharing deadline of round `{rnd}` has passed")
        try:
            self.store.put_share(
                self.app,
                rnd,
                me.peer,
                commitments,
                messages,
                _sha(proof.proof),
                attempt=current.attempt,
                next_key=next_key,
                at=at,
            )
        except Conflict:
            raise Rejected(
                409, f"`{me.peer}` has shared in this attempt of round `{rnd}` already"
            ) from None
        return {"peer": me.peer, "attempt": current.attempt, "status": "shared"}

    def mailbox(
        self, rnd: str, token: str, peer: str, attempt: str | None = None
    ) -> dict[str, Any]:
        me, _ = self._member(rnd, token, peer)
        r = self.advance(rnd)
        if r.current is None:
            return {"messages": []}
        g = r.current.attempt
        if attempt is not None:
            if not (attempt.isascii() and attempt.isdigit() and int(attempt) <= g):
                raise Rejected(400, f"`attempt` is an attempt of round `{rnd}`: 0 to {g}")
            g = int(attempt)
        shares = self.store.shares(self.app, rnd, g)
        box = self.store.mailbox(self.app, rnd, me.peer, g)
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
        doc = self._doc(body, {"peer", "attempt", "proof"})
        me, _ = self._member(rnd, token, doc.get("peer"))
        r = self._phase(rnd, doc, "combining", me)
        current = r.current
        assert current is not None
        proof = self._verified(self.spec.combine.__name__, doc["proof"], me.peer)
        self._check_context(proof, rnd, "combine", me.peer, current)
        # the commitments the peer opened: the ones each present sender proved, in position
        # order; an absent slot is the zero share under salt 0
        by_position = {m["position"]: m["peer"] for m in current.roster}
        zero = commit([0] * len(proof.outputs), 0)
        expected = [
            r.shares[by_position[j]].commitments[me.position] if j in by_position else zero
            for j in range(self.spec.peers)
        ]
        if normal(proof.public_inputs.get("commitments")) != normal(expected):
            raise Rejected(
                422, f"`{me.peer}`: the partial sum is over other shares than the ones relayed"
            )
        at = now()
        if at >= (r.deadline(self.spec.deadline) or at):
            raise Rejected(409, f"`{me.peer}`: the combining deadline of round `{rnd}` has passed")
        try:
            self.store.put_partial(
                self.app,
                rnd,
                me.peer,
                [str(v) for v in proof.outputs],
                _sha(proof.proof),
                attempt=current.attempt,
                at=at,
            )
        except Conflict:
            raise Rejected(
                409, f"`{me.peer}` has combined in this attempt of round `{rnd}` already"
            ) from None
        return {"peer": me.peer, "attempt": current.attempt, "status": "combined"}

    # complaints ------------------------------------------------------------------------------

    def complaint(self, rnd: str, token: str, body: bytes) -> dict[str, Any]:
        """A peer names a sender whose share it cannot use, revealing its own key of this
        attempt (each attempt has fresh keys, so this opens nothing else). The server opens
        the share itself, as the peer does: if it fails, the sender is dropped; if it opens,
        the complaint is false and the accuser is dropped. Either way the next attempt starts
        at once: nobody can stall the round by complaining, and no one is dropped on another's
        word alone."""
        doc = self._doc(body, {"peer", "attempt", "accused", "private_key"})
        me, _ = self._member(rnd, token, doc.get("peer"))
        r = self._phase(rnd, doc, "combining", me)
        current = r.current
        assert current is not None
        accused = doc["accused"]
        roster = {m["peer"]: m for m in current.roster}
        if not isinstance(accused, str) or accused not in roster or accused == me.peer:
            raise Rejected(422, f"`{me.peer}`: `accused` is another peer of this attempt")
        raw = doc["private_key"]
        try:
            key = X25519PrivateKey.from_private_bytes(bytes.fromhex(raw))
        except (TypeError, ValueError):
            raise Rejected(400, f"`{me.peer}`: `private_key` is 64 hex digits") from None
        if public_hex(key) != roster[me.peer]["public_key"]:
            raise Rejected(
                422, f"`{me.peer}`: the private key is not yours for attempt {current.attempt}"
            )
        sealed = self.store.mailbox(self.app, rnd, me.peer, current.attempt).get(accused)
        info = _info(self.app, rnd, current.attempt, accused, me.peer)
        commitment = r.shares[accused].commitments[me.position]
        try:
            open_share(key, roster[accused]["public_key"], info, (sealed or b"").hex(), commitment)
        except ValueError as exc:
            guilty, why = accused, f"named by `{me.peer}`'s complaint: its share {exc}"
        else:
            guilty, why = me.peer, f"complained about `{accused}`, whose share opens"
        restarted = self._restart(rnd, r, {guilty: why}, CONVICTED)
        if not restarted:
            raise Rejected(409, f"round `{rnd}` moved past attempt {current.attempt} already")
        return {"peer": me.peer, "attempt": current.attempt, "dropped": guilty, "reason": why}

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
        self, proof: api.Proof, rnd: str, step: str, peer: str, attempt: AttemptRow
    ) -> None:
        """The proof must be bound to this round, attempt, step, sender and the attempt's
        roster (runtime/binding.py): a share or partial sum proved for another round or
        attempt, or by another peer, is refused."""
        app = self.service.app
        expected = round_context(
            app.name,
            app.source_sha256,
            self.service.epoch,
            rnd,
            step,
            peer,
            [(m["peer"], m["public_key"]) for m in attempt.roster],
            attempt.attempt,
        )
        if normal(proof.public_inputs.get(CONTEXT)) != normal(expected):
            raise Rejected(
                422,
                f"`{peer}`: the {step} proof is bound to another round, attempt, peer or roster",
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


def _zero_opening(opening: Any, commitment: str) -> bool:
    """`{"share": ["0", …], "salt": s}` opening `commitment`: an absent slot's share is zero
    (the commitment fixes the vector's length: Poseidon of another arity is another
    function)."""
    if not (isinstance(opening, dict) and set(opening) == {"share", "salt"}):
        return False
    share, salt = opening["share"], opening["salt"]
    if not (isinstance(share, list) and 1 <= len(share) <= 4096 and all(v == "0" for v in share)):
        return False
    if not (isinstance(salt, str) and salt.isascii() and salt.isdigit() and len(salt) <= 78):
        return False
    return int(salt) < P and commit([0] * len(share), int(salt)) == commitment


def _sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def _is_hex(text: str) -> bool:
    return len(text) % 2 == 0 and all(c in "0123456789abcdef" for c in text)
