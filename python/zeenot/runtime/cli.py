"""`zeenot serve` and `zeenot run`: the runtime's commands."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from zeenot.errors import MalformedInput
from zeenot.files import check_output_file, read_json, write_atomic

EXIT_OK, EXIT_FALSE = 0, 1


def add_parsers(sub: Any) -> None:
    s = sub.add_parser(
        "serve",
        help="serve applications' server tier over HTTP",
        description="Serve applications' server tier. Every option can also be set in a TOML "
        "file (--config): its keys are the options' names without `--`; flags override it.",
    )
    # Defaults are None here and `SERVE_DEFAULTS` below, so that a flag given on the command
    # line (even at its default value) is told apart from one left to the config file.
    s.add_argument("apps", metavar="APP.py", nargs="*", help="the applications (or `apps`)")
    s.add_argument("--config", metavar="SERVE.toml", help="options from a TOML file")
    s.add_argument("--db", metavar="URL", help="a SQLite file (default zeenot.db) or postgresql://")
    s.add_argument("--host", help="default 127.0.0.1")
    s.add_argument("--port", type=int, help="default 8000")
    s.add_argument("--workers", type=int, help="server processes (share --db; default 1)")
    s.add_argument("--max-body", type=int, metavar="BYTES", help="largest submission")
    s.add_argument("--identity", metavar="KEY", help="this server's key (zeenot keys new)")
    s.add_argument(
        "--name",
        help="this server's name, which signed requests name as their audience "
        "(default: the --identity key's name, else `zeenot`)",
    )
    s.add_argument("--roster", metavar="ROSTER.json", help="the servers this one accepts")
    s.add_argument(
        "--operator-token-file", metavar="F", help="operators' bearer tokens, one a line"
    )
    s.add_argument(
        "--public-reads",
        action=argparse.BooleanOptionalAction,
        help="submissions, results, rejections, metrics and the dashboard readable without a token",
    )
    s.add_argument("--forward", metavar="URL", help="deliver each accepted run there, signed")
    s.add_argument("--forward-to", metavar="NAME", help="the receiver's name (default sink)")
    s.add_argument("--ssl-keyfile", metavar="KEY.pem", help="serve HTTPS (uvicorn's option)")
    s.add_argument("--ssl-certfile", metavar="CERT.pem", help="serve HTTPS (uvicorn's option)")
    s.add_argument(
        "--retain-days",
        type=int,
        metavar="N",
        help="delete accepted runs and refusals older than N days (hourly; the dashboard's "
        "aggregates stay)",
    )
    s.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        help="a line per request on stderr, without ids, tokens or query values (default on)",
    )
    s.set_defaults(run=serve)

    s = sub.add_parser("run", help="run an application's client tier against a server")
    s.add_argument("app", metavar="APP.py")
    s.add_argument(
        "--tier",
        choices=["client", "peer"],
        default="client",
        help="client (default), or peer: prove the run's peer workers for the request given "
        "with --request, signed with --client-key (the peer's registered key)",
    )
    s.add_argument("--server", required=True, metavar="URL")
    s.add_argument("--inputs", required=True, metavar="IN.json")
    s.add_argument("--id", default=None, help="the submission id (default: random)")
    s.add_argument("--client-key", metavar="KEY", help="sign the run as this registered client")
    s.add_argument(
        "--audience", metavar="NAME", help="the server's name (default: what it publishes)"
    )
    s.add_argument(
        "--save",
        metavar="FILE",
        help="build the submission (the client's proofs) and write it to FILE instead of "
        "sending it: to test a server, or to send later (the server is still asked for its "
        "application's parameters)",
    )
    s.add_argument(
        "--peer-request",
        metavar="FILE",
        help="an application with workers on the peer tier: write what the run's peer is "
        "asked (id, public inputs, client) to FILE and stop; the peer answers it with "
        "`--tier peer --request FILE`",
    )
    s.add_argument(
        "--peer-answer", metavar="FILE", help="the peer's answer to this run's --peer-request"
    )
    s.add_argument("--request", metavar="FILE", help="--tier peer: the client's request")
    s.set_defaults(run=run)

    s = sub.add_parser("keys", help="make and show Ed25519 keys and operator tokens")
    k = s.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    n = k.add_parser("new", help="a new signing key (a server's identity or a client's key)")
    n.add_argument("--name", required=True, help="the server's or the client's name")
    n.add_argument("--out", required=True, metavar="FILE", help="written with mode 0600")
    n.add_argument("--force", action="store_true", help="replace an existing file")
    n.set_defaults(run=keys_new)
    n = k.add_parser("public", help="print a key's name and public key (JSON)")
    n.add_argument("key", metavar="FILE")
    n.set_defaults(run=keys_public)
    n = k.add_parser("token", help="a new operator token, written with mode 0600")
    n.add_argument("--out", required=True, metavar="FILE")
    n.add_argument("--force", action="store_true", help="replace an existing file")
    n.set_defaults(run=keys_token)

    s = sub.add_parser("clients", help="register an application's clients (an operator's)")
    k = s.add_subparsers(dest="clients_command", required=True, metavar="ACTION")
    n = k.add_parser("add", help="register a client's public key")
    n.add_argument("app", help="the application's name")
    n.add_argument("--server", required=True, metavar="URL")
    n.add_argument("--operator-token-file", required=True, metavar="F")
    n.add_argument(
        "--client", required=True, metavar="PUBLIC.json", help="`zeenot keys public`'s output"
    )
    n.set_defaults(run=clients_add)

    s = sub.add_parser("peer", help="take part in a round of an application of peers")
    s.add_argument("app", metavar="APP.py")
    s.add_argument("--server", required=True, metavar="URL")
    s.add_argument("--round", required=True, help="the round's name (peers of one round agree)")
    s.add_argument("--peer", required=True, help="this peer's name in the round")
    s.add_argument("--inputs", required=True, metavar="IN.json", help="this peer's private data")
    s.add_argument("--timeout", type=float, default=600.0, metavar="S", help="for other peers")
    s.set_defaults(run=peer)


# `zeenot serve`'s options: the flags' names (without `--`) and their defaults; the keys of
# a config file.
SERVE_DEFAULTS: dict[str, Any] = {
    "apps": [],
    "db": "zeenot.db",
    "host": "127.0.0.1",
    "port": 8000,
    "workers": 1,
    "max-body": 0,
    "identity": None,
    "name": None,
    "roster": None,
    "operator-token-file": None,
    "public-reads": False,
    "forward": None,
    "forward-to": "sink",
    "ssl-keyfile": None,
    "ssl-certfile": None,
    "retain-days": None,
    "access-log": True,
}
_INTS = {"port", "workers", "max-body", "retain-days"}
_BOOLS = {"public-reads", "access-log"}
_PATHS = {"identity", "roster", "operator-token-file", "ssl-keyfile", "ssl-certfile"}


def serve_options(args: argparse.Namespace) -> argparse.Namespace:
    """The options of `zeenot serve`: its defaults, under the config file's values, under the
    flags given. A config file's relative paths are relative to the file."""
    given = {k: v for k, v in vars(args).items() if v is not None and v != []}
    merged = dict(SERVE_DEFAULTS)
    if args.config:
        merged.update(read_config(args.config))
    merged.update({k.replace("_", "-"): v for k, v in given.items() if k != "config"})
    if not merged["apps"]:
        raise MalformedInput("give the applications to serve: APP.py… (or `apps` in --config)")
    if merged["workers"] < 1 or merged["port"] < 0 or merged["max-body"] < 0:
        raise MalformedInput("--workers is at least 1; --port and --max-body are not negative")
    return argparse.Namespace(**{k.replace("-", "_"): v for k, v in merged.items()})


def read_config(path: str) -> dict[str, Any]:
    """A `zeenot serve` config file (TOML): only the options' names as keys (an unknown key is
    an error naming it), each of its option's type."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as exc:
        raise MalformedInput(f"cannot read the config file `{path}`: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise MalformedInput(f"config file `{path}` is not TOML: {exc}") from None
    base = os.path.dirname(os.path.abspath(path))
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key not in SERVE_DEFAULTS:
            known = ", ".join(sorted(SERVE_DEFAULTS))
            raise MalformedInput(f"config file `{path}`: unknown key `{key}` (keys: {known})")
        what = f"config file `{path}`: `{key}`"
        if key in _BOOLS:
            if not isinstance(value, bool):
                raise MalformedInput(f"{what} is true or false")
        elif key in _INTS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise MalformedInput(f"{what} is a whole number")
        elif key == "apps":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise MalformedInput(f"{what} is a list of application files")
            value = [os.path.normpath(os.path.join(base, v)) for v in value]
        elif not isinstance(value, str):
            raise MalformedInput(f"{what} is a string")
        elif key in _PATHS or (key == "db" and "://" not in value):
            value = os.path.normpath(os.path.join(base, value))
        out[key] = value
    return out


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from zeenot.application import load_application
    from zeenot.runtime.jobs import check_retention
    from zeenot.runtime.store import Store

    args = serve_options(args)
    paths = [os.path.abspath(p) for p in args.apps]
    apps = [load_application(p) for p in paths]  # a diagnostic here, not in each worker
    names = [app.name for app in apps]
    check_retention(args.retain_days, {app.name: app.clients for app in apps})
    store = Store(args.db)  # migrate once before the workers start
    os.environ["ZEENOT_SERVE_APPS"] = os.pathsep.join(paths)
    os.environ["ZEENOT_SERVE_DB"] = args.db
    os.environ["ZEENOT_SERVE_MAX_BODY"] = str(args.max_body)
    options = {
        "ZEENOT_SERVE_IDENTITY": args.identity and os.path.abspath(args.identity),
        "ZEENOT_SERVE_NAME": args.name,
        "ZEENOT_SERVE_ROSTER": args.roster and os.path.abspath(args.roster),
        "ZEENOT_SERVE_OPERATORS": args.operator_token_file
        and os.path.abspath(args.operator_token_file),
        "ZEENOT_SERVE_PUBLIC_READS": "1" if args.public_reads else None,
        "ZEENOT_SERVE_FORWARD": args.forward,
        "ZEENOT_SERVE_FORWARD_TO": args.forward_to,
        "ZEENOT_SERVE_RETAIN_DAYS": None if args.retain_days is None else str(args.retain_days),
        "ZEENOT_SERVE_ACCESS_LOG": "1" if args.access_log else "0",
    }
    for variable, value in options.items():
        if value:
            os.environ[variable] = value
        else:
            os.environ.pop(variable, None)
    from zeenot.runtime.server import configure_gate

    gate = configure_gate(store, os.environ)  # a diagnostic here, not in each worker
    if args.forward and gate.key is None:
        raise MalformedInput("--forward signs what it delivers: give the server --identity")
    if bool(args.ssl_keyfile) != bool(args.ssl_certfile):
        raise MalformedInput("HTTPS needs both --ssl-keyfile and --ssl-certfile")
    scheme = "https" if args.ssl_certfile else "http"
    print(
        f"zeenot: serving {', '.join(names)} on {scheme}://{args.host}:{args.port} as "
        f"`{gate.name}` ({args.workers} process{'es' if args.workers > 1 else ''}, db {args.db})",
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
        access_log=False,  # ours instead (runtime/metrics.py): route templates, not raw paths
        ssl_keyfile=args.ssl_keyfile,
        ssl_certfile=args.ssl_certfile,
    )
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    from zeenot.application import load_application
    from zeenot.runtime.client import Runner, RunRefused

    inputs = read_json(args.inputs, "inputs")
    if not isinstance(inputs, dict):
        raise MalformedInput(f"inputs `{args.inputs}` must be a JSON object keyed by input name")
    key = None
    if args.client_key:
        from zeenot.runtime.identity import Key

        key = Key.load(args.client_key)
    if args.save is not None:
        check_output_file(args.save)  # before proving
    peer = None
    if args.tier == "peer" or args.peer_request or args.peer_answer:
        from zeenot.runtime.peer_cli import peer_step

        step = peer_step(args, inputs, key)
        if isinstance(step, int):
            return step
        peer, args.id = step
    client = Runner(
        load_application(args.app), args.server, key=key, audience=args.audience, peer=peer
    )
    try:
        if args.save is not None:
            body = client.prepare(inputs, submission_id=args.id)
            write_atomic(args.save, body, secret=False)  # public inputs and proofs only
            doc = json.loads(body)
            saved = {"id": doc["id"], "saved": args.save, "bytes": len(body)}
            json.dump({**saved, "proofs": sorted(doc["proofs"])}, sys.stdout)
            print()
            return EXIT_OK
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
    except (KeyError, TypeError, ValueError) as exc:  # the server's answers are not what we expect
        print(f"error: {args.peer}: the server's answer is malformed ({exc!r})", file=sys.stderr)
        return EXIT_FALSE
    json.dump({"peer": args.peer, "round": args.round, "result": result}, sys.stdout)
    print()
    return EXIT_OK


def keys_new(args: argparse.Namespace) -> int:
    from zeenot.runtime.identity import Key

    if os.path.exists(args.out) and not args.force:
        raise MalformedInput(f"`{args.out}` exists: a key is not replaced without --force")
    key = Key.generate(args.name)
    key.save(args.out)
    json.dump({"name": key.name, "public_key": key.public_key}, sys.stdout)
    print()
    return EXIT_OK


def keys_public(args: argparse.Namespace) -> int:
    from zeenot.runtime.identity import Key

    key = Key.load(args.key)
    json.dump({"name": key.name, "public_key": key.public_key}, sys.stdout)
    print()
    return EXIT_OK


def keys_token(args: argparse.Namespace) -> int:
    from zeenot.runtime.identity import new_token, write_secret

    if os.path.exists(args.out) and not args.force:
        raise MalformedInput(f"`{args.out}` exists: a token is not replaced without --force")
    write_secret(args.out, new_token() + "\n")
    print(f"zeenot: an operator token in {args.out} (mode 0600)", file=sys.stderr)
    return EXIT_OK


def clients_add(args: argparse.Namespace) -> int:
    import httpx

    from zeenot.files import read_text

    client = read_json(args.client, "client")
    if not isinstance(client, dict) or set(client) != {"name", "public_key"}:
        raise MalformedInput(f"`{args.client}` is {{name, public_key}} (`zeenot keys public`)")
    token = read_text(args.operator_token_file, "operator token file").split()[0]
    url = f"{args.server.rstrip('/')}/api/apps/{args.app}/clients"
    try:
        answer = httpx.post(url, json=client, headers={"authorization": f"Bearer {token}"})
    except httpx.TransportError as exc:
        print(f"error: cannot reach the server: {exc}", file=sys.stderr)
        return 2
    if answer.status_code != 201:
        print(f"error: {answer.status_code}: {answer.text[:300]}", file=sys.stderr)
        return EXIT_FALSE
    json.dump(answer.json(), sys.stdout)
    print()
    return EXIT_OK
