"""Synthetic activity-tracker logs for the walk-for-charity example, and a reference donation.

A day is a sequence of activity segments: resting at home, walking, running, a car ride (the
tracker still registers some "steps" from the vibration; the speed gives it away) and the
tracker being switched off for a while. One sample per minute, give or take a few seconds.

    python examples/fitbit/data.py     # rewrites inputs.json, signed_inputs.json and run.json
    python examples/fitbit/data.py 64 --seed 3 -o /tmp/trace.json

`signed()` makes the inputs of `distance_donation`: the same log signed by an example tracker
(one EdDSA-Poseidon signature over a Poseidon hash chain of the samples); `run()` the
application's run (`zeenot run --inputs run.json`): a walker, the log and its signature.
"""

from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

from zeenot import Field, poseidon
from zeenot.babyjub import eddsa_public_key, eddsa_sign
from zeenot.ir import format_inputs, to_json_value

HERE = Path(__file__).resolve().parent
DEFAULT_LENGTH = 40
DEFAULT_SEED = 7  # a day with two car rides and the tracker off twice

# the rules of app.py, repeated here so that the reference below is independent of it
MAX_CADENCE = 4
MAX_FOOT_SPEED = 7
MAX_GAP_S = 3_600
MAX_BIKE_SPEED = 12
TRACKER_SEED = bytes(range(100, 132))  # an example tracker's key seed (kept in its hardware)

# segment kind: (steps per minute range, speed range in m/s, segment length in samples)
SEGMENTS = {
    "rest": ((0, 12), (0.0, 0.0), (2, 8)),
    "walk": ((85, 125), (1.1, 1.6), (3, 12)),
    "run": ((145, 180), (2.4, 3.6), (2, 8)),
    "car": ((0, 40), (8.0, 22.0), (2, 5)),
}
KINDS = ("rest", "walk", "walk", "run", "car")


def generate(n: int, seed: int = 1) -> dict:
    """JSON inputs of `donation` with a log of `n` samples."""
    rng = random.Random(seed)
    t = 7 * 3600 + rng.randrange(0, 1800)  # the day starts around 07:00
    x = y = 0.0
    heading = rng.uniform(0, 2 * math.pi)
    trace: list[dict] = []
    kind, left = "rest", 1
    while len(trace) < n:
        if left == 0:
            kind = rng.choice(KINDS)
            left = rng.randint(*SEGMENTS[kind][2])
            if rng.random() < 0.08:  # the tracker was off: a long gap before this segment
                t += rng.randrange(900, 3 * 3600)
        left -= 1
        dt = 60 + rng.randint(-4, 4) if trace else 0
        t += dt
        (s_lo, s_hi), (v_lo, v_hi), _ = SEGMENTS[kind]
        steps = rng.randint(s_lo, s_hi) * dt // 60
        heading += rng.gauss(0, 0.4)
        dist = rng.uniform(v_lo, v_hi) * dt
        x += dist * math.cos(heading) + rng.gauss(0, 3)  # GPS noise of a few metres
        y += dist * math.sin(heading) + rng.gauss(0, 3)
        if abs(x) > 20_000 or abs(y) > 20_000:  # stay in town: turn back towards home
            heading += math.pi
        trace.append({"t": t, "steps": steps, "x": round(x), "y": round(y)})
    return {"trace": trace, "cents_per_1000_steps": 25, "cap_cents": 5_000}


def reference(inputs: dict) -> list | None:
    """The donation computed directly on the JSON values; None where no proof exists."""
    trace = inputs["trace"]
    pairs = list(zip(trace, trace[1:], strict=False))
    if any(b["t"] <= a["t"] for a, b in pairs):
        return None
    i32 = range(-(2**31), 2**31)
    if any(b[c] - a[c] not in i32 for a, b in pairs for c in "xy"):
        return None
    if any(b["steps"] > MAX_CADENCE * (b["t"] - a["t"]) for a, b in pairs):
        return None
    steps = 0
    for a, b in pairs:
        reach = MAX_FOOT_SPEED * min(b["t"] - a["t"], MAX_GAP_S)
        if (b["x"] - a["x"]) ** 2 + (b["y"] - a["y"]) ** 2 <= reach**2:
            steps += b["steps"]
    due = steps * inputs["cents_per_1000_steps"] // 1000
    cap = inputs["cap_cents"]
    return [min(due, cap), steps, due > cap]


def digest(trace: list[dict]) -> Field:
    """The Poseidon hash chain the tracker signs (seeded by the number of samples)."""
    h = Field(len(trace))
    for s in trace:
        h = poseidon(h, Field(s["t"]), Field(s["steps"]), Field(s["x"]), Field(s["y"]))
    return h


def signed(inputs: dict, cents_per_km: int = 30) -> dict:
    """`distance_donation`'s inputs: the log, the tracker's signature on it, its public key."""
    trace = inputs["trace"]
    return {
        "trace": trace,
        "signature": to_json_value(eddsa_sign(TRACKER_SEED, digest(trace))),
        "tracker": to_json_value(eddsa_public_key(TRACKER_SEED)),
        "cents_per_km": cents_per_km,
        "cap_cents": inputs["cap_cents"],
    }


def distance_reference(inputs: dict) -> list | None:
    """`distance_donation` computed directly; None where no proof exists (a log the example
    tracker did not sign, time running backwards)."""
    trace = inputs["trace"]
    if inputs["tracker"] != to_json_value(eddsa_public_key(TRACKER_SEED)):
        return None
    if inputs["signature"] != to_json_value(eddsa_sign(TRACKER_SEED, digest(trace))):
        return None  # EdDSA here is deterministic: the example tracker's only signature
    pairs = list(zip(trace, trace[1:], strict=False))
    if any(b["t"] <= a["t"] for a, b in pairs):
        return None
    metres = 0
    for a, b in pairs:
        reach = MAX_BIKE_SPEED * min(b["t"] - a["t"], MAX_GAP_S)
        d2 = (b["x"] - a["x"]) ** 2 + (b["y"] - a["y"]) ** 2
        if d2 <= reach**2:
            metres += math.isqrt(d2)
    due = metres * inputs["cents_per_km"] // 1000
    cap = inputs["cap_cents"]
    return [min(due, cap), metres, due > cap]


def run(inputs: dict, walker: str = "W-17") -> dict:
    """The application's inputs (`main`): the walker, the signed log and its signature."""
    doc = signed(inputs)
    return {"walker": walker, "trace": doc["trace"], "signature": doc["signature"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=DEFAULT_LENGTH, help="samples in the log")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("-o", "--output", type=Path, default=HERE / "inputs.json")
    args = ap.parse_args()
    inputs = generate(args.n, args.seed)
    args.output.write_text(format_inputs(inputs))
    signed_output = args.output.with_name("signed_" + args.output.name)
    signed_output.write_text(format_inputs(signed(inputs)))
    run_output = args.output.with_name("run.json")
    run_output.write_text(format_inputs(run(inputs)))
    print(f"wrote {args.output}, {signed_output} and {run_output}: {args.n} samples")


if __name__ == "__main__":
    main()
