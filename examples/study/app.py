"""A supervised study: ZØ's case study of physiological data reported to researchers.

Participants in a study on workplace stress wear sensors for a working session; they are paid
for taking part, which gives them a reason to fake a calm or sociable day, and the raw data are
medical and personal. The participant's device keeps the raw data and sends the researchers
only the aggregates the study needs, with a proof that they were computed from data the sensors
signed.

`stress_study` is ZØ's version and the one the application serves: the effect of workplace
events on stress, from a galvanic skin response (GSR) sensor and a camera that detects
face-to-face interactions (its on-device detector reports per frame only how many faces it
saw). Each sensor signs its batch once (EdDSA-Poseidon over a Poseidon hash chain of the batch)
and the sensors' public keys are parameters the researchers publish: readings a sensor did not
sign, or changed after signing, have no proof.

What is private: every GSR sample and camera frame, their numbers, and the signatures.
What the verifier (the research team) learns, for the stress level and interaction length it
chose: the number of GSR samples, their sum (for the mean), how many were at or above the
stress level, the stress episodes (rises to it), the peak; the face-to-face interactions (runs
of at least `min_frames` frames with a face) and the frames with a face.

    zeenot simulate examples/study/app.py:stress_study --inputs examples/study/sensor_inputs.json
    zeenot compile  examples/study/app.py:stress_study -o out/study --json
    zeenot setup    out/study
    zeenot prove    out/study --inputs examples/study/sensor_inputs.json -o out/study/proof.json
    zeenot verify   out/study out/study/proof.json

Variant (not served; kept as a list benchmark): `vitals_summary` aggregates *unsigned* readings
of an ambulatory monitor (heart rate, blood pressure, glucose, each range-checked and in time
order): per channel the sum and sum of squares, the readings at or above hypertension
thresholds, the heart-rate range, the longest gap and the first hypoglycaemic reading.

    zeenot simulate examples/study/app.py:vitals_summary --inputs examples/study/inputs.json

`examples/study/data.py` regenerates `inputs.json`, `sensor_inputs.json` and `run.json` (and
any other length) from a seed.
"""
# zip(xs, xs[1:]) pairs neighbours and stops at the shorter list by design:
# ruff: noqa: B905

from dataclasses import dataclass

import zeenot
from zeenot import (
    Client,
    Field,
    MaxSize,
    Private,
    Public,
    check,
    poseidon,
    u8,
    u16,
    u32,
    u64,
    worker,
    zk,
)
from zeenot.babyjub import Point, Signature, eddsa_verify

MAX_READINGS = 64  # room for about 21 hours at one reading every 20 minutes

HYPO_MG_DL = 70  # glucose below this is hypoglycaemia
NO_EPISODE = 65_535  # `first_hypo_minute` when there was none

Moments = tuple[u64, u64]  # (Σx, Σx²)


@dataclass(frozen=True)
class Reading:
    minute: u16  # minutes since the start of the protocol
    hr: u8  # heart rate, beats per minute
    systolic: u16  # blood pressure, mmHg
    diastolic: u16  # mmHg
    glucose: u16  # mg/dL


def valid(r: Reading) -> bool:
    """The ranges the sensors can report; anything else is a faulty or forged reading."""
    return (
        25 <= r.hr <= 240
        and 60 <= r.systolic <= 260
        and 30 <= r.diastolic <= 160
        and r.diastolic < r.systolic
        and 20 <= r.glucose <= 600
    )


def add(m: Moments, x: u64) -> Moments:
    return m[0] + x, m[1] + x * x


@zk
def vitals_summary(
    readings: Private[MaxSize[list[Reading], MAX_READINGS]],
    high_systolic: Public[u16],
    high_diastolic: Public[u16],
) -> tuple[u32, tuple[Moments, Moments, Moments, Moments], u32, tuple[u8, u8], u16, u16]:
    """Aggregates for the study: see the module docstring for the order of the outputs."""
    zero = u64(0)
    hr, systolic, diastolic, glucose = (zero, zero), (zero, zero), (zero, zero), (zero, zero)
    earliest = u32(0)  # the next reading may not be taken before this minute
    for r in readings:
        check(valid(r), "reading outside the sensors' range")
        check(u32(r.minute) >= earliest, "readings must be in strictly increasing time order")
        earliest = u32(r.minute) + 1
        hr = add(hr, u64(r.hr))
        systolic = add(systolic, u64(r.systolic))
        diastolic = add(diastolic, u64(r.diastolic))
        glucose = add(glucose, u64(r.glucose))

    high = [r for r in readings if r.systolic >= high_systolic or r.diastolic >= high_diastolic]
    hr_range = (
        min((r.hr for r in readings), default=u8(0)),
        max((r.hr for r in readings), default=u8(0)),
    )
    longest_gap = max((b.minute - a.minute for a, b in zip(readings, readings[1:])), default=u16(0))
    no_episode = Reading(u16(NO_EPISODE), u8(0), u16(0), u16(0), u16(0))
    first_hypo = zeenot.find(readings, lambda r: r.glucose < HYPO_MG_DL, no_episode)
    return (
        u32(len(readings)),
        (hr, systolic, diastolic, glucose),
        u32(len(high)),
        hr_range,
        longest_gap,
        first_hypo.minute,
    )


# --------------------------------------------------------------------------------------------
# ZØ's study as the paper has it: the effect of workplace events on stress, from a galvanic skin
# response (GSR) sensor and a camera that detects face-to-face interactions. The camera's
# detector runs on the device and reports per frame only how many faces it saw; each sensor
# signs its batch once (EdDSA-Poseidon over a Poseidon hash chain of the batch), so a
# participant cannot fake a calm or sociable day, and the researchers get the aggregates only.

MAX_GSR = 64  # GSR samples per batch (one a minute: about an hour)
MAX_FRAMES = 96  # camera frames per batch


@dataclass(frozen=True)
class GsrSample:
    t: u32  # seconds since the start of the session
    conductance: u16  # skin conductance, hundredths of a microsiemens


@dataclass(frozen=True)
class Frame:
    t: u32  # seconds since the start of the session
    faces: u8  # faces the camera's on-device detector saw in this frame


def gsr_digest(samples: list[GsrSample]) -> Field:
    """What the GSR sensor signs: a Poseidon hash chain over the batch, seeded by its length."""
    h = Field(len(samples))
    for s in samples:
        h = poseidon(h, Field(s.t), Field(s.conductance))
    return h


def frames_digest(frames: list[Frame]) -> Field:
    """What the camera signs: a Poseidon hash chain over the batch, seeded by its length."""
    h = Field(len(frames))
    for f in frames:
        h = poseidon(h, Field(f.t), Field(f.faces))
    return h


@zk
def stress_study(
    gsr: Private[MaxSize[list[GsrSample], MAX_GSR]],
    gsr_sig: Private[Signature],
    frames: Private[MaxSize[list[Frame], MAX_FRAMES]],
    frames_sig: Private[Signature],
    gsr_sensor: Public[Point],
    camera: Public[Point],
    stress_level: Public[u16],
    min_frames: Public[u32],
) -> tuple[u32, u64, u32, u32, u16, u32, u32]:
    """GSR: samples, their sum (for the mean), samples at or above `stress_level`, stress
    episodes (rises to it) and the peak; camera: face-to-face interactions (runs of at least
    `min_frames` frames with a face) and the frames with a face."""
    check(eddsa_verify(gsr_sensor, gsr_digest(gsr), gsr_sig), "not the GSR sensor's readings")
    check(eddsa_verify(camera, frames_digest(frames), frames_sig), "not the camera's frames")
    check(all(a.t < b.t for a, b in zip(gsr, gsr[1:])), "GSR samples out of time order")
    check(all(a.t < b.t for a, b in zip(frames, frames[1:])), "frames out of time order")
    stressed = [s.conductance >= stress_level for s in gsr]
    rises = sum(u32(b and not a) for a, b in zip(stressed, stressed[1:]))
    episodes = next((u32(x) for x in stressed), u32(0)) + rises  # a stressed start is one too
    run = u32(0)
    interactions = u32(0)
    for f in frames:
        run = run + 1 if f.faces > 0 else u32(0)
        if run == min_frames:
            interactions += 1
    return (
        u32(len(gsr)),
        sum(u64(s.conductance) for s in gsr),
        sum(u32(x) for x in stressed),
        episodes,
        max((s.conductance for s in gsr), default=u16(0)),
        interactions,
        sum(u32(1) for f in frames if f.faces > 0),
    )


# --------------------------------------------------------------------------------------------
# The application: the participant's device (client) proves the aggregates from its private,
# sensor-signed data; the researchers' server publishes the sensors' keys and the study's
# thresholds, checks the proof was made with them, and records the participant's aggregates.
#
#     zeenot serve examples/study/app.py --db out/study.db --port 8771 &
#     zeenot run examples/study/app.py --server http://127.0.0.1:8771 \
#         --inputs examples/study/run.json

# The public keys of the study's sensors (their signing keys never leave the hardware;
# examples/study/data.py holds the example sensors' seeds to make signed batches).
GSR_SENSOR = Point(
    Field(9581205976767015234622322823963996543697795387982095333388399843854410792728),
    Field(9196474920291407401546218165676337588686165974795150027766097487815422525198),
)
CAMERA = Point(
    Field(2332494389009619235599047809506297693808027533890316083939792341325638234075),
    Field(249881287643962294865858993552935373705864026807041933948625510702733553163),
)

GsrLog = MaxSize[list[GsrSample], MAX_GSR]
FrameLog = MaxSize[list[Frame], MAX_FRAMES]


@worker(tier="server")
def protocol() -> tuple[Point, Point, u16, u32]:
    """The study's published parameters: the GSR sensor's and the camera's keys, the stress
    level (hundredths of a microsiemens) and the frames in a row that make an interaction."""
    return GSR_SENSOR, CAMERA, u16(800), u32(3)


@worker(tier="client")
def summarise(
    gsr: Private[GsrLog, Client],
    gsr_sig: Private[Signature, Client],
    frames: Private[FrameLog, Client],
    frames_sig: Private[Signature, Client],
    gsr_sensor: Point,
    camera: Point,
    level: u16,
    min_frames: u32,
):
    """On the participant's device: the aggregates of the signed batches, proved."""
    return stress_study(gsr, gsr_sig, frames, frames_sig, gsr_sensor, camera, level, min_frames)


@worker(tier="server")
def enrol(participant: str, summary: list) -> dict:
    """At the researchers: the participant's verified aggregates, in the study's records."""
    samples, total, stressed, episodes, peak, interactions, with_face = summary
    return {
        "participant": participant,
        "gsr_samples": samples,
        "conductance_sum": total,
        "stressed_samples": stressed,
        "stress_episodes": episodes,
        "peak_conductance": peak,
        "interactions": interactions,
        "frames_with_face": with_face,
    }


def main(
    participant: str,
    gsr: Private[GsrLog, Client],
    gsr_sig: Private[Signature, Client],
    frames: Private[FrameLog, Client],
    frames_sig: Private[Signature, Client],
):
    gsr_sensor, camera, level, min_frames = protocol()
    summary = summarise(gsr, gsr_sig, frames, frames_sig, gsr_sensor, camera, level, min_frames)
    return enrol(participant, summary)
