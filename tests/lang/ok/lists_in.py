# ruff: noqa
from zeenot import MaxSize, Private, Public, check, u8, u32, zk

BLOCKED = (22, 23, 3389)

# case: {"ports": [80, 443, 22], "p": 443} -> [true, true, 2]
# case: {"ports": [], "p": 0} -> [false, false, 0]
# case: {"ports": [8080], "p": 80} -> [false, false, 1]


@zk
def main(ports: Private[MaxSize[list[u32], 4]], p: Public[u32]) -> tuple[bool, bool, u32]:
    allowed = [q for q in ports if q not in BLOCKED]
    return p in ports, p in allowed and p != 0, u32(len(allowed))
