# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"x": 200} -> 200
# case: {"x": 300} -> "fail:range"


@zk
def main(x: Private[Field]) -> u8:
    return u8(x)
