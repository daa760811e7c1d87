"""An in-process collective authority for tests: m nodes over their own SQLite files, the
DKG run by direct calls, `Node.call` routed to the other nodes' handlers (no HTTP)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from zeenot.cothority import leader, querier, steps, transcript
from zeenot.cothority.model import Deployment
from zeenot.cothority.node import Node
from zeenot.runtime.identity import Key
from zeenot.runtime.store import Store

SCHEMA = {"age": {"bits": 8, "square": True}, "diagnosis": {"bits": 8}}


def deployment(tmp: Path, m: int = 3, t: int = 2) -> tuple[Deployment, dict[str, Key]]:
    keys = {f"s{i + 1}": Key.generate(f"s{i + 1}") for i in range(m)}
    keys |= {n: Key.generate(n) for n in ("h1", "h2", "researcher")}
    doc = {
        "zeenot_roster": 1,
        "deployment": "test",
        "threshold": t,
        "servers": {
            f"s{i + 1}": {
                "public_key": keys[f"s{i + 1}"].public_key,
                "url": f"http://127.0.0.1:{9900 + i}",
            }
            for i in range(m)
        },
        "providers": {n: {"public_key": keys[n].public_key} for n in ("h1", "h2")},
        "queriers": {"researcher": {"public_key": keys["researcher"].public_key}},
        "schema": SCHEMA,
    }
    (tmp / "roster.json").write_text(json.dumps(doc))
    return Deployment.load(tmp / "roster.json"), keys


class Cluster:
    def __init__(self, tmp: Path, m: int = 3, t: int = 2):
        self.dep, self.keys = deployment(tmp, m, t)
        self.nodes = {
            s: Node(self.dep, self.keys[s], Store(str(tmp / f"{s}.db"))) for s in self.dep.order
        }
        self.down: set[str] = set()
        for node in self.nodes.values():
            node.call = self._caller(node)  # type: ignore[method-assign]
        for node in self.nodes.values():
            node._stop.set()  # one pass of the loop is enough in-process
            for dealer in self.dep.order:
                mine = __import__("zeenot.runtime.peers", fromlist=["x"]).public_hex(node.x25519())
                node.take_dealing(dealer, self.nodes[dealer].dealing_for(node.name, mine))
            got = {d: node.db.get(f"dkg:from:{d}") for d in self.dep.order}
            node._finish_dkg(got)
        leader._alive = lambda node, s: s not in self.down  # type: ignore[assignment]

    def _caller(self, me: Node):  # type: ignore[no-untyped-def]
        def call(server: str, path: str, body: Any, timeout: float = 0) -> Any:
            import httpx

            if server in self.down:
                raise httpx.ConnectError(f"{server} is down")
            other = self.nodes[server]
            body = json.loads(json.dumps(body))
            if path.startswith("/cothority/steps/"):
                return other.step(path.rsplit("/", 1)[1], body)
            if path == "/cothority/records/relay":
                return other.accept(body, me.name, True)
            raise AssertionError(path)

        return call

    def submit(self, provider: str, rows: list[dict[str, int]], server: str = "s1") -> Any:
        from zeenot.cothority import provider as prov

        node = self.nodes[server]
        assert node.keys is not None
        bodies = [
            prov.encrypt_record(
                self.dep.name, self.dep.schema, node.keys.key, provider, f"{provider}-{i}", r
            )
            for i, r in enumerate(rows)
        ]
        out = node.accept(bodies, provider, False)
        for other in self.nodes.values():  # the relay jobs, run now
            if other.name != server:
                other.accept(bodies, server, True)
        return out

    def query(self, spec: dict[str, Any], server: str = "s1") -> tuple[Any, int]:
        from zeenot import babyjub as bj
        from zeenot.cothority import wire

        secret, public = bj.keygen()
        spec = {"id": "q1", **spec, "querier_key": wire.point_hex(public)}
        node = self.nodes[server]
        assert node.db.new_query(spec["id"], "researcher", spec)
        leader.run_query(node, spec["id"])
        row = node.db.query(spec["id"])
        assert row is not None
        return row, secret

    def done_query(self, qid: str, spec: dict[str, Any]) -> tuple[Any, int]:
        """`query` under id `qid`, which must complete."""
        row, secret = self.query({"id": qid, **spec})
        assert row["state"] == "done", row["error"]
        return row, secret

    def faulty_query(
        self, server: str, fault: str, qid: str, spec: dict[str, Any], step: str
    ) -> tuple[querier.Verified, dict[str, Any], int]:
        """`done_query` with `server` misbehaving as `fault` says: the verified transcript, the
        one exclusion (`server`'s, its evidence `server`'s own signed `step`) and the secret."""
        self.nodes[server].fault = fault
        try:
            row, secret = self.done_query(qid, spec)
        finally:
            self.nodes[server].fault = ""
        v = self.verify(row["transcript"])
        (ex,) = v.excluded
        assert ex["server"] == server, ex
        # the evidence is the server's own signed step (the leader cannot frame an honest one)
        transcript.check_signed(self.dep, ex["evidence"], qid, step, server)
        return v, ex, secret

    def collective_secret(self, answering: list[str]) -> int:
        """The deployment's secret key from the answering servers' shares (Lagrange)."""
        idx = [self.dep.index(s) for s in answering]
        shares = (steps.lagrange(self.dep.index(s), idx) * self.nodes[s].share for s in answering)
        return sum(shares) % steps.L

    def verify(self, doc: Any) -> querier.Verified:
        node = self.nodes["s1"]
        keys = querier.check_dkg(self.dep, node.dkg_transcript())
        return querier.verify_transcript(self.dep, keys, doc)
