# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"p": [[1, 2], true], "k": 3} -> [9, true]


@zk
def main(p: Private[tuple[tuple[u16, u16], bool], "client"], k: Public[u16]) -> tuple[u16, bool]:
    (x, y), flag = p
    return (x + y) * k, flag and x < y
