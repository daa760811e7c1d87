# ruff: noqa
from zeenot import MaxSize, Private, u32, zk


@zk
def main(xss: Private[MaxSize[list[list[u32]], 4]]) -> u32:
    return u32(len(xss))
