# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"a": -5, "b": 3, "f": true} -> [-5, 3, 5, 1, 251]
# case: {"a": -128, "b": 3, "f": false} -> "fail:overflow"
# case: {"a": 100, "b": -100, "f": false} -> [-100, 100, 100, 0, 100]


@zk
def main(a: Private[i8], b: Private[i8], f: Private[bool]) -> tuple[i8, i8, i8, u8, u8]:
    m = min(a, b)
    big = max(a, b)
    return m, big, abs(a), u8(f), u8(i16(a) if a >= 0 else i16(a) + 256)
