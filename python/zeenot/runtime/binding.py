"""Proofs bound to their run: every region the runtime proves carries one more public input,
`@context`, a field element that digests where the proof belongs.

A proof is a proof of a *statement*; anyone holding a valid proof can make others of the same
statement (a Groth16 proof re-randomises: `(-A, -B, C)` verifies too). So a server that
recognises proofs by their bytes cannot stop a proof from being moved to another run: the
statement itself must name the run. The runtime therefore compiles every region with an extra
public `Field` input that no instruction reads, and sets it to a digest of

* a client's run: the application, its source version, the server's epoch (a random value
  each deployment draws once and publishes), the submission id, the region call (`worker.k`),
  every public input of `main`, used by a region or not, and the client's registered name
  where the application knows its clients; for a region a peer proves in the run (a worker on
  the peer tier, docs/runtime.md "Workers on a peer"), the peer's registered name as well;
* a peer's share or partial sum: the application, its source version, the epoch, the round,
  its attempt, the step, the sender and the attempt's roster (the peers present in it, with the
  keys they use in it, in position order): a proof made in one attempt is refused in the next.

Groth16 binds an input no constraint reads through the QAP's input rows (docs/circuits.md:
every instance variable has a row of its own), and the sigma back end hashes every public
value into its Fiat–Shamir context. The server recomputes the digest from what it knows and
checks it like any other public input: a proof moved to another run, id, input, round or peer
fails, whatever its bytes. The application's author writes nothing for this.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from zeenot import api
from zeenot.application.model import Application
from zeenot.application.regions import compile_regions, compile_regions_by_name
from zeenot.ir import Program
from zeenot.types import P

CONTEXT = "@context"  # not an identifier: no parameter of a @zk function can be called this
_DOMAIN = b"zeenot/runtime-context/v1\x00"


def bound_regions(
    app: Application, names: list[str] | None = None, *, synthesize: bool = True
) -> dict[str, api.Circuit | api.Template]:
    """The application's regions as the runtime proves them, each with its `@context` input:
    those its client steps call, or the ones `names` lists (a PeerSum's share and combine).
    Clients and peers pass `synthesize=False`: the server synthesized the same regions when it
    started, and the bound circuit is synthesized again by its first proof anyway."""
    if names is None:
        compiled = compile_regions(app, synthesize=synthesize)
    else:
        compiled = compile_regions_by_name(app, names, synthesize=synthesize)
    return {name: bound(c) for name, c in compiled.items()}


def bound(compiled: api.Circuit | api.Template) -> api.Circuit | api.Template:
    """`compiled` with the public `@context` input appended (a template: at every length)."""
    if isinstance(compiled, api.Template):
        return api.Template(compiled.fn, compiled.unbounded, transform=with_context)
    return api.Circuit(with_context(compiled.program))


def with_context(program: Program) -> Program:
    """The program with one more parameter, `@context: Public[Field]`, its leaf the last input.
    Ids stay dense, inputs first (docs/ir.md): every value id from the new input's on moves up
    by one."""
    doc = json.loads(program.to_json())
    if any(p["name"] == CONTEXT for p in doc["signature"]["params"]):
        raise ValueError("the program is bound to a context already")
    n = len(doc["inputs"])

    def move(i: int) -> int:
        return i + 1 if i >= n else i

    for ins in doc["body"]:
        if "id" in ins:
            ins["id"] = move(ins["id"])
        if "args" in ins:
            ins["args"] = [move(a) for a in ins["args"]]
        if ins.get("guard") is not None:
            ins["guard"] = move(ins["guard"])
    for out in doc["outputs"]:
        out["value"] = move(out["value"])
    doc["inputs"].append({"id": n, "name": CONTEXT, "ty": "field", "vis": "public", "tier": None})
    doc["signature"]["params"].append({"name": CONTEXT, "ty": "field", "vis": "public"})
    return Program(doc)


def digest(fields: dict[str, Any]) -> str:
    """A field element (decimal) digesting `fields`: SHA-256 of their canonical JSON under
    zeenot's domain tag, reduced mod the BN254 scalar field's order (bias below 2^-250)."""
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return str(int.from_bytes(hashlib.sha256(_DOMAIN + text.encode()).digest(), "big") % P)


def run_context(
    app: str,
    source_sha256: str,
    epoch: str,
    sid: str,
    call: str,
    inputs: dict[str, Any],
    client: str | None = None,
    peer: str | None = None,
) -> str:
    """The context of the proof of region call `call` in run `sid` with `main`'s public
    `inputs` (JSON values as submitted), by `client` where the application knows its clients
    (runtime/identity.py: then another client cannot submit the proof as its own), proved by
    the run's `peer` for a call on the peer tier."""
    fields = {
        "kind": "run",
        "app": app,
        "source": source_sha256,
        "epoch": epoch,
        "id": sid,
        "call": call,
        "inputs": inputs,
    }
    if client is not None:
        fields["client"] = client
    if peer is not None:
        fields["peer"] = peer
    return digest(fields)


def peer_statement(
    app: str,
    source_sha256: str,
    epoch: str,
    sid: str,
    inputs: dict[str, Any],
    client: str | None,
    peer: str,
    proofs: dict[str, str],
) -> bytes:
    """What a run's peer signs (Ed25519, its registered key): the run, and the SHA-256 of each
    proof it made (`proofs`: call -> hex digest). The proofs' contexts bind them to the run;
    the signature says the peer made them, so a client cannot prove the peer's regions on
    data of its own choosing."""
    fields = {
        "kind": "peer-proofs",
        "app": app,
        "source": source_sha256,
        "epoch": epoch,
        "id": sid,
        "inputs": inputs,
        "client": client,
        "peer": peer,
        "proofs": proofs,
    }
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(b"zeenot/peer-proofs/v1\x00" + text.encode()).digest()


def round_context(
    app: str,
    source_sha256: str,
    epoch: str,
    rnd: str,
    step: str,
    sender: str,
    roster: list[tuple[str, str]],
    attempt: int = 0,
) -> str:
    """The context of a peer's `step` ("share" or "combine") proof in attempt `attempt` of
    round `rnd`; `roster` is the attempt's present (peer, public key) pairs in position
    order."""
    return digest(
        {
            "kind": "round",
            "app": app,
            "source": source_sha256,
            "epoch": epoch,
            "round": rnd,
            "attempt": attempt,
            "step": step,
            "sender": sender,
            "roster": [list(member) for member in roster],
        }
    )
