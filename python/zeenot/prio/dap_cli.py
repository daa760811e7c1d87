"""`zeenot prio`: DAP-09 aggregators for Prio3 tasks.

zeenot prio task new --leader URL --helper URL --vdaf '{"type": "Prio3Sum", "bits": 32}'
    --time-precision 3600 --min-batch-size 10 -o task.json --credential collector.json
zeenot prio serve --role leader|helper --task task.json --db URL --port P [--no-drive]
zeenot prio drive --task task.json --db URL     (the leader's jobs, beside `serve --no-drive`)
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from zeenot.errors import MalformedInput


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("prio", help="Prio3 over DAP-09: aggregators and tasks")
    cmds = p.add_subparsers(dest="prio_command", required=True, metavar="COMMAND")

    s = cmds.add_parser("serve", help="serve one DAP aggregator (leader or helper)")
    s.add_argument("--role", required=True, choices=("leader", "helper"))
    s.add_argument("--task", required=True, action="append", metavar="TASK.json", help="repeatable")
    s.add_argument("--db", required=True, metavar="URL", help="a SQLite file or postgresql://")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument(
        "--job-size", type=int, default=256, metavar="N", help="reports per aggregation job"
    )
    s.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="uvicorn worker processes over the one database (each runs the leader's driver)",
    )
    s.add_argument(
        "--no-drive",
        action="store_true",
        help="a leader that only serves (uploads, collections): `zeenot prio drive` aggregates",
    )
    s.set_defaults(run=_serve)

    d = cmds.add_parser(
        "drive", help="run a leader's aggregation and collection jobs (beside serve --no-drive)"
    )
    d.add_argument("--task", required=True, action="append", metavar="TASK.json", help="repeatable")
    d.add_argument("--db", required=True, metavar="URL", help="the leader's database")
    d.add_argument(
        "--job-size", type=int, default=256, metavar="N", help="reports per aggregation job"
    )
    d.set_defaults(run=_drive)

    t = cmds.add_parser("task", help="write a new task file and the collector's credential")
    t.add_argument("action", choices=("new",))
    t.add_argument("--leader", required=True, metavar="URL")
    t.add_argument("--helper", required=True, metavar="URL")
    t.add_argument("--vdaf", required=True, metavar="JSON", help='{"type": "Prio3Sum", "bits": 32}')
    t.add_argument("--time-precision", type=int, default=3600, metavar="SECONDS")
    t.add_argument("--min-batch-size", type=int, default=10, metavar="N")
    t.add_argument("-o", "--output", required=True, metavar="TASK.json")
    t.add_argument(
        "--credential",
        required=True,
        metavar="COLLECTOR.json",
        help="the collector's HPKE key pair and token (secret; janus's credential format)",
    )
    t.set_defaults(run=_task)


def _serve(args: argparse.Namespace) -> int:
    from zeenot.prio.dap_server import serve

    return serve(
        args.role,
        args.task,
        args.db,
        args.host,
        args.port,
        args.job_size,
        args.workers,
        drive=not args.no_drive,
    )


def _drive(args: argparse.Namespace) -> int:
    import logging
    import sys

    from zeenot.prio.dap_drive import drive

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    return drive(args.task, args.db, args.job_size)


def _task(args: argparse.Namespace) -> int:
    from zeenot.prio.tasks import new_task
    from zeenot.runtime.identity import write_secret

    try:
        vdaf = json.loads(args.vdaf)
    except ValueError:
        raise MalformedInput('--vdaf is JSON, e.g. \'{"type": "Prio3Sum", "bits": 32}\'') from None
    if not isinstance(vdaf, dict):
        raise MalformedInput("--vdaf is a JSON object")
    task, credential = new_task(
        args.leader, args.helper, vdaf, args.time_precision, args.min_batch_size
    )
    write_secret(args.output, json.dumps(task.to_json(), indent=2) + "\n")
    write_secret(args.credential, json.dumps(credential, indent=2) + "\n")
    print(f"task {task.task_id}: wrote {args.output} and {args.credential}")
    return 0
