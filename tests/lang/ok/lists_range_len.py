# ruff: noqa
from zeenot import MaxSize, Private, Public, check, u32, u64, zk

# case: {"xs": [3, 1, 4, 1, 5], "ys": [2, 7, 1, 8, 2], "k": 1} -> [35, 2, 2]
# case: {"xs": [], "ys": [], "k": 1} -> [0, 0, 0]
# case: {"xs": [1, 2], "ys": [9], "k": 2} -> "fail:check"


@zk
def main(
    xs: Private[MaxSize[list[u32], 5]], ys: Private[MaxSize[list[u32], 5]], k: Public[u32]
) -> tuple[u64, u32, u32]:
    dot = u64(0)
    for i in range(len(xs)):
        dot += u64(xs[i]) * u64(ys[i])
    hits = u32(0)
    for i in range(len(xs)):
        if xs[i] == k:
            hits += 1
    last = u32(len(xs)) - 1 if len(xs) > 0 else u32(0)
    return dot, hits, u32(last) if len(xs) == 0 else u32(len(xs) // 2)
