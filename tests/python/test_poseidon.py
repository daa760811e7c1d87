"""`poseidon` in the language: circomlib-compatible at run time (simulate) and in the circuit."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from zeenot import CompileError, Field, _native, api, compile_function, load_function, poseidon
from zeenot import u32 as U32

# circomlibjs 0.1.7: poseidon([1, 2]) (also pinned in crates/zeenot-crypto's vectors)
POSEIDON_1_2 = 7853200120776062878684798364095072458815029376092732009249414926327459813530

SOURCE = """
from zeenot import Field, Private, Public, check, poseidon, u32, zk


@zk
def main(balance: Private[u32], salt: Private[Field], commitment: Public[Field]) -> bool:
    check(poseidon(Field(balance), salt) == commitment, "the commitment does not open")
    return balance >= 1000
"""


def test_runtime_matches_circomlibjs():
    assert poseidon(1, 2) == POSEIDON_1_2
    assert poseidon(Field(1), Field(2)) == POSEIDON_1_2
    assert isinstance(poseidon(1), Field)
    assert (
        poseidon(
            1 + 21888242871839275222246405745257275088548364400416034343698204186575808495617, 2
        )
        == POSEIDON_1_2
    )


@pytest.mark.parametrize("bad", [(U32(1), 2), (True,), (), tuple(range(17)), ("1",)])
def test_runtime_rejects_non_field_arguments_and_bad_arity(bad):
    with pytest.raises(TypeError):
        poseidon(*bad)


def test_native_rejects_non_canonical_text():
    for bad in (["01"], [""], ["-1"], [str(2**254)], ["1 "]):
        with pytest.raises(ValueError):
            _native.poseidon(bad)


@pytest.fixture(scope="module")
def circuit(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("poseidon")) / "app.py"
    path.write_text(SOURCE)
    return api.compile(load_function(str(path), "main"))


def test_commitment_opening_proves_and_binds(circuit):
    salt = 987654321
    inputs = {"balance": 1500, "salt": str(salt), "commitment": str(poseidon(1500, salt))}
    keys = api.setup(circuit, seed=1)
    proof = api.prove(circuit, keys, inputs, seed=2)
    assert proof.outputs is True
    api.verify(circuit, keys.verifying_key, proof)
    _native.check_mutations(circuit.ir_json, circuit.program.flatten_inputs(inputs))
    # the same proof for another commitment, or another balance claim, is rejected
    other = {**proof.public_inputs, "commitment": int(poseidon(1501, salt))}
    with pytest.raises(api.ProofRejected):
        api.verify(circuit, keys.verifying_key, dataclasses.replace(proof, public_inputs=other))
    # a wrong opening has no proof
    with pytest.raises(_native.UnsatisfiedError, match="commitment"):
        api.prove(circuit, keys, {**inputs, "balance": 1501})


def test_typed_integers_must_be_converted(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text(SOURCE.replace("poseidon(Field(balance), salt)", "poseidon(balance, salt)"))
    with pytest.raises(CompileError, match=r"ZN301.*Field elements"):
        compile_function(load_function(str(path), "main"))
