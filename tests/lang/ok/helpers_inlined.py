# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk


def clamp(x: u32, lo: u32, hi: u32 = u32(100)) -> u32:
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def twice(x):
    return x + x


# case: {"a": 5} -> [10, 10]
# case: {"a": 500} -> [100, 200]


@zk
def main(a: Private[u32]) -> tuple[u32, u32]:
    c = clamp(a, u32(10))
    return c, twice(clamp(a, lo=u32(0), hi=u32(100)))
