"""`zeenot run` for an application with workers on the peer tier (docs/runtime.md, "Workers on
a peer"): the run's peer is another party, so the exchange goes through files.

    zeenot run APP.py --server URL --inputs HOME.json --peer-request req.json     # the client
    zeenot run APP.py --server URL --tier peer --inputs PANEL.json --client-key panel.key \\
        --request req.json --save answer.json                                    # the peer
    zeenot run APP.py --server URL --inputs HOME.json --peer-answer answer.json   # the client

The request holds the run's id, `main`'s public inputs and the client's name; the answer, the
peer's proofs and signature (public: the server checks both) with the request it answers.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from collections.abc import Callable
from typing import Any

from zeenot.application import load_application
from zeenot.errors import MalformedInput, UsageError
from zeenot.files import check_output_file, read_json, write_atomic
from zeenot.runtime.client import RunError, Runner, peer_request
from zeenot.runtime.identity import Key
from zeenot.runtime.peer_prover import PeerProver

Peer = Callable[[dict[str, Any]], dict[str, Any]]


def peer_step(
    args: argparse.Namespace, inputs: dict[str, Any], key: Key | None
) -> int | tuple[Peer, str | None]:
    """The peer's side or the request written (an exit status: done), or the client's link to
    the peer's saved answer and the run's id (the run goes on)."""
    if args.tier == "peer":
        return _answer(args, inputs, key)
    if args.peer_request and args.peer_answer:
        raise UsageError("--peer-request writes the request, --peer-answer uses the answer: one")
    app = load_application(args.app)
    if args.peer_request:
        check_output_file(args.peer_request)
        public = {n: i for n, i in app.inputs.items() if i.private_to is None}
        missing = sorted(set(public) - set(inputs))
        if missing:
            raise MalformedInput(f"inputs: missing `{missing[0]}`")
        sid = args.id or uuid.uuid4().hex
        request = peer_request(app, {n: inputs[n] for n in public}, sid, key)
        write_atomic(args.peer_request, json.dumps(request, indent=2) + "\n", secret=False)
        json.dump({"id": sid, "peer_request": args.peer_request}, sys.stdout)
        print()
        return 0
    answer = read_json(args.peer_answer, "the peer's answer")
    if not (isinstance(answer, dict) and isinstance(answer.get("request"), dict)):
        raise MalformedInput(f"`{args.peer_answer}` is not a peer's answer (no `request`)")
    request = answer["request"]

    def peer(asked: dict[str, Any]) -> dict[str, Any]:
        if asked != request:
            raise RunError(
                f"the peer's answer `{args.peer_answer}` is for another request (id, inputs or "
                "client): ask the peer again with --peer-request"
            )
        return answer

    sid = args.id or request.get("id")
    return peer, sid if isinstance(sid, str) else None


def _answer(args: argparse.Namespace, inputs: dict[str, Any], key: Key | None) -> int:
    if args.request is None or key is None:
        raise UsageError("--tier peer needs --request FILE and --client-key (the peer's key)")
    if args.peer_request or args.peer_answer:
        raise UsageError("--peer-request and --peer-answer are the client's")
    request = read_json(args.request, "the client's request")
    runner = Runner(load_application(args.app), args.server, audience=args.audience)
    try:
        answer = {"request": request, **PeerProver(runner, key, inputs)(request)}
    finally:
        runner.close()
    text = json.dumps(answer, separators=(",", ":"))
    if args.save is None:
        print(text)
        return 0
    write_atomic(args.save, text + "\n", secret=False)  # proofs and a signature: public
    json.dump(
        {"id": request["id"], "saved": args.save, "proofs": sorted(answer["proofs"])}, sys.stdout
    )
    print()
    return 0
