"""Certified data, path (b) as processes over HTTP (issue 30): the source and the service
(`zeenot certified ... serve`, SQLite) as subprocesses, the user's side in this process; each
step timed, the results checked against the plain-Python reference.

    PYTHONPATH=python python benchmarks/crisp_exchange.py --case genome --size 2048
    PYTHONPATH=python python benchmarks/crisp_exchange.py --case metering --size 1440   # or 48

Steps: compile the program in regions and set up its Groth16 region (the service's, once);
the user fetches her signed block and proves her ciphertexts (`prove_s`: Groth16 for the
signature, sigma for the encryptions); the service verifies the bundle, computes its sums and
stores them (`submit_s`, the round trip); the user decrypts each sum and proves it (DLEQ,
`decrypt_s`); the service verifies and stores the results (`decryptions_s`, the round trip).
The result line records the machine's 1-minute load before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from zeenot import api, bundle
from zeenot.certified.client import fetch_block
from zeenot.certified.encrypted import parse_ciphertexts
from zeenot.certified.encrypted_client import (
    decrypt_and_prove,
    prove_encrypted,
    submit_bundle,
    submit_decryptions,
)
from zeenot.certified.keys import SourceKey, UserKey
from zeenot.lang import load_module
from zeenot.runtime.identity import Key, write_secret

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
ZEENOT = [sys.executable, "-m", "zeenot.cli"]
TOKEN = "benchmark-operator-token"
PERIOD = 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(args: list[str], port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [*ZEENOT, *args, "--port", str(port)], stdout=out, stderr=subprocess.STDOUT, env=env
        )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{args[:3]} exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit(f"{args[:3]} did not start: {log.read_text()[-2000:]}")


def case(name: str, size: int) -> tuple[str, dict, list[int], int, list[int]]:
    """The target, the service's weights file, the values, their width, the reference."""
    if name == "genome":
        g = load_module(str(EX / "genome" / "data.py"))
        rows = [w[:size] for w in g.weights()]
        values = g.genotypes(size, 1)
        want = [sum(w * s for w, s in zip(r, values, strict=True)) for r in rows]
        doc = {"zeenot_certified_weights": 1, "names": list(g.DISEASES), "rows": rows}
        target = f"{EX / 'genome' / 'certified_encrypted.py'}:encrypted_sigma_{size}"
        return target, doc, values, 8, want
    if name == "metering" and size in (48, 1_440):
        m = load_module(str(EX / "metering" / "certified_data.py"))
        enc = load_module(str(EX / "metering" / "certified_encrypted.py"))
        days = size // 48
        values = m.readings(days, 1)
        want = [m.reference(m.inputs(days=days, seed=1))]
        target = f"{EX / 'metering' / 'certified_encrypted.py'}:encrypted_bill_{size}"
        return target, enc.tariff_weights(size), values, 16, want
    raise SystemExit("cases: genome 32|256|2048, metering 48|1440")


def run(name: str, size: int) -> dict:
    load_before = os.getloadavg()[0]
    target, weights, values, bits, want = case(name, size)
    d = Path(tempfile.mkdtemp(prefix="crisp-exchange-"))
    t = time.perf_counter()
    regions = api.compile(target)
    assert isinstance(regions, bundle.Regions)
    regions.save(d / "program")
    api.setup(regions.circuits[regions.name]).save(bundle.region_dir(d / "program", regions.name))
    t_setup = time.perf_counter() - t
    (d / "weights.json").write_text(json.dumps(weights))
    SourceKey("source", 7, os.urandom(32)).save(d / "source.json")
    write_secret(d / "operators", TOKEN + "\n")
    household, user = Key.generate("household"), UserKey.generate()
    sport, vport = free_port(), free_port()
    source_url, service_url = f"http://127.0.0.1:{sport}", f"http://127.0.0.1:{vport}"
    procs = []
    try:
        procs.append(
            start(
                [
                    "certified",
                    "source",
                    "serve",
                    "--key",
                    str(d / "source.json"),
                    "--db",
                    str(d / "source.db"),
                    "--operator-token-file",
                    str(d / "operators"),
                ],
                sport,
                d / "source.log",
            )  # fmt: skip
        )
        procs.append(
            start(
                [
                    "certified",
                    "service",
                    "serve",
                    "--circuit",
                    str(d / "program"),
                    "--weights",
                    str(d / "weights.json"),
                    "--source",
                    source_url,
                    "--db",
                    str(d / "service.db"),
                ],
                vport,
                d / "service.log",
            )  # fmt: skip
        )
        auth = {"authorization": f"Bearer {TOKEN}"}
        from zeenot.ir import to_json_value

        account = {"name": "household", "public_key": household.public_key}
        account["user"] = to_json_value(user.public)
        assert httpx.post(f"{source_url}/api/accounts", json=account, headers=auth).is_success
        reading = {"bits": bits, "values": values}
        url = f"{source_url}/api/readings/household/{PERIOD}"
        assert httpx.put(url, json=reading, headers=auth).is_success

        block = fetch_block(source_url, household, user, PERIOD)
        t = time.perf_counter()
        proved = prove_encrypted(str(d / "program"), block, user)
        t_prove = time.perf_counter() - t
        t = time.perf_counter()
        first = submit_bundle(service_url, proved)
        t_submit = time.perf_counter() - t
        if first.status != 201:
            raise SystemExit(f"the service refused the bundle: {first}")
        t = time.perf_counter()
        results, proofs = decrypt_and_prove(user, parse_ciphertexts(first.body["sums"], "sums"))
        t_decrypt = time.perf_counter() - t
        t = time.perf_counter()
        done = submit_decryptions(service_url, user, PERIOD, results, proofs)
        t_decryptions = time.perf_counter() - t
        if done.status != 201:
            raise SystemExit(f"the service refused the decryptions: {done}")
    finally:
        for p in procs:
            p.terminate()
            p.wait(30)
    got = list(done.body["results"].values())
    if got != want:
        raise SystemExit(f"{got} != reference {want}")
    return {
        "case": name,
        "size": size,
        "groth16_constraints": regions.circuits[regions.name].stats["constraints"],
        "compile_and_setup_s": round(t_setup, 2),
        "prove_s": round(t_prove, 2),
        "bundle_bytes": len(proved.to_json()),
        "submit_s": round(t_submit, 2),
        "decrypt_s": round(t_decrypt, 2),
        "decryptions_s": round(t_decryptions, 2),
        "results": got,
        "equals_reference": True,
        "load_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "cores": os.cpu_count(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", choices=("genome", "metering"), default="genome")
    ap.add_argument("--size", type=int, default=32)
    args = ap.parse_args()
    print(json.dumps(run(args.case, args.size)), flush=True)


if __name__ == "__main__":
    main()
