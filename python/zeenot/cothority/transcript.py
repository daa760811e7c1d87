"""A query's transcript and its verification: what every answering server checks before it
key-switches, what the querier checks before it decrypts, and what the auditor re-checks.

A transcript (JSON) holds the query, the deployment's collective key and verification keys,
the answering servers in order, the servers excluded (and the signed output that got them
excluded), the records (ciphertexts and proofs), and each server's signed output of each step:
`shuffle` (one per answering server, in order, when the query has GROUP BY or WHERE: its
shuffle of the query's rows, UnLynx's verifiable shuffle, so that the tags computed on the
last server's rows cannot be linked to the records), `tag` (one per answering server, in
order, on the shuffled rows, when the query has GROUP BY or WHERE), `noise`
(one per answering server, when the query asks for noise: its shuffle of every noise list, in
order, or its own draws) and `keyswitch` (one each).
Everything else (the tags' chain input, the groups, the sums) is recomputed here, so a step
that is skipped, falsified or replayed from another query fails a check that names its server:
its output is signed by it, its proof is bound to the query, the step and the answering set.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature

from zeenot.babyjub import Ciphertext, Point
from zeenot.cothority import steps, wire
from zeenot.cothority.model import Deployment, Query
from zeenot.errors import MalformedInput, ZeenotError

MAX_ROWS = 200_000
# Noise-list entries in a transcript (lists × length × answering servers): what a step's
# request body carries (about 450 bytes each in JSON, under the server's 64 MiB).
MAX_NOISE_ENTRIES = 120_000
# Row-shuffle weight in a transcript (rows × (width + 3) × answering servers): what a step's
# request body carries (a row's ciphertexts about 131 bytes each in JSON, its share of the
# proof about 320: at most about 47 MB, under the server's 64 MiB).
MAX_SHUFFLE_ENTRIES = 360_000


class Misbehaviour(ZeenotError):
    """A step that does not check, and the server it names."""

    def __init__(self, server: str, reason: str):
        super().__init__(f"server `{server}`: {reason}")
        self.server, self.reason = server, reason


def signed_output(key: Any, qid: str, step: str, server: str, output: Any) -> dict[str, Any]:
    body = {"query": qid, "step": step, "server": server, "output": output}
    return {**body, "signature": key.private.sign(wire.canonical(body)).hex()}


def check_signed(dep: Deployment, entry: Any, qid: str, step: str, server: str) -> Any:
    """The output of a signed entry; `Misbehaviour` naming `server` if it is not its."""
    if not isinstance(entry, dict) or set(entry) != {
        "query",
        "step",
        "server",
        "output",
        "signature",
    }:
        raise Misbehaviour(server, f"its `{step}` entry is not a signed output")
    if (entry["query"], entry["step"], entry["server"]) != (qid, step, server):
        raise Misbehaviour(
            server, f"its `{step}` entry is for another query, step or server (a replay)"
        )
    body = {k: entry[k] for k in ("query", "step", "server", "output")}
    try:
        sig = wire.blob(entry["signature"], "a signature", 64)
        dep.roster.servers[server].verify(sig, wire.canonical(body))
    except (InvalidSignature, MalformedInput, KeyError):
        raise Misbehaviour(server, f"its `{step}` entry is not signed by it") from None
    return entry["output"]


def ctx(
    dep: Deployment, key: Point, qid: str, step: str, server: str, answering: list[str]
) -> bytes:
    return wire.context(dep.name, wire.point_hex(key), qid, step, server, ",".join(answering))


@dataclass
class Keys:
    """The collective key and each server's verification key `X_j = x_j·G`."""

    key: Point
    verification: dict[str, Point]

    @classmethod
    def from_json(cls, doc: Any, dep: Deployment) -> Keys:
        if not isinstance(doc, dict) or set(doc) != {"key", "verification"}:
            raise MalformedInput("keys are {key, verification}")
        ver = doc["verification"]
        if not isinstance(ver, dict) or set(ver) != set(dep.order):
            raise MalformedInput("a verification key per server")
        return cls(wire.point(doc["key"]), {s: wire.point(ver[s]) for s in dep.order})

    def to_json(self) -> dict[str, Any]:
        return {
            "key": wire.point_hex(self.key),
            "verification": {s: wire.point_hex(p) for s, p in self.verification.items()},
        }


@dataclass
class Derived:
    groups: list[dict[str, Any]]  # {tag, count, rep (group ct or None)}
    released: list[Ciphertext]  # per group: [group value?, count, sums...] (noise added)


def shuffle_weight(query: Query, records: int, answering: int) -> int:
    """What a query's row shuffles weigh against `MAX_SHUFFLE_ENTRIES` (0 without tags)."""
    if not query.tag_columns():
        return 0
    return records * (len(query.row_columns()) + 3) * answering


def check_row_shuffles(
    dep: Deployment,
    keys: Keys,
    query: Query,
    answering: list[str],
    records: list[dict[str, Ciphertext]],
    entries: list[Any],
    upto: int | None = None,
) -> list[list[bytes]]:
    """The query's rows (`Query.row_columns` of each record, packed) after the answering
    servers' shuffles, each checked (`upto`: only the first servers', what a server checks
    before its own shuffle); the first server shuffles the records' rows in digest order.
    Verified in one batch; the first culprit in server order is named. A query without tags
    has no shuffle (and no rows)."""
    if not isinstance(entries, list):
        raise MalformedInput("`shuffles` is a list of signed outputs")
    if not query.tag_columns():
        if entries:
            raise Misbehaviour(answering[0], "a row shuffle in a query without tags")
        return []
    cols = query.row_columns()
    width, n = len(cols), len(records)
    if shuffle_weight(query, n, len(answering)) > MAX_SHUFFLE_ENTRIES:
        raise MalformedInput(
            f"{n} rows of {width} ciphertexts shuffled by {len(answering)} servers are too many "
            "to check"
        )
    rows = [_split(steps.pack_cts([r[c] for c in cols])) for r in records]
    m = len(answering) if upto is None else upto
    if len(entries) != m:
        raise Misbehaviour(
            answering[len(entries)] if len(entries) < m else answering[0],
            "its row shuffle is missing (skipped)",
        )
    pending: list[tuple[str, tuple[list[list[bytes]], list[list[bytes]], bytes, bytes]]] = []

    def verify_pending() -> None:
        verdicts = steps.rows_shuffles_ok(keys.key, [item for _, item in pending])
        for (who, _), ok in zip(pending, verdicts, strict=True):
            if not ok:
                raise Misbehaviour(who, "its row shuffle's proof does not verify")
        pending.clear()

    limit = steps.shuffle_proof_limit(n, width)
    for j in range(m):
        server = answering[j]
        try:
            out = check_signed(dep, entries[j], query.id, "shuffle", server)
            raw = out.get("rows") if isinstance(out, dict) else None
            if not isinstance(raw, list) or len(raw) != n:
                got = len(raw) if isinstance(raw, list) else "no"
                raise Misbehaviour(server, f"its row shuffle has {got} rows for {n} records")
            new = []
            for i, row in enumerate(raw):
                if not isinstance(row, list) or len(row) != width:
                    raise MalformedInput(f"row {i} is not {width} ciphertexts")
                new.append([_entry(c) for c in row])
            proof = wire.blob(out.get("proof"), "a shuffle proof", limit)
        except Misbehaviour:
            verify_pending()
            raise
        except MalformedInput as exc:
            verify_pending()
            raise Misbehaviour(server, f"its row shuffle is malformed: {exc}") from None
        if n:  # no rows: nothing to permute, nothing to prove
            c = ctx(dep, keys.key, query.id, "shuffle", server, answering)
            pending.append((server, (rows, new, proof, c)))
        elif proof:
            verify_pending()
            raise Misbehaviour(server, "its row shuffle of no rows has a proof")
        rows = new
    verify_pending()
    return rows


def shuffled_records(
    dep: Deployment,
    keys: Keys,
    query: Query,
    answering: list[str],
    records: list[dict[str, Ciphertext]],
    entries: list[Any],
) -> list[dict[str, Ciphertext]]:
    """What the tags and the sums are computed on: the records themselves for a query without
    tags, otherwise the rows after every answering server's shuffle (each checked), as
    `{column: ciphertext}` for the query's row columns."""
    if not query.tag_columns():
        check_row_shuffles(dep, keys, query, answering, records, entries)
        return records
    cols = query.row_columns()
    # A process checks the same shuffles for several steps (a server's tag, noise and key
    # switch, the leader's checks): the decoded rows are kept, keyed by everything they are
    # computed from (the shuffles, the records' rows, the query, the set, the key).
    h = hashlib.sha256(
        wire.canonical([dep.name, wire.point_hex(keys.key), query.to_json(), answering, entries])
    )
    for r in records:
        h.update(steps.pack_cts([r[c] for c in cols]))
    key = h.digest()
    with _ROWS_LOCK:
        if key in _ROWS:
            _ROWS.move_to_end(key)
            return _ROWS[key]
    rows = check_row_shuffles(dep, keys, query, answering, records, entries)
    out = [{c: steps.list_entry(ct) for c, ct in zip(cols, row, strict=True)} for row in rows]
    with _ROWS_LOCK:
        _ROWS[key] = out
        while len(_ROWS) > 4:
            _ROWS.popitem(last=False)
    return out


# the last few shuffled row lists (`shuffled_records`), by digest of their inputs
_ROWS: OrderedDict[bytes, list[dict[str, Ciphertext]]] = OrderedDict()
_ROWS_LOCK = threading.Lock()


def tag_inputs(query: Query, records: list[dict[str, Ciphertext]]) -> list[Ciphertext]:
    cols = query.tag_columns()
    out = [r[c] for r in records for c in cols]
    if query.where is not None:
        out.append(steps.trivial(query.where[1]))
    return out


def check_tags(
    dep: Deployment,
    keys: Keys,
    query: Query,
    answering: list[str],
    records: list[dict[str, Ciphertext]],
    entries: list[Any],
    upto: int | None = None,
) -> list[Point]:
    """The final tags (one per tag input), each step checked; `upto`: check only the first
    steps (what a server checks before its own tag step) and return the chain's current
    ciphertexts' second points."""
    cur = tag_inputs(query, records)
    if not query.tag_columns():
        return []
    idx = [dep.index(s) for s in answering]
    n = len(answering) if upto is None else upto
    if len(entries) != n:
        raise Misbehaviour(
            answering[len(entries)] if len(entries) < n else answering[0],
            "its tag step is missing (skipped)",
        )
    for k in range(n):
        server = answering[k]
        out = check_signed(dep, entries[k], query.id, "tag", server)
        try:
            cts = wire.ciphertexts(out.get("cts"), "tagged", MAX_ROWS)
            S = wire.point(out.get("S"))
            proof = wire.blob(out.get("proof"), "a tag proof", steps.MAX_PROOF)
        except (MalformedInput, AttributeError) as exc:
            raise Misbehaviour(server, f"its tag step is malformed: {exc}") from None
        lam = steps.lagrange(dep.index(server), idx)
        if len(cts) != len(cur):
            raise Misbehaviour(server, f"its tag step has {len(cts)} outputs for {len(cur)} inputs")
        c = ctx(dep, keys.key, query.id, "tag", server, answering)
        if not steps.tag_ok(
            cur, cts, S, proof, dep.index(server), keys.verification[server], lam, c
        ):
            raise Misbehaviour(server, "its tag step's proof does not verify")
        cur = cts
    return [c.c2 for c in cur]


def derive(
    dep: Deployment,
    keys: Keys,
    query: Query,
    answering: list[str],
    records: list[dict[str, Ciphertext]],
    shuffle_entries: list[Any],
    tag_entries: list[Any],
    noise_entries: list[Any] | None,
) -> Derived:
    """Everything a key switch is applied to, recomputed from the records and the checked
    row-shuffle, tag and noise steps (the tags and sums over the shuffled rows)."""
    records = shuffled_records(dep, keys, query, answering, records, shuffle_entries)
    tags = check_tags(dep, keys, query, answering, records, tag_entries)
    ncols = len(query.tag_columns())
    where_tag = tags[-1] if query.where is not None else None
    groups: dict[Any, dict[str, Any]] = {}
    order: list[Any] = []
    for i, rec in enumerate(records):
        rtags = tags[i * ncols : (i + 1) * ncols]
        if query.where is not None and rtags[-1] != where_tag:
            continue
        g = wire.point_hex(rtags[0]) if query.group_by else None
        if g not in groups:
            groups[g] = {
                "count": 0,
                "sums": [None] * len(query.value_columns()),
                "rep": rec[query.group_by] if query.group_by else None,
            }
            order.append(g)
        grp = groups[g]
        grp["count"] += 1
        for k, col in enumerate(query.value_columns()):
            grp["sums"][k] = rec[col] if grp["sums"][k] is None else grp["sums"][k] + rec[col]
    per_group = 1 + len(query.value_columns())
    if noise_entries is None:  # the groups only: how many noise values the step needs
        return Derived([{"tag": g, "count": groups[g]["count"]} for g in order], [])
    noise = check_noise(dep, keys, query, answering, noise_entries, len(order) * per_group)
    released: list[Ciphertext] = []
    out_groups = []
    for gi, g in enumerate(order):
        grp = groups[g]
        vals = [steps.trivial(grp["count"])] + list(grp["sums"])
        if noise:
            for k in range(per_group):
                for contribution in noise[gi * per_group + k]:
                    vals[k] = vals[k] + contribution
        if query.group_by:
            released.append(grp["rep"])
        released += vals
        out_groups.append({"tag": g, "count": grp["count"]})
    return Derived(out_groups, released)


def check_noise(
    dep: Deployment, keys: Keys, query: Query, answering: list[str], entries: list[Any], n: int
) -> list[list[Ciphertext]]:
    """Per released value (`n` of them), the noise ciphertexts added to it: the last shuffled
    list's first entry (`list`), or each server's draw (`per_server`); none without noise."""
    if query.noise is None:
        if entries:
            raise Misbehaviour(answering[0], "noise in a query without noise")
        return []
    if query.noise.mechanism == "list":
        lists = check_shuffles(dep, keys, query, answering, entries, n)
        return [[steps.list_entry(lst[0])] for lst in lists]
    per_server = _check_draws(dep, keys, query, answering, entries, n)
    return [[cts[k] for cts in per_server] for k in range(n)]


def noise_lists(dep: Deployment, query: Query) -> list[tuple[tuple[int, ...], float]]:
    """Per released value of a group (count, then each sum), its public noise list and the
    list's `δ`; `MalformedInput` if a `δ` is above the query's `noise.delta` (or the core
    refuses the parameters), so the query is refused before any server works on it."""
    assert query.noise is not None and query.noise.mechanism == "list"
    eps, length = query.noise.epsilon, query.noise.length
    out = []
    for sens in query.sensitivities(dep.schema):
        values, delta = steps.noise_list(eps, sens, length)
        if delta > query.noise.max_delta:
            raise MalformedInput(
                f"the noise list of {length} values for sensitivity {sens} at epsilon {eps} "
                f"gives delta = {delta:.3g}, above noise.delta = {query.noise.max_delta}: "
                "a longer list (noise.list), a larger epsilon or mechanism per_server"
            )
        out.append((values, delta))
    return out


def check_shuffles(
    dep: Deployment,
    keys: Keys,
    query: Query,
    answering: list[str],
    entries: list[Any],
    n: int,
    upto: int | None = None,
) -> list[list[bytes]]:
    """The `n` noise lists after the answering servers' shuffles, each checked (`upto`: only
    the first servers', what a server checks before its own shuffle)."""
    public = noise_lists(dep, query)
    per_group = len(public)
    lists = [steps.public_list(public[k % per_group][0]) for k in range(n)]
    m = len(answering) if upto is None else upto
    if len(entries) != m:
        raise Misbehaviour(
            answering[len(entries)] if len(entries) < m else answering[0],
            "its noise shuffle is missing (skipped)",
        )
    length = query.noise.length if query.noise else 0
    if n * length * len(answering) > MAX_NOISE_ENTRIES:
        raise MalformedInput(f"{n} noise lists of {length} values are too many to check")
    # Every server's shuffles are parsed in order, then verified in one batch (before a
    # malformed server is named, the earlier servers' proofs are checked: the first culprit
    # in server order is named, as one by one).
    pending: list[tuple[str, int, tuple[list[bytes], list[bytes], bytes, bytes]]] = []

    def verify_pending() -> None:
        verdicts = steps.shuffles_ok(keys.key, [item for _, _, item in pending])
        for (who, a, _), ok in zip(pending, verdicts, strict=True):
            if not ok:
                raise Misbehaviour(who, f"its shuffle of noise list {a}'s proof does not verify")
        pending.clear()

    for j in range(m):
        server = answering[j]
        try:
            out = check_signed(dep, entries[j], query.id, "noise", server)
        except Misbehaviour:
            verify_pending()
            raise
        try:
            raw, proofs = out.get("lists"), out.get("proofs")
            if not isinstance(raw, list) or not isinstance(proofs, list):
                raise MalformedInput("{lists, proofs}")
            if len(raw) != n or len(proofs) != n:
                raise MalformedInput(f"{n} shuffled lists with a proof each")
            new = []
            for a, lst in enumerate(raw):
                if not isinstance(lst, list) or len(lst) != length:
                    got = len(lst) if isinstance(lst, list) else "no"
                    raise Misbehaviour(server, f"its shuffle of list {a} has {got} entries")
                new.append([_entry(c) for c in lst])
            limit = steps.shuffle_proof_limit(length)
            pf = [wire.blob(p, "a shuffle proof", limit) for p in proofs]
        except Misbehaviour:
            verify_pending()
            raise
        except (MalformedInput, AttributeError) as exc:
            verify_pending()
            raise Misbehaviour(server, f"its noise shuffle is malformed: {exc}") from None
        c = ctx(dep, keys.key, query.id, "noise", server, answering)
        pending += [(server, a, (lists[a], new[a], pf[a], c + b"|%d" % a)) for a in range(n)]
        lists = new
    verify_pending()
    return lists


def _split(packed: bytes) -> list[bytes]:
    return [packed[k : k + 64] for k in range(0, len(packed), 64)]


def _entry(value: Any) -> bytes:
    b = wire.blob(value, "a list entry", 64)
    if len(b) != 64:
        raise MalformedInput("a list entry is a 64-byte ciphertext")
    return b


def _check_draws(
    dep: Deployment, keys: Keys, query: Query, answering: list[str], entries: list[Any], n: int
) -> list[list[Ciphertext]]:
    assert query.noise is not None
    if len(entries) != len(answering):
        raise Misbehaviour(
            answering[min(len(entries), len(answering) - 1)], "its noise step is missing (skipped)"
        )
    sens = query.sensitivities(dep.schema)
    out = []
    batch = []
    for server, entry in zip(answering, entries, strict=False):
        o = check_signed(dep, entry, query.id, "noise", server)
        try:
            cts = wire.ciphertexts(o.get("cts"), "noise", MAX_ROWS)
            proofs = o.get("proofs")
            if not isinstance(proofs, list) or len(proofs) != len(cts) or len(cts) < n:
                raise MalformedInput(f"{n} noise values with a proof each")
            raw = [wire.blob(p, "a noise proof", 4096) for p in proofs]
        except (MalformedInput, AttributeError) as exc:
            raise Misbehaviour(server, f"its noise step is malformed: {exc}") from None
        c = wire.context(dep.name, wire.point_hex(keys.key), query.id, "noise", server)
        for k in range(n):
            bound = query.noise.bound(sens[k % len(sens)])
            batch.append((server, k, cts[k], bound, raw[k], c + b"|%d" % k))
        out.append(cts[:n])
    for server, k, c_, bound, p, cx in batch:
        if not steps.noise_ok(keys.key, c_, bound, p, cx):
            raise Misbehaviour(server, f"its noise value {k}'s range proof does not verify")
    return out


def check_switch(
    dep: Deployment,
    keys: Keys,
    query: Query,
    answering: list[str],
    released: list[Ciphertext],
    entries: list[Any],
) -> list[Ciphertext]:
    """The released values under the querier's key, every server's part checked (batched)."""
    if len(entries) != len(answering):
        missing = [s for k, s in enumerate(answering) if k >= len(entries)]
        raise Misbehaviour(missing[0] if missing else answering[0], "its key switch is missing")
    idx = [dep.index(s) for s in answering]
    batches = []
    for server, entry in zip(answering, entries, strict=False):
        o = check_signed(dep, entry, query.id, "keyswitch", server)
        try:
            raw = o.get("parts")
            if not isinstance(raw, list) or len(raw) != len(released):
                raise MalformedInput("one part per released value")
            p = [(wire.point(u), wire.point(w)) for u, w in raw]
            proof = wire.blob(o.get("proof"), "a key-switch proof", steps.MAX_PROOF)
        except (MalformedInput, AttributeError, ValueError, TypeError) as exc:
            raise Misbehaviour(server, f"its key switch is malformed: {exc}") from None
        lam = steps.lagrange(dep.index(server), idx)
        c = ctx(dep, keys.key, query.id, "keyswitch", server, answering)
        ok = steps.key_switch_ok(
            released,
            p,
            proof,
            dep.index(server),
            keys.verification[server],
            lam,
            query.querier_key,
            c,
        )
        if not ok:
            raise Misbehaviour(server, "its key switch's proof does not verify")
        batches.append(steps.switch_batch(dep.index(server), p, proof))
    return steps.combine_switch(released, batches)
