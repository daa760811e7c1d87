# ruff: noqa
from zeenot import MaxSize, Private, Public, check, u8, u16, u32, zk

# case: {"xs": [3, 200, 7], "t": 5} -> [210, 3, 3, 200, 2, true, false, 207]
# case: {"xs": [], "t": 5} -> [0, 0, 255, 0, 0, true, true, 0]
# case: {"xs": [255, 255, 255, 255, 255], "t": 0} -> "fail:overflow"
# case: {"xs": [255, 255, 255, 255, 1], "t": 254} -> "fail:overflow"
# case: {"xs": [1, 2], "t": 300} -> "fail:overflow"
# case: {"xs": [250, 10], "t": 1} -> "fail:overflow"


@zk
def main(
    xs: Private[MaxSize[list[u8], 5]], t: Public[u16]
) -> tuple[u16, u32, u8, u8, u32, bool, bool, u8]:
    total = u16(0)
    for x in xs:
        total += u16(x)
    n = len(xs)
    lo = min(xs, default=u8(255))
    hi = max(xs, default=u8(0))
    above = len([x for x in xs if u16(x) > t])
    small = all(x < 255 or t == 0 for x in xs)
    empty = not any(True for x in xs)
    return total, n, lo, hi, above, small, empty, sum(x for x in xs if x > u8(t))
