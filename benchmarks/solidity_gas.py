"""Benchmark: Groth16 proofs verified on chain by the exported contract (`zeenot export solidity`).

For payd and the SNP mean (the ElGamal-in-Circom report's use case: the aggregate of N encrypted
counts, proved and checked by a contract), the contract is compiled by npm's solc (pinned,
optimised) and deployed on py-evm (Prague rules: EIP-170's 24,576-byte code limit, EIP-1108's
precompile prices); each proof is sent as a transaction and its `gas_used` read from the
receipt (21,000 base and calldata included). Each figure is the proof verified (`true`); a proof
with a changed output is checked to be refused as well.

    .venv/bin/python benchmarks/solidity_gas.py [--snp 4 16 32 64 100] [-o OUT.md]

Prints Markdown; writes it only with -o.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from zeenot import api

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples" / "snp_mean"))

from report import provenance, publish  # noqa: E402
from tests.python.evm import Chain, compile_contract, verify_types  # noqa: E402

EIP170 = 24_576


def measure(name: str, circuit: api.Circuit, inputs: dict[str, Any]) -> dict[str, Any]:
    keys = api.setup(circuit, seed=1)
    proof = api.prove(circuit, keys, inputs, seed=1)
    args = api.solidity_calldata(circuit, keys.verifying_key, proof)
    bytecode, _ = compile_contract(api.solidity_verifier(circuit, keys.verifying_key))
    row: dict[str, Any] = {
        "example": name,
        "constraints": circuit.stats["constraints"],
        "inputs": len(args[3]),
        "code_bytes": len(bytecode) // 2,
    }
    chain = Chain()
    try:
        address = chain.deploy(bytecode)
    except Exception as exc:  # noqa: BLE001 - the EVM's refusal is the figure
        row["error"] = f"deployment refused: {type(exc).__name__}"
        return row
    if not address or chain.t.get_code(address) in ("0x", b""):
        row["error"] = f"deployment refused (code {row['code_bytes']:,} B > EIP-170)"
        return row
    signature, types = verify_types(len(args[3]))
    ok = int.from_bytes(chain.call(address, signature, types, args), "big") == 1
    bad = json.loads(json.dumps(args))
    bad[3][-1] += 1
    refused = int.from_bytes(chain.call(address, signature, types, bad), "big") == 0
    assert ok and refused, (name, ok, refused)
    row["gas"] = chain.gas(address, signature, types, args)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--snp", type=int, nargs="+", default=[4, 16, 32, 64, 100], metavar="N")
    ap.add_argument("-o", "--output", type=Path)
    args = ap.parse_args()
    from run import statement  # examples/snp_mean/run.py

    rows = []
    payd = api.compile(f"{ROOT / 'examples' / 'payd' / 'app.py'}:weekly_premium")
    assert isinstance(payd, api.Circuit)
    payd_inputs = json.loads((ROOT / "examples" / "payd" / "inputs.json").read_text())
    rows.append(measure("payd", payd, payd_inputs))
    for n in args.snp:
        for committed in (False, True):
            fn, inputs, _, _ = statement(n, 1, committed)
            circuit = api.compile(fn)
            assert isinstance(circuit, api.Circuit)
            name = f"snp_mean N={n}" + (" (committed: one public digest)" if committed else "")
            rows.append(measure(name, circuit, inputs))
            print(rows[-1], file=sys.stderr)
    lines = [
        "# Groth16 verification on chain: the exported contract's gas",
        "",
        provenance() + ": solc 0.8.28 (npm, optimised), py-evm 0.12.1b1 (Prague).",
        "Gas per verifying transaction, 21,000 base and calldata included.",
        "",
        "| example | constraints | public inputs | creation code | gas |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        gas = f"{r['gas']:,}" if "gas" in r else r["error"]
        lines.append(
            f"| {r['example']} | {r['constraints']:,} | {r['inputs']} "
            f"| {r['code_bytes']:,} B | {gas} |"
        )
    publish(lines, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
