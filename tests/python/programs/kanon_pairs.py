"""k-anonymity written the natural way, a helper comparing two fields of two records per pair,
and its twin with each record's group packed into one value by hand (issue 28): the middle end's
packed equalities (zeenot.lang.passes.packed_eq) must make the natural one cost what the twin
costs."""

from typing import NamedTuple

from zeenot import MaxSize, Private, Public, u8, u32, u64, zk

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
def k_anonymous_packed(people: Private[MaxSize[list[Person], N]], k: Public[u32]) -> bool:
    """The same, each person's group one number (zip // 100 above age // 10's 5 bits)."""
    groups = [u64(p.zip // 100) * 32 + u64(p.age // 10) for p in people]
    return all(sum(u32(1) for h in groups if h == g) >= k for g in groups)
