# ruff: noqa
from dataclasses import dataclass
from functools import reduce

from zeenot import MaxSize, Private, Public, check, find, i8, u8, u32, u64, zk


@zk
def main(xs: Private[MaxSize[list[u32], 4]], ys: Private[MaxSize[list[u32], 4]]) -> u32:
    big = [x for x in xs if x > 10]
    return sum(a * b for a, b in zip(big, ys))
