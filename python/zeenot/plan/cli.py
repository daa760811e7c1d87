"""`zeenot calibrate` and `zeenot plan`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from zeenot.errors import MalformedInput
from zeenot.files import read_json, write_atomic
from zeenot.plan.planner import Plan, Weights, inlined_region, plan, regions_of
from zeenot.plan.profile import Profile, user_profile_path


def fmt_seconds(s: float) -> str:
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def fmt_bytes(n: float) -> str:
    for unit, size in (("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def render(p: Plan) -> str:
    w = p.weights
    peer = any(
        c.region.placement is not None and "peer" in c.region.placement.options.candidates
        for c in p.choices
    )
    lines = [
        f"profile: {p.profile.machine or 'unknown machine'} ({p.profile.measured_at[:10]})",
        f"weights: client {w.client:g}/s, server {w.server:g}/s, "
        + (f"peer {w.peer:g}/s, " if peer else "")
        + f"{w.byte:g}/byte; "
        f"{w.proofs_per_setup:g} proofs per groth16 setup",
        "",
        "| region | tier | size | back end | prove | verify | proof | setup/K | memory "
        "| objective | choice |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for c in p.choices:
        size = (
            f"{c.size['constraints']:.0f} constraints / {c.size['commitments']:.0f} "
            f"commitments, {c.size['gates']:.0f} gates"
        )
        tier = f"**{c.tier}**"
        for b, cost in c.predicted.items():
            mark = f"**{b}**" if b == c.backend else b
            lines.append(
                f"| {c.region.name} | {tier} | {size} | {mark} | {fmt_seconds(cost.prove_s)} | "
                f"{fmt_seconds(cost.verify_s)} | {fmt_bytes(cost.proof_bytes)} | "
                f"{fmt_seconds(cost.setup_s / w.proofs_per_setup)} | "
                f"{fmt_bytes(cost.peak_bytes)} | {c.objective[b]:.4g} | "
                f"{c.why() if b == c.backend else ''} |"
            )
            size = tier = ""
        for b, why in c.excluded.items():
            lines.append(
                f"| {c.region.name if size else ''} | {tier} | {size} | {b} | | | | | | | "
                f"cannot: {why} |"
            )
    if any(c.region.placement is not None for c in p.choices):  # an application: its tiers
        lines += ["", "| region | tier | why |", "|---|---|---|"]
        lines += [f"| {c.region.name} | {c.tier} | {c.tier_why} |" for c in p.choices]
    lines.append("")
    lines.append("| plan | prove | verify | proof | memory | objective |")
    lines.append("|---|---:|---:|---:|---:|---:|")
    for label, backend in (("planned", None), ("all groth16", "groth16"), ("all sigma", "sigma")):
        cost = p.total(backend)
        if cost is None:
            lines.append(f"| {label} | | | | | cannot prove every region |")
            continue
        lines.append(
            f"| {label} | {fmt_seconds(cost.prove_s)} | {fmt_seconds(cost.verify_s)} | "
            f"{fmt_bytes(cost.proof_bytes)} | {fmt_bytes(cost.peak_bytes)} | "
            f"{p.objective(backend):.4g} |"
        )
    if p.inlined is not None:
        c = p.inlined
        cost, objective = c.predicted[c.backend], c.objective[c.backend]
        lines.append(
            f"| one circuit (calls inlined), {c.backend} | {fmt_seconds(cost.prove_s)} | "
            f"{fmt_seconds(cost.verify_s)} | {fmt_bytes(cost.proof_bytes)} | "
            f"{fmt_bytes(cost.peak_bytes)} | {objective:.4g} |"
        )
        planned = p.objective()
        if planned is not None and objective < planned:
            lines += [
                "",
                f"The program as one circuit is predicted {planned / objective:.1f}× cheaper "
                "than in regions: every value crossing between regions costs a commitment in "
                "each (in Groth16, hundreds of constraints). Drop @zk from the callees to "
                "inline them, unless a region must be proved apart.",
            ]
    return _relative("\n".join(lines))


def _relative(text: str) -> str:
    """Source locations in the table (why a back end cannot prove a region) relative to the
    working directory, as the user names files: no checkout's absolute path in a table."""
    here = os.getcwd().rstrip(os.sep) + os.sep
    return text.replace(here, "") if here != os.sep else text


def cmd_plan(args: argparse.Namespace) -> int:
    inputs: dict[str, Any] | None = None
    if args.inputs:
        value = read_json(args.inputs, "inputs")
        if not isinstance(value, dict):
            raise MalformedInput(f"inputs `{args.inputs}` must be a JSON object")
        inputs = value
    profile = Profile.load(args.profile)
    regions = regions_of(args.target, inputs, args.length)
    declared = next((r.placement.weights for r in regions if r.placement), None)
    weights = Weights.parse(
        args.weights if args.weights is not None else declared, args.proofs_per_setup
    )
    p = plan(regions, profile, weights, inlined_region(args.target, inputs))
    if args.json:
        print(json.dumps(p.to_json(), indent=2))
    else:
        print(render(p))
    if args.plot:
        from zeenot.plan.plot import plot

        plot(profile, args.plot)
        print(f"plot: {args.plot}", file=sys.stderr)
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    from zeenot.plan.calibrate import calibrate, refit

    out = Path(args.output) if args.output else user_profile_path()
    out.parent.mkdir(parents=True, exist_ok=True)

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if args.refit:
        profile = refit(args.refit)
    else:
        profile = calibrate(quick=args.quick, reps=args.reps, passes=args.passes, progress=progress)
    write_atomic(out, profile.to_json().encode(), secret=False)
    print("| back end | measure | R² | largest error | samples |")
    print("|---|---|---:|---:|---:|")
    for backend, models in profile.models.items():
        for what, model in models.items():
            print(
                f"| {backend} | {what} | {model.r2:.4f} | {model.max_error * 100:.0f} % | "
                f"{model.samples} |"
            )
    print(f"profile: {out}", file=sys.stderr)
    return 0


def _reps(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError("a whole number from 1 to 100")
    return value


def _count(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a number") from None
    return value


def add_parsers(sub: Any) -> None:
    s = sub.add_parser(
        "calibrate",
        help="measure both back ends on this machine and fit the planner's cost models",
    )
    s.add_argument("-o", "--output", metavar="PROFILE.json", help=f"default: {user_profile_path()}")
    s.add_argument(
        "--quick", action="store_true", help="fewer sizes (seconds; the full run: about a minute)"
    )
    s.add_argument("--reps", type=_reps, default=3, help="best of N runs per measure (default 3)")
    s.add_argument(
        "--passes",
        type=_reps,
        default=1,
        help="measure every program N times, one pass after the other, keeping each measure's "
        "least (a shared, loaded machine: default 1)",
    )
    s.add_argument(
        "--refit",
        metavar="PROFILE.json",
        help="fit the models again on this profile's measured samples instead of measuring",
    )
    s.set_defaults(run=cmd_calibrate)

    s = sub.add_parser(
        "plan",
        help="choose a back end (and a movable worker's tier) per region from the cost models",
    )
    s.add_argument("target", metavar="APP.py:FN|APP.py|APP_DIR")
    s.add_argument(
        "--inputs",
        metavar="IN.json",
        help="inputs (APP.py:FN) or {region: inputs} (an app or module): public values, "
        "witness widths and the lengths of lists without MaxSize sharpen the predictions",
    )
    s.add_argument(
        "--length",
        type=int,
        default=16,
        metavar="N",
        help="length of lists without MaxSize when --inputs does not say (default 16)",
    )
    s.add_argument(
        "--proofs-per-setup",
        type=_count,
        metavar="K",
        help="proofs made per groth16 setup (default 1000)",
    )
    s.add_argument(
        "--weights",
        metavar="client=X,server=X,peer=X,byte=X",
        help="the objective's weights (default: the application's PLAN_WEIGHTS, else "
        "client=1,server=1,peer=1,byte=1e-6)",
    )
    s.add_argument("--profile", metavar="PROFILE.json", help="a profile from `zeenot calibrate`")
    s.add_argument("--json", action="store_true", help="print the plan as JSON")
    s.add_argument("--plot", metavar="OUT.png", help="draw the profile's fits (matplotlib)")
    s.set_defaults(run=cmd_plan)
