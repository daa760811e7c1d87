# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


@zk
def main(t: Private[tuple[u8, u8, u8, u8, u8, u8, u8, u8]]) -> u8:
    count = 0
    for i in range(8):
        if t[i] > 5:
            count += 1
    return u8(count)
