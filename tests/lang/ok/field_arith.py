# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"x": 3, "y": 5} -> [21888242871839275222246405745257275088548364400416034343698204186575808495615, 15, true]
# case: {"x": 0, "y": 0} -> [0, 0, false]


@zk
def main(x: Private[Field], y: Public[Field]) -> tuple[Field, Field, bool]:
    d = x - y
    return d, x * y, d != 0
