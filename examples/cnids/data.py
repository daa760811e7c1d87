"""Synthetic packet captures for the CNIDS example, and a reference signature matcher.

Background traffic to a server: web clients (HTTPS handshakes, requests, responses, teardowns),
DNS, SSH from the admin network and legitimate SMB from internal hosts (small writes, so they do
not match). An external host runs the SMB exploit burst (SYN, ACK, PSH+ACK with a large payload)
once, and a second time in longer captures.

    python examples/cnids/data.py             # rewrites inputs.json (50 packets) and
                                              # payload_inputs.json (120 bytes)
    python examples/cnids/data.py 64 --seed 3 -o /tmp/trace.json

`payload()` makes the inputs of `payload_alert`: raw captured bytes (HTTP-like text with an
exploit's byte pattern in it), signed by an example network tap, and the masked pattern.
"""

from __future__ import annotations

import argparse
import ipaddress
import random
from pathlib import Path

from zeenot import Field, poseidon
from zeenot.babyjub import eddsa_public_key, eddsa_sign
from zeenot.ir import format_inputs, to_json_value

HERE = Path(__file__).resolve().parent
DEFAULT_LENGTH = 50
DEFAULT_SEED = 1

FIN, SYN, RST, PSH, ACK = 1, 2, 4, 8, 16
SIGNATURE = [[445, SYN, 0], [445, ACK, 0], [445, PSH + ACK, 1000]]
WINDOW_MS = 2_000


def ip(text: str) -> int:
    return int(ipaddress.IPv4Address(text))


def _background(rng: random.Random) -> list[tuple[int, int, int, int]]:
    """A few packets of one ordinary exchange: (src, dport, flags, length) each."""
    kind = rng.choices(("web", "dns", "ssh", "smb"), weights=(6, 2, 1, 1))[0]
    if kind == "web":
        src = ip(f"198.51.100.{rng.randrange(1, 255)}")
        return [(src, 443, SYN, 60), (src, 443, ACK, 52), (src, 443, PSH + ACK, 517)][
            : rng.randint(1, 3)
        ]
    if kind == "dns":
        return [(ip(f"10.0.1.{rng.randrange(2, 250)}"), 53, 0, rng.randint(60, 120))]
    if kind == "ssh":
        return [(ip("10.0.9.2"), 22, PSH + ACK, rng.randint(80, 400))]
    src = ip(f"10.0.2.{rng.randrange(2, 250)}")  # an internal file share: small writes
    return [(src, 445, SYN, 60), (src, 445, ACK, 52), (src, 445, PSH + ACK, rng.randint(90, 900))]


def generate(n: int, seed: int = 1) -> dict:
    """JSON inputs of `alert` with a capture of `n` packets."""
    rng = random.Random(seed)
    attacker = ip(f"203.0.113.{rng.randrange(1, 255)}")
    bursts = 0 if n < 3 else 1 if n < 24 else 2  # in longer captures the attacker tries again
    background: list[tuple[int, int, int, int]] = []
    while len(background) < n - 3 * bursts:
        background.extend(_background(rng))
    del background[n - 3 * bursts :]
    spots = sorted(rng.sample(range(len(background) + 1), bursts))
    packets, done = [], 0
    for spot in spots:
        payload = rng.randint(1100, 1460)
        burst = [
            (attacker, 445, SYN, 60),
            (attacker, 445, ACK, 52),
            (attacker, 445, PSH + ACK, payload),
        ]
        packets += background[done:spot] + burst
        done = spot
    packets += background[done:]
    t = rng.randrange(0, 500)
    trace = []
    for src, port, flags, length in packets:
        t += rng.randint(1, 15) if src == attacker else int(rng.expovariate(1 / 60))
        trace.append({"t_ms": t, "src": src, "dport": port, "flags": flags, "length": length})
    return {"trace": trace, "signature": SIGNATURE, "window_ms": WINDOW_MS}


def reference(inputs: dict) -> list | None:
    """The alert computed directly on the JSON values; None where no proof exists."""
    trace, sig, window = inputs["trace"], inputs["signature"], inputs["window_ms"]
    if any(b["t_ms"] < a["t_ms"] for a, b in zip(trace, trace[1:], strict=False)):
        return None
    hits = []
    for i in range(len(trace) - 2):
        w = trace[i : i + 3]
        same_source = len({p["src"] for p in w}) == 1
        shape = all(
            p["dport"] == port and p["flags"] == flags and p["length"] >= least
            for p, (port, flags, least) in zip(w, sig, strict=False)
        )
        if same_source and shape and w[2]["t_ms"] - w[0]["t_ms"] <= window:
            hits.append(i)
    if not hits:
        return None
    first = trace[hits[0]]
    return [first["src"], len(hits), hits[0], first["t_ms"]]


TAP_SEED = bytes(range(50, 82))  # an example network tap's key seed (kept in its hardware)
DEFAULT_BYTES = 120
# a shellcode-like byte pattern: a NOP sled, a short jump, any byte, then `pop esi; mov [esi+…]`
PATTERN = [0x90, 0x90, 0x90, 0xEB, 0x1F, 0x00, 0x5E, 0x89]
MASK = [True, True, True, True, True, False, True, True]


def capture_digest(payload: list[int]) -> Field:
    """The tap's Poseidon hash of the length and the bytes packed 31 to a field element."""
    h, acc = Field(len(payload)), 0
    for i, b in enumerate(payload):
        acc = acc * 256 + b
        if i % 31 == 30:
            h, acc = poseidon(h, Field(acc)), 0
    return poseidon(h, Field(acc))


def payload(n: int, seed: int = 1, attacks: int = 1) -> dict:
    """`payload_alert`'s inputs: `n` captured bytes with the pattern `attacks` times (any
    byte where the mask allows), signed by the example tap."""
    rng = random.Random(seed)
    text = b"GET /index.html HTTP/1.1\r\nHost: intranet\r\nUser-Agent: curl/8.5\r\n\r\n"
    data = [text[i % len(text)] if rng.random() < 0.7 else rng.randrange(256) for i in range(n)]
    for _ in range(attacks):
        at = rng.randrange(0, max(n - len(PATTERN), 0) + 1)
        for j, (b, m) in enumerate(zip(PATTERN, MASK, strict=True)):
            if at + j < n:
                data[at + j] = b if m else rng.randrange(256)
    return {
        "payload": data,
        "capture_sig": to_json_value(eddsa_sign(TAP_SEED, capture_digest(data))),
        "tap": to_json_value(eddsa_public_key(TAP_SEED)),
        "pattern": PATTERN,
        "mask": MASK,
    }


def payload_reference(inputs: dict) -> list | None:
    """`payload_alert` computed directly; None where no proof exists (bytes the example tap
    did not sign, no match)."""
    data = inputs["payload"]
    if inputs["tap"] != to_json_value(eddsa_public_key(TAP_SEED)):
        return None
    if inputs["capture_sig"] != to_json_value(eddsa_sign(TAP_SEED, capture_digest(data))):
        return None  # EdDSA here is deterministic: the example tap's only signature
    k = len(inputs["pattern"])
    hits = [
        i
        for i in range(len(data) - k + 1)
        if all(
            not m or data[i + j] == p
            for j, (p, m) in enumerate(zip(inputs["pattern"], inputs["mask"], strict=True))
        )
    ]
    if not hits:
        return None
    return [len(hits), hits[0]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=DEFAULT_LENGTH, help="packets in the trace")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("-o", "--output", type=Path, default=HERE / "inputs.json")
    args = ap.parse_args()
    args.output.write_text(format_inputs(generate(args.n, args.seed)))
    captured = args.output.with_name("payload_" + args.output.name)
    captured.write_text(format_inputs(payload(DEFAULT_BYTES, args.seed)))
    print(f"wrote {args.output}: {args.n} packets, {captured}: {DEFAULT_BYTES} bytes")


if __name__ == "__main__":
    main()
