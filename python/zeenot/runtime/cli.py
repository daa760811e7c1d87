"""`zeenot serve` and `zeenot run`: the runtime's commands."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from zeenot.errors import MalformedInput
from zeenot.files import read_json

EXIT_OK, EXIT_FALSE = 0, 1


def add_parsers(sub: Any) -> None:
    s = sub.add_parser("serve", help="serve applications' server tier over HTTP")
    s.add_argument("apps", metavar="APP.py", nargs="+")
    s.add_argument(
        "--db",
        default="zeenot.db",
        metavar="URL",
        help="a SQLite file (default zeenot.db) or a postgresql:// URL",
    )
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--workers", type=int, default=1, help="server processes (share --db)")
    s.add_argument("--max-body", type=int, default=0, metavar="BYTES", help="largest submission")
    s.set_defaults(run=serve)

    s = sub.add_parser("run", help="run an application's client tier against a server")
    s.add_argument("app", metavar="APP.py")
    s.add_argument("--tier", choices=["client"], default="client")
    s.add_argument("--server", required=True, metavar="URL")
    s.add_argument("--inputs", required=True, metavar="IN.json")
    s.add_argument("--id", default=None, help="the submission id (default: random)")
    s.set_defaults(run=run)

    s = sub.add_parser("peer", help="take part in a round of an application of peers")
    s.add_argument("app", metavar="APP.py")
    s.add_argument("--server", required=True, metavar="URL")
    s.add_argument("--round", required=True, help="the round's name (peers of one round agree)")
    s.add_argument("--peer", required=True, help="this peer's name in the round")
    s.add_argument("--inputs", required=True, metavar="IN.json", help="this peer's private data")
    s.add_argument("--timeout", type=float, default=600.0, metavar="S", help="for other peers")
    s.set_defaults(run=peer)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from zeenot.application import load_application
    from zeenot.runtime.store import Store

    paths = [os.path.abspath(p) for p in args.apps]
    names = [load_application(p).name for p in paths]  # a diagnostic here, not in each worker
    Store(args.db)  # migrate once before the workers start
    os.environ["ZEENOT_SERVE_APPS"] = os.pathsep.join(paths)
    os.environ["ZEENOT_SERVE_DB"] = args.db
    os.environ["ZEENOT_SERVE_MAX_BODY"] = str(args.max_body)
    print(
        f"zeenot: serving {', '.join(names)} on http://{args.host}:{args.port} "
        f"({args.workers} process{'es' if args.workers > 1 else ''}, db {args.db})",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(
        "zeenot.runtime.server:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="warning",
    )
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    from zeenot.application import load_application
    from zeenot.runtime.client import Runner, RunRefused

    inputs = read_json(args.inputs, "inputs")
    if not isinstance(inputs, dict):
        raise MalformedInput(f"inputs `{args.inputs}` must be a JSON object keyed by input name")
    client = Runner(load_application(args.app), args.server)
    try:
        answer = client.run(inputs, submission_id=args.id)
    except RunRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FALSE
    finally:
        client.close()
    json.dump(answer, sys.stdout, indent=2)
    print()
    return EXIT_OK


def peer(args: argparse.Namespace) -> int:
    from zeenot.application import load_application
    from zeenot.runtime.peers import Peer, PeerError

    app = load_application(args.app)
    if app.peer_sum is None:
        raise MalformedInput(f"`{args.app}` declares no PeerSum: it is not an application of peers")
    data = read_json(args.inputs, "inputs")
    if not isinstance(data, dict):
        raise MalformedInput(f"inputs `{args.inputs}` must be a JSON object keyed by input name")
    member = Peer(app, args.server, args.round, args.peer, timeout=args.timeout)
    try:
        result = member.run(data)
    except PeerError as exc:
        print(f"error: {args.peer}: {exc}", file=sys.stderr)
        return EXIT_FALSE
    json.dump({"peer": args.peer, "round": args.round, "result": result}, sys.stdout)
    print()
    return EXIT_OK
