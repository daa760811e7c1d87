# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"a": -7, "b": 2} -> [-4, 1, 7]
# case: {"a": 7, "b": -2} -> [-4, -1, -7]
# case: {"a": -128, "b": -1} -> "fail:overflow"


@zk
def main(a: Private[i8], b: Private[i8]) -> tuple[i8, i8, i8]:
    return a // b, a % b, -a
