# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"x": 5} -> 50
# case: {"x": 15} -> 14
# case: {"x": 150} -> 0


@zk
def main(x: Private[u32]) -> u32:
    y = u32(0)
    if x < 10:
        y = x * 10
    elif x < 100:
        y = x - 1
    else:
        check(x < 1000)
    return y
