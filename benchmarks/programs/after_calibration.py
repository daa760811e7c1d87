"""Programs written for `benchmarks/planner.py` after the shipped profile was calibrated (none is a
calibration program, and none was fitted on): the kinds the planner mispredicted in issue 28 — a
sorting network, sets, pairs of records compared field by field, a list crossing between two
regions as a vector commitment — and a group-by."""

from typing import NamedTuple

from zeenot import MaxSize, Private, Public, check, group_sum, u8, u16, u32, u64, zk


@zk
def median_wage(wages: Private[MaxSize[list[u32], 31]]) -> u32:
    """The median of up to 31 payslips (a sorting network)."""
    check(len(wages) >= 1)
    return sorted(wages)[len(wages) // 2]


@zk
def shared_contacts(
    mine: Private[MaxSize[list[u32], 16]], theirs: Public[MaxSize[list[u32], 16]]
) -> u32:
    """How many of my contacts a published list shares (a set intersection)."""
    return u32(len(set(mine) & set(theirs)))


class Record(NamedTuple):
    age: u8
    zip3: u16


def same_group(a: Record, b: Record) -> bool:
    return a.age // 5 == b.age // 5 and a.zip3 == b.zip3


@zk
def k_anonymous(records: Private[tuple[(Record,) * 12]], k: Public[u8]) -> bool:
    """Every record shares its (age band, 3-digit zip) with at least k records."""
    ok = True
    for r in records:
        n = u8(0)
        for s in records:
            if same_group(r, s):
                n += 1
        ok = ok and n >= k
    return ok


@zk
def bonus_pool(scores: Private[MaxSize[list[u32], 50]], bar: Public[u32]) -> u64:
    """The scores at or above the bar, summed (a region of its own: the list crosses)."""
    return sum(u64(s) for s in scores if s >= bar)


@zk
def team_bonus(scores: Private[MaxSize[list[u32], 50]], bar: Public[u32]) -> u64:
    """Two regions: this one checks the scores, `bonus_pool` sums the good ones; the list
    crosses between them as one vector commitment."""
    check(all(s <= 100 for s in scores))
    return bonus_pool(scores, bar)


class Sale(NamedTuple):
    shop: u8
    cents: u32


@zk
def best_shop_total(sales: Private[MaxSize[list[Sale], 24]]) -> u64:
    """The largest per-shop total of up to 24 sales (a group-by: sort by shop, running sums)."""
    totals = group_sum(sales, lambda s: s.shop, lambda s: u64(s.cents))
    return max((t for _, t in totals), default=u64(0))
