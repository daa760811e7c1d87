# ruff: noqa
from functools import reduce

from zeenot import MaxSize, Private, Public, check, find, u32, u64, zk

# case: {"xs": [1, 2, 3], "k": 2} -> [7, [2, 4, 6], 14, 3, 2]
# case: {"xs": [], "k": 2} -> [1, [], 0, 0, 0]
# case: {"xs": [5], "k": 5} -> "fail:check"


def square(v: u32) -> u64:
    return u64(v) * u64(v)


@zk
def main(
    xs: Private[MaxSize[list[u32], 4]], k: Public[u32]
) -> tuple[u64, MaxSize[list[u32], 4], u64, u32, u32]:
    def scaled(v: u32) -> u32:
        return v * k

    check(all(x != k or len(xs) > 1 for x in xs))
    acc = reduce(lambda a, x: a + square(x) // 2, xs, u64(1))
    doubled = [scaled(x) for x in xs]
    total = sum(map(square, xs))
    kept = len(list(filter(lambda x: x <= k + 1, xs)))
    second = find(xs, lambda x: x >= k, u32(0))
    return acc, doubled, total, kept, second
