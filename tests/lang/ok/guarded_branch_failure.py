# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"a": 250, "flag": false} -> 250
# case: {"a": 250, "flag": true} -> "fail:overflow"
# case: {"a": 3, "flag": true} -> 13


@zk
def main(a: Private[u8], flag: Private[bool]) -> u8:
    if flag:
        a = a + 10
    return a
