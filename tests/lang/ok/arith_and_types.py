# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"a": 7, "b": 3} -> [10, 4, 21, 2, 1]
# case: {"a": 200, "b": 100} -> "fail:overflow"
# case: {"a": 7, "b": 0} -> "fail:division_by_zero"


@zk
def main(a: Private[u8], b: Public[u8]) -> tuple[u8, u8, u8, u8, u8]:
    return a + b, a - b, a * b, a // b, a % b
