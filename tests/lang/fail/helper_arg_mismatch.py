# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


def double(v: u32) -> u32:
    return v * 2


@zk
def main(a: Private[u64]) -> u64:
    return u64(double(a))
