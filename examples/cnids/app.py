"""Collaborative network intrusion detection: ZØ's CNIDS case study.

Organisations that share intrusion alerts warn each other early: when one organisation's sensor
raises an alert, the attacking address goes on every participant's blocklist. Raw network traces
are far too sensitive to share, but an unverified alert invites abuse: a compromised participant
could get any address blocked. Here the participant whose sensor fired proves that its private
packet trace really matches the consortium's public attack signature.

A signature is three consecutive packets from one source within `window_ms` milliseconds, each
with a given destination port, exact TCP flags (FIN 1, SYN 2, RST 4, PSH 8, ACK 16) and a
minimum length in bytes. The signature in `inputs.json` is an SMB exploit's burst: SYN to port
445, ACK, then a PSH+ACK carrying at least 1000 bytes.

What is private: the trace (arrival time in ms since the capture started, source IPv4 address as
a 32-bit integer, destination port, flags, length of every packet) and its length.
What the verifier (the other participants) learns: the attacking source address, how many
positions in the trace match the signature, the position of the first match and its time.

No proof exists unless the trace is in time order and the signature occurs in it: in particular
there is none for a trace of fewer than three packets.

    zeenot simulate examples/cnids/app.py:alert --inputs examples/cnids/inputs.json
    zeenot compile  examples/cnids/app.py:alert -o out/cnids --json
    zeenot setup    out/cnids
    zeenot prove    out/cnids --inputs examples/cnids/inputs.json -o out/cnids/proof.json
    zeenot verify   out/cnids out/cnids/proof.json

`payload_alert` is ZØ's version: a byte-pattern signature (with a mask of wildcard bytes)
matched over the raw bytes of a capture the network tap signed:

    zeenot simulate examples/cnids/app.py:payload_alert --inputs examples/cnids/payload_inputs.json

`examples/cnids/data.py` regenerates `inputs.json` and `payload_inputs.json` (and any other
length) from a seed.
"""

# zip(xs, xs[1:]) pairs neighbours and stops at the shorter list by design:
# ruff: noqa: B905

from dataclasses import dataclass

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
    worker,
    zk,
)
from zeenot.babyjub import Point, eddsa_verify
from zeenot.babyjub import Signature as EdDSASignature

MAX_PACKETS = 64  # the circuit has room for a capture this long

Step = tuple[u16, u8, u16]  # destination port, TCP flags, minimum length
Signature = tuple[Step, Step, Step]


@dataclass(frozen=True)
class Packet:
    t_ms: u32  # arrival, ms since the capture started
    src: u32  # source IPv4 address
    dport: u16
    flags: u8
    length: u16  # bytes


def step_matches(p: Packet, step: Step) -> bool:
    port, flags, min_length = step
    return p.dport == port and p.flags == flags and p.length >= min_length


def attack(a: Packet, b: Packet, c: Packet, signature: Signature, window_ms: u32) -> bool:
    """Do the packets a, b, c (in time order) match the signature?"""
    return (
        a.src == b.src
        and b.src == c.src
        and step_matches(a, signature[0])
        and step_matches(b, signature[1])
        and step_matches(c, signature[2])
        and c.t_ms - a.t_ms <= window_ms
    )


@zk
def alert(
    trace: Private[MaxSize[list[Packet], MAX_PACKETS]],
    signature: Public[Signature],
    window_ms: Public[u32],
) -> tuple[u32, u32, u32, u32]:
    """The attacker's address, the number of matches, the first match's position and time."""
    check(all(a.t_ms <= b.t_ms for a, b in zip(trace, trace[1:])), "trace out of time order")
    hits = [attack(a, b, c, signature, window_ms) for a, b, c in zip(trace, trace[1:], trace[2:])]
    check(any(hits), "the signature does not occur in the trace")
    first = next((u32(i) for i, hit in enumerate(hits) if hit), u32(0))
    culprit = trace[first]  # indexing with a value computed in the circuit
    matches = u32(sum(u32(hit) for hit in hits))
    return culprit.src, matches, first, culprit.t_ms


# --------------------------------------------------------------------------------------------
# ZØ's CNIDS as the paper has it: the NIDS matches a byte-pattern signature over the *raw bytes*
# of captured traffic (ZØ's scaling axis is the trace in bytes, 100 and more). ZØ assumes the
# raw data reaching the NIDS is untampered; here the network tap signs each captured batch once
# (EdDSA-Poseidon over a Poseidon hash of the bytes, packed 31 to a field element), so the
# proof shows that bytes the tap really captured contain the attack, and reveals neither them
# nor their number.

MAX_BYTES = 128  # the circuit has room for a captured payload this long
PATTERN_LEN = 8
Pattern = tuple[u8, u8, u8, u8, u8, u8, u8, u8]  # bytes to match, where the mask is 1
Mask = tuple[bool, bool, bool, bool, bool, bool, bool, bool]  # False: any byte matches


def capture_digest(payload: list[u8]) -> Field:
    """What the tap signs: Poseidon over the length and the bytes, 31 to a field element."""
    h = Field(len(payload))
    acc = Field(0)
    for i, b in enumerate(payload):
        acc = acc * 256 + Field(b)
        if i % 31 == 30:
            h = poseidon(h, acc)
            acc = Field(0)
    return poseidon(h, acc)


def window_matches(window: Pattern, pattern: Pattern, mask: Mask) -> bool:
    return all(not m or b == p for b, p, m in zip(window, pattern, mask))


@zk
def payload_alert(
    payload: Private[MaxSize[list[u8], MAX_BYTES]],
    capture_sig: Private[EdDSASignature],
    tap: Public[Point],
    pattern: Public[Pattern],
    mask: Public[Mask],
) -> tuple[u32, u32]:
    """How many times the signature occurs in the captured bytes, and where first."""
    check(eddsa_verify(tap, capture_digest(payload), capture_sig), "not captured by the tap")
    p = payload
    windows = zip(p, p[1:], p[2:], p[3:], p[4:], p[5:], p[6:], p[7:])
    hits = [window_matches(w, pattern, mask) for w in windows]
    check(any(hits), "the signature does not occur in the capture")
    first = next((u32(i) for i, hit in enumerate(hits) if hit), u32(0))
    return u32(sum(u32(hit) for hit in hits)), first


# --------------------------------------------------------------------------------------------
# The application: the network monitor (client) keeps the packet capture and proves an alert
# against the operator's signature; the operator's server publishes the signature and the time
# window, checks the proof was made with them, and records the alert (never the capture).
#
#     zeenot serve examples/cnids/app.py --db out/cnids.db --port 8773 &
#     zeenot run examples/cnids/app.py --server http://127.0.0.1:8773 \
#         --inputs examples/cnids/run.json


@worker(tier="server")
def rule() -> tuple[Signature, u32]:
    """The operator's published signature (three packet steps) and window in ms: SMB probing
    (a SYN, then ACKs, then a payload of at least 1,000 bytes to port 445)."""
    syn, ack, payload = (
        (u16(445), u8(2), u16(0)),
        (u16(445), u8(16), u16(0)),
        (u16(445), u8(24), u16(1_000)),
    )
    return (syn, ack, payload), u32(2_000)


@worker(tier="client")
def detect(
    trace: Private[MaxSize[list[Packet], MAX_PACKETS], Client], signature: Signature, window: u32
):
    """On the monitor: the alert, proved from the private capture."""
    return alert(trace, signature, window)


@worker(tier="server")
def record_alert(monitor: str, src: u32, matches: u32, first: u32, t_ms: u32) -> dict:
    """At the operator: the verified alert."""
    ip = ".".join(str((src >> s) & 255) for s in (24, 16, 8, 0))
    return {"monitor": monitor, "attacker": ip, "matches": matches, "first": first, "t_ms": t_ms}


def main(monitor: str, trace: Private[MaxSize[list[Packet], MAX_PACKETS], Client]):
    signature, window = rule()
    src, matches, first, t_ms = detect(trace, signature, window)
    return record_alert(monitor, src, matches, first, t_ms)
