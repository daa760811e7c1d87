# ruff: noqa
from zeenot import Committed, Field, Public, zk


@zk
def main(x: Committed[Field], y: Public[Field]) -> Field:
    return x + y
