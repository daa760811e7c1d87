# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


@zk
def main(xs: Private[tuple[u32, u32]]) -> u32:
    return xs[2]
