# ruff: noqa
from zeenot import Field, Private, Public, check, i8, u8, u32, u64, zk


@zk
def main(price: Private[float]) -> u32:
    return u32(0)
