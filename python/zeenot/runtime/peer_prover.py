"""Workers on a peer, the peer's side (docs/runtime.md, "Workers on a peer").

The run's peer holds `main`'s `Private[T, "peer"]` inputs. Asked by a client for a run (the
submission id, `main`'s public inputs, the submitting client's name), it follows the server's
published placement (the flow check must agree, as the client's does), runs the workers on the
peer tier with their regions proved, each proof bound to the run with the peer's name in its
context, and answers with the proofs and its Ed25519 signature of the run and the proofs'
digests (`runtime/peer_runs.py` is the server's check). Its private inputs never leave it.
"""

from __future__ import annotations

import json
from typing import Any

from zeenot import api
from zeenot.errors import MalformedInput
from zeenot.runtime.binding import peer_statement
from zeenot.runtime.client import RunError, Runner, _value
from zeenot.runtime.identity import Key
from zeenot.runtime.peer_runs import proof_digests

REQUEST_FIELDS = {"app", "id", "inputs", "client"}


class PeerProver:
    """The run's peer: `runner` talks to the server (descriptor, keys) for the application,
    `key` is the peer's registered key, `inputs` its private inputs of `main`."""

    def __init__(self, runner: Runner, key: Key, inputs: dict[str, Any]):
        app = runner.app
        wanted = sorted(n for n, i in app.inputs.items() if i.private_to == "peer")
        if sorted(inputs) != wanted:
            raise MalformedInput(f"the peer's inputs are exactly {wanted}: {sorted(inputs)}")
        self.runner, self.key, self.inputs = runner, key, inputs

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        """Prove the peer's workers for one run; `{name, signature, proofs}`."""
        app = self.runner.app
        if not (isinstance(request, dict) and set(request) == REQUEST_FIELDS):
            raise RunError(f"a run's request to its peer has the fields {sorted(REQUEST_FIELDS)}")
        sid, public, client = request["id"], request["inputs"], request["client"]
        if request["app"] != app.name or not isinstance(sid, str) or not isinstance(public, dict):
            raise RunError(f"not a run of `{app.name}`")
        if client is not None and not isinstance(client, str):
            raise RunError("the request's `client` is a name or null")
        expected = sorted(n for n, i in app.inputs.items() if i.private_to is None)
        if sorted(public) != expected:
            raise RunError(f"the request's inputs are exactly the public inputs {expected}")
        if client == self.key.name:
            raise RunError(f"`{client}` is this peer: a run's peer is another party")
        doc = self.runner.descriptor()  # follows the server's placement, if the flow allows
        values: dict[int, Any] = {int(k): v for k, v in doc["parameters"].items()}
        given = {**public, **self.inputs}
        proofs: dict[str, Any] = {}
        for step in app.step_phase("peer"):
            args = {p: _value(src, values, given) for p, src in step.args.items()}
            run = (sid, public, client)
            values[step.index] = self.runner._run_worker(step, args, proofs, run, self.key.name)
        raw = {k: api.Proof.from_json(json.dumps(p)).proof for k, p in proofs.items()}
        statement = peer_statement(
            app.name,
            app.source_sha256,
            doc["epoch"],
            sid,
            public,
            client,
            self.key.name,
            proof_digests(app, raw),
        )
        signature = self.key.private.sign(statement).hex()
        return {"name": self.key.name, "signature": signature, "proofs": proofs}
