"""Smart-meter billing from signed readings: CRISP's certified data, proved.

A smart meter signs each reading (EdDSA-Poseidon, the circomlib scheme) with a key whose public
half the utility registered. The household keeps its readings; at the end of the period it
proves to the utility the bill computed from them — only readings the meter really signed
count, in the order the meter numbered them — and reveals nothing but the total.

What is private: the readings (kWh per period) and their signatures, and how many there are.
What is public: the meter's public key, the tariff (cents per kWh, and a cheaper rate for the
first `CHEAP_KWH` of each period) and the bill.

    python examples/metering/data.py                # inputs.json: 12 signed readings
    zeenot simulate examples/metering/app.py:bill --inputs examples/metering/inputs.json
    zeenot compile  examples/metering/app.py:bill -o out/metering --json
    zeenot setup    out/metering
    zeenot prove    out/metering --inputs examples/metering/inputs.json -o out/metering/proof.json
    zeenot verify   out/metering out/metering/proof.json
"""

from dataclasses import dataclass

from zeenot import Client, Field, MaxSize, Private, Public, check, poseidon, u32, u64, worker, zk
from zeenot.babyjub import Point, Signature, eddsa_verify

MAX_READINGS = 12  # one a month
CHEAP_KWH = 100  # per period, at the cheaper rate


@dataclass(frozen=True)
class Reading:
    kwh: u32
    sig: Signature  # the meter's signature of poseidon(period, kwh)


def signed_message(period: int, kwh: u32) -> Field:
    return poseidon(Field(period), Field(kwh))


@zk
def bill(
    meter: Public[Point],
    readings: Private[MaxSize[list[Reading], MAX_READINGS]],
    cheap_cents: Public[u32],
    cents: Public[u32],
) -> u64:
    """The bill in cents for the signed readings."""
    total = u64(0)
    for period, r in enumerate(readings):
        check(eddsa_verify(meter, signed_message(period, r.kwh), r.sig), "not signed by the meter")
        cheap = min(r.kwh, u32(CHEAP_KWH))
        total += u64(cheap) * u64(cheap_cents) + u64(r.kwh - cheap) * u64(cents)
    return total


# --------------------------------------------------------------------------------------------
# The application: the household (client) keeps its meter's signed readings and proves the
# bill; the utility's server publishes its tariff, checks the proof was made with it and with
# the meter registered to the account, and issues the invoice.
#
#     zeenot serve examples/metering/app.py --db out/metering.db --port 8774 &
#     zeenot run examples/metering/app.py --server http://127.0.0.1:8774 \
#         --inputs examples/metering/run.json

# The utility's register of meters' public keys, by account (the demo's one meter).
METERS: dict = {
    "A-1001": {
        "x": "1120771572304984668855649788542860110303223894298952018121329196339919157573",
        "y": "20197087425205130352574209034729275460185533126585197591053247747830393653846",
    }
}


@worker(tier="server")
def tariff() -> tuple[u32, u32]:
    """The utility's published prices: cents per kWh within and beyond the cheap allowance."""
    return u32(18), u32(31)


@worker(tier="client")
def bill_me(
    meter: Point,
    readings: Private[MaxSize[list[Reading], MAX_READINGS], Client],
    cheap: u32,
    dear: u32,
):
    """In the household: the bill from the meter's signed readings, proved."""
    return bill(meter, readings, cheap, dear)


@worker(tier="server")
def invoice(account: str, meter: dict, cents: u64) -> dict:
    """At the utility: the meter must be the account's; then the invoice."""
    registered = METERS.get(account)
    if registered is not None and {k: int(v) for k, v in registered.items()} != {
        k: int(v) for k, v in meter.items()
    }:
        raise ValueError(f"account {account} has another meter")
    return {"account": account, "amount_cents": cents}


def main(
    account: str, meter: Point, readings: Private[MaxSize[list[Reading], MAX_READINGS], Client]
):
    cheap, dear = tariff()
    cents = bill_me(meter, readings, cheap, dear)
    return invoice(account, meter, cents)
