# ruff: noqa
from __future__ import annotations

from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"a": 4} -> 16


@zk
def main(a: Private[u64]) -> u64:
    sq = a * a
    return sq
