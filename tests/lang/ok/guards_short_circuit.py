# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"a": 10, "b": 0} -> [false, 0, true]
# case: {"a": 10, "b": 3} -> [true, 3, true]
# case: {"a": 1, "b": 3} -> [false, 0, true]


@zk
def main(a: Private[u32], b: Private[u32]) -> tuple[bool, u32, bool]:
    big = b != 0 and a // b > 2  # no division by zero when b == 0
    q = a // b if b != 0 else u32(0)  # the untaken side does not fail
    ok = b == 0 or 100 % b < 100
    return big, q, ok
