# ruff: noqa
from zeenot import MaxSize, Private, u32, zk

# case: {"x": 3, "ys": [1, 3, 3, 5]} -> [2, 3, true]
# case: {"x": 2, "ys": [3, 3]} -> [1, 1, true]
# case: {"x": 9, "ys": []} -> [2, 0, false]


@zk
def main(x: Private[u32], ys: Private[MaxSize[list[u32], 4]]) -> tuple[u32, u32, bool]:
    s = {x, u32(2)}
    odd = {y // 2 for y in ys if y % 2 == 1}
    return u32(len(s)), u32(len(odd)), 1 in odd
