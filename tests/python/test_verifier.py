"""The IR-free Groth16 verifier (`zeenot.verifier.Verifier`) and batch verification, through
the API and `zeenot verify DIR PROOF…`."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from zeenot import api, cli
from zeenot.verifier import VERIFIER_FILE, Verifier

from .conftest import EXAMPLES

PAYD = f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium"


@pytest.fixture(scope="module")
def payd_run(tmp_path_factory) -> tuple[Path, list[api.Proof]]:
    """A circuit directory with keys and eight proofs on different logs."""
    d = tmp_path_factory.mktemp("payd")
    circuit = api.compile(PAYD)
    assert isinstance(circuit, api.Circuit)
    circuit.save(d)
    keys = api.setup(circuit, seed=5)
    keys.save(d)
    inputs = json.loads((EXAMPLES / "payd" / "inputs.json").read_text())
    proofs = []
    for day in range(8):
        log = dict(inputs, km=[(k + day) % 300 for k in inputs["km"]])
        proofs.append(api.prove(circuit, keys, log, seed=day))
    for k, proof in enumerate(proofs):
        (d / f"proof{k}.json").write_text(proof.to_json())
    return d, proofs


def test_verifier_needs_no_ir(payd_run, tmp_path):
    d, proofs = payd_run
    verifier = Verifier.load(d)
    for proof in proofs:
        verifier.verify(proof)
    doc = json.loads((d / VERIFIER_FILE).read_text())
    assert doc["program_hash"] == proofs[0].program_hash and "body" not in doc
    # the same answers as api.verify
    circuit = api.load(d)
    assert isinstance(circuit, api.Circuit)
    api.verify(circuit, verifier.verifying_key, proofs[0])


def tampered(proof: api.Proof) -> api.Proof:
    outputs = list(proof.outputs)
    outputs[0] += 1
    return replace(proof, outputs=outputs)


def test_batch_accepts_valid_and_names_invalid(payd_run):
    d, proofs = payd_run
    verifier = Verifier.load(d)
    assert verifier.verify_batch(proofs) == [None] * len(proofs)
    assert verifier.verify_batch([]) == []
    bad = list(proofs)
    bad[2] = tampered(bad[2])  # a false statement
    bad[5] = replace(bad[5], proof=proofs[6].proof)  # another log's proof
    bad[6] = replace(bad[6], proof=b"\x00" * 128)  # not points
    bad[7] = replace(bad[7], program_hash="0" * 64)  # another program
    outcomes = verifier.verify_batch(bad)
    assert [k for k, o in enumerate(outcomes) if o is not None] == [2, 5, 6, 7]
    assert isinstance(outcomes[2], api.ProofRejected)
    assert isinstance(outcomes[5], api.ProofRejected)
    assert isinstance(outcomes[6], api.MalformedInput)
    assert "another" in str(outcomes[7]) or "not this circuit" in str(outcomes[7])


def test_batch_rejects_a_proof_made_with_other_keys(payd_run, tmp_path):
    d, proofs = payd_run
    circuit = api.load(d)
    assert isinstance(circuit, api.Circuit)
    other_keys = api.setup(circuit, seed=99)
    inputs = json.loads((EXAMPLES / "payd" / "inputs.json").read_text())
    stranger = api.prove(circuit, other_keys, inputs, seed=1)
    # claims our key: decodes, but the pairing check fails
    forged = replace(stranger, verifying_key_hash=proofs[0].verifying_key_hash)
    outcomes = Verifier.load(d).verify_batch([*proofs[:3], forged])
    assert outcomes[:3] == [None] * 3 and isinstance(outcomes[3], api.ProofRejected)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_verifies_many_proofs(payd_run, tmp_path, capsys):
    d, proofs = payd_run
    paths = [str(d / f"proof{k}.json") for k in range(len(proofs))]
    code, out, err = run(capsys, "verify", str(d), *paths)
    assert code == 0 and out.count(": valid") == len(proofs) and err == ""
    bad = tmp_path / "bad.json"
    bad.write_text(tampered(proofs[0]).to_json())
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{}")
    code, out, err = run(capsys, "verify", str(d), paths[1], str(bad), paths[2])
    assert code == 1 and out.count(": valid") == 2 and f"{bad}: invalid:" in err
    code, out, err = run(capsys, "verify", str(d), paths[1], str(garbage))
    assert code == 2 and f"{garbage}: error:" in err


def test_verifier_json_must_match_the_keys(payd_run, tmp_path):
    import shutil

    d = tmp_path / "c"
    shutil.copytree(payd_run[0], d)
    doc = json.loads((d / VERIFIER_FILE).read_text())
    doc["program_hash"] = "1" * 64
    (d / VERIFIER_FILE).write_text(json.dumps(doc))
    with pytest.raises(api.MalformedInput, match="another program"):
        Verifier.load(d)
    doc["program_hash"] = payd_run[1][0].program_hash
    doc["instance"]["types"] = doc["instance"]["types"][:-1]  # a layout the key does not fit
    (d / VERIFIER_FILE).write_text(json.dumps(doc))
    with pytest.raises(api.MalformedInput, match="public inputs"):
        Verifier.load(d)
