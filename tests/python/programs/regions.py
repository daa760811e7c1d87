"""Programs in regions (issue 12): `@zk` functions calling `@zk` functions."""

from zeenot import Committed, Field, MaxSize, Private, Public, check, poseidon, u8, u32, u64, zk


@zk
def clamp(x: Private[u32], hi: Public[u32]) -> u32:
    check(x < 1_000_000, "implausible reading")
    return x if x < hi else hi


@zk
def total(xs: Private[MaxSize[list[u32], 8]]) -> u32:
    check(len(xs) >= 2)
    return sum(xs)


@zk
def scaled(readings: Private[MaxSize[list[u32], 8]], hi: Public[u32], k: Public[u8]) -> u64:
    """Two calls to one region (`clamp`, `clamp#2`), one to another; a result used twice."""
    t = total(readings)
    a = clamp(t, hi)
    b = clamp(t + 1, hi)
    return u64(a) * u64(k) + u64(b)


@zk
def outer(xs: Private[MaxSize[list[u32], 8]], hi: Public[u32]) -> u32:
    """A region calling a region calling regions (nested)."""
    return u32(scaled(xs, hi, u8(2)) % 1000)


@zk
def ignores(x: Private[u32], hi: Public[u32]) -> u32:
    """A call whose result is unused: its checks must still hold."""
    clamp(x, hi)
    return x + 1


@zk
def record_sum(pair: Private[tuple[u32, u32]]) -> tuple[u32, bool]:
    return (pair[0] + pair[1], pair[0] < pair[1])


@zk
def uses_tuple(a: Private[u32], b: Private[u32]) -> u32:
    s, less = record_sum((a, b))
    return s if less else a


@zk
def committed_in(c: Committed[u32], hi: Public[u32]) -> Committed[u32]:
    """The program's own Committed input and return beside the regions' crossings."""
    return clamp(c, hi) + 1


# -- refused ---------------------------------------------------------------------------------


@zk
def conditional(x: Private[u32], hi: Public[u32]) -> u32:
    if x > 5:
        return clamp(x, hi)
    return x


@zk
def hash_of(x: Private[u32]) -> Field:
    return poseidon(Field(x))


@zk
def crosses_field(x: Private[u32]) -> Field:
    return hash_of(x)


@zk
def ping(x: Private[u32]) -> u32:
    return pong(x)


@zk
def pong(x: Private[u32]) -> u32:
    return ping(x)
