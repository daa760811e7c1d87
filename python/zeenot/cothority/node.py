"""One cothority server's work, apart from HTTP: the DKG at start-up, records accepted and
relayed, the steps it answers for a query, and the queries it leads (cothority/server.py
routes requests here; cothority/transcript.py checks what others did).

Fault injection for tests: `ZEENOT_COTHORITY_FAULT=keyswitch|tag` makes this server falsify
its step's output (after proving the honest one); `noise-drop|noise-replace|noise-key|
noise-replay` makes its noise shuffle drop an entry, replace one, re-encrypt under another key,
or replay the previous server's shuffle and proofs; `shuffle-drop|shuffle-replace|shuffle-key|
shuffle-replay|shuffle-skip` does the same to its row shuffle (`skip`: its input passed on
unshuffled, with the proof of its real shuffle); so tests can show that the leader, the
querier and the auditor name it. Never set it in a deployment.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from zeenot import babyjub as bj
from zeenot.cothority import crypto, provider, steps, transcript, wire
from zeenot.cothority.db import Db
from zeenot.cothority.model import Deployment, Query
from zeenot.cothority.transcript import Keys, Misbehaviour
from zeenot.errors import MalformedInput, ZeenotError
from zeenot.runtime import peers
from zeenot.runtime.identity import Key, SignedAuth
from zeenot.runtime.store import Store

log = logging.getLogger("zeenot.cothority")


class StepRefused(ZeenotError):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


def dkg_ctx(dep: Deployment) -> bytes:
    """The DKG's session: the core's proofs of knowledge bind it and the dealer's index."""
    return wire.context(dep.name, "dkg")


def _seal_info(dep: Deployment, dealer: str, to: str) -> bytes:
    return f"zeenot cothority dkg share v1|{dep.name}|{dealer}|{to}".encode()


class Node:
    def __init__(self, dep: Deployment, key: Key, store: Store):
        if key.name not in dep.roster.servers or dep.roster.servers[key.name] is None:
            raise MalformedInput(f"`{key.name}` is not a server of the roster")
        if key.public_key != _hex(dep.roster.servers[key.name]):
            raise MalformedInput(f"the key is not `{key.name}`'s in the roster")
        self.dep, self.key, self.db, self.name = dep, key, Db(store), key.name
        self.index = dep.index(key.name)
        self.fault = os.environ.get("ZEENOT_COTHORITY_FAULT", "")
        self.keys: Keys | None = None
        self.share: int | None = None
        self._stop = threading.Event()
        self._load_dkg()

    # ---- HTTP to the other servers -------------------------------------------------------------

    def call(self, server: str, path: str, body: Any, timeout: float = 300.0) -> Any:
        data = json.dumps(body).encode()
        with httpx.Client(
            timeout=httpx.Timeout(timeout, connect=3.0), auth=SignedAuth(self.key, server)
        ) as http:
            r = http.post(
                self.dep.url(server) + path,
                content=data,
                headers={"content-type": "application/json"},
            )
        if r.status_code >= 300:
            raise StepRefused(r.status_code, f"`{server}` answered {r.status_code}: {r.text[:300]}")
        return r.json()

    # ---- DKG -----------------------------------------------------------------------------------

    def _load_dkg(self) -> None:
        done = self.db.get("dkg:done")
        if done is not None:
            self.keys = Keys.from_json(done["keys"], self.dep)
            self.share = int(done["share"])

    def my_dealing(self) -> tuple[list[int], dict[str, Any]]:
        shares, public = steps.deal(
            self.index, self.dep.threshold, len(self.dep.order), dkg_ctx(self.dep)
        )
        stored = self.db.put_first(
            "dkg:dealing", {"shares": [str(a) for a in shares], "public": public}
        )
        return [int(a) for a in stored["shares"]], stored["public"]

    def x25519(self) -> X25519PrivateKey:
        raw = self.db.put_first("dkg:x25519", X25519PrivateKey.generate().private_bytes_raw().hex())
        return X25519PrivateKey.from_private_bytes(bytes.fromhex(raw))

    def dealing_for(self, to: str, x25519_hex: str) -> dict[str, Any]:
        """My dealing for server `to`: public part, its share sealed to `to`'s X25519 key,
        signed by me."""
        peers.check_public_key(x25519_hex, "x25519")
        shares, public = self.my_dealing()
        eph = X25519PrivateKey.generate()
        s = shares[self.dep.index(to) - 1]
        sealed = peers.seal(eph, x25519_hex, _seal_info(self.dep, self.name, to), str(s).encode())
        doc = {
            "dealer": self.name,
            "to": to,
            "public": public,
            "x25519": x25519_hex,
            "ephemeral": peers.public_hex(eph),
            "sealed": sealed.hex(),
        }
        return {**doc, "signature": self.key.private.sign(wire.canonical(doc)).hex()}

    def take_dealing(self, dealer: str, doc: Any) -> None:
        if not isinstance(doc, dict):
            raise MalformedInput("a dealing is an object")
        sig = wire.blob(doc.pop("signature", ""), "a signature", 64)
        self.dep.roster.servers[dealer].verify(sig, wire.canonical(doc))
        mine = peers.public_hex(self.x25519())
        if doc.get("dealer") != dealer or doc.get("to") != self.name or doc.get("x25519") != mine:
            raise MalformedInput(f"`{dealer}`'s dealing is for another server or key")
        dealing = steps.check_dealing(
            doc.get("public"),
            self.dep.index(dealer),
            self.dep.threshold,
            len(self.dep.order),
            dkg_ctx(self.dep),
        )
        raw = peers.unseal(
            self.x25519(),
            peers.check_public_key(doc.get("ephemeral")),
            _seal_info(self.dep, dealer, self.name),
            wire.blob(doc.get("sealed"), "sealed", 256),
        )
        s = wire.scalar(raw.decode(), "a share")
        if not crypto.verify_share(dealing, self.index, s):
            raise MalformedInput(f"`{dealer}`'s share does not match its commitments (complaint)")
        self.db.put_first(f"dkg:from:{dealer}", {"public": doc["public"], "share": str(s)})

    def run_dkg(self) -> None:
        """Fetch every server's dealing (retrying until all answer), then derive the share,
        the collective key and the verification keys. Resumes from what is stored."""
        while self.keys is None and not self._stop.is_set():
            for dealer in self.dep.order:
                if self.db.get(f"dkg:from:{dealer}") is not None:
                    continue
                try:
                    mine = peers.public_hex(self.x25519())
                    doc = (
                        self.dealing_for(self.name, mine)
                        if dealer == self.name
                        else self.call(dealer, "/cothority/dkg/dealing", {"x25519": mine}, 30)
                    )
                    self.take_dealing(dealer, doc)
                except Exception as exc:  # noqa: BLE001 - down or bad: retry, logged
                    log.info("dkg: no dealing from %s yet: %s", dealer, type(exc).__name__)
            got = {d: self.db.get(f"dkg:from:{d}") for d in self.dep.order}
            if all(got.values()):
                self._finish_dkg(got)
            else:
                self._stop.wait(0.5)

    def _finish_dkg(self, got: dict[str, Any]) -> None:
        dealings_ = [
            crypto.Dealing.from_json(got[d]["public"]) for d in sorted(got, key=self.dep.index)
        ]
        share = sum(int(g["share"]) for g in got.values()) % steps.L
        K, vks = steps.public_keys(dealings_)
        ver = {s: vks[self.dep.index(s) - 1] for s in self.dep.order}
        keys = Keys(K, ver)
        dealings = {d: g["public"] for d, g in got.items()}
        self.db.put_first(
            "dkg:done", {"share": str(share), "keys": keys.to_json(), "dealings": dealings}
        )
        self._load_dkg()
        log.warning("cothority %s: DKG done", self.name)

    def dkg_transcript(self) -> dict[str, Any] | None:
        done = self.db.get("dkg:done")
        if done is None:
            return None
        return {
            "deployment": self.dep.name,
            "threshold": self.dep.threshold,
            "servers": list(self.dep.order),
            "dealings": done["dealings"],
            "keys": done["keys"],
        }

    def ready(self) -> Keys:
        if self.keys is None:
            raise StepRefused(503, "the DKG has not finished yet")
        return self.keys

    # ---- records -------------------------------------------------------------------------------

    def accept(self, bodies: Any, sender: str, relayed: bool) -> dict[str, Any]:
        """Verify and store records (a provider's, or relayed by a server); refusals named."""
        keys = self.ready()
        if not isinstance(bodies, list) or not 1 <= len(bodies) <= 1000:
            raise StepRefused(400, "a submission is a list of 1 to 1000 records")
        parsed, refused = [], []
        for i, body in enumerate(bodies):
            try:
                rec, raw = provider.parse_record(body, self.dep.schema)
                if not relayed and rec.provider != sender:
                    raise MalformedInput(f"record signed by `{sender}` names `{rec.provider}`")
                if rec.provider not in self.dep.providers:
                    raise MalformedInput(f"`{rec.provider}` is not a provider of the roster")
                owner = self.db.record_owner(rec.provider, rec.id)
                if owner is not None and owner != rec.digest:
                    raise MalformedInput(
                        f"record `{rec.id}` was stored before with other content (a replay)"
                    )
                parsed.append((i, body, rec, raw))
            except MalformedInput as exc:
                refused.append({"index": i, "reason": str(exc)})
        reasons = provider.verify_records(
            self.dep.name, self.dep.schema, keys.key, [(r, raw) for _, _, r, raw in parsed]
        )
        rows = []
        for (i, body, rec, _), why in zip(parsed, reasons, strict=False):
            if why is not None:
                refused.append({"index": i, "reason": why})
            else:
                rows.append(
                    {
                        "digest": rec.digest,
                        "provider": rec.provider,
                        "record_id": rec.id,
                        "body": json.dumps(body),
                        "received_from": sender if relayed else None,
                    }
                )
        relay = [] if relayed else [(s, self.dep.url(s)) for s in self.dep.order if s != self.name]
        new = self.db.add_records(rows, relay)
        return {
            "accepted": len(rows),
            "new": len(new),
            "refused": sorted(refused, key=lambda r: r["index"]),
        }

    def relay(self, payload: dict[str, Any]) -> dict[str, Any]:
        bodies = [json.loads(b) for _, b in self.db.records(payload["digests"])]
        answer = self.call(payload["server"], "/cothority/records/relay", bodies)
        if answer.get("refused"):
            raise RuntimeError(
                f"`{payload['server']}` refused relayed records: {answer['refused'][:1]}"
            )
        return {"accepted": answer.get("accepted")}

    def load_records(self, digests: Any) -> list[dict[str, bj.Ciphertext]]:
        if not isinstance(digests, list) or len(digests) > transcript.MAX_ROWS:
            raise StepRefused(400, "`records` is a list of digests")
        rows = self.db.records(digests)
        if len(rows) != len(set(digests)) or len(digests) != len(set(digests)):
            raise StepRefused(409, f"`{self.name}` does not hold every record yet (relay pending)")
        return [provider.parse_record(json.loads(b), self.dep.schema)[0].columns for _, b in rows]

    # ---- steps this server answers -------------------------------------------------------------

    def step(self, step: str, body: Any) -> dict[str, Any]:
        keys = self.ready()
        if step not in ("shuffle", "tag", "noise", "keyswitch") or not isinstance(body, dict):
            raise StepRefused(404, f"no step `{step}`")
        try:
            query = Query.from_json(body.get("query"), self.dep.schema)
        except MalformedInput as exc:
            raise StepRefused(400, str(exc)) from None
        answering = body.get("answering")
        if (
            not isinstance(answering, list)
            or self.name not in answering
            or len(set(answering)) != len(answering)
            or len(answering) < self.dep.threshold
            or not set(answering) <= set(self.dep.order)
        ):
            raise StepRefused(
                400, "`answering` lists at least t distinct servers, this one among them"
            )
        records = self.load_records(body.get("records"))
        # Per-server noise is drawn once per query (asked again, by another answering set
        # too, the same draw); every other step once per query and answering set.
        once = step == "noise" and query.noise is not None and query.noise.mechanism != "list"
        slot = step_slot(step, answering, once)
        in_digest = wire.digest(
            {k: body.get(k) for k in ("query", "answering", "records", "shuffles", "tags", "noise")}
        )
        stored = self.db.step(query.id, slot)
        if stored is None and not once:  # kept before slots were cut to 64 characters (SQLite)
            stored = self.db.step(query.id, f"{step}:{wire.digest(answering)}")
        if stored is not None:
            if not once and stored[0] != in_digest:
                raise StepRefused(
                    409, f"`{self.name}` answered its {step} step of `{query.id}` for other inputs"
                )
            return stored[1]
        shuffles, tags = body.get("shuffles") or [], body.get("tags") or []
        if not isinstance(shuffles, list) or not isinstance(tags, list):
            raise StepRefused(400, "`shuffles` and `tags` are lists of signed outputs")
        try:
            if step == "shuffle":
                out = self._row_shuffle(keys, query, answering, records, shuffles)
            elif step == "tag":  # on the shuffled rows, every shuffle checked
                rows = transcript.shuffled_records(
                    self.dep, keys, query, answering, records, shuffles
                )
                out = self._tag(keys, query, answering, rows, tags)
            elif step == "noise":
                out = self._noise(
                    keys, query, answering, records, shuffles, tags, body.get("noise") or []
                )
            else:
                out = self._switch(
                    keys, query, answering, records, shuffles, tags, body.get("noise") or []
                )
        except Misbehaviour as exc:
            raise StepRefused(422, str(exc)) from None
        except MalformedInput as exc:  # e.g. a noise list whose delta is above the query's
            raise StepRefused(400, str(exc)) from None
        entry = transcript.signed_output(self.key, query.id, step, self.name, out)
        return self.db.put_step(query.id, slot, in_digest, entry)[1]

    def _row_shuffle(
        self, keys: Keys, query: Query, answering: list[str], records: Any, previous: list[Any]
    ) -> Any:
        """This server's shuffle of the query's rows (UnLynx's verifiable shuffle before the
        tags), after checking the previous servers' (the first shuffles the records' rows)."""
        if not query.tag_columns():
            raise StepRefused(400, "the query has no GROUP BY or WHERE: no rows to shuffle")
        if transcript.shuffle_weight(query, len(records), len(answering)) > (
            transcript.MAX_SHUFFLE_ENTRIES
        ):
            raise StepRefused(400, f"{len(records)} rows are too many to shuffle in one query")
        pos = answering.index(self.name)
        rows = transcript.check_row_shuffles(
            self.dep, keys, query, answering, records, previous[:pos], upto=pos
        )
        if not rows:
            return {"rows": [], "proof": ""}
        c = transcript.ctx(self.dep, keys.key, query.id, "shuffle", self.name, answering)
        key = bj.keygen()[1] if self.fault == "shuffle-key" else keys.key  # fault: another key
        out, proof = steps.shuffle_rows(key, rows, c)
        if self.fault == "shuffle-drop":
            out = out[:-1]
        elif self.fault == "shuffle-replace":
            out[0][0] = steps.public_list([0])[0]
        elif self.fault == "shuffle-skip":
            out = rows
        elif self.fault == "shuffle-replay" and pos:  # the previous server's rows and proof
            return previous[pos - 1]["output"]
        return {"rows": [[e.hex() for e in row] for row in out], "proof": proof.hex()}

    def _tag(
        self, keys: Keys, query: Query, answering: list[str], rows: Any, tags: list[Any]
    ) -> Any:
        """This server's tag step on the shuffled rows (checked by `step`)."""
        pos = answering.index(self.name)
        transcript.check_tags(self.dep, keys, query, answering, rows, tags[:pos], upto=pos)
        cur = transcript.tag_inputs(query, rows)
        if pos:
            cur = wire.ciphertexts(tags[pos - 1]["output"]["cts"], "tagged", transcript.MAX_ROWS)
        lam = steps.lagrange(self.index, [self.dep.index(s) for s in answering])
        c = transcript.ctx(self.dep, keys.key, query.id, "tag", self.name, answering)
        out, S, proof = steps.tag_step(cur, self.share, self.index, lam, c)  # type: ignore[arg-type]
        if self.fault == "tag":
            out[0] = bj.Ciphertext(out[0].c1, out[0].c2 + bj.BASE8)
        return {"cts": [wire.ct_json(o) for o in out], "S": wire.point_hex(S), "proof": proof.hex()}

    def _noise(
        self,
        keys: Keys,
        query: Query,
        answering: list[str],
        records: Any,
        shuffles: list[Any],
        tags: list[Any],
        previous: list[Any],
    ) -> Any:
        if query.noise is None:
            raise StepRefused(400, "the query asks for no noise")
        d = transcript.derive(self.dep, keys, query, answering, records, shuffles, tags, None)
        n = len(d.groups) * len(query.sensitivities(self.dep.schema))
        if query.noise.mechanism == "list":
            return self._shuffle(keys, query, answering, previous, n)
        sens = query.sensitivities(self.dep.schema)
        c = wire.context(self.dep.name, wire.point_hex(keys.key), query.id, "noise", self.name)
        cts, proofs = [], []
        for k in range(n):
            s = sens[k % len(sens)]
            bound = query.noise.bound(s)
            z = steps.discrete_laplace(query.noise.scale(s), bound)
            ct, p = steps.noise(keys.key, z, bound, c + b"|%d" % k)
            cts.append(wire.ct_json(ct))
            proofs.append(p.hex())
        return {"cts": cts, "proofs": proofs}

    def _shuffle(
        self, keys: Keys, query: Query, answering: list[str], previous: list[Any], n: int
    ) -> Any:
        """This server's shuffle of each of the `n` noise lists, after checking the previous
        servers' shuffles (the first server starts from the public lists)."""
        pos = answering.index(self.name)
        lists = transcript.check_shuffles(
            self.dep, keys, query, answering, previous[:pos], n, upto=pos
        )
        c = transcript.ctx(self.dep, keys.key, query.id, "noise", self.name, answering)
        key = bj.keygen()[1] if self.fault == "noise-key" else keys.key  # fault: another key
        out, proofs = [], []
        for a in range(n):
            new, proof = steps.shuffle_list(key, lists[a], c + b"|%d" % a)
            out.append(new)
            proofs.append(proof)
        if self.fault == "noise-drop":
            out[0] = out[0][:-1]
        elif self.fault == "noise-replace":
            out[0][0] = steps.public_list([0])[0]
        elif self.fault == "noise-replay" and pos:  # the previous server's output and proofs
            return previous[pos - 1]["output"]
        lists_hex = [[e.hex() for e in lst] for lst in out]
        return {"lists": lists_hex, "proofs": [p.hex() for p in proofs]}

    def _switch(
        self,
        keys: Keys,
        query: Query,
        answering: list[str],
        records: Any,
        shuffles: list[Any],
        tags: list[Any],
        noise: list[Any],
    ) -> Any:
        d = transcript.derive(
            self.dep,
            keys,
            query,
            answering,
            records,
            shuffles,
            tags,
            noise if query.noise else [],
        )
        lam = steps.lagrange(self.index, [self.dep.index(s) for s in answering])
        c = transcript.ctx(self.dep, keys.key, query.id, "keyswitch", self.name, answering)
        parts, proof = steps.key_switch(
            d.released,
            self.share,  # type: ignore[arg-type]
            self.index,
            lam,
            query.querier_key,
            c,
        )
        if self.fault == "keyswitch":
            parts[0] = (parts[0][0], parts[0][1] + bj.BASE8)
        return {
            "parts": [[wire.point_hex(u), wire.point_hex(w)] for u, w in parts],
            "proof": proof.hex(),
        }

    def stop(self) -> None:
        self._stop.set()


def step_slot(step: str, answering: list[str], once: bool) -> str:
    """Where a server keeps a step's output (`cothority_steps.step`, VARCHAR(64)): the step,
    and but for a once-per-query step the answering set's digest, cut to 128 bits so that the
    longest name fits (two sets that shared it would still differ in the stored input digest,
    so the second would be refused, never answered twice)."""
    return step if once else f"{step}:{wire.digest(answering)[:32]}"


def _hex(pk: Any) -> str:
    from zeenot.runtime.identity import public_hex

    return public_hex(pk)
