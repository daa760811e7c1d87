# ruff: noqa
from zeenot import Field, Private, Public, check, i8, i16, i32, u8, u16, u32, u64, zk

# case: {"km": 50, "night": false} -> [50, 1, 0, true]
# case: {"km": 150, "night": false} -> [450, 3, 0, false]
# case: {"km": 150, "night": true} -> [900, 3, 5, false]
# case: {"km": 90, "night": true} -> [180, 1, 5, true]
# case: {"km": 1500000000, "night": true} -> "fail:overflow"


@zk
def main(km: Private[u32], night: Private[bool]) -> tuple[u64, u8, i8, bool]:
    rate = 3 if km > 100 else 1  # a plain int, chosen at run time
    surcharge = 0
    if night:
        surcharge = 5
    factor = rate * (2 if night else 1)  # Python int arithmetic on every path
    cost = u64(km * factor)  # `factor` becomes a u32 here (may overflow, as in Python)
    cheap = factor < 3 or (0 or 5) == 4
    return cost, u8(rate), i8(surcharge), cheap
