"""The exported Groth16 verifier contract, compiled by the real Solidity compiler (npm's solc)
and run on a real EVM (py-evm): it accepts exactly what `zeenot verify` accepts."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from zeenot import api, solidity

from .conftest import EXAMPLES
from .evm import SOLCJS, Chain, compile_contract, verify_types

pytestmark = pytest.mark.skipif(not SOLCJS.exists(), reason="npm's solc is not installed")


@pytest.fixture(scope="module")
def deployed(payd):
    circuit, keys, inputs = payd
    source = api.solidity_verifier(circuit, keys.verifying_key)
    bytecode, abi = compile_contract(source)
    assert [f["name"] for f in abi if f["type"] == "function"].count("verifyProof") == 1
    chain = Chain()
    return chain, chain.deploy(bytecode)


def _verifies(chain: Chain, address: str, args: list) -> bool:
    signature, types = verify_types(len(args[3]))
    return int.from_bytes(chain.call(address, signature, types, args), "big") == 1


def test_valid_proofs_verify_on_chain(payd, deployed):
    circuit, keys, inputs = payd
    chain, address = deployed
    for seed in (1, 2):
        proof = api.prove(circuit, keys, inputs, seed=seed)
        args = api.solidity_calldata(circuit, keys.verifying_key, proof)
        assert len(args[3]) == len(circuit.layout[0])
        assert _verifies(chain, address, args)
    signature, types = verify_types(len(args[3]))
    assert 150_000 < chain.gas(address, signature, types, args) < 400_000


def test_forged_proofs_and_values_are_rejected_on_chain(payd, deployed):
    circuit, keys, inputs = payd
    chain, address = deployed
    proof = api.prove(circuit, keys, inputs, seed=3)
    args = api.solidity_calldata(circuit, keys.verifying_key, proof)
    other = api.solidity_calldata(
        circuit, keys.verifying_key, api.prove(circuit, keys, dict(inputs, base_cents=501))
    )

    def edited(edit) -> list:
        copy = json.loads(json.dumps(args))
        edit(copy)
        return copy

    cases = {
        "an output changed": edited(lambda a: a[3].__setitem__(-2, a[3][-2] + 1)),
        "a public input plus r": edited(lambda a: a[3].__setitem__(0, a[3][0] + solidity.R)),
        "A off the curve": edited(lambda a: a[0].__setitem__(1, a[0][1] + 1)),
        "A negated": edited(lambda a: a[0].__setitem__(1, solidity.Q - a[0][1])),
        "B's coordinates swapped": edited(lambda a: a.__setitem__(1, [a[1][1], a[1][0]])),
        "C from another proof": edited(lambda a: a.__setitem__(2, other[2])),
        "another proof's public values": edited(lambda a: a.__setitem__(3, other[3])),
        "a coordinate not below q": edited(lambda a: a[2].__setitem__(0, a[2][0] + solidity.Q)),
    }
    for why, bad in cases.items():
        assert not _verifies(chain, address, bad), why
    assert _verifies(chain, address, args)


def test_cli_exports_contract_and_calldata(payd, tmp_path):
    circuit, keys, inputs = payd
    d = tmp_path / "payd"
    circuit.save(d)
    keys.save(d)
    proof_path = tmp_path / "proof.json"
    proof_path.write_text(api.prove(circuit, keys, inputs, seed=4).to_json())

    def zeenot(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "zeenot.cli", *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300)

    sol = tmp_path / "Verifier.sol"
    r = zeenot("export", "solidity", str(d), "-o", str(sol))
    assert r.returncode == 0, r.stderr
    assert f"PROGRAM_HASH = 0x{circuit.hash}" in sol.read_text()
    r = zeenot("export", "calldata", str(d), str(proof_path))
    assert r.returncode == 0, r.stderr
    args = json.loads(r.stdout)
    bytecode, _ = compile_contract(sol.read_text())
    chain = Chain()
    assert _verifies(chain, chain.deploy(bytecode), args)
    # a proof where none is taken, none where one is needed, a sigma proof: usage errors
    assert zeenot("export", "solidity", str(d), str(proof_path), "-o", str(sol)).returncode == 2
    assert zeenot("export", "calldata", str(d)).returncode == 2
    sigma = tmp_path / "sigma.json"
    sigma.write_text(api.prove_sigma(circuit, inputs, seed=1).to_json())
    r = zeenot("export", "calldata", str(d), str(sigma))
    assert r.returncode == 2 and "Groth16 proofs only" in r.stderr


def test_more_public_values_than_one_contract_holds():
    """snp_mean's aggregate: 406 public values, IC split over two data contracts (EIP-170)."""
    circuit = api.compile(f"{EXAMPLES / 'snp_mean' / 'app.py'}:aggregate")
    keys = api.setup(circuit, seed=2)
    inputs = json.loads((EXAMPLES / "snp_mean" / "inputs.json").read_text())
    proof = api.prove(circuit, keys, inputs, seed=2)
    args = api.solidity_calldata(circuit, keys.verifying_key, proof)
    assert len(args[3]) > solidity.POINTS_PER_CONTRACT
    source = api.solidity_verifier(circuit, keys.verifying_key)
    assert "IC_DATA_1 = _store(" in source and "IC_DATA_2" not in source
    chain = Chain()
    address = chain.deploy(compile_contract(source)[0])
    assert _verifies(chain, address, args)
    for k in (0, solidity.POINTS_PER_CONTRACT, len(args[3]) - 1):  # each chunk is read
        bad = json.loads(json.dumps(args))
        bad[3][k] = (bad[3][k] + 1) % solidity.R
        assert not _verifies(chain, address, bad), k


def test_no_contract_for_committed_values():
    """The contract lacks the verifier's subgroup check on Pedersen commitments: refused."""
    circuit = api.compile(f"{EXAMPLES / 'split' / 'app.py'}:monthly_km")
    keys = api.setup(circuit, seed=3)
    with pytest.raises(api.UsageError, match="Committed values"):
        api.solidity_verifier(circuit, keys.verifying_key)


def test_no_contract_without_public_values(tmp_path):
    path = tmp_path / "quiet.py"
    path.write_text(
        "from zeenot import Private, check, u32, zk\n\n\n@zk\n"
        "def quiet(x: Private[u32]) -> None:\n    check(x > u32(1))\n"
    )
    circuit = api.compile(f"{path}:quiet")
    keys = api.setup(circuit, seed=4)
    with pytest.raises(api.UsageError, match="no public values"):
        api.solidity_verifier(circuit, keys.verifying_key)
