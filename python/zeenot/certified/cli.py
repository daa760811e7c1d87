"""`zeenot certified`: the parties of certified data (docs/certified.md) as processes.

zeenot certified source keygen --name meter-1001 --id 1001 -o source.json
zeenot certified source serve --key source.json --db URL --operator-token-file F --port P
zeenot certified user keygen -o user.json                  (prints her public key)
zeenot certified service serve --circuit DIR --source URL --db URL --port P
    [--weights W.json]                   (path (b): DIR in regions, the weights private)
zeenot certified prove --circuit DIR --source URL --identity KEY --user-key user.json
    --period N --blocks blocks.json -o proof.json       (path (b): a bundle of ciphertexts)
zeenot certified plan --a APP.py:FN --b APP.py:FN --results N [--private-weights]
    [--compile-to DIR]                   (path (a) or (b), costed; DIR for the chosen one)
zeenot certified submit --service URL proof.json [--user-key user.json]
    (path (b): submits the bundle, decrypts the service's sums with proofs, submits those)
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("certified", help="certified data: a source, a user, a service")
    cmds = p.add_subparsers(dest="certified_command", required=True, metavar="COMMAND")

    src = cmds.add_parser("source", help="a data source that signs its users' blocks")
    sc = src.add_subparsers(dest="source_command", required=True, metavar="ACTION")
    s = sc.add_parser("keygen", help="a new source key (secret, mode 0600)")
    s.add_argument("--name", required=True, help="the source's name (its users sign for it)")
    s.add_argument("--id", required=True, type=int, dest="source_id", help="its public id")
    s.add_argument("-o", "--output", required=True, metavar="SOURCE.json")
    s.set_defaults(run=_source_keygen)
    s = sc.add_parser("serve", help="serve the source's signing endpoint")
    s.add_argument("--key", required=True, metavar="SOURCE.json")
    s.add_argument("--db", required=True, metavar="URL", help="a SQLite file or postgresql://")
    s.add_argument("--operator-token-file", required=True, metavar="F")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.set_defaults(run=_source_serve)

    usr = cmds.add_parser("user", help="the user's Baby Jubjub key")
    uc = usr.add_subparsers(dest="user_command", required=True, metavar="ACTION")
    s = uc.add_parser("keygen", help="a new user key (secret, mode 0600); prints its public key")
    s.add_argument("-o", "--output", required=True, metavar="USER.json")
    s.set_defaults(run=_user_keygen)

    svc = cmds.add_parser("service", help="a service that verifies results before it stores them")
    vc = svc.add_subparsers(dest="service_command", required=True, metavar="ACTION")
    s = vc.add_parser("serve", help="serve the service's submission endpoint")
    s.add_argument("--circuit", required=True, metavar="DIR", help="compiled and set up")
    s.add_argument("--source", required=True, metavar="URL", help="the source it trusts")
    s.add_argument("--db", required=True, metavar="URL")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8001)
    s.add_argument(
        "--weights",
        metavar="W.json",
        help="path (b): the service's private weights (DIR then holds a program in regions "
        "whose output is the user's ciphertexts)",
    )
    s.set_defaults(run=_service_serve)

    s = cmds.add_parser("prove", help="fetch a signed block from the source and prove on it")
    s.add_argument("--circuit", required=True, metavar="DIR", help="compiled and set up")
    s.add_argument("--source", required=True, metavar="URL")
    s.add_argument("--identity", required=True, metavar="KEY", help="`zeenot keys new`'s file")
    s.add_argument("--user-key", required=True, metavar="USER.json")
    s.add_argument("--period", required=True, type=int)
    s.add_argument("--blocks", metavar="BLOCKS.json", help="keep the block here (appended)")
    s.add_argument("-o", "--output", required=True, metavar="PROOF.json")
    s.set_defaults(run=_prove)

    s = cmds.add_parser("plan", help="cost paths (a) and (b) with the planner and pick one")
    s.add_argument("--a", required=True, metavar="APP.py:FN", help="path (a): the result proved")
    s.add_argument(
        "--b", required=True, metavar="APP.py:FN", help="path (b): the ciphertexts proved"
    )
    s.add_argument("--results", required=True, type=int, help="path (b): sums decrypted")
    s.add_argument("--inputs-a", metavar="IN.json", help="path (a)'s inputs (public values)")
    s.add_argument("--inputs-b", metavar="IN.json", help="path (b)'s inputs (public values)")
    s.add_argument(
        "--private-weights",
        action="store_true",
        help="the service's weights are private: path (a), which puts them in the circuit, "
        "does not apply",
    )
    s.add_argument("--plan-weights", metavar="W", help="the planner's weights (`zeenot plan`)")
    s.add_argument("--profile", metavar="PROFILE.json", help="default: the shipped profile")
    s.add_argument("--json", action="store_true")
    s.add_argument(
        "--compile-to",
        metavar="DIR",
        help="compile and set up the chosen path here (for `certified prove` and `service "
        "serve`, which follow the directory: a program in regions is path (b))",
    )
    s.set_defaults(run=_plan)

    s = cmds.add_parser("submit", help="send a proof to a service; exit 0 if it stored it")
    s.add_argument("proof", metavar="PROOF.json")
    s.add_argument("--service", required=True, metavar="URL")
    s.add_argument(
        "--user-key",
        metavar="USER.json",
        help="path (b): her key, to decrypt the service's sums and prove the decryptions",
    )
    s.set_defaults(run=_submit)


def _source_keygen(args: argparse.Namespace) -> int:
    from zeenot.certified.keys import SourceKey

    key = SourceKey.generate(args.name, args.source_id)
    key.save(args.output)
    print(json.dumps(key.published().to_json()))
    return 0


def _source_serve(args: argparse.Namespace) -> int:
    from zeenot.certified.source_server import serve

    return serve(args.key, args.db, args.operator_token_file, args.host, args.port)


def _user_keygen(args: argparse.Namespace) -> int:
    from zeenot.certified.keys import UserKey
    from zeenot.ir import to_json_value

    key = UserKey.generate()
    key.save(args.output)
    print(json.dumps(to_json_value(key.public)))
    return 0


def _service_serve(args: argparse.Namespace) -> int:
    if args.weights:
        from zeenot.certified import encrypted_server

        return encrypted_server.serve(
            args.circuit, args.weights, args.source, args.db, args.host, args.port
        )
    from zeenot.certified.service_server import serve

    return serve(args.circuit, args.source, args.db, args.host, args.port)


def _prove(args: argparse.Namespace) -> int:
    from pathlib import Path

    from zeenot.certified.blocks import load_blocks, save_blocks
    from zeenot.certified.client import fetch_block, prove_block
    from zeenot.certified.keys import UserKey
    from zeenot.files import check_output_file, write_atomic
    from zeenot.runtime.identity import Key

    check_output_file(args.output)
    user = UserKey.load(args.user_key)
    block = fetch_block(args.source, Key.load(args.identity), user, args.period)
    if args.blocks:
        kept = load_blocks(args.blocks) if Path(args.blocks).exists() else []
        if block not in kept:
            save_blocks(args.blocks, [*kept, block])
    from zeenot.artifacts import REGIONS_FILE

    if (Path(args.circuit) / REGIONS_FILE).exists():  # path (b): her ciphertexts, proved
        from zeenot.certified.encrypted_client import prove_encrypted

        proved = prove_encrypted(args.circuit, block, user)
        write_atomic(args.output, proved.to_json() + "\n", secret=False)
        print(json.dumps({"period": args.period, "ciphertexts": len(proved.outputs)}))
        return 0
    proof = prove_block(args.circuit, block, user)
    write_atomic(args.output, proof.to_json() + "\n", secret=False)
    print(json.dumps({"period": args.period, "outputs": proof.outputs}))
    return 0


def _plan(args: argparse.Namespace) -> int:
    from zeenot import api, bundle
    from zeenot.certified.paths import choose_path
    from zeenot.errors import MalformedInput, UsageError
    from zeenot.files import check_output_dir, read_json
    from zeenot.plan import Profile, Weights

    def inputs(path: str | None) -> dict[str, Any] | None:
        if path is None:
            return None
        doc = read_json(path, "inputs")
        if not isinstance(doc, dict):
            raise MalformedInput(f"inputs `{path}` must be a JSON object")
        return doc

    if not 1 <= args.results <= 64:
        raise UsageError("--results: 1 to 64 sums")
    if args.compile_to:
        check_output_dir(args.compile_to)
    chosen = choose_path(
        args.a,
        args.b,
        args.results,
        inputs_a=inputs(args.inputs_a),
        inputs_b=inputs(args.inputs_b),
        private_weights=args.private_weights,
        profile=Profile.load(args.profile),
        weights=Weights.parse(args.plan_weights),
    )
    print(json.dumps(chosen.to_json(), indent=2) if args.json else chosen.render())
    if args.compile_to:
        compiled = api.compile(args.a if chosen.chosen == "a" else args.b)
        compiled.save(args.compile_to)
        if isinstance(compiled, bundle.Regions):  # Groth16 keys for the main region only
            main = compiled.circuits[compiled.name]
            api.setup(main).save(bundle.region_dir(args.compile_to, compiled.name))
        else:
            api.setup(compiled).save(args.compile_to)
        print(f"path ({chosen.chosen}) compiled and set up -> {args.compile_to}", file=sys.stderr)
    return 0


def _submit(args: argparse.Namespace) -> int:
    from zeenot.artifacts import Proof
    from zeenot.certified.client import submit
    from zeenot.files import read_text

    text = read_text(args.proof, "proof")
    if args.user_key:  # path (b): the bundle, then the proved decryptions
        from zeenot.bundle import Bundle
        from zeenot.certified.blocks import MAX_SOURCE_ID, _int
        from zeenot.certified.encrypted_client import exchange
        from zeenot.certified.keys import UserKey

        proved = Bundle.from_json(text)
        period = _int(proved.public_inputs.get("period"), "period", MAX_SOURCE_ID)
        answer = exchange(args.service, proved, UserKey.load(args.user_key), period)
    else:
        from zeenot.errors import UsageError

        if '"zeenot_bundle"' in text[:200]:
            raise UsageError(
                f"`{args.proof}` is a bundle of ciphertexts (path (b)): pass --user-key, to "
                "decrypt the service's sums and prove the decryptions"
            )
        answer = submit(args.service, Proof.from_json(text))
    print(json.dumps({"status": answer.status, **answer.body}))
    if answer.status != 201:
        print(f"refused ({answer.status}): {answer.body.get('error')}", file=sys.stderr)
        return 1
    return 0
