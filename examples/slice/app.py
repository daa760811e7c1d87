"""Slice: shoppers jointly train a next-purchase classifier without pooling their histories.

ZØ's Slice case study (seed 000, §7) as peers that secret-share. Each of K shoppers keeps a
private history of its last H purchases (category, weekday, amount bracket). The model is a
small random forest of T decision stumps, each fixed in advance (a feature and a threshold, as a
random forest picks them). Training it needs only counts: for each tree, leaf and category, how
often a purchase routed to that leaf was followed by a purchase of that category. Each shopper
proves with `share_counts` that the shares it sends sum to the counts of *its* history (a
well-formed history: categories, weekdays and brackets in range); the peers add their shares and
prove their sums (`sum_shares`); the server adds the K partial sums: the forest's counts over
everybody's histories, from which `predict` classifies. Nobody sees another's history.

    zeenot serve examples/slice/app.py --db out/slice.db --port 8767 &
    python examples/slice/run.py --server http://127.0.0.1:8767      # 20 peer processes
"""

from dataclasses import dataclass

from zeenot import Field, MaxSize, Private, Public, check, poseidon, u8, zk
from zeenot.runtime.peers import PeerSum

K = 20  # shoppers in a round
H = 8  # purchases in a history
CATEGORIES = 3  # groceries, clothing, electronics
# The forest: each stump sends a purchase right if one feature reaches a threshold.
AMOUNT_SPLIT = 2  # stump 0: amount bracket >= 2
WEEKEND = 5  # stump 1: weekday >= 5
T = 2
N = T * 2 * CATEGORIES  # counts: tree × leaf × next category

Vec = tuple[(Field,) * N]


@dataclass
class Purchase:
    category: u8  # < CATEGORIES
    weekday: u8  # 0 = Monday
    amount: u8  # bracket 0..3


def valid(p: Purchase) -> bool:
    return p.category < CATEGORIES and p.weekday < 7 and p.amount < 4


def leaf(p: Purchase, tree: int) -> u8:
    """Which side of stump `tree` a purchase falls on."""
    if tree == 0:
        return u8(1) if p.amount >= AMOUNT_SPLIT else u8(0)
    return u8(1) if p.weekday >= WEEKEND else u8(0)


def hits(history: tuple[(Purchase,) * H], tree: int, slot: int) -> Field:
    """How many consecutive pairs land in `slot` (leaf × category) of `tree`."""
    return sum(
        Field(1)
        if leaf(history[t], tree) * CATEGORIES + history[t + 1].category == slot
        else Field(0)
        for t in range(H - 1)
    )


def forest_counts(history: tuple[(Purchase,) * H]) -> list[Field]:
    """The shopper's contribution: the forest's counts over its own history."""
    check(all(valid(p) for p in history))
    per_tree = 2 * CATEGORIES
    return [hits(history, i // per_tree, i % per_tree) for i in range(N)]


def commit(v: list[Field], salt: Field) -> Field:
    return poseidon(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], salt)


@zk
def share_counts(
    history: Private[tuple[(Purchase,) * H]],
    masks: Private[tuple[(Vec,) * K]],  # shares 0..K-2 (the last mask is unused)
    salts: Private[tuple[(Field,) * K]],
) -> MaxSize[list[Field], K]:
    """Commitments to K shares that sum to the forest's counts over a well-formed history."""
    counts = forest_counts(history)
    last = [counts[i] - sum(masks[j][i] for j in range(K - 1)) for i in range(N)]
    return [
        commit([masks[j][i] if j < K - 1 else last[i] for i in range(N)], salts[j])
        for j in range(K)
    ]


@zk
def sum_shares(
    shares: Private[tuple[(Vec,) * K]],
    salts: Private[tuple[(Field,) * K]],
    commitments: Public[tuple[(Field,) * K]],
) -> MaxSize[list[Field], N]:
    """The sum of the K shares a shopper received, each opening its sender's commitment."""
    for j in range(K):
        check(commit([shares[j][i] for i in range(N)], salts[j]) == commitments[j])
    return [sum(shares[j][i] for j in range(K)) for i in range(N)]


def forest(total: list[int]) -> dict:
    """The round's result: the trained forest's counts, tree by tree and leaf by leaf."""
    stumps = (("amount", AMOUNT_SPLIT), ("weekday", WEEKEND))
    per_tree = 2 * CATEGORIES
    trees = [
        {
            "feature": stumps[t][0],
            "threshold": stumps[t][1],
            "leaves": [
                total[t * per_tree + s * CATEGORIES : t * per_tree + (s + 1) * CATEGORIES]
                for s in range(2)
            ],
        }
        for t in range(T)
    ]
    return {"kind": "bars", "title": "forest counts", "values": total, "trees": trees}


def predict(model: dict, purchase: dict) -> int:
    """The category the forest predicts after `purchase` (majority of the stumps' votes)."""
    votes = [0] * CATEGORIES
    for tree in model["trees"]:
        side = 1 if purchase[tree["feature"]] >= tree["threshold"] else 0
        counts = tree["leaves"][side]
        votes[max(range(CATEGORIES), key=lambda c: counts[c])] += 1
    return max(range(CATEGORIES), key=lambda c: votes[c])


shoppers = PeerSum(
    share=share_counts,
    combine=sum_shares,
    contribution=forest_counts,
    peers=K,
    result=forest,
    # twenty peer processes start on a 2-core machine in well over the default minute when it is
    # busy (the test suite runs beside the Rust build): a silent peer costs a round this long
    deadline=300,
)
