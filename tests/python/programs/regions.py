"""Programs in regions (issue 12): `@zk` functions calling `@zk` functions."""

from zeenot import Committed, Field, MaxSize, Private, Public, check, poseidon, u8, u32, u64, zk
from zeenot.babyjub import Ciphertext, Point, encrypt


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
def square_field(h: Private[Field]) -> Field:
    return h * h


@zk
def crosses_field(x: Private[u32]) -> Field:
    """A computed field element cannot cross as a commitment (a result that cannot is shown)."""
    return square_field(poseidon(Field(x)))


@zk
def ping(x: Private[u32]) -> u32:
    return pong(x)


@zk
def pong(x: Private[u32]) -> u32:
    return ping(x)


# -- encryption in a region of its own --------------------------------------------------------


@zk
def encrypt_total(total: Private[u32], r: Private[Field], authority: Public[Point]) -> Ciphertext:
    return encrypt(total, authority, r)


@zk
def encrypted_bonus(
    sales: Private[MaxSize[list[u32], 16]], r: Private[Field], authority: Public[Point]
) -> Ciphertext:
    """A bonus over private sales, encrypted to an authority's key: the list work in one region,
    the encryption in another (the planner can give it the sigma back end, where an encryption
    is two equations); `r` and `authority` pass on as they are, the bonus crosses committed,
    the ciphertext comes back shown."""
    check(all(s <= 100_000 for s in sales))
    bonus = u32(sum(u64(s) for s in sales) * 3 // 100)
    return encrypt_total(bonus, r, authority)


@zk
def uses_randomness_twice(x: Private[u32], r: Private[Field], authority: Public[Point]) -> Field:
    """`r` passed on as it is and used here too: refused (it would not be bound to one value)."""
    ct = encrypt_total(x, r, authority)
    return ct.c1.x + r


@zk
def hidden_hash(x: Private[u32]) -> Committed[Field]:
    return poseidon(Field(x))


@zk
def uses_hidden_hash(x: Private[u32]) -> Field:
    """The callee declares its (uncommittable) result Committed: refused, never shown."""
    return hidden_hash(x)
