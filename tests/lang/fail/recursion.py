# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


def fact(n: u32) -> u32:
    return n * fact(n - 1) if n > 1 else u32(1)


@zk
def main(x: Private[u32]) -> u32:
    return fact(x)
