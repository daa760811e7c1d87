"""The user's side over HTTP: read a source's published key, fetch her signed block (a request
signed with her Ed25519 key), check it, prove path (a) locally, submit the proof to a service.

The block is checked before anything is proved with it: signed by the published key, for this
source id, issued to her key (`user_sk·B8`), for the period she asked. Her data never leave her
machine again: the service receives the proof (the result and the header fields).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx

from zeenot import api
from zeenot.artifacts import Circuit, Keys, Proof
from zeenot.certified.blocks import SignedBlock, circuit_inputs
from zeenot.certified.keys import WELL_KNOWN, Published, UserKey, parse_published
from zeenot.errors import MalformedInput, UsageError
from zeenot.files import parse_json
from zeenot.runtime.identity import Key, SignedAuth

MAX_BLOCK_RESPONSE = 4 * 2**20
NOT_VALUES = {"user_sk", "signature"}  # the private parameters that are not the block's values


def fetch_published(source_url: str, timeout: float = 30.0) -> Published:
    """The source's published document from its URL (retried for `timeout` while it starts)."""
    url = source_url.rstrip("/") + WELL_KNOWN
    deadline = time.monotonic() + timeout
    while True:
        try:
            resp = httpx.get(url, timeout=5)
            break
        except httpx.TransportError as exc:
            if time.monotonic() > deadline:
                raise UsageError(f"cannot reach the source at {url}: {exc}") from None
            time.sleep(0.2)
    if resp.status_code != 200 or len(resp.content) > 16_384:
        raise UsageError(f"{url} answered {resp.status_code}, not a published source")
    return parse_published(parse_json(resp.content, f"the source's document at {url}"))


def fetch_block(source_url: str, identity: Key, user: UserKey, period: int) -> SignedBlock:
    """Her signed block of `period` from the source, checked (else `MalformedInput`)."""
    published = fetch_published(source_url)
    url = f"{source_url.rstrip('/')}/api/blocks/{period}"
    with httpx.Client(auth=SignedAuth(identity, published.name), timeout=30) as client:
        resp = client.get(url)
    if resp.status_code != 200:
        raise UsageError(f"the source refused the block ({resp.status_code}): {_reason(resp)}")
    if len(resp.content) > MAX_BLOCK_RESPONSE:
        raise MalformedInput(f"the source's block is larger than {MAX_BLOCK_RESPONSE} bytes")
    block = SignedBlock.from_json(parse_json(resp.content, "the source's block"))
    if block.source_key != published.public_key or block.source_id != published.source_id:
        raise MalformedInput("the block is not the published source's (its key or id differ)")
    if block.user != user.public or block.period != period:
        raise MalformedInput(f"the block is not issued to this user key for period {period}")
    if not block.verify():
        raise MalformedInput("the source's signature on the block does not verify")
    return block


def values_parameter(circuit: Circuit) -> str:
    """The name of the circuit's parameter that takes the block's values: its one private
    parameter besides `user_sk` and `signature`."""
    names = [
        p["name"]
        for p in circuit.program.params
        if p["vis"] == "private" and p["name"] not in NOT_VALUES
    ]
    if len(names) != 1:
        raise MalformedInput(
            "a certified circuit has one private parameter for the block's values besides "
            f"user_sk and signature; this one has {names}"
        )
    return names[0]


def prove_block(directory: str, block: SignedBlock, user: UserKey) -> Proof:
    """Prove the circuit in `directory` (compiled and set up) on her block."""
    circuit = api.load(directory)
    if not isinstance(circuit, Circuit):
        raise MalformedInput(f"`{directory}` is not a Groth16 circuit directory")
    inputs = circuit_inputs(block, user.user_sk, values_parameter(circuit))
    return api.prove(circuit, Keys.load(directory), inputs)


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any


def submit(service_url: str, proof: Proof) -> Answer:
    """Send the proof to the service: its status (201 stored) and its JSON answer."""
    resp = httpx.post(
        f"{service_url.rstrip('/')}/api/submissions",
        content=proof.to_json().encode(),
        headers={"content-type": "application/json"},
        timeout=60,
    )
    try:
        body = resp.json()
    except ValueError:
        body = {"error": resp.text[:500]}
    return Answer(resp.status_code, body)


def _reason(resp: httpx.Response) -> str:
    try:
        doc = resp.json()
    except ValueError:
        return resp.text[:300]
    return str(doc.get("error", doc))[:300] if isinstance(doc, dict) else str(doc)[:300]
