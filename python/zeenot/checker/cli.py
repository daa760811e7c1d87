"""`zeenot check DIR`: the under-constraint checker on a compiled circuit directory."""

from __future__ import annotations

import argparse
import json
from typing import Any

from zeenot import api
from zeenot.checker import Report, check

EXIT_OK, EXIT_FALSE = 0, 1


def add_parser(sub: Any) -> None:
    s = sub.add_parser(
        "check",
        help="prove that a circuit's outputs are functions of its inputs (not under-constrained)",
    )
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--timeout", type=float, default=2.0, metavar="S", help="per solver query")
    s.add_argument("--budget", type=float, default=60.0, metavar="S", help="all solver queries")
    s.add_argument(
        "--strict", action="store_true", help="exit 1 when some output is left undecided"
    )
    s.add_argument("--json", action="store_true", help="print the report as JSON")
    s.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    circuit = api.load(args.dir)
    if isinstance(circuit, api.Regions):
        raise api.MalformedInput(
            f"`{args.dir}` holds a program in regions: check each region's circuit "
            f"(`zeenot check {args.dir}/regions/NAME`)"
        )
    if not isinstance(circuit, api.Circuit):
        raise api.MalformedInput(
            f"`{args.dir}` holds a template: compile it with `MaxSize` bounds to check it"
        )
    report = check(circuit, timeout_s=args.timeout, budget_s=args.budget)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(render(report))
    if report.verdict == "under-constrained":
        return EXIT_FALSE
    if report.verdict == "unknown" and args.strict:
        return EXIT_FALSE
    return EXIT_OK


def render(r: Report) -> str:
    lines = [
        f"{r.name}: {r.verdict} ({r.constraints:,} constraints, {r.variables:,} variables, "
        f"{r.queries} solver queries, {r.seconds:.2f} s)"
    ]
    for o in r.outputs:
        lines.append(f"  {o.name}: {o.verdict} ({o.how})")
        if o.witness:
            shown = ", ".join(f"{k} = {v[0]} | {v[1]}" for k, v in list(o.witness.items())[:8])
            lines.append(f"    two witnesses, same inputs: {shown}")
    lines += [f"  error: {e}" for e in r.lints]
    lines += [f"  warning: {w}" for w in r.warnings[:10]]
    lines += [f"  note: {n}" for n in r.notes]
    if r.undetermined_witnesses:
        lines.append(
            f"  note: {r.undetermined_witnesses:,} intermediate witnesses not shown determined "
            "(they need not be, if no output depends on them)"
        )
    return "\n".join(lines)
