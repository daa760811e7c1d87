# ruff: noqa
from dataclasses import dataclass
from functools import reduce

from zeenot import MaxSize, Private, Public, check, find, i8, u8, u32, u64, zk


@dataclass(frozen=True)
class Purchase:
    day: u32
    cents: u32


@zk
def main(ps: Private[MaxSize[list[Purchase], 4]]) -> u32:
    return sum(p.amount for p in ps)
