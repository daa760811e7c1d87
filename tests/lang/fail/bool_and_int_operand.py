# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


@zk
def main(x: Private[u8], c: Private[bool]) -> bool:
    return c and x
