# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"a": 3} -> null
# case: {"a": 30} -> "fail:check"


@zk
def main(a: Private[u8]):
    check(a < 10, "a must be small")
