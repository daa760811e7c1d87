# ruff: noqa
from dataclasses import dataclass
from typing import NamedTuple

from zeenot import MaxSize, Private, Public, check, find, i32, u8, u32, zk


@dataclass(frozen=True)
class Purchase:
    day: u32
    category: u8
    cents: u32


class Pt(NamedTuple):
    x: i32
    y: i32


# case: {"ps": [{"day": 1, "category": 2, "cents": 500}, {"day": 3, "category": 1, "cents": 90}, {"day": 3, "category": 2, "cents": 700}], "path": [{"x": 0, "y": 0}, {"x": 3, "y": -4}], "cat": 2} -> [true, 1200, 1, 2, 7, 500, [3, 1]]
# case: {"ps": [], "path": [], "cat": 2} -> [true, 0, 0, 0, 0, 0, [0, 0]]
# case: {"ps": [{"day": 5, "category": 2, "cents": 1}, {"day": 4, "category": 1, "cents": 2}], "path": [{"x": 1, "y": 1}], "cat": 9} -> [false, 0, 5, 0, 0, 2, [5, 2]]
# case: {"ps": [{"day": 5, "category": 2, "cents": 1}], "path": [{"x": -2147483648, "y": 0}, {"x": 2147483647, "y": 0}], "cat": 9} -> "fail:overflow"


@zk
def main(
    ps: Private[MaxSize[list[Purchase], 4]],
    path: Private[MaxSize[list[Pt], 3]],
    cat: Public[u8],
) -> tuple[bool, u32, u32, u32, i32, u32, tuple[u32, u8]]:
    ordered = all(a.day <= b.day for a, b in zip(ps, ps[1:]))
    spent = sum(p.cents for p in ps if p.category == cat)
    first_day = ps[0].day if len(ps) > 0 else u32(0)
    last_match = u32(0)
    for i, p in enumerate(ps):
        if p.category == cat:
            last_match = u32(i)
    dist = i32(0)
    for a, b in zip(path, path[1:]):
        dist += abs(b.x - a.x) + abs(b.y - a.y)
    cheap = find(ps, lambda p: p.cents < 100, Purchase(day=u32(0), category=u8(0), cents=u32(0)))
    big = next((p.cents for p in ps if p.cents >= 2), u32(0))
    return ordered, spent, first_day, last_match, dist, big, (cheap.day, cheap.category)
