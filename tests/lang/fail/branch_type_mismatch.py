# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


@zk
def main(a: Private[u32]) -> u32:
    b = u32(0)
    if a > 3:
        b = u64(a)
    return u32(0)
