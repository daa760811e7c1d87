# ruff: noqa
from dataclasses import dataclass
from functools import reduce

from zeenot import MaxSize, Private, Public, check, find, i8, u8, u32, u64, zk


@zk
def main(xs: Private[MaxSize[list[u32], 4]]) -> u32:
    ys = [x for x in xs]
    ys.append(u32(1))
    return sum(ys)
