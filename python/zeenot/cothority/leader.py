"""A query led by the server it was sent to: it picks t answering servers (those that answer
its health check, itself first), asks each for its steps in order (the row shuffle and the
tags when the query has GROUP BY or WHERE, then noise, then the key switch), checks every output
(cothority/transcript.py) and, when a server does not answer or its step does not check,
names it in the transcript's `excluded` list (with the signed output that convicts it) and
starts again with another answering set, until t honest servers have answered or fewer than
t remain (the query fails, naming every excluded server and why). Runs as a persisted job
(`runtime/jobs.py`): a leader killed mid-query resumes, and the servers answer a step asked
again with the output they stored, so nothing is computed twice.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from zeenot.cothority import transcript, wire
from zeenot.cothority.model import Query
from zeenot.cothority.node import Node, StepRefused
from zeenot.cothority.transcript import Misbehaviour
from zeenot.errors import MalformedInput


def _ask(node: Node, server: str, step: str, body: dict[str, Any]) -> Any:
    if server == node.name:
        return node.step(step, body)
    return node.call(server, f"/cothority/steps/{step}", body)


def _ask_each(
    node: Node, servers: list[str], step: str, body: dict[str, Any], done: list[Any]
) -> None:
    """A step that no server builds on another's output for (the key switch, per-server
    noise), asked of every server at once; the outputs appended to `done` in the servers'
    order, the first failure raised after the outputs before it (so `_culprit`, counting
    `done`, names the server that failed)."""
    asked = {k: list(v) if isinstance(v, list) else v for k, v in body.items()}  # `done` grows
    with ThreadPoolExecutor(max_workers=len(servers)) as pool:
        for f in [pool.submit(_ask, node, s, step, asked) for s in servers]:
            done.append(f.result())


def _alive(node: Node, server: str) -> bool:
    if server == node.name:
        return True
    try:
        r = httpx.get(node.dep.url(server) + "/cothority/health", timeout=3.0)
        return r.status_code == 200 and r.json().get("dkg") is True
    except (httpx.HTTPError, ValueError):
        return False


def run_query(node: Node, qid: str) -> dict[str, Any]:
    row = node.db.query(qid)
    if row is None or row["state"] != "running":
        return {"state": None if row is None else row["state"]}
    keys = node.ready()
    dep = node.dep
    query = Query.from_json(row["query"], dep.schema)
    if query.noise is not None and query.noise.mechanism == "list":
        try:
            transcript.noise_lists(dep, query)  # its delta within the query's bound
        except MalformedInput as exc:
            node.db.update_query(qid, state="failed", error=f"the query's noise: {exc}")
            return {"state": "failed"}
    digests = [d for d, _ in node.db.records()]
    records = node.load_records(digests)
    weight = transcript.shuffle_weight(query, len(records), dep.threshold)
    if weight > transcript.MAX_SHUFFLE_ENTRIES:
        error = (
            f"the query's row shuffle: {len(records)} rows of {len(query.row_columns())} "
            f"ciphertexts shuffled by {dep.threshold} servers exceed what a step carries "
            f"({weight} > {transcript.MAX_SHUFFLE_ENTRIES}: rows × (columns + 3) × servers)"
        )
        node.db.update_query(qid, state="failed", error=error)
        return {"state": "failed"}
    excluded: list[dict[str, Any]] = []
    while True:
        down = {e["server"] for e in excluded}
        candidates = [node.name] + [s for s in dep.order if s != node.name and s not in down]
        answering: list[str] = []
        for s in candidates:
            if len(answering) == dep.threshold:
                break
            if _alive(node, s):
                answering.append(s)
            else:
                excluded.append({"server": s, "reason": "did not answer (down)", "evidence": None})
        if len(answering) < dep.threshold:
            reason = "; ".join(f"{e['server']}: {e['reason']}" for e in excluded)
            node.db.update_query(
                qid,
                state="failed",
                error=f"fewer than t={dep.threshold} servers answer ({reason})",
                transcript={"excluded": excluded},
            )
            return {"state": "failed"}
        body: dict[str, Any] = {
            "query": row["query"],
            "answering": answering,
            "records": digests,
            "shuffles": [],
            "tags": [],
            "noise": [],
        }
        step, switch = "shuffle", []
        # wall seconds per step (the servers' work, then the leader's check of it): reported
        # beside the transcript for benchmarks (benchmarks/cothority.py); not part of what
        # anyone verifies
        lap = _Laps()
        try:
            if query.tag_columns():
                # UnLynx's verifiable shuffle, then the tags on the shuffled rows: each server
                # shuffles the previous one's rows, each shuffle checked before the next
                for s in answering:
                    body["shuffles"].append(_ask(node, s, "shuffle", body))
                    lap("shuffle")
                    k = len(body["shuffles"])
                    transcript.check_row_shuffles(
                        dep, keys, query, answering, records, body["shuffles"], upto=k
                    )
                    lap("shuffle_check")
                rows = transcript.shuffled_records(
                    dep, keys, query, answering, records, body["shuffles"]
                )
                step = "tag"
                for s in answering:
                    body["tags"].append(_ask(node, s, "tag", body))
                lap("tags")
                transcript.check_tags(dep, keys, query, answering, rows, body["tags"])
                lap("tags_check")
            step = "noise"
            if query.noise is not None:
                shuffled = query.noise.mechanism == "list"
                n = 0
                if shuffled:
                    d = transcript.derive(
                        dep, keys, query, answering, records, body["shuffles"], body["tags"], None
                    )
                    n = len(d.groups) * len(query.sensitivities(dep.schema))
                    if n * query.noise.length * len(answering) > transcript.MAX_NOISE_ENTRIES:
                        error = (
                            f"the query's noise: {n} lists of {query.noise.length} values "
                            f"shuffled by {len(answering)} servers exceed "
                            f"{transcript.MAX_NOISE_ENTRIES} entries (fewer groups or a "
                            "shorter list)"
                        )
                        node.db.update_query(qid, state="failed", error=error)
                        return {"state": "failed"}
                if not shuffled:  # each server's own draw: none builds on another's
                    _ask_each(node, answering, "noise", body, body["noise"])
                    lap("noise")
                for s in answering if shuffled else ():
                    body["noise"].append(_ask(node, s, "noise", body))
                    lap("noise")
                    # each shuffle checked before the next server builds on it
                    k = len(body["noise"])
                    transcript.check_shuffles(dep, keys, query, answering, body["noise"], n, upto=k)
                    lap("noise_check")
            derived = transcript.derive(
                dep, keys, query, answering, records, body["shuffles"], body["tags"], body["noise"]
            )
            lap("aggregate")
            step = "keyswitch"
            _ask_each(node, answering, "keyswitch", body, switch)
            lap("keyswitch")
            transcript.check_switch(dep, keys, query, answering, derived.released, switch)
            lap("keyswitch_check")
        except Misbehaviour as exc:
            evidence = _evidence(body, switch, exc.server)
            excluded.append({"server": exc.server, "reason": exc.reason, "evidence": evidence})
            continue
        except (StepRefused, httpx.HTTPError) as exc:
            culprit = _culprit(exc, answering, body, step, len(switch))
            if isinstance(exc, StepRefused) and exc.status == 409 and "relay" in exc.reason:
                raise  # a record not relayed yet: the job retries later
            excluded.append(
                {
                    "server": culprit,
                    "reason": f"its {step} step failed: {exc}"[:500],
                    "evidence": None,
                }
            )
            continue
        doc = {
            "zeenot_cothority_transcript": 1,
            "deployment": dep.name,
            "leader": node.name,
            "keys": keys.to_json(),
            "query": row["query"],
            "answering": answering,
            "excluded": excluded,
            "records": [json.loads(b) for _, b in node.db.records(digests)],
            "shuffles": body["shuffles"],
            "tags": body["tags"],
            "noise": body["noise"],
            "keyswitch": switch,
            "groups": derived.groups,
            "leader_timings": lap.seconds,
        }
        node.db.update_query(qid, state="done", transcript=doc)
        return {"state": "done", "at": time.time()}


class _Laps:
    """Wall seconds per named step, each lap from the previous one (summed when repeated)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._clock = time.perf_counter()

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        self.seconds[name] = round(self.seconds.get(name, 0.0) + now - self._clock, 4)
        self._clock = now


def _evidence(body: dict[str, Any], switch: list[Any] | None, server: str) -> Any:
    latest_first = [*(switch or []), *body["noise"], *body["tags"], *body["shuffles"]]
    for entry in latest_first:
        if isinstance(entry, dict) and entry.get("server") == server:
            return entry
    return None


def _culprit(
    exc: Exception, answering: list[str], body: dict[str, Any], step: str, switched: int
) -> str:
    """The server whose request failed: the one after the last that answered this step."""
    done = {
        "shuffle": len(body["shuffles"]),
        "tag": len(body["tags"]),
        "noise": len(body["noise"]),
    }.get(step, switched)
    if isinstance(exc, StepRefused) and exc.reason.startswith("`"):
        return exc.reason.split("`")[1]
    return answering[min(done, len(answering) - 1)]


def check_query_body(doc: Any, node: Node) -> Query:
    return Query.from_json(doc, node.dep.schema)


__all__ = ["check_query_body", "run_query", "wire"]
