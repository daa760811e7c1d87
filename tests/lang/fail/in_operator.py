# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


@zk
def main(a: Private[u32], b: Private[u32]) -> bool:
    return a in b
