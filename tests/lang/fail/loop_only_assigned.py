# ruff: noqa
from dataclasses import dataclass
from functools import reduce

from zeenot import MaxSize, Private, Public, check, find, i8, u8, u32, u64, zk


@zk
def main(xs: Private[MaxSize[list[u32], 4]]) -> u32:
    for x in xs:
        last = x
    return last
