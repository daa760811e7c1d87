"""Workers on a peer, the server's side (docs/runtime.md, "Workers on a peer").

A worker on the peer tier (declared `@worker(tier="peer")`, or placed there by the planner)
is proved by the run's peer: another registered client of the application, holding its own
`Private[T, "peer"]` inputs. The peer proves before the client (`runtime/peer_prover.py`),
each proof bound to the run like a client's (`runtime/binding.py`, with the peer's name in
the context), and signs the run with the SHA-256 of every proof it made; the client relays the
proofs in its submission, with `peer: {name, signature}`.

A peer's role is in its registered name: `peer.` and a name (`peer.panel-7`), registered by an
operator like any client (`zeenot clients add`). Only such a client signs as a run's peer, and
none submits runs of an application with a peer tier: a household registered to be billed
cannot vouch for a panel's readings, nor a panel submit the household's run.

The server checks here that the peer is a registered peer and that its signature covers
exactly these proofs of this run: a client cannot prove the peer's regions on data of its own
choosing (it has no peer key), nor take a peer's proofs to another run (their contexts and
the signature name the run), nor swap in a re-randomised copy (the digests differ).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from cryptography.exceptions import InvalidSignature

from zeenot import api
from zeenot.application.model import Application, proof_key
from zeenot.errors import MalformedInput
from zeenot.runtime.binding import peer_statement
from zeenot.runtime.identity import check_name, public_key
from zeenot.runtime.store import Store

PEER_FIELDS = {"name", "signature"}
PEER_PREFIX = "peer."  # a registered client acting as a run's peer is named `peer.NAME`
_SIGNATURE = re.compile(r"[0-9a-f]{128}", re.ASCII)


class PeerRefused(Exception):
    """A submission's peer part refused: `status` is the HTTP status to answer with."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


def proof_digests(app: Application, proofs: dict[str, bytes]) -> dict[str, str]:
    """The SHA-256 (hex) of each proof the peer makes in a run, by call (`worker.k`)."""
    return {
        proof_key(s, c): hashlib.sha256(proofs[proof_key(s, c)]).hexdigest()
        for s, c in app.peer_proved_calls()
    }


def check_peer(
    app: Application,
    store: Store,
    run: tuple[str, str, dict[str, Any], str | None],
    given: Any,
    proofs: dict[str, api.Proof],
) -> str:
    """The registered name of the run's peer, once its signature of the run's peer proofs
    verifies (`run`: the server's epoch, the submission id, `main`'s public inputs, the
    submitting client). `PeerRefused` otherwise."""
    epoch, sid, inputs, client = run
    if not (
        isinstance(given, dict)
        and set(given) == PEER_FIELDS
        and isinstance(given["signature"], str)
        and _SIGNATURE.fullmatch(given["signature"])
    ):
        raise PeerRefused(
            400,
            "`peer` is {name, signature}: the run's peer and its Ed25519 signature of the "
            "proofs it made (128 lowercase hex digits)",
        )
    try:
        name = check_name(given["name"], "`peer.name`")
    except MalformedInput as exc:
        raise PeerRefused(400, str(exc)) from None
    if client is not None and client.startswith(PEER_PREFIX):
        raise PeerRefused(403, f"`{client}` is registered as a peer: it does not submit runs")
    if not name.startswith(PEER_PREFIX):
        raise PeerRefused(
            422, f"`{name}` is not a peer: a run's peer is a client registered as `peer.NAME`"
        )
    known = store.client_key(app.name, name)
    if known is None:
        raise PeerRefused(422, f"peer `{name}` is not a registered client of `{app.name}`")
    digests = proof_digests(app, {k: p.proof for k, p in proofs.items()})
    statement = peer_statement(
        app.name, app.source_sha256, epoch, sid, inputs, client, name, digests
    )
    try:
        public_key(known).verify(bytes.fromhex(given["signature"]), statement)
    except InvalidSignature:
        raise PeerRefused(
            422,
            f"the peer's signature does not cover these proofs of this run: `{name}` did not "
            "make them",
        ) from None
    return name
