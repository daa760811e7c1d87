"""Synthetic purchase histories for the loyalty-card example, and a reference discount.

Each customer has a persona (plain, health-conscious, new parent, pet owner) that weights the
categories of what they buy; purchases are spread over the last six months, a few a week, in
ascending order of day (several on one day happen). The basket at the till follows the persona.

    python examples/loyalty/data.py           # rewrites examples/loyalty/inputs.json (48 purchases)
    python examples/loyalty/data.py 64 --seed 3 -o /tmp/history.json
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from zeenot.ir import format_inputs

HERE = Path(__file__).resolve().parent
DEFAULT_LENGTH = 48
DEFAULT_SEED = 4  # a new parent with nappies and household goods in the basket
TODAY = 20_050  # 2024-11-24, in days since 1970-01-01
BASKET_SIZE = (3, 9)

# the retailer's published automaton, repeated here so that the reference below is independent
# of app.py: categories groceries, fresh, baby, pet, wine, household
WINDOW_DAYS = 90
MIN_QUALIFYING_CENTS = 200
SILVER_PURCHASES, GOLD_PURCHASES = 10, 25
TIER_BONUS_PCT = (0, 1, 3)
TRANSDUCER = {  # profile: ({category: next profile}, {category: percent off})
    "new": ({0: "regular", 1: "fresh1", 2: "baby1", 3: "pet1", 4: "regular", 5: "regular"}, {}),
    "regular": (
        {0: "regular", 1: "fresh1", 2: "baby1", 3: "pet1", 4: "regular", 5: "regular"},
        {0: 2, 5: 2},
    ),
    "fresh1": ({1: "fresh2", 2: "baby1", 3: "pet1"}, {1: 5}),
    "fresh2": ({2: "baby1", 3: "pet1"}, {0: 2, 1: 10}),
    "baby1": ({2: "parent", 3: "pet1"}, {2: 5}),
    "parent": ({}, {2: 15, 5: 5}),
    "pet1": ({1: "fresh1", 2: "baby1", 3: "pet2"}, {3: 5}),
    "pet2": ({2: "baby1"}, {3: 15, 5: 2}),
}

PERSONAS = {  # category weights
    "plain": (6, 2, 0, 0, 1, 3),
    "healthy": (3, 6, 0, 0, 1, 2),
    "parent": (4, 2, 3, 0, 0, 3),
    "pet": (4, 2, 0, 3, 1, 2),
}
PRICES = ((150, 6_000), (80, 2_500), (300, 4_500), (250, 7_000), (600, 9_000), (150, 3_000))


def generate(n: int, seed: int = 1) -> dict:
    """JSON inputs of `discount` with a history of `n` purchases."""
    rng = random.Random(seed)
    persona = PERSONAS[rng.choice(sorted(PERSONAS))]
    categories = range(len(persona))
    days = sorted(TODAY - rng.randrange(0, 180) for _ in range(n))
    history = []
    for day in days:
        (cat,) = rng.choices(categories, weights=persona)
        lo, hi = PRICES[cat]
        amount = rng.randint(lo, hi) if rng.random() > 0.15 else rng.randint(20, 199)  # a snack
        history.append({"day": day, "category": cat, "amount": amount})
    basket = []
    for _ in range(rng.randint(*BASKET_SIZE)):
        (cat,) = rng.choices(categories, weights=persona)
        basket.append({"category": cat, "price": rng.randint(*PRICES[cat])})
    return {"history": history, "basket": basket, "today": TODAY}


def reference(inputs: dict) -> list | None:
    """The discount computed directly on the JSON values; None where no proof exists."""
    history, today = inputs["history"], inputs["today"]
    if any(b["day"] < a["day"] for a, b in zip(history, history[1:], strict=False)):
        return None
    if any(p["day"] > today or p["category"] >= 6 for p in history):
        return None
    profile, recent = "new", 0
    for p in history:
        if today - p["day"] < WINDOW_DAYS and p["amount"] >= MIN_QUALIFYING_CENTS:
            profile = TRANSDUCER[profile][0].get(p["category"], profile)
            recent += 1
    tier = 2 if recent >= GOLD_PURCHASES else 1 if recent >= SILVER_PURCHASES else 0
    offers = TRANSDUCER[profile][1]
    cents = 0
    for item in inputs["basket"]:
        if item["category"] >= 6 or item["price"] > 1_000_000:
            return None
        cents += item["price"] * (offers.get(item["category"], 0) + TIER_BONUS_PCT[tier])
    return [cents // 100, tier]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=DEFAULT_LENGTH, help="purchases in history")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("-o", "--output", type=Path, default=HERE / "inputs.json")
    args = ap.parse_args()
    args.output.write_text(format_inputs(generate(args.n, args.seed)))
    print(f"wrote {args.output}: {args.n} purchases")


if __name__ == "__main__":
    main()
