# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


COUNT = 0


@zk
def main(x: Private[u32]) -> u32:
    global COUNT
    return x
