"""The sigma back end (`--backend sigma`) against the groth16 back end and plain Python.

Every example either proves with both back ends to the same public outputs (the ones `simulate`
gives), or is rejected by the sigma back end with `UnsupportedError` naming the operation it
lacks. Proof files carry their back end; tampering with them is rejected.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from zeenot import _native, api
from zeenot.simulate import simulate

from .conftest import EXAMPLES, read_json

# example: (function, what the sigma back end lacks, or None if it proves the example)
EXAMPLE_FUNCTIONS = {
    "payd": ("weekly_premium", None),
    "fitbit": ("steps_donation", None),
    "study": ("vitals_summary", None),
    "loyalty": ("discount", None),
    "cnids": ("header_alert", None),
    "metering": ("bill", "field"),
    "snp_mean": ("aggregate", None),  # ElGamal encryptions and sums: linear relations
}


def _bump(outputs: object) -> object:
    """The outputs with the first integer among them changed by one."""
    if isinstance(outputs, bool):
        return not outputs
    if isinstance(outputs, int):
        return outputs + 1
    assert isinstance(outputs, list) and outputs
    return [_bump(outputs[0]), *outputs[1:]]


def compiled(example: str) -> tuple[api.Circuit, dict]:
    fn, _ = EXAMPLE_FUNCTIONS[example]
    circuit = api.compile(f"{EXAMPLES / example / 'app.py'}:{fn}")
    return circuit, read_json(EXAMPLES / example / "inputs.json")


def _outputs_json(circuit: api.Circuit, inputs: dict) -> object:
    fn = api.load_target(f"{circuit.program.ir['source']['file']}:{circuit.program.ir['name']}")
    return circuit.program.outputs_to_json(simulate(fn, inputs))


@pytest.mark.slow
@pytest.mark.parametrize("example", sorted(EXAMPLE_FUNCTIONS))
def test_examples_prove_to_the_same_outputs_on_both_back_ends(example):
    circuit, inputs = compiled(example)
    lacks = EXAMPLE_FUNCTIONS[example][1]
    if lacks is not None:
        with pytest.raises(_native.UnsupportedError, match=lacks):
            api.prove_sigma(circuit, inputs, seed=1)
        return
    sigma = api.prove_sigma(circuit, inputs, seed=1)
    api.verify(circuit, None, api.Proof.from_json(sigma.to_json()))
    keys = api.setup(circuit, seed=2)
    groth16 = api.prove(circuit, keys, inputs, seed=3)
    assert sigma.outputs == groth16.outputs == _outputs_json(circuit, inputs)
    assert sigma.public_inputs == groth16.public_inputs


def test_payd_sigma_proof_round_trip_and_tampering(payd):
    circuit, _, inputs = payd
    proof = api.prove_sigma(circuit, inputs, seed=5)
    assert proof.backend == "sigma" and proof.verifying_key_hash is None
    again = api.Proof.from_json(proof.to_json())
    api.verify(circuit, None, again)
    # Another output, another public input, flipped proof bytes: all rejected.
    with pytest.raises(api.ProofRejected):
        api.verify(circuit, None, api.Proof(**{**again.__dict__, "outputs": _bump(proof.outputs)}))
    for at in (8, len(proof.proof) // 2, len(proof.proof) - 1):
        raw = bytearray(proof.proof)
        raw[at] ^= 1
        bad = api.Proof(**{**again.__dict__, "proof": bytes(raw)})
        with pytest.raises((api.ProofRejected, api.MalformedInput)):
            api.verify(circuit, None, bad)
    with pytest.raises(api.MalformedInput):
        api.verify(circuit, None, api.Proof(**{**again.__dict__, "proof": proof.proof[:5]}))
    # A sigma proof file claiming a verifying key, or a groth16 one without: malformed.
    doc = json.loads(proof.to_json())
    doc["verifying_key_hash"] = "00" * 32
    with pytest.raises(api.MalformedInput):
        api.Proof.from_json(json.dumps(doc))


def test_sigma_batches_name_exactly_the_bad_members(payd, monkeypatch):
    circuit, keys, inputs = payd
    good = [api.prove_sigma(circuit, inputs, seed=s) for s in (1, 2, 3)]
    assert api.verify_sigma_batch(circuit, good) == [None, None, None]
    raw = bytearray(good[1].proof)
    raw[len(raw) // 2] ^= 1
    forged = api.Proof(**{**good[1].__dict__, "proof": bytes(raw)})
    lied = api.Proof(**{**good[2].__dict__, "outputs": _bump(good[2].outputs)})
    groth16 = api.prove(circuit, keys, inputs)
    reasons = api.verify_sigma_batch(circuit, [good[0], forged, lied, groth16, good[2]])
    assert reasons[0] is None and reasons[4] is None
    assert isinstance(reasons[1], (api.ProofRejected, api.MalformedInput))
    assert isinstance(reasons[2], api.ProofRejected)
    assert isinstance(reasons[3], api.MalformedInput)
    # the batch is one native call when every member is valid (no one-by-one pass)
    calls: list[str] = []
    real_verify = _native.sigma_program_verify
    monkeypatch.setattr(
        _native, "sigma_program_verify", lambda *a: calls.append("one") or real_verify(*a)
    )
    assert api.verify_sigma_batch(circuit, good) == [None, None, None]
    assert calls == []


def test_failing_inputs_have_no_sigma_proof(payd):
    circuit, _, inputs = payd
    bad = json.loads(json.dumps(inputs))
    key = next(k for k, v in bad.items() if isinstance(v, list))
    bad[key][0] = [10**6] * len(bad[key][0]) if isinstance(bad[key][0], list) else 10**6
    with pytest.raises((_native.UnsatisfiedError, api.MalformedInput)):
        api.prove_sigma(circuit, bad, seed=1)


def test_cli_prove_and_verify_with_the_sigma_back_end(tmp_path: Path):
    app = f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium"
    inputs = EXAMPLES / "payd" / "inputs.json"
    cli = [sys.executable, "-m", "zeenot.cli"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*cli, *args], capture_output=True, text=True, check=False)

    out = tmp_path / "c"
    assert run("compile", app, "-o", str(out)).returncode == 0
    proof = tmp_path / "proof.json"
    r = run("prove", str(out), "--inputs", str(inputs), "-o", str(proof), "--backend", "sigma")
    assert r.returncode == 0, r.stderr
    # No keys were made: verification needs none.
    assert not (out / api.KEYS_FILE).exists()
    r = run("verify", str(out), str(proof))
    assert r.returncode == 0 and r.stdout.strip() == "valid", r.stderr
    second = tmp_path / "second.json"
    r = run("prove", str(out), "--inputs", str(inputs), "-o", str(second), "--backend", "sigma")
    r = run("verify", str(out), str(proof), str(second))  # several: one batch
    assert r.returncode == 0 and r.stdout.count(": valid") == 2, r.stderr
    doc = json.loads(proof.read_text())
    doc["outputs"] = _bump(doc["outputs"])
    proof.write_text(json.dumps(doc))
    r = run("verify", str(out), str(proof))
    assert r.returncode == 1 and "invalid" in r.stderr
    r = run("export", "snarkjs", str(out), str(proof), "-o", str(tmp_path / "x"))
    assert r.returncode == 2 and "Groth16 proofs only" in r.stderr


def test_cli_names_what_the_sigma_back_end_lacks(tmp_path: Path):
    app = f"{EXAMPLES / 'metering' / 'app.py'}:bill"
    cli = [sys.executable, "-m", "zeenot.cli"]
    out = tmp_path / "m"
    subprocess.run([*cli, "compile", app, "-o", str(out)], check=True, capture_output=True)
    r = subprocess.run(
        [
            *cli,
            "prove",
            str(out),
            "--inputs",
            str(EXAMPLES / "metering" / "inputs.json"),
            "-o",
            str(tmp_path / "p.json"),
            "--backend",
            "sigma",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 2
    assert "field" in r.stderr and "--backend groth16" in r.stderr


POINT_CHECKS = """
from zeenot import Field, Private, Public, check, u8, zk
from zeenot.babyjub import Ciphertext, Point, encrypt


@zk
def whole(ct: Public[Ciphertext], pk: Public[Point], vote: Private[u8], r: Private[Field]) -> u8:
    check(encrypt(vote, pk, r) == ct and vote <= 1)
    return vote + 1


@zk
def half(ct: Public[Ciphertext], pk: Public[Point], vote: Private[u8], r: Private[Field]) -> bool:
    e = encrypt(vote, pk, r)
    check(e.c1.x == ct.c1.x and e.c2 == ct.c2)
    return True


@zk
def guarded(ct: Public[Ciphertext], pk: Public[Point], vote: Private[u8], r: Private[Field]) -> u8:
    if vote > 0:
        check(encrypt(vote, pk, r) == ct)
    return vote
"""


def test_an_asserted_point_equality_is_a_group_equation(tmp_path: Path) -> None:
    """`check(encrypt(m, pk, r) == ct)`: proved, and bound to `ct` (another ciphertext, or a
    prover whose encryption is not `ct`, has no proof). One coordinate alone, or a check that
    not every run asserts, is refused by name."""
    from zeenot import load_function
    from zeenot.babyjub import encrypt, keygen, random_scalar
    from zeenot.errors import ProofRejected
    from zeenot.ir import to_json_value

    path = tmp_path / "points_app.py"
    path.write_text(POINT_CHECKS)
    _, pk = keygen()
    r = random_scalar()
    ct = encrypt(1, pk, r)
    whole = api.compile(load_function(str(path), "whole"))
    proof = api.prove_sigma(whole, {"ct": ct, "pk": pk, "vote": 1, "r": str(r)})
    assert proof.outputs == 2
    api.verify(whole, None, proof)
    for other in (encrypt(1, pk, random_scalar()), encrypt(0, pk, r)):
        doc = json.loads(proof.to_json())
        doc["public_inputs"]["ct"] = to_json_value(other)
        with pytest.raises(ProofRejected):
            api.verify(whole, None, type(proof).from_json(json.dumps(doc)))
    for name, why in [("half", "one coordinate"), ("guarded", r"points_app\.py:22")]:
        circuit = api.compile(load_function(str(path), name))
        with pytest.raises(_native.UnsupportedError, match=why):
            api.prove_sigma(circuit, {"ct": ct, "pk": pk, "vote": 1, "r": str(r)})
