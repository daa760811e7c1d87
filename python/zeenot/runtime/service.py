"""The server tier of one application: keys, published parameters, and submissions.

`Service.submit` is the whole server-side protocol, independent of HTTP:

1. the body is at most `max_body` bytes (the HTTP layer refuses more before reading it all) and
   strict JSON with exactly the fields of a submission;
2. every proof the plan expects is present, for this program and key, and verifies;
3. every public input of every proof is checked against the server's own copy of that value
   (a published parameter, a constant, the proof of an earlier region, or the client's own
   public input as submitted): a client cannot prove against a tariff of its choosing;
4. the server's workers run on the verified values, and the submission, its proofs' digests
   and the result are stored in one transaction; only then is it acknowledged. The unique keys
   on the id and the digests tell the rest apart: a known id with the same body is a retry
   (answered with the stored result), with another body a conflict; a stored proof under a
   new id is a replay.

Anything refused gets a `Rejected` with an HTTP status and a reason, is logged in the
rejections table and leaves no other row behind.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from zeenot import api
from zeenot.application.inputs import check_input
from zeenot.application.model import (
    Application,
    Computed,
    Const,
    Input,
    Origin,
    Param,
    RegionCall,
    RegionOut,
    Source,
    Step,
    StepOutput,
    proof_key,
)
from zeenot.application.placement import place
from zeenot.application.regions import backend_setting, check_backend
from zeenot.errors import MalformedInput, ProofRejected, ZeenotError
from zeenot.files import parse_json
from zeenot.plan import Profile, Weights, plan
from zeenot.plan import Region as PlanRegion
from zeenot.plan.planner import application_regions
from zeenot.plan.profile import DEFAULT
from zeenot.runtime import metrics
from zeenot.runtime.batching import BatchingVerifier
from zeenot.runtime.binding import CONTEXT, bound_regions, run_context
from zeenot.runtime.peer_runs import PeerRefused, check_peer
from zeenot.runtime.placed import run_proving
from zeenot.runtime.store import Conflict, Fold, Store, now
from zeenot.verifier import SigmaChecks, Verifier

SUBMISSION_FORMAT = 1
MAX_BODY = 1 << 20  # bytes of one submission: a Groth16 submission is a few kB
_ID = re.compile(r"[A-Za-z0-9._-]{1,64}", re.ASCII)
_FIELDS = {"zeenot_submission", "app", "id", "inputs", "proofs"}


class Rejected(ZeenotError):
    """A submission the server refuses; `status` is the HTTP status to answer with."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


@dataclass
class Region:
    name: str
    circuit: api.Circuit | api.Template
    backend: str  # "groth16" or "sigma"
    keys: api.Keys | None  # groth16 only
    verifier: Verifier | None  # groth16 only

    @cached_property
    def _batching(self) -> BatchingVerifier | None:
        """Concurrent submissions' proofs checked together: Groth16 ones with the verifying
        key, sigma ones of a circuit with its program (a template's are compiled per proof)."""
        if self.verifier is not None:
            return BatchingVerifier(self.verifier)
        if isinstance(self.circuit, api.Circuit):
            return BatchingVerifier(SigmaChecks(self.circuit))
        return None

    @property
    def program_hash(self) -> str:
        return fingerprint(self.circuit)

    def describe(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"backend": self.backend, "program_hash": self.program_hash}
        if isinstance(self.circuit, api.Template):
            doc["template"] = True  # proved at the inputs' lengths; the hash is at length 1
        if self.keys is not None:
            doc["verifying_key_sha256"] = self.keys.verifying_key_hash
            doc["proving_key_sha256"] = hashlib.sha256(self.keys.proving_key).hexdigest()
        return doc

    def verify(self, proof: api.Proof) -> None:
        """`ProofRejected` or `MalformedInput` unless `proof` is a valid proof of this region."""
        if proof.backend != self.backend:
            raise ProofRejected(
                f"a {proof.backend} proof: `{self.name}` is proved with {self.backend}"
            )
        if self._batching is not None:
            self._batching.verify(proof)
        else:
            api.verify(self.circuit, None, proof)


def fingerprint(circuit: api.Circuit | api.Template) -> str:
    """A program hash both tiers compute: a template's is its circuit at lists of length 1."""
    if isinstance(circuit, api.Template):
        return circuit.at({name: 1 for name in circuit.unbounded}).hash
    return circuit.hash


_PLANNED: dict[str, str] = {}


def planned_backend(name: str, circuit: api.Circuit | api.Template) -> str:
    """The planner's choice for an "auto" region, made by the server (which publishes it; the
    client follows). Every server process must choose alike, so the choice uses the profile
    that ships with the package, or `$ZEENOT_PROFILE` set alike for all of them, never a
    per-user calibration; K and weights are the planner's defaults."""
    if isinstance(circuit, api.Template):
        return "sigma"
    if circuit.hash not in _PLANNED:
        profile = Profile.load(os.environ.get("ZEENOT_PROFILE") or DEFAULT)
        choice = plan([PlanRegion(name, circuit)], profile, Weights()).choices[0]
        _PLANNED[circuit.hash] = choice.backend
    return _PLANNED[circuit.hash]


def planned_placement(app: Application) -> dict[str, str]:
    """Place the application's movable workers (`@worker(tier="auto")`) where the planner
    finds the whole application cheapest under its `PLAN_WEIGHTS`, with the profile
    `planned_backend` uses (every server process places alike); the placement, published in
    the descriptor for the client to follow. Empty when nothing is movable."""
    if not any(s.movable for s in app.steps):
        return {}
    profile = Profile.load(os.environ.get("ZEENOT_PROFILE") or DEFAULT)
    chosen = plan(application_regions(app), profile, Weights.of_application(app)).placement
    place(app, chosen)
    return chosen


def backend_of(app: Application, name: str, circuit: api.Circuit | api.Template) -> str:
    """The back end the server proves a region with: the application's `BACKENDS[name]` if it
    sets one ("auto": the planner's choice), else groth16, or sigma for a template (lists
    without MaxSize: no fixed circuit to set up)."""
    chosen = backend_setting(app, name)
    if chosen == "auto":
        return planned_backend(name, circuit)
    check_backend(app, name, circuit)
    return chosen or ("sigma" if isinstance(circuit, api.Template) else "groth16")


def prepare_region(
    store: Store, app: Application, name: str, circuit: api.Circuit | api.Template
) -> Region:
    """A region ready to verify: for groth16, its keys, the stored ones or a new setup stored
    for every other process (the first process to store wins; the others use its keys)."""
    if backend_of(app, name, circuit) == "sigma":
        return Region(name, circuit, "sigma", None, None)
    assert isinstance(circuit, api.Circuit)
    stored = store.keys(app.name, name, circuit.hash)
    if stored is None:
        keys = api.setup(circuit)
        try:
            store.put_keys(
                app.name,
                name,
                circuit.hash,
                keys.proving_key,
                keys.verifying_key,
                hashlib.sha256(keys.proving_key).hexdigest(),
                keys.verifying_key_hash,
            )
        except Conflict:  # another server process set up first: use its keys
            stored = store.keys(app.name, name, circuit.hash)
    if stored is not None:
        keys = api.Keys(circuit.hash, stored[0], stored[1])
    return Region(name, circuit, "groth16", keys, Verifier.of(circuit, keys.verifying_key))


class Service:
    """One application served from one database; holds nothing a restart would lose."""

    def __init__(self, app: Application, store: Store, *, max_body: int = MAX_BODY):
        self.app, self.store, self.max_body = app, store, max_body
        # jobs to store with each accepted run, in its transaction (`zeenot serve --forward`)
        self.on_accept: Callable[[str, str, Any], list[dict[str, Any]]] | None = None
        self.placement = planned_placement(app)  # before the regions: it moves proofs here
        circuits = bound_regions(app)
        if app.peer_sum is not None:
            spec = app.peer_sum
            circuits |= bound_regions(app, [spec.share.__name__, spec.combine.__name__])
        self.regions = {name: self._region(name, circuit) for name, circuit in circuits.items()}
        self.parameters = self._parameters()
        self.epoch = store.epoch(app.name)
        self.fold = dashboard_fold(app)
        store.ensure_dashboard(app.name, self.fold)

    # start-up: keys and parameters, the same for every process --------------------------------

    def _region(self, name: str, circuit: api.Circuit) -> Region:
        return prepare_region(self.store, self.app, name, circuit)

    def _parameters(self) -> dict[int, Any]:
        """The parameter steps' results: computed by the first process for this version of
        the application and stored, so every process publishes and checks the same values."""
        stored = self.store.parameters(self.app.name, self.app.source_sha256)
        if stored is None:
            values: dict[int, Any] = {}
            for step in self.app.step_phase("parameters"):
                args = {p: self._value(src, values, {}, {}) for p, src in step.args.items()}
                values[step.index] = to_json(self.app.workers[step.worker](**args))
            try:
                self.store.put_parameters(
                    self.app.name, self.app.source_sha256, {str(k): v for k, v in values.items()}
                )
                return values
            except Conflict:
                stored = self.store.parameters(self.app.name, self.app.source_sha256)
        return {int(k): v for k, v in stored.items()}

    def descriptor(self) -> dict[str, Any]:
        """What a client needs to prove against the right programs and keys."""
        return {
            "zeenot_app": 1,
            "app": self.app.name,
            "source_sha256": self.app.source_sha256,
            "epoch": self.epoch,
            "regions": {name: r.describe() for name, r in self.regions.items()},
            "parameters": {str(k): v for k, v in self.parameters.items()},
            "inputs": sorted(n for n, i in self.app.inputs.items() if i.private_to is None),
            "proofs": [proof_key(s, c) for s, c in self.app.proved_calls()],
            **self._placement_doc(),
            **self._peer_doc(),
            "max_body": self.max_body,
            **({"clients": self.app.clients.describe()} if self.app.clients else {}),
        }

    def _placement_doc(self) -> dict[str, Any]:
        """Where the planner put the movable workers, and the proofs the server makes (sent
        with each answer); nothing for an application without movable workers."""
        if not self.placement:
            return {}
        made = [proof_key(s, c) for s, c in self.app.server_proved_calls()]
        return {"placement": dict(self.placement), "server_proofs": made}

    def _peer_doc(self) -> dict[str, Any]:
        """The proofs the run's peer makes (relayed by the client, signed by the peer):
        nothing for an application without workers on the peer tier."""
        made = [proof_key(s, c) for s, c in self.app.peer_proved_calls()]
        return {"peer_proofs": made} if made else {}

    # submissions -----------------------------------------------------------------------------

    def submit(self, body: bytes, client: str | None = None) -> tuple[int, dict[str, Any]]:
        """Check and store one submission: (HTTP status, response document). Raises
        `Rejected` (already logged) for anything refused. `client` is the registered client
        whose signature of the request the HTTP layer verified (`runtime/identity.py`)."""
        sid = None
        try:
            doc, sid = self._parse(body)
            period = self._client_period(client)
            inputs = self._inputs(doc["inputs"])  # typed, before any proof is looked at
            with metrics.VERIFY_SECONDS.time(app=self.app.name):
                proofs = self._proofs(doc["proofs"])
            peer = self._peer(doc, sid, inputs, client, proofs)
            digest = statement_digest(sid, inputs, proofs)
            made: dict[str, Any] = {}  # the server's proofs (movable workers placed here)
            result = self._run(sid, proofs, inputs, client, made, peer)
            digests = [hashlib.sha256(p.proof).hexdigest() for p in proofs.values()]
            # Optimistic: one transaction on the common path; the unique keys on the id and on
            # the proofs' digests catch retries and replays, which are told apart afterwards.
            jobs = self.on_accept(sid, digest, result) if self.on_accept else None
            try:
                with metrics.STORE_SECONDS.time(app=self.app.name):
                    self.store.accept(
                        self.app.name,
                        sid,
                        digest,
                        digests,
                        result,
                        client=client,
                        period=period,
                        jobs=jobs,
                        fold=self.fold,
                    )
            except Conflict:
                known = self.store.submission(self.app.name, sid)
                if known is not None:  # a retry (same body, same client), or the id reused
                    answer = self._repeat(known, digest if known.client == client else None)
                    metrics.ACCEPTED.inc(app=self.app.name, outcome="retry")
                    return answer
                self._period_taken(client, period)
                owners = [o for o in map(self.store.proof_owner, digests) if o is not None]
                before = f" as `{owners[0][1]}`" if owners else ""
                raise Rejected(409, f"replayed proof: it was submitted before{before}") from None
            metrics.ACCEPTED.inc(app=self.app.name, outcome="stored")
            answer = {"id": sid, "status": "accepted", "result": result}
            return 201, ({**answer, "proofs": made} if made else answer)
        except Rejected as exc:
            metrics.refused(self.app.name, exc.status, exc.reason)
            self.store.reject(self.app.name, sid, exc.status, exc.reason)
            raise

    def _client_period(self, client: str | None) -> str | None:
        """The period of a run by `client` (None: the application has no rule); 401 if the
        application takes runs from registered clients only and this one is not signed."""
        rule = self.app.clients
        if rule is None:
            return None
        if client is None:
            raise Rejected(
                401,
                f"`{self.app.name}` takes runs from registered clients only: sign the "
                "submission with the client's key (`zeenot run --client-key FILE`)",
            )
        return rule.period(now())

    def _period_taken(self, client: str | None, period: str | None) -> None:
        if client is None or period is None:
            return
        owner = self.store.period_owner(self.app.name, client, period)
        if owner is not None:
            unit = self.app.clients.one_run_per
            raise Rejected(
                409,
                f"client `{client}` has run `{self.app.name}` this {unit} already "
                f"({period}: submission `{owner}`): one run per client per {unit}",
            )

    def _repeat(self, known: Any, digest: str | None) -> tuple[int, dict[str, Any]]:
        # The same statement under the same id (and client) is the same run, whatever the
        # proofs' bytes: a re-randomised copy posted first must not lose the client its run.
        if known.digest != digest:
            raise Rejected(409, f"submission id `{known.id}` was used for another submission")
        return 200, {"id": known.id, "status": "accepted", "result": known.result}

    def _parse(self, body: bytes) -> tuple[dict[str, Any], str]:
        if len(body) > self.max_body:
            raise Rejected(413, f"submission larger than {self.max_body} bytes")
        try:
            doc = parse_json(body, "the submission")
        except MalformedInput as exc:
            raise Rejected(400, str(exc)) from None
        if not isinstance(doc, dict) or doc.get("zeenot_submission") != SUBMISSION_FORMAT:
            raise Rejected(
                400, f"not a zeenot submission (`zeenot_submission: {SUBMISSION_FORMAT}`)"
            )
        fields = _FIELDS | {"peer"} if self.app.peer_proved_calls() else _FIELDS
        if set(doc) != fields:
            extra = sorted(set(doc) ^ fields)
            raise Rejected(
                400, f"a submission has exactly the fields {sorted(fields)}: `{extra[0]}`"
            )
        sid = doc["id"]
        if not (isinstance(sid, str) and _ID.fullmatch(sid)):
            raise Rejected(400, "`id` is 1 to 64 characters of A-Z a-z 0-9 . _ -")
        if doc["app"] != self.app.name:
            raise Rejected(404, f"this server runs `{self.app.name}`, not `{doc['app']}`")
        if not isinstance(doc["proofs"], dict) or not isinstance(doc["inputs"], dict):
            raise Rejected(400, "`proofs` and `inputs` are objects")
        return doc, sid

    def _proofs(self, given: dict[str, Any]) -> dict[str, api.Proof]:
        expected = {proof_key(s, c): c for s, c in self.app.proved_calls()}
        if set(given) != set(expected):
            missing = sorted(set(expected) - set(given))
            extra = sorted(set(given) - set(expected))
            what = f"missing proof `{missing[0]}`" if missing else f"unexpected proof `{extra[0]}`"
            raise Rejected(422, f"{what} (this application's runs carry {sorted(expected)})")
        proofs = {}
        for key, call in expected.items():
            try:
                proof = api.Proof.from_json(json.dumps(given[key]))
                self.regions[call.region].verify(proof)
            except MalformedInput as exc:
                raise Rejected(400, f"proof `{key}`: {exc}") from None
            except ProofRejected as exc:
                raise Rejected(422, f"proof `{key}` rejected: {exc}") from None
            proofs[key] = proof
        return proofs

    def _peer(
        self,
        doc: dict[str, Any],
        sid: str,
        inputs: dict[str, Any],
        client: str | None,
        proofs: dict[str, api.Proof],
    ) -> str | None:
        """The run's peer (a registered client, not the submitting one) whose signature
        covers the proofs it made, for an application with workers on the peer tier."""
        if not self.app.peer_proved_calls():
            return None
        try:
            return check_peer(
                self.app, self.store, (self.epoch, sid, inputs, client), doc["peer"], proofs
            )
        except PeerRefused as exc:
            raise Rejected(exc.status, exc.reason) from None

    def _inputs(self, given: dict[str, Any]) -> dict[str, Any]:
        """`main`'s public inputs, each checked against its annotation (400 naming it)."""
        public = {n: i for n, i in self.app.inputs.items() if i.private_to is None}
        if set(given) != set(public):
            odd = sorted(set(given) ^ set(public))
            raise Rejected(
                422,
                f"`inputs` holds exactly the public inputs of `main` {sorted(public)}: `{odd[0]}`",
            )
        for name, spec in public.items():
            assert spec.expected is not None  # every public input has one (ZN507)
            try:
                check_input(name, spec.expected, given[name])
            except ValueError as exc:
                raise Rejected(400, f"input {exc}") from None
        return given

    def _run(
        self,
        sid: str,
        proofs: dict[str, api.Proof],
        inputs: dict[str, Any],
        client: str | None = None,
        made: dict[str, Any] | None = None,
        peer: str | None = None,
    ) -> Any:
        """Check every proof's public inputs against the server's values, then run the server
        steps on the verified values (a movable worker placed here proves its regions into
        `made`). `peer`: the run's peer, whose name the contexts of its proofs carry."""
        values: dict[int, Any] = dict(self.parameters)
        provers = [*self.app.step_phase("peer"), *self.app.step_phase("client")]
        for step in provers:  # each prover-tier worker's result as `main` sees it (first: a
            parts = [  # later region's public input may be one of them)
                self._origin_value(step, o, values, inputs, proofs) for o in step.returns or []
            ]
            values[step.index] = parts[0] if len(parts) == 1 else parts
        for step, call in self.app.proved_calls():
            key = proof_key(step, call)
            proof = proofs[key]
            by_peer = peer if step.phase == "peer" else None
            context = run_context(
                self.app.name, self.app.source_sha256, self.epoch, sid, key, inputs, client, by_peer
            )
            if normal(proof.public_inputs.get(CONTEXT)) != normal(context):
                raise Rejected(
                    422,
                    f"proof `{key}` belongs to another run: it is bound to another submission "
                    "id, public input, application version or server",
                )
            for param, origin in call.args.items():
                if param not in proof.public_inputs:
                    continue  # private (or committed: the back end checks the commitment)
                expected = self._origin_value(step, origin, values, inputs, proofs)
                if normal(expected) != normal(proof.public_inputs[param]):
                    raise Rejected(
                        422,
                        f"proof `{proof_key(step, call)}`: public input `{param}` is "
                        f"{json.dumps(proof.public_inputs[param])}, the server's value is "
                        f"{json.dumps(expected)}",
                    )
        for step in self.app.steps:
            if step.phase == "server":
                args = {p: self._value(src, values, inputs, proofs) for p, src in step.args.items()}
                try:
                    if step.calls:  # a movable worker placed on the server: it proves
                        run = (sid, inputs, client)
                        values[step.index] = to_json(self._proving(step, args, run, made))
                    else:
                        values[step.index] = to_json(self.app.workers[step.worker](**args))
                except ZeenotError as exc:
                    raise Rejected(422, f"`{step.worker}` refused the values: {exc}") from None
                except (ValueError, TypeError, ArithmeticError, LookupError) as exc:
                    raise Rejected(
                        422, f"`{step.worker}` failed on the values: {type(exc).__name__}: {exc}"
                    ) from None
        result = self.app.result
        if result is None:
            return None
        if isinstance(result, list):
            return [self._value(s, values, inputs, proofs) for s in result]
        if isinstance(result, dict):
            return {k: self._value(s, values, inputs, proofs) for k, s in result.items()}
        return self._value(result, values, inputs, proofs)

    def _proving(
        self,
        step: Step,
        args: dict[str, Any],
        run: tuple[str, dict[str, Any], str | None],
        made: dict[str, Any] | None,
    ) -> Any:
        """Run a movable worker placed on the server, proving its regions, each proof bound
        to the run as the client's are (`run`: submission id, `main`'s inputs, client)."""
        sid, inputs, client = run

        def prove(call: RegionCall, values: dict[str, Any]) -> Any:
            key = proof_key(step, call)
            region = self.regions[call.region]
            given = {p: to_json(v) for p, v in values.items()}
            given[CONTEXT] = run_context(
                self.app.name, self.app.source_sha256, self.epoch, sid, key, inputs, client
            )
            if region.backend == "sigma":
                proof = api.prove_sigma(region.circuit, given)
            else:
                assert region.keys is not None and isinstance(region.circuit, api.Circuit)
                proof = api.prove(region.circuit, region.keys, given)
            if made is not None:
                made[key] = json.loads(proof.to_json())
            return proof.outputs

        return run_proving(self.app, step, args, prove)

    def _value(
        self, src: Source, values: dict[int, Any], inputs: dict[str, Any], proofs: dict[str, Any]
    ) -> Any:
        if isinstance(src, Const):
            return src.value
        if isinstance(src, Input):
            if src.name not in inputs:
                raise Rejected(422, f"the server needs the input `{src.name}`, which is private")
            return inputs[src.name]
        assert isinstance(src, StepOutput)
        value = values[src.step]
        return value if src.index is None else value[src.index]

    def _origin_value(
        self,
        step: Step,
        origin: Origin,
        values: dict[int, Any],
        inputs: dict[str, Any],
        proofs: dict[str, api.Proof],
    ) -> Any:
        """The server's own copy of a value inside a client worker (the flow check makes sure
        there is one wherever the server needs it)."""
        if isinstance(origin, Const):
            return origin.value
        if isinstance(origin, Param):
            return self._value(step.args[origin.name], values, inputs, proofs)
        if isinstance(origin, RegionOut):
            call: RegionCall = step.calls[origin.call]
            out = proofs[proof_key(step, call)].outputs
            return out if origin.index is None else out[origin.index]
        assert isinstance(origin, Computed)
        return None  # never needed by the server (ZN505)


def dashboard_fold(app: Application) -> Fold | None:
    """The application's `dashboard_fold(state, result) -> state`, if it declares one with its
    `dashboard_view(state) -> chart` (runtime/dashboard.py), named by its source's SHA-256."""
    step = getattr(app.module, "dashboard_fold", None)
    if not callable(step) or not callable(getattr(app.module, "dashboard_view", None)):
        return None
    try:
        source = inspect.getsource(step)
    except (OSError, TypeError):
        source = repr(step)
    return Fold(step, hashlib.sha256(source.encode()).hexdigest())


def statement_digest(sid: str, inputs: dict[str, Any], proofs: dict[str, api.Proof]) -> str:
    """What a run states, without its proofs' bytes: the id, `main`'s public inputs and each
    proof's program, back end and public values. Two submissions with the same digest are one
    run (a retry); proofs re-randomised from each other share it."""
    doc = {
        "id": sid,
        "inputs": inputs,
        "proofs": {
            key: [p.program_hash, p.backend, p.public_inputs, p.outputs, p.sent, p.lengths]
            for key, p in sorted(proofs.items())
        },
    }
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def to_json(value: Any) -> Any:
    """A worker's result as JSON data (tuples become lists; zeenot's integers stay integers;
    records, a `Point` among them, become objects of their fields)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"a worker returned a {type(value).__name__}, which is not JSON data")


def normal(value: Any) -> Any:
    """Compare public values by meaning: `5` and `"5"` (a Field in JSON) are the same."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [normal(v) for v in value]
    if isinstance(value, dict):
        return {k: normal(v) for k, v in value.items()}
    return value
