"""`zeenot cothority …`: set up a deployment, serve one server, submit records, query, audit."""

from __future__ import annotations

import argparse
import csv
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from zeenot.errors import MalformedInput
from zeenot.files import read_json, write_atomic


def add_parser(sub: Any) -> None:
    s = sub.add_parser("cothority", help="a collective authority: servers, providers, queries")
    k = s.add_subparsers(dest="cothority_command", required=True, metavar="ACTION")
    n = k.add_parser("init", help="keys and a roster for a local deployment")
    n.add_argument("--dir", required=True, help="where the keys and roster.json go")
    n.add_argument("--name", default="cothority", help="the deployment's name")
    n.add_argument("--servers", type=int, default=3)
    n.add_argument("--threshold", type=int, default=2)
    n.add_argument("--base-port", type=int, default=8101)
    n.add_argument("--providers", default="provider", help="comma-separated names")
    n.add_argument("--queriers", default="querier", help="comma-separated names")
    n.add_argument("--schema", required=True, help='JSON: {"age": {"bits": 8, "square": true}}')
    n.set_defaults(run=init)
    n = k.add_parser("serve", help="run one server of the roster")
    n.add_argument("--roster", required=True)
    n.add_argument("--key", required=True, help="this server's key (zeenot keys new)")
    n.add_argument("--db", required=True, help="its own SQLite file or postgresql:// URL")
    n.add_argument("--host", default="127.0.0.1")
    n.add_argument("--port", type=int, help="default: the roster's url's")
    n.set_defaults(run=serve)
    n = k.add_parser("submit", help="encrypt, prove and send a provider's records")
    n.add_argument("--roster", required=True)
    n.add_argument("--key", required=True, help="the provider's key")
    n.add_argument("--server", required=True, help="the server's name")
    n.add_argument("records", help="CSV (a header row: id and the attributes) or JSON list")
    n.set_defaults(run=submit)
    n = k.add_parser("query", help="run a query; verify its transcript and decrypt")
    n.add_argument("--roster", required=True)
    n.add_argument("--key", required=True, help="the querier's key")
    n.add_argument("--server", required=True, help="the leader's name")
    n.add_argument("--query", required=True, help="JSON: {op, attribute, where, group_by, noise}")
    n.add_argument("--transcript", help="write the transcript here")
    n.set_defaults(run=query)
    n = k.add_parser("audit", help="re-verify a transcript against what the servers publish")
    n.add_argument("--roster", required=True)
    n.add_argument("transcript")
    n.set_defaults(run=audit)


def init(args: argparse.Namespace) -> int:
    from zeenot.runtime.identity import Key

    d = Path(args.dir)
    d.mkdir(parents=True, exist_ok=True)
    schema = json.loads(args.schema)
    doc: dict[str, Any] = {
        "zeenot_roster": 1,
        "deployment": args.name,
        "threshold": args.threshold,
        "servers": {},
        "providers": {},
        "queriers": {},
        "schema": schema,
    }
    for i in range(args.servers):
        name = f"s{i + 1}"
        key = Key.generate(name)
        key.save(d / f"{name}.key")
        doc["servers"][name] = {
            "public_key": key.public_key,
            "url": f"http://127.0.0.1:{args.base_port + i}",
        }
    for role, names in (("providers", args.providers), ("queriers", args.queriers)):
        for name in filter(None, names.split(",")):
            key = Key.generate(name)
            key.save(d / f"{name}.key")
            doc[role][name] = {"public_key": key.public_key}
    write_atomic(d / "roster.json", json.dumps(doc, indent=2) + "\n", secret=False)
    from zeenot.cothority.model import Deployment

    Deployment.load(d / "roster.json")  # checked as a server will read it
    print(d / "roster.json")
    return 0


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from zeenot.cothority.model import Deployment
    from zeenot.runtime.identity import Key
    from zeenot.runtime.store import Store

    dep = Deployment.load(args.roster)
    key = Key.load(args.key)
    Store(args.db)  # migrate (and say so if unreachable) before serving
    port = args.port or int(dep.url(key.name).rsplit(":", 1)[1].split("/")[0])
    os.environ.update(
        ZEENOT_COTHORITY_ROSTER=os.path.abspath(args.roster),
        ZEENOT_COTHORITY_KEY=os.path.abspath(args.key),
        ZEENOT_COTHORITY_DB=args.db,
    )
    print(
        f"zeenot cothority: `{key.name}` of `{dep.name}` on {args.host}:{port}",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(
        "zeenot.cothority.server:create_app",
        factory=True,
        host=args.host,
        port=port,
        log_level="warning",
        access_log=False,
    )
    return 0


def read_records(path: str) -> list[dict[str, Any]]:
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        out = []
        for r in rows:
            try:
                out.append({k: (v if k == "id" else int(v)) for k, v in r.items()})
            except ValueError:
                raise MalformedInput(f"`{path}`: a value is not a whole number: {r}") from None
        return out
    data = read_json(path, "records")
    if not isinstance(data, list):
        raise MalformedInput(f"`{path}` is a JSON list of records")
    return data


def submit(args: argparse.Namespace) -> int:
    from zeenot.cothority import querier
    from zeenot.cothority.model import Deployment
    from zeenot.runtime.identity import Key

    dep = Deployment.load(args.roster)
    out = querier.submit(dep, Key.load(args.key), args.server, read_records(args.records))
    print(json.dumps(out))
    return 0 if not out["refused"] else 1


def query(args: argparse.Namespace) -> int:
    from zeenot import babyjub as bj
    from zeenot.cothority import querier
    from zeenot.cothority.model import Deployment
    from zeenot.runtime.identity import Key

    dep = Deployment.load(args.roster)
    key = Key.load(args.key)
    spec = json.loads(args.query)
    secret, public = bj.keygen()  # a fresh ElGamal key per query
    from zeenot.cothority import wire

    spec = {
        "id": spec.get("id") or secrets.token_urlsafe(9),
        **spec,
        "querier_key": wire.point_hex(public),
    }
    doc = querier.ask(dep, key, args.server, spec)
    if args.transcript:
        write_atomic(args.transcript, json.dumps(doc), secret=False)  # verifiable by anyone
    keys = querier.fetch_keys(dep)
    v = querier.verify_transcript(dep, keys, doc)
    result = querier.decrypt_result(dep, v, secret)
    print(
        json.dumps(
            {
                "query": spec["id"],
                "answering": v.answering,
                "excluded": [{"server": e["server"], "reason": e["reason"]} for e in v.excluded],
                "result": result,
            },
            indent=2,
        )
    )
    return 0


def audit(args: argparse.Namespace) -> int:
    from zeenot.cothority import querier
    from zeenot.cothority.model import Deployment
    from zeenot.cothority.transcript import Misbehaviour

    dep = Deployment.load(args.roster)
    try:
        print(json.dumps(querier.audit(dep, read_json(args.transcript, "transcript")), indent=2))
    except Misbehaviour as exc:
        print(json.dumps({"verdict": "invalid", "server": exc.server, "reason": exc.reason}))
        return 1
    return 0
