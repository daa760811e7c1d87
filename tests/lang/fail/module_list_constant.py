# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


RATES = [1, 2, 3]


@zk
def main(a: Private[u32]) -> u32:
    return a * RATES[0]
