# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"t": [1, 5, 9]} -> [true, 15]
# case: {"t": [5, 1, 9]} -> [false, 15]


@zk
def main(t: Private[tuple[u32, u32, u32]]) -> tuple[bool, u32]:
    a, b, c = t
    total: u32 = a + b + c
    return a < b <= c, total
