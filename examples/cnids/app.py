"""Collaborative network intrusion detection: ZØ's CNIDS case study.

Organisations that share intrusion alerts warn each other early: when one organisation's sensor
raises an alert, the attacking address goes on every participant's blocklist. Raw network traces
are far too sensitive to share, but an unverified alert invites abuse: a compromised participant
could get any address blocked, and a freeloader could suppress its own alerts.

`payload_alert` is ZØ's version and the one the application serves: a byte-pattern signature
(with a mask of wildcard bytes) matched over the raw bytes of a captured IPv4/TCP packet that a
consortium member's network tap signed (EdDSA-Poseidon over a Poseidon hash of the bytes). The
attacker's address is read from the signed packet's IPv4 header, so it is the address the tap
saw. The members' tap keys are compiled into the application (`TAPS`): bytes no member's tap
signed, or changed after signing, have no proof, and the proof does not say whose tap it was.

What is private: the packet (headers and payload), its length, the signature and which tap.
What the verifier learns: the attacker's IPv4 address (a 32-bit integer), how many times the
pattern occurs in the packet's TCP payload, and the first offset.

    zeenot simulate examples/cnids/app.py:payload_alert --inputs examples/cnids/payload_inputs.json
    zeenot compile  examples/cnids/app.py:payload_alert -o out/cnids --json
    zeenot setup    out/cnids
    zeenot prove    out/cnids --inputs examples/cnids/payload_inputs.json -o out/cnids/proof.json
    zeenot verify   out/cnids out/cnids/proof.json

The application serves it twice: `main`, a member's monitor reporting one alert to the
consortium's server, and `blocklist` (a PeerSum: runtime/peers.py), a round among the `K`
members in which each proves what its own signed capture adds to the blocklist and the sum
gives every member the attackers' addresses, never who saw them:

    zeenot serve examples/cnids/app.py --db out/cnids.db --port 8773 &
    zeenot run examples/cnids/app.py --server http://127.0.0.1:8773 \
        --inputs examples/cnids/run.json                                # one alert
    python examples/cnids/run.py --server http://127.0.0.1:8773          # a blocklist round

Variant (not served; kept as a list benchmark): `header_alert` matches a three-packet signature
(destination port, TCP flags, minimum length) over *unsigned* parsed packet headers: SYN to port
445, ACK, then a PSH+ACK carrying at least 1000 bytes, from one source within `window_ms`.

    zeenot simulate examples/cnids/app.py:header_alert --inputs examples/cnids/inputs.json

`examples/cnids/data.py` regenerates `inputs.json`, `payload_inputs.json` and `run.json` from a
seed.
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
from zeenot.runtime.peers import PeerSum

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
def header_alert(
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
# raw data reaching the NIDS is untampered; here each member's network tap signs each captured
# packet (EdDSA-Poseidon over a Poseidon hash of the bytes, packed 31 to a field element), so the
# proof shows that a packet a member's tap really captured carries the attack, and the address
# it names is the packet's IPv4 source.

K = 5  # consortium members (each with its tap; the blocklist round has one peer per member)
MAX_BYTES = 128  # the circuit has room for a captured packet this long (headers included)
PATTERN_LEN = 8
Pattern = tuple[u8, u8, u8, u8, u8, u8, u8, u8]  # bytes to match, where the mask is 1
Mask = tuple[bool, bool, bool, bool, bool, bool, bool, bool]  # False: any byte matches
Capture = MaxSize[list[u8], MAX_BYTES]

# The consortium's published signature: a shellcode-like byte pattern (a NOP sled, a short
# jump, any byte, then `pop esi; mov [esi+…]`).
PATTERN = (0x90, 0x90, 0x90, 0xEB, 0x1F, 0x00, 0x5E, 0x89)
MASK = (True, True, True, True, True, False, True, True)

# The members' taps' public keys (their signing keys never leave the taps; examples/cnids/data.py
# holds the example taps' seeds to make signed captures).
TAPS = (
    Point(
        Field(20123274046999264648045050939574415657560605695712026846996397343480457897434),
        Field(4536449712775045005018118831561309302581782229688779562378285809283784871857),
    ),
    Point(
        Field(17166243916450622257193252587865503586450120775384017483698639273947266695697),
        Field(2175503930206989510466692651101184334699890729081239348407388425196776171295),
    ),
    Point(
        Field(17748206461835912890505308969256866005360075584328102264484716193207305707386),
        Field(12885422271124340169380290445668187397579767127770351092226546057496343731430),
    ),
    Point(
        Field(8658500800543889145615537350238143656530403528543144460294741531672301431908),
        Field(2057475592215356885772770135149061360127329486809694242860762379423298162626),
    ),
    Point(
        Field(19950979784941152525761141922745539811929992158471874102973077750597370511063),
        Field(7221007339152041529716909059246098993819123319636632178188042528060364946586),
    ),
)


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


def member_tap(tap: Point) -> bool:
    """One of the consortium's taps (which one stays private)."""
    return any(tap.x == t.x and tap.y == t.y for t in TAPS)


def scan(packet: list[u8], pattern: Pattern, mask: Mask) -> tuple[u32, u32, u32]:
    """An IPv4 packet (no options) carrying TCP: its source address, and how many times the
    signature occurs in its TCP payload, and where first (an offset in the packet)."""
    p = packet
    check(p[0] == 0x45, "not an IPv4 packet without options")
    check(p[9] == 6, "not a TCP segment")
    check(u32(p[2]) * 256 + u32(p[3]) == len(p), "the IPv4 total length is not the capture's")
    check(p[32] // 16 >= 5, "a TCP header is at least 20 bytes")
    data_at = u32(20) + u32(p[32] // 16) * 4  # where the TCP payload starts
    windows = zip(p, p[1:], p[2:], p[3:], p[4:], p[5:], p[6:], p[7:])
    hits = [u32(i) >= data_at and window_matches(w, pattern, mask) for i, w in enumerate(windows)]
    source = ((u32(p[12]) * 256 + u32(p[13])) * 256 + u32(p[14])) * 256 + u32(p[15])
    first = next((u32(i) for i, hit in enumerate(hits) if hit), u32(0))
    return source, u32(sum(u32(hit) for hit in hits)), first


@zk
def payload_alert(
    packet: Private[Capture],
    capture_sig: Private[EdDSASignature],
    tap: Private[Point],
    pattern: Public[Pattern],
    mask: Public[Mask],
) -> tuple[u32, u32, u32]:
    """The attacker's address (the packet's IPv4 source), how many times the signature occurs
    in the packet's TCP payload, and where first; the packet must carry a member tap's
    signature."""
    check(member_tap(tap), "not a consortium member's tap")
    check(eddsa_verify(tap, capture_digest(packet), capture_sig), "not captured by the tap")
    attacker, matches, first = scan(packet, pattern, mask)
    check(matches > 0, "the signature does not occur in the capture")
    return attacker, matches, first


# --------------------------------------------------------------------------------------------
# The blocklist round (a PeerSum, runtime/peers.py): each of the K members proves what its own
# tap-signed capture adds to the blocklist, an alert or nothing, and secret-shares it; the sum
# is the blocklist. A member's addition is the power sums of its attacker's address a,
# (1, a, a², …, a^K), or zeros when its capture holds no attack, so the sum (n, Σa, Σa², …) is the
# power sums of the multiset of reported addresses: `blocklist_of` recovers the addresses and how
# many members reported each (Newton's identities, then the roots of a polynomial over the
# field), and nobody learns which member reported which. Every member must prove over a signed
# capture, so nobody adds an address its tap did not see.

W = K + 1  # the power sums 0..K: room for every member to report a different address
Sums = tuple[(Field,) * W]


def blocklist_entry(packet: Capture, capture_sig: EdDSASignature, tap: Point) -> list[Field]:
    """What one member adds: (1, a, …, a^K) for the attacker a its signed capture shows, or
    zeros if the capture holds no attack."""
    check(member_tap(tap), "not a consortium member's tap")
    check(eddsa_verify(tap, capture_digest(packet), capture_sig), "not captured by the tap")
    attacker, matches, _ = scan(packet, PATTERN, MASK)
    seen = Field(1) if matches > 0 else Field(0)
    a = Field(attacker) * seen
    return [seen if k == 0 else power(a, k) for k in range(W)]


def power(a: Field, k: int) -> Field:
    """a^k for a constant k."""
    out = a
    for _ in range(k - 1):
        out = out * a
    return out


def commit(v: list[Field], salt: Field) -> Field:
    """A hiding, binding commitment to one share."""
    return poseidon(v[0], v[1], v[2], v[3], v[4], v[5], salt)


@zk
def share_blocklist(
    packet: Private[Capture],
    capture_sig: Private[EdDSASignature],
    tap: Private[Point],
    masks: Private[tuple[(Sums,) * K]],  # shares 0..K-2 (the last mask is unused)
    salts: Private[tuple[(Field,) * K]],
) -> MaxSize[list[Field], K]:
    """Commitments to K shares that sum to what the member's signed capture adds."""
    entry = blocklist_entry(packet, capture_sig, tap)
    last = [entry[i] - sum(masks[j][i] for j in range(K - 1)) for i in range(W)]
    return [
        commit([masks[j][i] if j < K - 1 else last[i] for i in range(W)], salts[j])
        for j in range(K)
    ]


@zk
def sum_shares(
    shares: Private[tuple[(Sums,) * K]],
    salts: Private[tuple[(Field,) * K]],
    commitments: Public[tuple[(Field,) * K]],
) -> MaxSize[list[Field], W]:
    """The sum of the K shares a member received, each opening its sender's commitment."""
    for j in range(K):
        check(commit([shares[j][i] for i in range(W)], salts[j]) == commitments[j])
    return [sum(shares[j][i] for j in range(K)) for i in range(W)]


def dotted(address: int) -> str:
    return ".".join(str((address >> s) & 255) for s in (24, 16, 8, 0))


def blocklist_of(total: list[int]) -> dict:
    """The round's result: each reported address and how many members reported it (as bars
    on the server's dashboard)."""
    reported = decode_power_sums(total)
    return {
        "kind": "bars",
        "title": "blocklist: members reporting each address",
        "values": [count for _, count in reported],
        "labels": [dotted(a) for a, _ in reported],
        "alerts": sum(count for _, count in reported),
        "blocklist": [{"address": dotted(a), "ipv4": a, "reports": count} for a, count in reported],
    }


# ---- decoding the power sums (plain Python, on the server) ----------------------------------


def decode_power_sums(total: list[int]) -> list[tuple[int, int]]:
    """The (address, count) pairs, ascending, whose power sums mod P are `total` = (n, Σa, …,
    Σa^K); `ValueError` if no multiset of at most K IPv4 addresses has them."""
    n = total[0]
    if n == 0 and not any(total):
        return []
    if not 0 < n <= len(total) - 1:
        raise ValueError(f"{n} alerts cannot be decoded from {len(total) - 1} power sums")
    # Newton's identities: k·e_k = Σ_{i=1..k} (-1)^(i-1) e_(k-i) p_i
    e = [1]
    for k in range(1, n + 1):
        acc = sum((-1) ** (i - 1) * e[k - i] * total[i] for i in range(1, k + 1))
        e.append(acc * pow(k, -1, _P) % _P)
    # the polynomial whose roots are the addresses: Π (x - a) = Σ (-1)^k e_k x^(n-k)
    f = [(-1) ** (n - d) * e[n - d] % _P for d in range(n + 1)]  # coefficients, lowest first
    x_to_p = _powmod([0, 1], _P, f)
    distinct = _gcd(f, _sub(x_to_p, [0, 1]))  # Π over the distinct roots
    roots = sorted(_split(distinct))
    reported = []
    for r in roots:
        count, rest = 0, f
        while True:
            q, rem = _divmod(rest, [-r % _P, 1])
            if any(rem):
                break
            count, rest = count + 1, q
        reported.append((r, count))
    ok = all(r < 2**32 for r in roots) and sum(c for _, c in reported) == n
    if not ok or any(
        sum(c * pow(r, k, _P) for r, c in reported) % _P != total[k] for k in range(len(total))
    ):
        raise ValueError("the sums are not the power sums of IPv4 addresses")
    return reported


_P = 21888242871839275222246405745257275088548364400416034343698204186575808495617


def _trim(f: list[int]) -> list[int]:
    f = [c % _P for c in f]
    while f and f[-1] == 0:
        f.pop()
    return f


def _sub(a: list[int], b: list[int]) -> list[int]:
    n = max(len(a), len(b))
    return _trim([(a[i] if i < len(a) else 0) - (b[i] if i < len(b) else 0) for i in range(n)])


def _divmod(a: list[int], b: list[int]) -> tuple[list[int], list[int]]:
    a, b = _trim(a), _trim(b)
    inv = pow(b[-1], -1, _P)
    q = [0] * max(len(a) - len(b) + 1, 0)
    while len(a) >= len(b):
        c = a[-1] * inv % _P
        shift = len(a) - len(b)
        q[shift] = c
        a = _trim([a[i] - (c * b[i - shift] if i >= shift else 0) for i in range(len(a))])
    return q, a


def _mulmod(a: list[int], b: list[int], m: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b))
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return _divmod(out, m)[1]


def _powmod(base: list[int], e: int, m: list[int]) -> list[int]:
    out, base = [1], _divmod(base, m)[1]
    while e:
        if e & 1:
            out = _mulmod(out, base, m)
        base = _mulmod(base, base, m)
        e >>= 1
    return out


def _gcd(a: list[int], b: list[int]) -> list[int]:
    a, b = _trim(a), _trim(b)
    while b:
        a, b = b, _divmod(a, b)[1]
    inv = pow(a[-1], -1, _P)
    return [c * inv % _P for c in a]  # monic


def _split(f: list[int]) -> list[int]:
    """The roots of a monic `f` that is a product of distinct linear factors (Cantor and
    Zassenhaus: gcd(f, (x + r)^((P-1)/2) - 1) splits it for about half the shifts r)."""
    if len(f) <= 1:
        return []
    if len(f) == 2:
        return [-f[0] % _P]
    for r in range(1, 256):
        g = _gcd(f, _sub(_powmod([r, 1], (_P - 1) // 2, f), [1]))
        if 1 < len(g) < len(f):
            return _split(g) + _split(_divmod(f, g)[0])
    raise ValueError("the polynomial does not split")  # 2^-255 for distinct linear factors


blocklist = PeerSum(
    share=share_blocklist,
    combine=sum_shares,
    contribution=blocklist_entry,
    peers=K,
    result=blocklist_of,
)


# --------------------------------------------------------------------------------------------
# One alert as a client/server run: a member's monitor (client) keeps its signed packet and
# proves the alert against the consortium's published signature; the consortium's server checks
# the proof was made with that signature and records the alert (never the packet).
#
#     zeenot serve examples/cnids/app.py --db out/cnids.db --port 8773 &
#     zeenot run examples/cnids/app.py --server http://127.0.0.1:8773 \
#         --inputs examples/cnids/run.json


@worker(tier="server")
def rule() -> tuple[Pattern, Mask]:
    """The consortium's published signature: the byte pattern and its mask."""
    return PATTERN, MASK


@worker(tier="client")
def detect(
    packet: Private[Capture, Client],
    capture_sig: Private[EdDSASignature, Client],
    tap: Private[Point, Client],
    pattern: Pattern,
    mask: Mask,
):
    """On the monitor: the alert, proved from the private, tap-signed packet."""
    return payload_alert(packet, capture_sig, tap, pattern, mask)


@worker(tier="server")
def record_alert(monitor: str, attacker: u32, matches: u32, first: u32) -> dict:
    """At the consortium: the verified alert, its attacker's address for the blocklist."""
    return {"monitor": monitor, "attacker": dotted(attacker), "matches": matches, "first": first}


def main(
    monitor: str,
    packet: Private[Capture, Client],
    capture_sig: Private[EdDSASignature, Client],
    tap: Private[Point, Client],
):
    pattern, mask = rule()
    attacker, matches, first = detect(packet, capture_sig, tap, pattern, mask)
    return record_alert(monitor, attacker, matches, first)
