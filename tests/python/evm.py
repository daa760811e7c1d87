"""A real EVM for the exported Solidity verifiers' tests and gas figures: the contract compiled
by npm's `solc` (pinned in package.json), deployed on py-evm (through eth-tester)."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SOLCJS = ROOT / "node_modules" / ".bin" / "solcjs"


def compile_contract(source: str) -> tuple[str, list[dict[str, Any]]]:
    """Bytecode (hex) and ABI of the one contract in `source`, optimised."""
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "Verifier.sol").write_text(source)
        cmd = [str(SOLCJS), "--bin", "--abi", "--optimize", "-o", str(d), "Verifier.sol"]
        r = subprocess.run(cmd, cwd=d, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise RuntimeError(f"solc failed: {r.stderr}")
        (binary,) = d.glob("*.bin")
        (abi,) = d.glob("*.abi")
        return binary.read_text().strip(), json.loads(abi.read_text())


class Chain:
    """One py-evm chain with one funded account."""

    def __init__(self) -> None:
        from eth_tester import EthereumTester, PyEVMBackend

        self.t = EthereumTester(PyEVMBackend())
        self.account = self.t.get_accounts()[0]

    def deploy(self, bytecode: str) -> str:
        tx = self.t.send_transaction(
            {"from": self.account, "data": "0x" + bytecode, "gas": 10_000_000}
        )
        return self.t.get_transaction_receipt(tx)["contract_address"]

    def _tx(self, to: str, signature: str, types: list[str], args: list[Any]) -> dict[str, Any]:
        from eth_abi import encode
        from eth_utils import function_signature_to_4byte_selector

        data = function_signature_to_4byte_selector(signature) + encode(types, args)
        return {"from": self.account, "to": to, "data": "0x" + data.hex(), "gas": 10_000_000}

    def call(self, to: str, signature: str, types: list[str], args: list[Any]) -> bytes:
        out = self.t.call(self._tx(to, signature, types, args))
        return bytes.fromhex(out[2:]) if isinstance(out, str) else bytes(out)

    def gas(self, to: str, signature: str, types: list[str], args: list[Any]) -> int:
        """Gas used by the call sent as a transaction (21,000 base and calldata included). Not
        `estimate_gas`: with too little gas the pairing precompile fails and `verifyProof`
        returns false without reverting, which an estimator takes for success."""
        tx = self.t.send_transaction(self._tx(to, signature, types, args))
        return int(self.t.get_transaction_receipt(tx)["gas_used"])


def verify_types(n: int) -> tuple[str, list[str]]:
    """`verifyProof`'s signature and argument types for `n` public values."""
    types = ["uint256[2]", "uint256[2][2]", "uint256[2]", f"uint256[{n}]"]
    return f"verifyProof({','.join(types)})", types
