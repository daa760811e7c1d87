"""Synthetic UTM running traces for examples/activity, signed by an example location provider,
and a plain-Python reference of the distance.

A run starts near UTM easting 500 km, northing 5,200 km (zone 31T: Lausanne-ish) and keeps a
speed of 2.4–4.2 m/s with a slowly turning heading, one fix every 1–3 s, with a few centimetres
of position noise; about one step in fifty is a GPS glitch (a jump of 40–80 m, or a fix 5–8 s
late), which CRISP's filters leave out (time delta > 3 s or speed > 10 m/s). Coordinates are in
centimetres, timestamps in seconds from the start.

    python examples/activity/data.py               # inputs.json: 32 fixes
    python examples/activity/data.py --fixes 2048 -o /tmp/run.json
"""

from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

from zeenot.babyjub import BASE8, Point, eddsa_public_key
from zeenot.certified import SignedBlock, Source, circuit_inputs
from zeenot.ir import format_inputs

HERE = Path(__file__).resolve().parent
PROVIDER_SEED = bytes(range(120, 152))  # an example location provider's seed
PROVIDER_ID = 404
USER_SK = 987_654_321_987_654_321
ACTIVITY = 12  # the activity's number (the block's period)
MAX_DT_S, MAX_SPEED_CM_S = 3, 1_000  # CRISP's filters, as in certified.py


def fixes(n: int, seed: int = 1) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    t, e, north = 0, 500_000_00.0, 5_200_000_00.0
    heading = rng.uniform(0, 2 * math.pi)
    out = [(t, round(e), round(north))]
    while len(out) < n:
        dt = rng.randint(1, 3)
        speed = rng.uniform(240, 420)  # cm/s
        heading += rng.gauss(0, 0.15)
        e += speed * dt * math.cos(heading)
        north += speed * dt * math.sin(heading)
        glitch = rng.random()
        if glitch < 0.01:
            dt += rng.randint(5, 8)  # a late fix
        t += dt
        jump = rng.uniform(4_000, 8_000) if 0.01 <= glitch < 0.02 else 0.0  # a GPS jump
        out.append((t, round(e + jump + rng.gauss(0, 30)), round(north + rng.gauss(0, 30))))
    return out


def provider() -> Source:
    return Source(PROVIDER_SEED, PROVIDER_ID)


def user_key(sk: int = USER_SK) -> Point:
    return sk * BASE8


def flat(trace: list[tuple[int, int, int]]) -> list[int]:
    return [v for f in trace for v in f]


def inputs(n: int = 32, seed: int = 1, period: int = ACTIVITY, hinted: bool = False) -> dict:
    """The inputs of `distance_N` (`distance_hinted_N` with `hinted`: each step's length added,
    computed by the user as `step_lengths` does): the signed block's values as `Fix` records."""
    block = provider().sign(user_key(), period, flat(fixes(n, seed)), 32)
    doc = circuit_inputs(block, USER_SK, "trace")
    v = doc["trace"]
    doc["trace"] = [{"t": v[k], "e": v[k + 1], "n": v[k + 2]} for k in range(0, len(v), 3)]
    if hinted:
        doc["lengths"] = step_lengths(doc["trace"])
    return doc


def rounded_length(d2: int) -> int:
    """round(√d2): above r + ½ iff d2 > r² + r (r = ⌊√d2⌋)."""
    r = math.isqrt(d2)
    return r + 1 if d2 - r * r > r else r


def step_lengths(trace: list[dict]) -> list[int]:
    """Each step's rounded length in centimetres where the step counts, else 0 (the hinted
    circuits' `lengths`)."""
    out = []
    for a, b in zip(trace, trace[1:], strict=False):
        dt, d2 = b["t"] - a["t"], (b["e"] - a["e"]) ** 2 + (b["n"] - a["n"]) ** 2
        ok = 0 < dt <= MAX_DT_S and d2 <= (MAX_SPEED_CM_S * dt) ** 2
        out.append(rounded_length(d2) if ok else 0)
    return out


def reference(doc: dict) -> list[int] | None:
    """[centimetres, counted steps] computed directly; None where no proof exists."""
    trace = [(f["t"], f["e"], f["n"]) for f in doc["trace"]]
    block = SignedBlock.from_json(
        {
            "source_id": doc["source_id"],
            "source_key": doc["source"],
            "user": doc["user"],
            "period": doc["period"],
            "bits": 32,
            "values": flat(trace),
            "signature": doc["signature"],
        }
    )
    if block.source_key != eddsa_public_key(PROVIDER_SEED) or not block.verify():
        return None
    if user_key(int(doc["user_sk"])) != block.user:
        return None
    cm = counted = 0
    for (t0, e0, n0), (t1, e1, n1) in zip(trace, trace[1:], strict=False):
        if t1 <= t0:
            return None
        d2 = (e1 - e0) ** 2 + (n1 - n0) ** 2
        if t1 - t0 <= MAX_DT_S and d2 <= (MAX_SPEED_CM_S * (t1 - t0)) ** 2:
            cm += rounded_length(d2)
            counted += 1
    return [cm, counted]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixes", type=int, default=32, choices=(32, 256, 2048))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", type=Path, default=HERE / "inputs.json")
    ap.add_argument("--hinted", action="store_true", help="for distance_hinted_N: add `lengths`")
    args = ap.parse_args()
    doc = inputs(args.fixes, args.seed, hinted=args.hinted)
    args.output.write_text(format_inputs(doc))
    print(f"wrote {args.output}: {args.fixes} signed fixes, {reference(doc)} [cm, steps]")


if __name__ == "__main__":
    main()
