"""Synthetic ambulatory-monitor readings for the supervised-study example, and reference outputs.

A working day of readings about every twenty minutes (a few are missed): a resting baseline
particular to the participant, stress episodes (meetings, deadlines) that raise heart rate and
blood pressure for an hour or so, glucose peaks after meals and, for some participants, a
hypoglycaemic dip in the late afternoon.

    python examples/study/data.py   # rewrites inputs.json (36 readings), sensor_inputs.json
                                    # and run.json (the application's signed batches)
    python examples/study/data.py 64 --seed 3 -o /tmp/readings.json
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from zeenot import Field, poseidon
from zeenot.babyjub import eddsa_public_key, eddsa_sign
from zeenot.ir import format_inputs, to_json_value

HERE = Path(__file__).resolve().parent
DEFAULT_LENGTH = 36
DEFAULT_SEED = 4  # a participant with a hypoglycaemic reading and some high blood pressure

# the rules of app.py, repeated here so that the reference below is independent of it
RANGES = {"hr": (25, 240), "systolic": (60, 260), "diastolic": (30, 160), "glucose": (20, 600)}
HYPO_MG_DL = 70
NO_EPISODE = 65_535
CHANNELS = ("hr", "systolic", "diastolic", "glucose")
MEALS = (60, 300, 660)  # minutes after the start (08:00): breakfast, lunch, a snack


def generate(n: int, seed: int = 1) -> dict:
    """JSON inputs of `study_summary` with `n` readings."""
    rng = random.Random(seed)
    base_hr = rng.randint(58, 80)
    base_sys = rng.randint(112, 138)
    base_dia = rng.randint(70, 88)
    base_glu = rng.randint(82, 100)
    hypo_at = rng.randrange(420, 700) if rng.random() < 0.5 else None
    stress = sorted(rng.sample(range(0, 900, 30), 4))  # start of each stress episode
    readings = []
    minute = rng.randrange(0, 10)
    for _ in range(n):
        stressed = any(s <= minute < s + 60 for s in stress)
        since_meal = min((minute - m for m in MEALS if minute >= m), default=999)
        glu = base_glu + rng.randint(-8, 8)
        if since_meal < 120:  # the post-meal curve peaks after about 45 minutes
            glu += max(0, 70 - abs(since_meal - 45))
        if hypo_at is not None and hypo_at <= minute < hypo_at + 40:
            glu = rng.randint(52, 68)
        readings.append(
            {
                "minute": minute,
                "hr": base_hr + rng.randint(-6, 6) + (rng.randint(15, 35) if stressed else 0),
                "systolic": base_sys + rng.randint(-9, 9) + (rng.randint(8, 22) if stressed else 0),
                "diastolic": base_dia
                + rng.randint(-6, 6)
                + (rng.randint(4, 12) if stressed else 0),
                "glucose": glu,
            }
        )
        minute += rng.randint(17, 23) + (20 if rng.random() < 0.1 else 0)  # a missed reading
    return {"readings": readings, "high_systolic": 140, "high_diastolic": 90}


def reference(inputs: dict) -> list | None:
    """The study's aggregates computed directly on the JSON values; None where no proof exists."""
    rs = inputs["readings"]
    for r in rs:
        if any(not lo <= r[c] <= hi for c, (lo, hi) in RANGES.items()):
            return None
        if r["diastolic"] >= r["systolic"]:
            return None
    minutes = [r["minute"] for r in rs]
    if any(b <= a for a, b in zip(minutes, minutes[1:], strict=False)):
        return None
    moments = [[sum(r[c] for r in rs), sum(r[c] ** 2 for r in rs)] for c in CHANNELS]
    high = sum(
        1
        for r in rs
        if r["systolic"] >= inputs["high_systolic"] or r["diastolic"] >= inputs["high_diastolic"]
    )
    hrs = [r["hr"] for r in rs] or [0]
    gaps = [b - a for a, b in zip(minutes, minutes[1:], strict=False)] or [0]
    hypo = [r["minute"] for r in rs if r["glucose"] < HYPO_MG_DL] or [NO_EPISODE]
    return [len(rs), moments, high, [min(hrs), max(hrs)], max(gaps), hypo[0]]


GSR_SEED = bytes(range(10, 42))  # the example GSR sensor's key seed (kept in its hardware)
CAMERA_SEED = bytes(range(20, 52))  # the example camera's
STRESS_LEVEL = 800  # 8 µS
MIN_FRAMES = 3  # frames in a row with a face: a face-to-face interaction


def chain(items: list[tuple[int, int]]) -> Field:
    """A Poseidon hash chain over (time, value) pairs, seeded by their number."""
    h = Field(len(items))
    for t, v in items:
        h = poseidon(h, Field(t), Field(v))
    return h


def sensors(n_gsr: int = 48, n_frames: int = 80, seed: int = 1) -> dict:
    """`stress_study`'s inputs: a GSR trace (a baseline with stress responses) and camera
    frames (runs of faces: conversations), each batch signed by its sensor."""
    rng = random.Random(seed)
    gsr, t = [], 0
    baseline = level = rng.randint(250, 450)
    for _ in range(n_gsr):
        t += rng.randint(55, 65)
        if rng.random() < 0.1:
            level += rng.randint(400, 900)  # a stress response: conductance jumps, then decays
        level = baseline + (level - baseline) * 3 // 4 + rng.randint(-20, 20)
        gsr.append({"t": t, "conductance": max(level, 50)})
    frames, t, talking = [], 0, 0
    for _ in range(n_frames):
        t += rng.randint(20, 40)
        if talking == 0 and rng.random() < 0.12:
            talking = rng.randint(1, 7)
        faces = rng.randint(1, 3) if talking > 0 else int(rng.random() < 0.05)
        talking = max(talking - 1, 0)
        frames.append({"t": t, "faces": faces})
    g = [(s["t"], s["conductance"]) for s in gsr]
    f = [(x["t"], x["faces"]) for x in frames]
    return {
        "gsr": gsr,
        "gsr_sig": to_json_value(eddsa_sign(GSR_SEED, chain(g))),
        "frames": frames,
        "frames_sig": to_json_value(eddsa_sign(CAMERA_SEED, chain(f))),
        "gsr_sensor": to_json_value(eddsa_public_key(GSR_SEED)),
        "camera": to_json_value(eddsa_public_key(CAMERA_SEED)),
        "stress_level": STRESS_LEVEL,
        "min_frames": MIN_FRAMES,
    }


def sensors_reference(inputs: dict) -> list | None:
    """`stress_study` computed directly; None where no proof exists (batches the example
    sensors did not sign, samples out of time order)."""
    gsr, frames = inputs["gsr"], inputs["frames"]
    g = [(s["t"], s["conductance"]) for s in gsr]
    f = [(x["t"], x["faces"]) for x in frames]
    for key, seed, sig, items in (
        ("gsr_sensor", GSR_SEED, "gsr_sig", g),
        ("camera", CAMERA_SEED, "frames_sig", f),
    ):
        if inputs[key] != to_json_value(eddsa_public_key(seed)):
            return None
        if inputs[sig] != to_json_value(eddsa_sign(seed, chain(items))):
            return None  # EdDSA here is deterministic: the example sensor's only signature
    for items in (g, f):
        if any(b[0] <= a[0] for a, b in zip(items, items[1:], strict=False)):
            return None
    levels = [c for _, c in g]
    stressed = [c >= inputs["stress_level"] for c in levels]
    episodes = sum(1 for i, s in enumerate(stressed) if s and (i == 0 or not stressed[i - 1]))
    interactions, run = 0, 0
    for _, faces in f:
        run = run + 1 if faces > 0 else 0
        interactions += run == inputs["min_frames"]
    with_face = sum(1 for _, faces in f if faces > 0)
    return [
        len(levels),
        sum(levels),
        sum(stressed),
        episodes,
        max(levels, default=0),
        interactions,
        with_face,
    ]


def run(inputs: dict, participant: str = "S-042") -> dict:
    """The application's inputs (`main`): the participant and the signed batches (the sensors'
    keys and the thresholds are the researchers' published parameters)."""
    keep = ("gsr", "gsr_sig", "frames", "frames_sig")
    return {"participant": participant, **{k: inputs[k] for k in keep}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=DEFAULT_LENGTH, help="number of readings")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("-o", "--output", type=Path, default=HERE / "inputs.json")
    args = ap.parse_args()
    args.output.write_text(format_inputs(generate(args.n, args.seed)))
    signed = args.output.with_name("sensor_" + args.output.name)
    batches = sensors(seed=args.seed)
    signed.write_text(format_inputs(batches))
    args.output.with_name("run.json").write_text(format_inputs(run(batches)))
    print(f"wrote {args.output}: {args.n} readings, {signed} and run.json")


if __name__ == "__main__":
    main()
