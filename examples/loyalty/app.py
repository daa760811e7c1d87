"""A personalised loyalty card: ZØ's Figure 1.

A retailer personalises discounts from each customer's purchase history, but many customers do
not want the retailer to keep (or infer things from) that history. Here the history stays on
the customer's phone. The retailer publishes a finite-state transducer: `NEXT_STATE` moves a
customer profile along with each purchase's category, and `OFFER_PCT` says which percentage off
each category a profile earns. At the till the phone runs the history through the transducer,
prices the current basket with the profile it reached, and proves the discount claim.

What is private: the purchase history (day, category and amount of each purchase), its length,
and the profile state it leads to.
What is public: today's date and the basket being paid for (the till knows both).
What the verifier (the till) learns: the discount in cents and the customer's tier (bronze 0,
silver 1 or gold 2, from the number of recent qualifying purchases). Being a function of the
public basket, the discount reveals something about the profile by design: 15% off nappies
tells the till that the customer is a parent. The history itself is never sent.

The history counts if it is in ascending order of day (as in ZØ, so that the retailer's automaton
may assume it), no purchase lies in the future and every category is known; otherwise no proof
exists. Only qualifying purchases (at least `MIN_QUALIFYING_CENTS`, within the last `WINDOW_DAYS`
days) move the automaton and count towards the tier. An empty history is the new-customer
profile (no offers, bronze tier); an empty basket gets no discount.

    zeenot simulate examples/loyalty/app.py:discount --inputs examples/loyalty/inputs.json
    zeenot compile  examples/loyalty/app.py:discount -o out/loyalty --json
    zeenot setup    out/loyalty
    zeenot prove    out/loyalty --inputs examples/loyalty/inputs.json -o out/loyalty/proof.json
    zeenot verify   out/loyalty out/loyalty/proof.json

`examples/loyalty/data.py` regenerates `inputs.json` (and any other length) from a seed.
"""

# zip(xs, xs[1:]) pairs neighbours and stops at the shorter list by design:
# ruff: noqa: B905

import functools
from dataclasses import dataclass

from zeenot import Client, MaxSize, Private, Public, check, u8, u32, u64, worker, zk

MAX_PURCHASES = 64  # the circuit has room for this much history
MAX_ITEMS = 16  # ... and for a basket this large

WINDOW_DAYS = 90  # only the last quarter's purchases shape the profile
MIN_QUALIFYING_CENTS = 200  # smaller purchases do not count
SILVER_PURCHASES = 10  # qualifying purchases in the window for the silver tier
GOLD_PURCHASES = 25  # ... and for gold
MAX_PRICE_CENTS = 1_000_000

# categories: 0 groceries, 1 fresh produce, 2 baby, 3 pet, 4 wine, 5 household
NUM_CATEGORIES = 6
# profiles: 0 new, 1 regular, 2 fresh once, 3 fresh lover, 4 baby once, 5 parent, 6 pet once,
# 7 pet owner
NEW = 0
NEXT_STATE = (
    # groc fresh baby pet wine house
    (1, 2, 4, 6, 1, 1),  # new
    (1, 2, 4, 6, 1, 1),  # regular
    (2, 3, 4, 6, 2, 2),  # fresh once
    (3, 3, 4, 6, 3, 3),  # fresh lover
    (4, 4, 5, 6, 4, 4),  # baby once
    (5, 5, 5, 5, 5, 5),  # parent
    (6, 2, 4, 7, 6, 6),  # pet once
    (7, 7, 4, 7, 7, 7),  # pet owner
)
OFFER_PCT = (
    # groc fresh baby pet wine house
    (0, 0, 0, 0, 0, 0),  # new
    (2, 0, 0, 0, 0, 2),  # regular
    (0, 5, 0, 0, 0, 0),  # fresh once
    (2, 10, 0, 0, 0, 0),  # fresh lover
    (0, 0, 5, 0, 0, 0),  # baby once
    (0, 0, 15, 0, 0, 5),  # parent
    (0, 0, 0, 5, 0, 0),  # pet once
    (0, 0, 0, 15, 0, 2),  # pet owner
)
TIER_BONUS_PCT = (0, 1, 3)  # bronze, silver, gold: on top of the profile's offers


@dataclass(frozen=True)
class Purchase:
    day: u32  # days since 1970-01-01
    category: u8
    amount: u32  # cents


@dataclass(frozen=True)
class Item:
    category: u8
    price: u32  # cents


def known(p: Purchase, today: u32) -> bool:
    return p.day <= today and p.category < NUM_CATEGORIES


def qualifies(p: Purchase, today: u32) -> bool:
    """Recent enough and large enough to count (needs p.day <= today)."""
    return today - p.day < WINDOW_DAYS and p.amount >= MIN_QUALIFYING_CENTS


def advance(state: u8, p: Purchase, today: u32) -> u8:
    """One step of the retailer's automaton: a private lookup in the public table."""
    return u8(NEXT_STATE[state][p.category]) if qualifies(p, today) else state


@zk
def discount(
    history: Private[MaxSize[list[Purchase], MAX_PURCHASES]],
    basket: Public[MaxSize[list[Item], MAX_ITEMS]],
    today: Public[u32],
) -> tuple[u64, u8]:
    """The discount in cents on `basket`, and the customer's tier."""
    check(all(a.day <= b.day for a, b in zip(history, history[1:])), "history out of order")
    check(all(known(p, today) for p in history), "unknown category or a purchase in the future")
    state = functools.reduce(lambda s, p: advance(s, p, today), history, u8(NEW))

    recent = u32(sum(u32(1) for p in history if qualifies(p, today)))
    tier = u8(2) if recent >= GOLD_PURCHASES else (u8(1) if recent >= SILVER_PURCHASES else u8(0))
    bonus = u64(TIER_BONUS_PCT[tier])

    total = u64(0)  # Σ price × percent; divided by 100 once at the end
    for item in basket:
        check(item.category < NUM_CATEGORIES and item.price <= MAX_PRICE_CENTS, "bad item")
        total += u64(item.price) * (u64(OFFER_PCT[state][item.category]) + bonus)
    return total // 100, tier


# --------------------------------------------------------------------------------------------
# The application, as ZØ's Figure 1: the customer's phone (client) keeps the purchase history
# and proves the discount on the basket at the till; the retail terminal (server) publishes
# today's date, checks the proof was made with it and with the basket the client names, checks
# that basket against what its lane scanned, and charges.
#
#     zeenot serve examples/loyalty/app.py --db out/loyalty.db --port 8772 &
#     zeenot run examples/loyalty/app.py --server http://127.0.0.1:8772 \
#         --inputs examples/loyalty/run.json

# What each lane's scanner read (in a shop: the till's own state; here, the demo's basket).
SCANNED: dict = {
    "lane-3": [
        {"category": 0, "price": 1520},
        {"category": 2, "price": 4105},
        {"category": 2, "price": 3607},
        {"category": 5, "price": 1045},
        {"category": 5, "price": 1015},
        {"category": 5, "price": 203},
        {"category": 2, "price": 2408},
        {"category": 0, "price": 3271},
        {"category": 5, "price": 2405},
    ]
}


@worker(tier="server")
def till_date() -> u32:
    """The terminal's published date (days since 1970)."""
    return u32(20_050)


@worker(tier="client")
def redeem(
    history: Private[MaxSize[list[Purchase], MAX_PURCHASES], Client],
    basket: MaxSize[list[Item], MAX_ITEMS],
    today: u32,
):
    """On the phone: the discount the history earns on this basket, proved."""
    return discount(history, basket, today)


@worker(tier="server")
def charge(lane: str, basket: list, cents_off: u64, tier: u8) -> dict:
    """At the terminal: the basket must be the one its lane scanned; then the receipt."""
    scanned = SCANNED.get(lane)
    if scanned is not None and scanned != basket:
        raise ValueError(f"the basket is not the one lane {lane} scanned")
    total = sum(item["price"] for item in basket)
    return {"lane": lane, "total_cents": total, "discount_cents": cents_off, "tier": tier}


def main(
    lane: str,
    basket: MaxSize[list[Item], MAX_ITEMS],
    history: Private[MaxSize[list[Purchase], MAX_PURCHASES], Client],
):
    today = till_date()
    cents_off, tier = redeem(history, basket, today)
    return charge(lane, basket, cents_off, tier)
