"""Synthetic packet captures for the CNIDS example, and a reference signature matcher.

Background traffic to a server: web clients (HTTPS handshakes, requests, responses, teardowns),
DNS, SSH from the admin network and legitimate SMB from internal hosts (small writes, so they do
not match). An external host runs the SMB exploit burst (SYN, ACK, PSH+ACK with a large payload)
once, and a second time in longer captures.

    python examples/cnids/data.py             # rewrites inputs.json (50 packets),
                                              # payload_inputs.json and run.json (120 bytes)
    python examples/cnids/data.py 64 --seed 3 -o /tmp/trace.json

`payload()` makes the inputs of `payload_alert`: a captured IPv4/TCP packet (HTTP-like text
with an exploit's byte pattern in its payload), signed by a member's example network tap, and
the masked pattern; `members()` a blocklist round's captures, one per member, and
`blocklist_reference()` the blocklist they make.
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


K = 5  # consortium members, each with its tap
# the example taps' key seeds (kept in their hardware); member 0's signs `payload_inputs.json`
TAP_SEEDS = [bytes(range(50 + 7 * i, 82 + 7 * i)) for i in range(K)]
TAP_SEED = TAP_SEEDS[0]
DEFAULT_BYTES = 120
HEADERS = 40  # IPv4 without options (20 bytes) and TCP without options (20 bytes)
# a shellcode-like byte pattern: a NOP sled, a short jump, any byte, then `pop esi; mov [esi+…]`
PATTERN = [0x90, 0x90, 0x90, 0xEB, 0x1F, 0x00, 0x5E, 0x89]
MASK = [True, True, True, True, True, False, True, True]
SERVER = ip("192.0.2.10")  # the members' web server the packets are sent to


def capture_digest(payload: list[int]) -> Field:
    """The tap's Poseidon hash of the length and the bytes packed 31 to a field element."""
    h, acc = Field(len(payload)), 0
    for i, b in enumerate(payload):
        acc = acc * 256 + b
        if i % 31 == 30:
            h, acc = poseidon(h, Field(acc)), 0
    return poseidon(h, Field(acc))


def ipv4_tcp(src: int, dst: int, sport: int, dport: int, data: list[int], ident: int) -> list[int]:
    """The bytes of an IPv4 packet (no options, header checksum set) carrying a TCP segment
    (no options, PSH+ACK) with `data`."""
    total = HEADERS + len(data)
    header = [0x45, 0, total >> 8, total & 255, ident >> 8, ident & 255, 0x40, 0, 64, 6, 0, 0]
    header += list(src.to_bytes(4, "big")) + list(dst.to_bytes(4, "big"))
    words = sum(header[i] << 8 | header[i + 1] for i in range(0, 20, 2))
    while words >> 16:
        words = (words & 0xFFFF) + (words >> 16)
    header[10:12] = list((~words & 0xFFFF).to_bytes(2, "big"))
    tcp = list(sport.to_bytes(2, "big")) + list(dport.to_bytes(2, "big"))
    tcp += [0, 0, 0x1C, 0x2D, 0, 0, 0x61, 0x7A, 0x50, PSH + ACK, 0x01, 0xF6, 0, 0, 0, 0]
    return header + tcp + data


def payload(
    n: int, seed: int = 1, attacks: int = 1, member: int = 0, src: int | None = None
) -> dict:
    """`payload_alert`'s inputs: a captured packet of `n` bytes (headers included) whose TCP
    payload holds the pattern `attacks` times (any byte where the mask allows), signed by
    member `member`'s example tap. The source is `src`, else an external host when the packet
    attacks and a client on the intranet when it does not."""
    rng = random.Random(seed)
    if src is None:
        src = ip(
            f"203.0.113.{rng.randrange(1, 255)}" if attacks else f"10.0.3.{rng.randrange(2, 250)}"
        )
    text = b"GET /index.html HTTP/1.1\r\nHost: intranet\r\nUser-Agent: curl/8.5\r\n\r\n"
    m = max(n - HEADERS, 0)
    data = [text[i % len(text)] if rng.random() < 0.7 else rng.randrange(256) for i in range(m)]
    if not attacks:  # make sure the background bytes hold no accidental match
        data = [text[i % len(text)] for i in range(m)]
    for _ in range(attacks):
        at = rng.randrange(0, max(m - len(PATTERN), 0) + 1)
        for j, (b, keep) in enumerate(zip(PATTERN, MASK, strict=True)):
            if at + j < m:
                data[at + j] = b if keep else rng.randrange(256)
    packet = ipv4_tcp(src, SERVER, rng.randrange(32768, 61000), 80, data, rng.randrange(65536))
    packet = packet[:n]
    seed_bytes = TAP_SEEDS[member]
    return {
        "packet": packet,
        "capture_sig": to_json_value(eddsa_sign(seed_bytes, capture_digest(packet))),
        "tap": to_json_value(eddsa_public_key(seed_bytes)),
        "pattern": PATTERN,
        "mask": MASK,
    }


def scan_reference(inputs: dict) -> list | None:
    """The packet's source, the pattern's matches in its TCP payload and the first offset,
    computed directly; None where no proof exists (bytes no member's tap signed, not an IPv4
    packet without options carrying TCP, a length that is not the capture's)."""
    p = inputs["packet"]
    taps = [to_json_value(eddsa_public_key(s)) for s in TAP_SEEDS]
    if inputs["tap"] not in taps:
        return None
    seed = TAP_SEEDS[taps.index(inputs["tap"])]
    if inputs["capture_sig"] != to_json_value(eddsa_sign(seed, capture_digest(p))):
        return None  # EdDSA here is deterministic: the example tap's only signature
    if len(p) < 33 or p[0] != 0x45 or p[9] != 6 or p[2] * 256 + p[3] != len(p) or p[32] >> 4 < 5:
        return None
    data_at = 20 + 4 * (p[32] >> 4)
    k = len(inputs["pattern"])
    hits = [
        i
        for i in range(data_at, len(p) - k + 1)
        if all(
            not m or p[i + j] == b
            for j, (b, m) in enumerate(zip(inputs["pattern"], inputs["mask"], strict=True))
        )
    ]
    return [int.from_bytes(bytes(p[12:16]), "big"), len(hits), hits[0] if hits else 0]


def payload_reference(inputs: dict) -> list | None:
    """`payload_alert` computed directly; None where no proof exists (see `scan_reference`,
    and a packet without the attack)."""
    out = scan_reference(inputs)
    return None if out is None or out[1] == 0 else out


def members(seed: int = 1) -> list[dict]:
    """A blocklist round's data, one capture per member (`blocklist`'s share inputs): two
    members saw one attacker, one saw another, two saw only ordinary traffic."""
    rng = random.Random(seed)
    first, second = (ip(f"203.0.113.{rng.randrange(1, 255)}") for _ in range(2))
    sources = [first, None, second, first, None]
    out = []
    for member, src in enumerate(sources):
        doc = payload(
            DEFAULT_BYTES, seed * 10 + member, attacks=int(src is not None), member=member, src=src
        )
        out.append({k: doc[k] for k in ("packet", "capture_sig", "tap")})
    return out


def blocklist_reference(data: list[dict]) -> list[dict]:
    """The round's blocklist computed directly: each attacker a member's signed capture shows,
    with the number of members that saw it, ascending by address."""
    counts: dict[int, int] = {}
    for doc in data:
        out = scan_reference({**doc, "pattern": PATTERN, "mask": MASK})
        if out is None:
            raise ValueError("a member's capture has no proof")
        if out[1] > 0:
            counts[out[0]] = counts.get(out[0], 0) + 1
    return [
        {"address": str(ipaddress.IPv4Address(a)), "ipv4": a, "reports": c}
        for a, c in sorted(counts.items())
    ]


def run(inputs: dict, monitor: str = "edge-1") -> dict:
    """The application's run (`main`): the monitor and its signed packet."""
    return {"monitor": monitor, **{k: inputs[k] for k in ("packet", "capture_sig", "tap")}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=DEFAULT_LENGTH, help="packets in the trace")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("-o", "--output", type=Path, default=HERE / "inputs.json")
    args = ap.parse_args()
    args.output.write_text(format_inputs(generate(args.n, args.seed)))
    captured = args.output.with_name("payload_" + args.output.name)
    packet = payload(DEFAULT_BYTES, args.seed)
    captured.write_text(format_inputs(packet))
    args.output.with_name("run.json").write_text(format_inputs(run(packet)))
    print(f"wrote {args.output}: {args.n} packets, {captured} and run.json: {DEFAULT_BYTES} bytes")


if __name__ == "__main__":
    main()
