"""The querier, and the auditor's re-verification (they check the same transcript; the
auditor, holding no key, stops before decryption and also re-checks the DKG and every
provider proof against what each server publishes).

`verify_transcript` recomputes every derived value from the records and checks every signed
step; a failure is a `Misbehaviour` naming the server. `decrypt_result` decrypts the released
values with the querier's ElGamal secret (baby-step giant-step, `zeenot.babyjub.decrypt`) and
computes MEAN and VARIANCE from the sums and counts.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import httpx

from zeenot import babyjub as bj
from zeenot.aggregate.query import StatResult
from zeenot.cothority import provider, steps, transcript, wire
from zeenot.cothority.model import Deployment, Query
from zeenot.cothority.transcript import Keys, Misbehaviour
from zeenot.errors import MalformedInput, ZeenotError
from zeenot.runtime.identity import Key, SignedAuth


class QueryFailed(ZeenotError):
    pass


def check_dkg(dep: Deployment, doc: Any) -> Keys:
    """The keys a DKG transcript yields, every dealing's proof of knowledge checked and the
    keys recomputed from the commitments (`Misbehaviour` names a dealer that does not check)."""
    if not isinstance(doc, dict) or doc.get("deployment") != dep.name:
        raise MalformedInput("not this deployment's DKG transcript")
    dealings = doc.get("dealings")
    if not isinstance(dealings, dict) or set(dealings) != set(dep.order):
        raise MalformedInput("a DKG transcript has a dealing per server")
    from zeenot.cothority.node import dkg_ctx

    checked = []
    for dealer in dep.order:
        try:
            checked.append(
                steps.check_dealing(
                    dealings[dealer],
                    dep.index(dealer),
                    dep.threshold,
                    len(dep.order),
                    dkg_ctx(dep),
                )
            )
        except MalformedInput as exc:
            raise Misbehaviour(dealer, f"its dealing: {exc}") from None
    K, vks = steps.public_keys(checked)
    ver = {s: vks[dep.index(s) - 1] for s in dep.order}
    keys = Keys(K, ver)
    if doc.get("keys") != keys.to_json():
        raise MalformedInput("the DKG transcript's keys are not its dealings'")
    return keys


@dataclass
class Verified:
    query: Query
    answering: list[str]
    excluded: list[dict[str, Any]]
    groups: list[dict[str, Any]]
    released: list[bj.Ciphertext]  # under the querier's key


def verify_transcript(dep: Deployment, keys: Keys, doc: Any, *, providers: bool = True) -> Verified:
    if not isinstance(doc, dict) or doc.get("zeenot_cothority_transcript") != 1:
        raise MalformedInput("not a cothority transcript")
    leader = doc.get("leader") if doc.get("leader") in dep.order else dep.order[0]
    if (
        doc.get("deployment") != dep.name
        or Keys.from_json(doc.get("keys"), dep).to_json() != keys.to_json()
    ):
        raise Misbehaviour(leader, "the transcript is for another deployment or key")
    query = Query.from_json(doc.get("query"), dep.schema)
    answering = doc.get("answering")
    if (
        not isinstance(answering, list)
        or len(answering) != dep.threshold
        or len(set(answering)) != len(answering)
        or not set(answering) <= set(dep.order)
    ):
        raise Misbehaviour(leader, "the answering set is not t distinct servers")
    bodies = doc.get("records")
    if not isinstance(bodies, list) or len(bodies) > transcript.MAX_ROWS:
        raise Misbehaviour(leader, "`records` is not a list")
    parsed = [provider.parse_record(b, dep.schema) for b in bodies]
    if [r.digest for r, _ in parsed] != sorted({r.digest for r, _ in parsed}):
        raise Misbehaviour(leader, "the records are not distinct and in digest order")
    if providers:
        bad = [
            (i, why)
            for i, why in enumerate(provider.verify_records(dep.name, dep.schema, keys.key, parsed))
            if why
        ]
        if bad:
            raise Misbehaviour(
                leader, f"it aggregated record {bad[0][0]} whose proof fails: {bad[0][1]}"
            )
    records = [r.columns for r, _ in parsed]
    derived = transcript.derive(
        dep,
        keys,
        query,
        answering,
        records,
        doc.get("shuffles") or [],
        doc.get("tags") or [],
        doc.get("noise") or [],
    )
    released = transcript.check_switch(
        dep, keys, query, answering, derived.released, doc.get("keyswitch") or []
    )
    excluded = doc.get("excluded") or []
    for e in excluded:  # a server named by the leader with evidence: the evidence must convict
        ev = e.get("evidence") if isinstance(e, dict) else None
        if ev is not None:
            transcript.check_signed(dep, ev, query.id, ev.get("step", ""), e.get("server", ""))
    return Verified(query, answering, excluded, derived.groups, released)


def decrypt_result(dep: Deployment, v: Verified, secret: int) -> list[dict[str, Any]]:
    q = v.query
    per = (1 if q.group_by else 0) + 1 + len(q.value_columns())
    sens = q.sensitivities(dep.schema)
    nmax = max([g["count"] for g in v.groups] + [1])
    slacks, deltas = [0] * len(sens), [0.0] * len(sens)  # per value: the noise's largest size
    if q.noise is not None and q.noise.mechanism == "list":
        for k, (values, delta) in enumerate(transcript.noise_lists(dep, q)):
            slacks[k], deltas[k] = max(abs(x) for x in values), delta
    elif q.noise is not None:
        slacks = [len(v.answering) * q.noise.bound(s) for s in sens]
    out = []
    for gi in range(len(v.groups)):
        vals = v.released[gi * per : (gi + 1) * per]
        row: dict[str, Any] = {}
        if q.group_by:
            bits = dep.schema.get(q.group_by).bits
            row[q.group_by] = bj.decrypt(secret, vals[0], bits)
            vals = vals[1:]
        nums = []
        for k, c in enumerate(vals):
            slack = slacks[k]
            top = nmax * sens[k] + 2 * slack
            shifted = c + steps.trivial(slack)
            nums.append(bj.decrypt(secret, shifted, min(48, max(8, top.bit_length() + 1))) - slack)
        count, sums = nums[0], nums[1:]
        row["count"] = count
        if q.noise is not None and q.noise.mechanism == "list":
            row["noise_delta"] = max(deltas)  # each value is (epsilon, delta)-DP
        stats = StatResult.of(q.stat, count, sums).row()
        row.update({k: v for k, v in stats.items() if k != "count"})
        out.append(row)
    return out


# ---- over HTTP --------------------------------------------------------------------------------


def fetch_keys(dep: Deployment, server: str | None = None) -> Keys:
    for s in [server] if server else dep.order:
        try:
            r = httpx.get(dep.url(s) + "/cothority/dkg", timeout=10)
            if r.status_code == 200:
                return check_dkg(dep, r.json())
        except httpx.HTTPError:
            continue
    raise QueryFailed("no server publishes a finished DKG")


def submit(
    dep: Deployment, key: Key, server: str, records: list[dict[str, int]], *, batch: int = 200
) -> dict[str, Any]:
    """Encrypt and prove `records` (dicts with an `id` and each attribute), send them."""
    keys = fetch_keys(dep, server)
    accepted, refused = 0, []
    with httpx.Client(timeout=600, auth=SignedAuth(key, server)) as http:
        for k in range(0, len(records), batch):
            bodies = [
                provider.encrypt_record(
                    dep.name,
                    dep.schema,
                    keys.key,
                    key.name,
                    str(r["id"]),
                    {a: int(r[a]) for a in dep.schema.names()},
                )
                for r in records[k : k + batch]
            ]
            r = http.post(
                dep.url(server) + "/cothority/records",
                content=json.dumps(bodies),
                headers={"content-type": "application/json"},
            )
            if r.status_code not in (200, 201, 400):
                raise QueryFailed(f"`{server}` answered {r.status_code}: {r.text[:300]}")
            doc = r.json()
            accepted += doc.get("accepted", 0)
            refused += doc.get("refused", [])
    return {"accepted": accepted, "refused": refused}


def ask(
    dep: Deployment, key: Key, server: str, query: dict[str, Any], *, timeout: float = 600
) -> dict[str, Any]:
    """Send `query` to `server` (its leader) and wait for its transcript (or its failure)."""
    with httpx.Client(timeout=60, auth=SignedAuth(key, server)) as http:
        r = http.post(
            dep.url(server) + "/cothority/queries",
            content=json.dumps(query),
            headers={"content-type": "application/json"},
        )
    if r.status_code != 202:
        raise QueryFailed(f"`{server}` refused the query ({r.status_code}): {r.text[:300]}")
    end = time.time() + timeout
    while time.time() < end:
        doc = httpx.get(dep.url(server) + f"/cothority/queries/{query['id']}", timeout=60).json()
        if doc["state"] == "done":
            return doc["transcript"]
        if doc["state"] == "failed":
            raise QueryFailed(f"the query failed: {doc['error']}")
        time.sleep(0.3)
    raise QueryFailed(f"no answer within {timeout} s")


def audit(dep: Deployment, doc: Any) -> dict[str, Any]:
    """The auditor: the DKG as each reachable server publishes it (all must agree), then the
    whole transcript, provider proofs included; what each answering server published."""
    keys = None
    for s in dep.order:
        try:
            r = httpx.get(dep.url(s) + "/cothority/dkg", timeout=10)
        except httpx.HTTPError:
            continue
        if r.status_code == 200:
            k = check_dkg(dep, r.json())
            if keys is not None and k.to_json() != keys.to_json():
                raise Misbehaviour(s, "it publishes another DKG than the other servers")
            keys = k
    if keys is None:
        raise QueryFailed("no server publishes its DKG")
    v = verify_transcript(dep, keys, doc, providers=True)
    return {
        "query": v.query.id,
        "answering": v.answering,
        "excluded": [{"server": e["server"], "reason": e["reason"]} for e in v.excluded],
        "groups": len(v.groups),
        "records": len(doc["records"]),
        "verdict": "valid",
    }


__all__ = [
    "ask",
    "audit",
    "check_dkg",
    "decrypt_result",
    "fetch_keys",
    "submit",
    "verify_transcript",
    "wire",
]
