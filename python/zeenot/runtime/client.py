"""`zeenot run APP.py --tier client`: the client tier of an application.

The client runs `main` as the plan lays it out: it takes the server's published parameters from
the descriptor, runs its own workers locally (their `@zk` calls are proved here, with keys whose
hashes the server published and the client checks), and sends one submission with the proofs
and its public inputs. Private inputs never leave the process: the submission holds proofs,
their public values, and the inputs `main` declares public.

A submission is sent again with the same id when the connection fails, so a run that the server
stored but whose answer was lost is not stored twice (the server answers 200 with the result).

With a client key (`key`, `zeenot run --client-key`), every submission is signed for the
server's name (`runtime/identity.py`; each attempt signed afresh), so the server knows which
registered client ran it and nobody else can submit, or read, in its name.

An application with workers on the peer tier needs its run's peer (`peer`: a callable taking
the run's request and answering with the peer's signed proofs, `runtime/peer_prover.py`): the
client asks it first, relays its proofs in the submission, and reads the peer's results from
their proofs' outputs (it never sees the peer's private inputs).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import time
import types
import uuid
from collections.abc import Callable
from typing import Any

import httpx

from zeenot import api
from zeenot.application.model import (
    Application,
    Const,
    Input,
    Param,
    RegionOut,
    Source,
    Step,
    StepOutput,
    proof_key,
)
from zeenot.application.placement import place
from zeenot.application.regions import backend_setting
from zeenot.errors import CompileError, MalformedInput, ProofRejected, UsageError, ZeenotError
from zeenot.files import parse_json
from zeenot.runtime.binding import CONTEXT, bound_regions, run_context
from zeenot.runtime.identity import Key, SignedAuth
from zeenot.runtime.service import (
    SUBMISSION_FORMAT,
    backend_of,
    fingerprint,
    normal,
    to_json,
)


class RunError(ZeenotError):
    """The run could not complete: the server could not be reached or answered oddly."""


class RunRefused(RunError):
    """The server refused the run (a 4xx answer with its reason)."""


class Runner:
    def __init__(
        self,
        app: Application,
        server: str,
        *,
        timeout: float = 60.0,
        retries: int = 3,
        key: Key | None = None,
        audience: str | None = None,
        peer: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ):
        self.app = app
        self.key, self.audience = key, audience
        self.peer = peer  # the run's peer, for workers on the peer tier
        self.http = httpx.Client(base_url=server.rstrip("/"), timeout=timeout)
        self.retries = retries
        self.regions = bound_regions(app, synthesize=False)
        self._descriptor: dict[str, Any] | None = None
        self._keys: dict[str, api.Keys] = {}
        self._values: dict[int, Any] | None = None  # the last prepared run's step values

    def close(self) -> None:
        self.http.close()

    # what the server publishes, checked -------------------------------------------------------

    def descriptor(self) -> dict[str, Any]:
        if self._descriptor is None:
            url = f"/api/apps/{self.app.name}"
            doc = _descriptor(url, _json(self._get(url), url))
            for name, circuit in self.regions.items():
                published = doc["regions"].get(name, {})
                if published.get("program_hash") != fingerprint(circuit):
                    raise RunError(
                        f"the server proves `{name}` as program {published.get('program_hash')}, "
                        f"this client as {fingerprint(circuit)}: the two run different versions "
                        f"of `{self.app.path}`"
                    )
                if not self._agrees(name, circuit, published.get("backend")):
                    raise RunError(f"the server proves `{name}` with {published.get('backend')}")
            self._follow(doc.get("placement"))
            self._descriptor = doc
        return self._descriptor

    def _agrees(self, name: str, circuit: api.Circuit | api.Template, backend: Any) -> bool:
        """Whether the server's back end for a region is the application's. For an "auto"
        region the server's planner chose; any back end that can prove the region will do
        (both are zero-knowledge: the choice is the server's cost, not the client's risk)."""
        if backend_setting(self.app, name) == "auto":
            return backend == "sigma" or (
                backend == "groth16" and not isinstance(circuit, api.Template)
            )
        return bool(backend == backend_of(self.app, name, circuit))

    def _follow(self, placement: Any) -> None:
        """Place the movable workers where the server's planner did (docs/planner.md), if the
        flow check allows it: a server that asks for a worker reading the client's private
        data is refused before anything runs."""
        if placement is None:
            return
        if not (
            isinstance(placement, dict) and all(isinstance(t, str) for t in placement.values())
        ):
            raise RunError("the server's `placement` is not an object of tiers")
        try:
            place(self.app, placement)
        except (CompileError, UsageError) as exc:
            raise RunError(
                f"the server's placement {_excerpt(placement)} is refused: {exc}"
            ) from None

    def _verifying_key(self, region: str) -> bytes:
        """A region's verifying key (a region the server proves: the client checks, never
        proves it, so it fetches no proving key), checked against its published hash."""
        if region in self._keys:
            return self._keys[region].verifying_key
        published = self.descriptor()["regions"][region]
        vk = self._get(f"/api/apps/{self.app.name}/regions/{region}/verifying_key").content
        if hashlib.sha256(vk).hexdigest() != published.get("verifying_key_sha256"):
            raise RunError(f"the verifying key of `{region}` does not match its published hash")
        return vk

    def keys(self, region: str) -> api.Keys:
        if region not in self._keys:
            published = self.descriptor()["regions"][region]
            base = f"/api/apps/{self.app.name}/regions/{region}"
            pk = self._get(f"{base}/proving_key").content
            vk = self._get(f"{base}/verifying_key").content
            if hashlib.sha256(pk).hexdigest() != published.get("proving_key_sha256"):
                raise RunError(f"the proving key of `{region}` does not match its published hash")
            if hashlib.sha256(vk).hexdigest() != published.get("verifying_key_sha256"):
                raise RunError(f"the verifying key of `{region}` does not match its published hash")
            self._keys[region] = api.Keys(fingerprint(self.regions[region]), pk, vk)
        return self._keys[region]

    def auth(self) -> SignedAuth | None:
        """The client's signature on its requests: for the server's published name unless an
        audience was given (giving it pins the server: a request signed for it is refused by
        any other)."""
        if self.key is None:
            return None
        if self.audience is None:
            identity = _json(self._get("/api/identity"), "/api/identity")
            if not (isinstance(identity, dict) and isinstance(identity.get("name"), str)):
                raise RunError("GET /api/identity: the server's answer names no server (`name`)")
            self.audience = identity["name"]
        return SignedAuth(self.key, self.audience)

    def mine(self, submission_id: str | None = None) -> Any:
        """This client's own runs as the server stored them (signed: no operator token)."""
        url = f"/api/apps/{self.app.name}/submissions"
        url = f"{url}/{submission_id}" if submission_id else url
        try:
            response = self.http.get(url, auth=self.auth() or httpx.USE_CLIENT_DEFAULT)
        except httpx.TransportError as exc:
            raise RunError(f"cannot reach the server: {exc}") from None
        if response.status_code != 200:
            raise RunRefused(f"GET {url}: {response.status_code} {_reason(response)}")
        return _json(response, url)

    # a run ------------------------------------------------------------------------------------

    def run(self, inputs: dict[str, Any], *, submission_id: str | None = None) -> dict[str, Any]:
        """Run `main` on the client's `inputs` (JSON values by parameter name); the server's
        answer: `{"id", "status", "result"}`."""
        submission = self.prepare(inputs, submission_id=submission_id)
        answer = self.submit(submission)
        self.check_server_proofs(json.loads(submission), answer)
        return answer

    def check_server_proofs(self, submission: dict[str, Any], answer: dict[str, Any]) -> None:
        """Check the proofs the server made of the regions the planner placed on it: each
        valid, bound to this run, and on this run's values where the client has them (its
        inputs, the published parameters, its own proofs' outputs). `RunError` otherwise."""
        calls = self.app.server_proved_calls()
        if not calls:
            return
        made = answer.get("proofs")
        if not isinstance(made, dict):
            raise RunError(
                "the server proves "
                + ", ".join(f"`{proof_key(s, c)}`" for s, c in calls)
                + " but its answer carries no proofs (a retried run's answer has none)"
            )
        doc = self.descriptor()
        client = self.key.name if self.key is not None else None
        values = self._values if self._values is not None else {}
        for step, call in calls:
            key = proof_key(step, call)
            try:
                proof = api.Proof.from_json(json.dumps(made.get(key)))
                backend = doc["regions"][call.region]["backend"]
                if proof.backend != backend:
                    raise ProofRejected(f"a {proof.backend} proof of a {backend} region")
                vk = self._verifying_key(call.region) if backend == "groth16" else None
                api.verify(self.regions[call.region], vk, proof)
            except (MalformedInput, ProofRejected) as exc:
                raise RunError(f"the server's proof `{key}` is refused: {exc}") from None
            context = run_context(
                self.app.name,
                self.app.source_sha256,
                doc["epoch"],
                submission["id"],
                key,
                submission["inputs"],
                client,
            )
            if normal(proof.public_inputs.get(CONTEXT)) != normal(context):
                raise RunError(f"the server's proof `{key}` belongs to another run")
            for param, origin in call.args.items():
                if param not in proof.public_inputs or not isinstance(origin, Param):
                    continue
                src = step.args[origin.name]
                if isinstance(src, StepOutput) and src.step not in values:
                    continue  # a value the server computed after the client's steps
                if isinstance(src, Input) and src.name not in submission["inputs"]:
                    continue  # private: never a public input of a server's proof (ZN511)
                mine = _value(src, values, submission["inputs"])
                if normal(to_json(mine)) != normal(proof.public_inputs[param]):
                    raise RunError(
                        f"the server's proof `{key}` has `{param}` = "
                        f"{_excerpt(proof.public_inputs[param])}, this run's is {_excerpt(mine)}"
                    )

    def prepare(self, inputs: dict[str, Any], *, submission_id: str | None = None) -> bytes:
        """Run the client's steps and return the submission's bytes (not yet sent); the
        peer's first, by the run's peer, where the application has any."""
        mine = [n for n, i in self.app.inputs.items() if i.private_to != "peer"]
        missing = sorted(set(mine) - set(inputs))
        extra = sorted(set(inputs) - set(mine))
        if missing or extra:
            raise MalformedInput(
                f"inputs: {'missing' if missing else 'unknown'} `{(missing or extra)[0]}` "
                f"(`main` takes {', '.join(mine)} from the client)"
            )
        params = {int(k): v for k, v in self.descriptor()["parameters"].items()}
        values: dict[int, Any] = dict(params)
        proofs: dict[str, Any] = {}
        sid = submission_id or uuid.uuid4().hex
        public = {n: inputs[n] for n, i in self.app.inputs.items() if i.private_to is None}
        client = self.key.name if self.key is not None else None
        doc: dict[str, Any] = {
            "zeenot_submission": SUBMISSION_FORMAT,
            "app": self.app.name,
            "id": sid,
            "inputs": public,
            "proofs": proofs,
        }
        if self.app.peer_proved_calls():
            doc["peer"] = self._ask_peer(sid, public, client, values, proofs)
        for step in self.app.steps:
            if step.phase == "client":
                args = {p: _value(src, values, inputs) for p, src in step.args.items()}
                values[step.index] = self._run_worker(step, args, proofs, (sid, public, client))
        self._values = values
        return json.dumps(doc, separators=(",", ":")).encode()

    def _ask_peer(
        self,
        sid: str,
        public: dict[str, Any],
        client: str | None,
        values: dict[int, Any],
        proofs: dict[str, Any],
    ) -> dict[str, str]:
        """The run's peer proves its workers' regions for this run: its proofs go into
        `proofs`, its steps' results (from their proofs' outputs) into `values`; what the
        submission's `peer` says (the peer's name and signature)."""
        if self.peer is None:
            raise RunError(
                "this application has workers on the peer tier ("
                + ", ".join(f"`{proof_key(s, c)}`" for s, c in self.app.peer_proved_calls())
                + "): a run needs its peer"
            )
        answer = self.peer(self.peer_request(public, sid))
        expected = [proof_key(s, c) for s, c in self.app.peer_proved_calls()]
        given = answer.get("proofs") if isinstance(answer, dict) else None
        if not (isinstance(given, dict) and sorted(given) == sorted(expected)):
            raise RunError(f"the peer's answer carries not the proofs {expected}")
        name, signature = answer.get("name"), answer.get("signature")
        if not (isinstance(name, str) and isinstance(signature, str)):
            raise RunError("the peer's answer has no `name` and `signature`")
        proofs.update(given)
        for step in self.app.step_phase("peer"):
            parts = [_peer_value(step, o, values, public, given) for o in step.returns or []]
            values[step.index] = parts[0] if len(parts) == 1 else parts
        return {"name": name, "signature": signature}

    def peer_request(self, public: dict[str, Any], submission_id: str) -> dict[str, Any]:
        return peer_request(self.app, public, submission_id, self.key)

    def submit(self, body: bytes) -> dict[str, Any]:
        url = f"/api/apps/{self.app.name}/submissions"
        auth = self.auth() or httpx.USE_CLIENT_DEFAULT
        for attempt in range(self.retries + 1):
            try:
                response = self.http.post(
                    url, content=body, headers={"content-type": "application/json"}, auth=auth
                )
            except httpx.TransportError as exc:
                if attempt == self.retries:
                    raise RunError(f"cannot reach the server: {exc}") from None
                time.sleep(0.2 * 2**attempt)
                continue
            if response.status_code in (200, 201):
                answer = _json(response, url)
                if not isinstance(answer, dict):
                    raise RunError(
                        f"the server's answer to the run is not a JSON object: {_excerpt(answer)}"
                    )
                return answer
            if 400 <= response.status_code < 500:
                raise RunRefused(
                    f"the server refused the run ({response.status_code}): {_reason(response)}"
                )
            raise RunError(f"the server failed ({response.status_code}): {_reason(response)}")
        raise AssertionError("unreachable")

    def _run_worker(
        self,
        step: Step,
        args: dict[str, Any],
        proofs: dict[str, Any],
        run: tuple[str, dict[str, Any], str | None],
        peer: str | None = None,
    ) -> Any:
        """Run a client worker with its region calls proved (in the order the plan expects),
        each proof bound to the run (`run`: the submission id, `main`'s public inputs and the
        submitting client); `peer`: this process is the run's peer, proving a peer worker."""
        fn = self.app.workers[step.worker]
        calls = iter(step.calls)

        def proving(region: str, original: Any) -> Any:
            def call(*call_args: Any) -> Any:
                planned = next(calls)
                assert planned.region == region
                params = list(inspect.signature(original).parameters)
                inputs = {p: to_json(v) for p, v in zip(params, call_args, strict=True)}
                key = proof_key(step, planned)
                doc = self.descriptor()
                inputs[CONTEXT] = run_context(
                    self.app.name,
                    self.app.source_sha256,
                    doc["epoch"],
                    run[0],
                    key,
                    run[1],
                    run[2],
                    peer,
                )
                circuit = self.regions[region]
                if self.descriptor()["regions"][region]["backend"] == "sigma":
                    proof = api.prove_sigma(circuit, inputs)
                else:
                    assert isinstance(circuit, api.Circuit)
                    proof = api.prove(circuit, self.keys(region), inputs)
                proofs[key] = json.loads(proof.to_json())
                return proof.outputs  # what the proof says, as JSON data

            return call

        # The worker's module globals, with each region name bound to a proving call.
        scope = dict(fn.__globals__)
        for region in {c.region for c in step.calls}:
            scope[region] = proving(region, self.app.regions[region])
        body = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
        return to_json(body(**args))

    def _get(self, url: str) -> httpx.Response:
        try:
            response = self.http.get(url)
        except httpx.TransportError as exc:
            raise RunError(f"cannot reach the server: {exc}") from None
        if response.status_code != 200:
            raise RunError(f"GET {url}: {response.status_code} {_reason(response)}")
        return response


def _value(src: Source, values: dict[int, Any], inputs: dict[str, Any]) -> Any:
    if isinstance(src, Const):
        return src.value
    if isinstance(src, Input):
        return inputs[src.name]
    assert isinstance(src, StepOutput)
    value = values[src.step]
    return value if src.index is None else value[src.index]


def peer_request(
    app: Application, public: dict[str, Any], submission_id: str, key: Key | None
) -> dict[str, Any]:
    """What a client asks its peer for a run: the application, the submission id, `main`'s
    public inputs and the client's registered name (null when unsigned)."""
    client = key.name if key is not None else None
    return {"app": app.name, "id": submission_id, "inputs": public, "client": client}


def _peer_value(
    step: Step, origin: Any, values: dict[int, Any], public: dict[str, Any], proofs: dict[str, Any]
) -> Any:
    """What the client knows of a peer worker's result: its proofs' outputs, the values it
    passed through where the client has them, constants; never the peer's private data."""
    if isinstance(origin, Const):
        return origin.value
    if isinstance(origin, RegionOut):
        out = proofs[proof_key(step, step.calls[origin.call])].get("outputs")
        return out if origin.index is None or not isinstance(out, list) else out[origin.index]
    if isinstance(origin, Param):
        src = step.args[origin.name]
        if isinstance(src, Input) and src.name not in public:
            return None
        return _value(src, values, public)
    return None  # computed on the peer, unproved: no other tier may read it (ZN505)


def _json(response: httpx.Response, url: str) -> Any:
    """The answer's JSON value, or a `RunError` naming what came instead: whatever a server
    sends is the server's to get right, never a crash of the client (exit 2, not 3)."""
    try:
        return parse_json(response.content, f"the server's answer to {url}")
    except MalformedInput as exc:
        raise RunError(
            f"{exc} (HTTP {response.status_code}, {_content_type(response)}: "
            f"{_excerpt(response.content)})"
        ) from None


def _descriptor(url: str, doc: Any) -> dict[str, Any]:
    """The application's descriptor as `Service.descriptor` writes it, its shape checked
    before anything reads it."""
    problem = None
    if not isinstance(doc, dict):
        problem = f"not a JSON object but {_excerpt(doc)}"
    elif not isinstance(doc.get("regions"), dict) or not all(
        isinstance(r, dict) for r in doc["regions"].values()
    ):
        problem = "`regions` is not an object of objects"
    elif not isinstance(doc.get("parameters"), dict) or not all(
        k.isascii() and k.isdigit() for k in doc["parameters"]
    ):
        problem = "`parameters` is not an object keyed by step numbers"
    elif not isinstance(doc.get("epoch"), (str, int)) or isinstance(doc.get("epoch"), bool):
        problem = "`epoch` is missing"
    if problem is not None:
        raise RunError(
            f"GET {url}: the server's answer is not an application's descriptor: {problem}"
        )
    return doc


def _reason(response: httpx.Response) -> str:
    """Why the server refused or failed: its `reason` if it sent one, else an excerpt of what
    it sent (printable, one line, short)."""
    try:
        doc = parse_json(response.content, "the answer")
    except MalformedInput:
        return _excerpt(response.content) if response.content else "(an empty answer)"
    if isinstance(doc, dict) and isinstance(doc.get("reason"), str):
        return _excerpt(doc["reason"], quote=False)
    return _excerpt(json.dumps(doc) if isinstance(doc, str) else doc, quote=False)


def _content_type(response: httpx.Response) -> str:
    return _excerpt(response.headers.get("content-type", "no content type"), quote=False, limit=60)


def _excerpt(value: Any, *, quote: bool = True, limit: int = 200) -> str:
    """A server-sent value as one short printable line: a hostile server must not write
    escape sequences to the user's terminal or flood it."""
    if isinstance(value, bytes):
        if not value:
            return "an empty body"
        value = value.decode("utf-8", "replace")
    elif not isinstance(value, str):
        try:
            value = json.dumps(value)
        except (RecursionError, ValueError):
            value = f"a {type(value).__name__} nested too deeply to show"
        quote = False
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in value[:limit])
    more = "…" if len(value) > limit else ""
    return f"{text!r}{more}" if quote else f"{text}{more}"
