# ruff: noqa
from zeenot import MaxSize, Private, Public, check, u8, u16, u32, zk

# case: {"rows": [[1, 2], [3], []], "w": [1, 2, 3]} -> [6, 3, [3, 3, 0], 9]
# case: {"rows": [], "w": [1, 1, 1]} -> [0, 0, [], 0]
# case: {"rows": [[200, 200, 200], [100]], "w": [1, 1, 1]} -> [700, 2, [600, 100], 700]


@zk
def main(
    rows: Private[MaxSize[list[list[u8]], 3, 3]], w: Public[tuple[u16, u16, u16]]
) -> tuple[u16, u32, MaxSize[list[u16], 3], u16]:
    total = sum(sum(u16(x) for x in row) for row in rows)
    sums = [sum((u16(x) for x in row), u16(0)) for row in rows]
    weighted = u16(0)
    for i, row in enumerate(rows):
        weighted += w[i] * sum((u16(x) for x in row), u16(0))
    return total, len(rows), sums, weighted
