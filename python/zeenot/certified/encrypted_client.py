"""The user's side of path (b) over HTTP (docs/certified.md): prove that her ciphertexts encrypt
exactly her signed values, send them, decrypt the service's sums with DLEQ proofs.

The program is a `@zk` function in regions in the shape of `examples/genome/
certified_encrypted.py`: its main region (Groth16) takes the certified header, `user_sk`, the
block's values, `signature` and `rs` (one randomness per ciphertext) and returns the
ciphertexts a second region proves on the sigma back end. Her randomness never leaves her
machine; her secret key only inside proofs.
"""

from __future__ import annotations

from typing import Any

import httpx

from zeenot import api, bundle
from zeenot.artifacts import Keys, Proof
from zeenot.babyjub import Ciphertext, random_scalar
from zeenot.certified.blocks import SignedBlock, circuit_inputs
from zeenot.certified.client import Answer
from zeenot.certified.encrypted import (
    decrypt_value,
    decrypts_dleq,
    dleq_inputs,
    parse_ciphertexts,
)
from zeenot.certified.keys import UserKey
from zeenot.errors import MalformedInput
from zeenot.ir import to_json_value

NOT_VALUES = {"user_sk", "signature", "rs"}


def load_regions(directory: str) -> tuple[bundle.Regions, dict[str, Keys]]:
    """A path (b) program compiled in regions, with its main region's Groth16 keys."""
    regions = api.load(directory)
    if not isinstance(regions, bundle.Regions):
        raise MalformedInput(f"`{directory}` holds no program in regions (path (b))")
    keys = Keys.load(bundle.region_dir(directory, regions.name))
    return regions, {regions.name: keys}


def backends(regions: bundle.Regions) -> dict[str, str]:
    """The main region (signature, commitment) on Groth16, the encryptions on sigma."""
    return {n: "groth16" if n == regions.name else "sigma" for n in regions.circuits}


def program_inputs(regions: bundle.Regions, block: SignedBlock, user: UserKey) -> dict[str, Any]:
    """The main region's inputs: her block, her key, fresh randomness per ciphertext."""
    params = regions.circuits[regions.name].program.params
    by_name = {p["name"]: p for p in params}
    values = [p["name"] for p in params if p["vis"] == "private" and p["name"] not in NOT_VALUES]
    rs = by_name.get("rs", {}).get("ty")
    if len(values) != 1 or not isinstance(rs, tuple):
        raise MalformedInput(
            "a path (b) program has private user_sk, signature, rs (a tuple) and one parameter "
            f"for the block's values; this one has {sorted(by_name)}"
        )
    return circuit_inputs(
        block, user.user_sk, values[0], rs=[str(random_scalar()) for _ in range(len(rs))]
    )


def prove_encrypted_regions(
    regions: bundle.Regions, keys: dict[str, Keys], block: SignedBlock, user: UserKey
) -> bundle.Bundle:
    """The bundle: her ciphertexts, proved to encrypt the signed values of `block`."""
    return bundle.prove(regions, program_inputs(regions, block, user), backends(regions), keys)


def prove_encrypted(directory: str, block: SignedBlock, user: UserKey) -> bundle.Bundle:
    regions, keys = load_regions(directory)
    return prove_encrypted_regions(regions, keys, block, user)


def decrypt_and_prove(user: UserKey, sums: list[Ciphertext]) -> tuple[list[int], list[Proof]]:
    """Each sum decrypted, with a DLEQ proof (sigma back end) that it is the decryption."""
    circuit = api.compile(decrypts_dleq)
    values = [decrypt_value(user.user_sk, s) for s in sums]
    proofs = [
        api.prove_sigma(circuit, dleq_inputs(user.public, s, m, user.user_sk))
        for s, m in zip(sums, values, strict=True)
    ]
    return values, proofs


def _post(url: str, body: str) -> Answer:
    resp = httpx.post(
        url, content=body.encode(), headers={"content-type": "application/json"}, timeout=300
    )
    try:
        doc = resp.json()
    except ValueError:
        doc = {"error": resp.text[:500]}
    return Answer(resp.status_code, doc)


def submit_bundle(service_url: str, proved: bundle.Bundle) -> Answer:
    """Send the bundle; 201 answers the service's encrypted sums (`sums`)."""
    return _post(f"{service_url.rstrip('/')}/api/encrypted/submissions", proved.to_json())


def submit_decryptions(
    service_url: str, user: UserKey, period: int, values: list[int], proofs: list[Proof]
) -> Answer:
    """Send the decrypted sums with their proofs; 201 answers the stored results."""
    import json

    body = {
        "user": to_json_value(user.public),
        "period": period,
        "values": values,
        "proofs": [json.loads(p.to_json()) for p in proofs],
    }
    return _post(f"{service_url.rstrip('/')}/api/encrypted/decryptions", json.dumps(body))


def exchange(service_url: str, proved: bundle.Bundle, user: UserKey, period: int) -> Answer:
    """The whole of path (b) from her side: submit, decrypt with proofs, submit those."""
    first = submit_bundle(service_url, proved)
    if first.status != 201:
        return first
    sums = parse_ciphertexts(first.body.get("sums"), "the service's sums")
    values, proofs = decrypt_and_prove(user, sums)
    return submit_decryptions(service_url, user, period, values, proofs)
