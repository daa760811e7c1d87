"""The whole SNP-mean flow: participants encrypt, the aggregator proves, the key holder verifies
and decrypts the mean.

    python examples/snp_mean/run.py --n 100 [--committed]
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from zeenot import api, load_function, simulate
from zeenot.babyjub import Ciphertext, Point, decrypt
from zeenot.lang import load_module

HERE = Path(__file__).resolve().parent
generate = load_module(str(HERE / "data.py")).generate


def app_for(n: int) -> str:
    """app.py with room for `n` ciphertexts (a copy with MAX_RECORDS = n)."""
    src = (HERE / "app.py").read_text()
    src = re.sub(r"^MAX_RECORDS = \d+", f"MAX_RECORDS = {n}", src, flags=re.M)
    path = Path(tempfile.mkdtemp(prefix="snp-")) / "app.py"
    path.write_text(src)
    return str(path)


def statement(n: int, seed: int, committed: bool) -> tuple[object, dict, int, list[int]]:
    """`(function, inputs, secret key, counts)`: the published ciphertexts as public inputs, or
    (`committed`) as private ones bound to their public Poseidon digest."""
    inputs, sk, counts = generate(n, seed)
    path = app_for(n)
    if not committed:
        return load_function(path, "aggregate"), inputs, sk, counts
    cts = [Ciphertext(Point(**c["c1"]), Point(**c["c2"])) for c in inputs["cts"]]
    published = load_module(path).digest(cts)  # what the verifier computes from the list
    inputs = {"cts": inputs["cts"], "published": str(int(published))}
    return load_function(path, "aggregate_committed"), inputs, sk, counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--committed", action="store_true", help="one public Poseidon digest")
    args = ap.parse_args()
    fn, inputs, sk, counts = statement(args.n, args.seed, args.committed)
    expected = simulate(fn, inputs)
    circuit = api.compile(fn)
    t = time.perf_counter()
    keys = api.setup(circuit)
    t_setup = time.perf_counter() - t
    t = time.perf_counter()
    proof = api.prove(circuit, keys, inputs)
    t_prove = time.perf_counter() - t
    t = time.perf_counter()
    api.verify(circuit, keys.verifying_key, proof)
    t_verify = time.perf_counter() - t
    assert proof.outputs == expected
    total, n = proof.outputs
    agg = Ciphertext(Point(**total["c1"]), Point(**total["c2"]))
    s = decrypt(sk, agg, bits=16)
    assert s == sum(counts)
    print(
        f"N = {n}: {circuit.stats['constraints']:,} constraints; setup {t_setup:.2f} s, "
        f"prove {t_prove:.2f} s, verify {t_verify * 1000:.1f} ms; "
        f"decrypted sum {s}, mean allele count {s / n:.3f}"
    )


if __name__ == "__main__":
    main()
