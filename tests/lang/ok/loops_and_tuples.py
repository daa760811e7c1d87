# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

N = 4
WEIGHTS = (1, 2, 3, 4)
Vec = tuple[u16, u16, u16, u16]

# case: {"v": [1, 2, 3, 4]} -> [30, 4, 10]
# case: {"v": [65535, 0, 0, 0]} -> [65535, 1, 65535]


@zk
def main(v: Private[Vec]) -> tuple[u32, u32, u32]:
    dot = u32(0)
    nonzero = u32(0)
    for i in range(N):
        dot += u32(v[i]) * WEIGHTS[i]
        if v[i] != 0:
            nonzero += 1
    total = u32(0)
    for x in v:
        total = total + u32(x)
    check(len(v) == N)
    return dot, nonzero, total
