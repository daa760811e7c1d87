"""Smart metering from certified data, path (b): the utility's tariff stays private.

A tiered bill is not linear in the readings (`min` at each tier boundary), so the utility
cannot compute it from ciphertexts of the readings alone. The split chosen here:

* the household proves, in Groth16 (`encrypted_bill_N`), her key, the meter's signature on the
  block and the **per-tier energies** `t1, t2, t3` of the period under the *public* tier
  boundaries (`TIER1_WH`, `TIER2_WH`, scaled to the days in the block, as in `certified.py`);
* the sigma region (`encrypt_usage_N`) proves that the `N + 3` ciphertexts she sends encrypt,
  under her key, exactly the `N` signed readings followed by `t1, t2, t3`;
* the utility computes the bill homomorphically with its *private* rates — one row of weights
  (`tariff_weights`): the peak surcharge on every half-hour of its choosing, then `RATE1`,
  `RATE2`, `RATE3` on the tiers — and the household decrypts the sum with a DLEQ proof. The
  sum is in milli-cents (cents per kWh × Wh); the utility's weights file divides by 1,000,
  the bill path (a) proves (`certified.py`'s `tiered_bill`), rounded down to the cent.

So the tier boundaries are public (the household computes the split), the rates and the
time-of-use weights are the utility's. The utility learns the bill, not the readings nor the
tier split (they are encrypted); the household learns the bill, not the rates (one bill is one
linear equation in them; docs/certified.md on rate limiting).

    PYTHONPATH=python python examples/metering/certified_encrypted.py   # the whole exchange
"""

from zeenot import Field, MaxSize, Private, Public, check, u16, u32, u64, zk
from zeenot.babyjub import BASE8, Ciphertext, Point, Signature, eddsa_verify, encrypt
from zeenot.certified.commit import block_digest

HALF_HOURS = 48
DAY = HALF_HOURS
MONTH = 30 * HALF_HOURS  # CRISP's billing period: 1,440 half-hours
BITS = 16
TIER1_WH = 100_000  # per 30 days, as certified.py
TIER2_WH = 300_000
# The utility's tariff as certified.py prices it; in this path they are the utility's private
# weights (`tariff_weights`), never in a circuit.
RATE1, RATE2, RATE3, PEAK_RATE = 18, 24, 31, 9
PEAK_FIRST, PEAK_END = 34, 42


def tiers(total: u64, days: int) -> tuple[u64, u64, u64]:
    """The period's energy split at the public tier boundaries (plain Python and `@zk`)."""
    t1 = min(total, u64(TIER1_WH * days // 30))
    t2 = min(total - t1, u64((TIER2_WH - TIER1_WH) * days // 30))
    return t1, t2, total - t1 - t2


def usage_at(wh, t, k: int) -> u64:  # noqa: ANN001
    """Value `k` of what is encrypted: reading `k`, then the tier energies."""
    if k < len(wh):
        return u64(wh[k])
    return t[k - len(wh)]


@zk
def encrypt_usage_48(
    wh: Private[tuple[(u16,) * DAY]],
    t: Private[tuple[u64, u64, u64]],
    rs: Private[tuple[(Field,) * (DAY + 3)]],
    user: Public[Point],
) -> MaxSize[list[Ciphertext], DAY + 3]:
    """The readings, then the three tier energies, each encrypted under the user's key."""
    return [encrypt(usage_at(wh, t, k), user, rs[k]) for k in range(DAY + 3)]


def signed_tiers(source, source_id, user, period, user_sk, wh, signature, n: int):  # noqa: ANN001, ANN201
    """The Groth16 region's checks (her key, the meter's signature on the `n` readings) and the
    period's energy per tier under the public boundaries."""
    check(user_sk * BASE8 == user, "not the household's key")
    digest = block_digest(source_id, user, period, lambda k: wh[k], n, BITS)
    check(eddsa_verify(source, digest, signature), "not signed by the meter")
    total = u64(0)
    for k in range(n):
        total += u64(wh[k])
    return tiers(total, n // HALF_HOURS)


@zk
def encrypted_bill_48(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    wh: Private[tuple[(u16,) * DAY]],
    signature: Private[Signature],
    rs: Private[tuple[(Field,) * (DAY + 3)]],
) -> MaxSize[list[Ciphertext], DAY + 3]:
    """Ciphertexts of one signed day's readings and of its energy per tier."""
    t1, t2, t3 = signed_tiers(source, source_id, user, period, user_sk, wh, signature, DAY)
    return encrypt_usage_48(wh, (t1, t2, t3), rs, user)


@zk
def encrypt_usage_1440(
    wh: Private[tuple[(u16,) * MONTH]],
    t: Private[tuple[u64, u64, u64]],
    rs: Private[tuple[(Field,) * (MONTH + 3)]],
    user: Public[Point],
) -> MaxSize[list[Ciphertext], MONTH + 3]:
    """A month's readings, then its three tier energies, each encrypted under the user's key."""
    return [encrypt(usage_at(wh, t, k), user, rs[k]) for k in range(MONTH + 3)]


@zk
def encrypted_bill_1440(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    wh: Private[tuple[(u16,) * MONTH]],
    signature: Private[Signature],
    rs: Private[tuple[(Field,) * (MONTH + 3)]],
) -> MaxSize[list[Ciphertext], MONTH + 3]:
    """Ciphertexts of a signed 30-day period's readings (CRISP's 1,440) and of its tiers."""
    t1, t2, t3 = signed_tiers(source, source_id, user, period, user_sk, wh, signature, MONTH)
    return encrypt_usage_1440(wh, (t1, t2, t3), rs, user)


def tariff_weights(n: int = DAY) -> dict:
    """The utility's weights file (`zeenot certified service serve --weights`): one row over
    the `n` readings and the three tiers; the decrypted sum divided by 1,000 is the bill."""
    peak = [PEAK_RATE if PEAK_FIRST <= k % HALF_HOURS < PEAK_END else 0 for k in range(n)]
    return {
        "zeenot_certified_weights": 1,
        "names": ["bill_cents"],
        "rows": [[*peak, RATE1, RATE2, RATE3]],
        "divisor": 1000,
    }


def main() -> None:
    import json
    import os
    import sys
    import time
    from pathlib import Path

    from zeenot import api, bundle
    from zeenot.certified import encrypted
    from zeenot.certified.encrypted_client import decrypt_and_prove, prove_encrypted_regions
    from zeenot.certified.keys import UserKey
    from zeenot.lang import load_module

    here = Path(__file__).resolve().parent
    data = load_module(str(here / "certified_data.py"))
    load = os.getloadavg()[0]
    block = data.meter().sign(data.user_key(), data.PERIOD, data.readings(1, 1), BITS)
    user = UserKey(data.USER_SK)
    t = time.perf_counter()
    regions = api.compile(f"{here / 'certified_encrypted.py'}:encrypted_bill_48")
    keys = {regions.name: api.setup(regions.circuits[regions.name], seed=1)}
    t_setup = time.perf_counter() - t
    t = time.perf_counter()
    proved = prove_encrypted_regions(regions, keys, block, user)  # the household
    t_prove = time.perf_counter() - t
    t = time.perf_counter()  # the utility: verify, then its private tariff on the ciphertexts
    bundle.verify(regions, {regions.name: keys[regions.name].verifying_key}, proved)
    weights = encrypted.Weights.from_json(tariff_weights())
    sums = weights.apply(encrypted.parse_ciphertexts(proved.outputs, "bundle"), user.public)
    t_service = time.perf_counter() - t
    t = time.perf_counter()
    values, proofs = decrypt_and_prove(user, sums)  # the household decrypts, with proofs
    t_dec = time.perf_counter() - t
    bill = weights.finish(values)
    want = data.reference(data.inputs(days=1, seed=1))
    print(
        json.dumps(
            {
                "bill_cents": bill[0],
                "reference": want,
                "groth16_constraints": regions.circuits[regions.name].stats["constraints"],
                "compile_and_setup_s": round(t_setup, 2),
                "prove_s": round(t_prove, 2),
                "verify_and_sums_s": round(t_service, 2),
                "decrypt_and_prove_s": round(t_dec, 2),
                "bundle_bytes": len(proved.to_json()),
                "load_1m": [round(load, 2), round(os.getloadavg()[0], 2)],
            }
        )
    )
    if bill != [want]:
        sys.exit("the bill differs from path (a)'s reference")


if __name__ == "__main__":
    main()
