# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"x": 3} -> 6
# case: {"x": 30} -> 29
# case: {"x": 300} -> 0


@zk
def main(x: Private[u32]) -> u32:
    if x < 10:
        return x * 2
    elif x < 100:
        return x - 1
    return u32(0)
