"""k-anonymity of a private table, written naturally and with the group ids hoisted by hand:
the middle end's shared subexpressions must make the two cost the same (issue 13)."""

from typing import NamedTuple

from zeenot import MaxSize, Private, Public, u8, u32, zk

N = 16


class Person(NamedTuple):
    zip: u32
    age: u8


def same_group(a: Person, b: Person) -> bool:
    return a.zip // 100 == b.zip // 100 and a.age // 10 == b.age // 10


@zk
def k_anonymous(people: Private[MaxSize[list[Person], N]], k: Public[u32]) -> bool:
    """Every person shares a (zip // 100, age // 10) group with at least k people."""
    return all(sum(u32(1) for b in people if same_group(a, b)) >= k for a in people)


@zk
def k_anonymous_hoisted(people: Private[MaxSize[list[Person], N]], k: Public[u32]) -> bool:
    groups = [(p.zip // 100, p.age // 10) for p in people]
    return all(sum(u32(1) for h in groups if h[0] == g[0] and h[1] == g[1]) >= k for g in groups)
