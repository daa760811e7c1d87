# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


@zk
def main(xs: Private[tuple[u32, u32]]) -> u32:
    for i in range(2):
        if xs[i] > 3:
            return xs[i]
    return u32(0)
