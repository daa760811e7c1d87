"""Baby Jubjub points and exponential-ElGamal ciphertexts as zeenot values (issue 4).

`Point` is a point of circomlib's Baby Jubjub (`a·x² + y² = 1 + d·x²·y²` over BN254's scalar
field) in the prime-order subgroup; `Ciphertext` is an exponential-ElGamal ciphertext
`(r·B8, m·B8 + r·pk)`. Both are records (JSON objects `{"x": ..., "y": ...}` and
`{"c1": ..., "c2": ...}`), checked on construction: a point off the curve or outside the subgroup
is a `ValueError`, before any work.

In a `@zk` function, `+` (point addition, homomorphic addition of ciphertexts), `k *` (scalar
multiplication), `encrypt`, `rerandomize`, `==`, `sum` of a list of ciphertexts, and
point/ciphertext parameters compile; private points are checked in the circuit (on the curve
and in the subgroup, ~20 constraints). `keygen`, `decrypt` and `random_scalar` run only here.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from zeenot.types import Field, P, ZInt

# the order of the prime-order subgroup (circomlib's `subOrder`)
SUBGROUP_ORDER = 2736030358979909402780800718157159386076813972158567259200215660948447373041

KIND_ATTR = "__zeenot_kind__"


def _native() -> Any:
    from zeenot import _native

    return _native


def _scalar(k: Any, what: str) -> int:
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"{what} needs an integer or Field scalar, got {type(k).__name__}")
    return int(k)


@dataclass(frozen=True)
class Point:
    """A Baby Jubjub point in the prime-order subgroup (circomlib coordinates)."""

    x: Field
    y: Field

    def __post_init__(self) -> None:
        for name in ("x", "y"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or isinstance(v, ZInt):
                raise TypeError(f"Point.{name} must be a Field element, got {type(v).__name__}")
            object.__setattr__(self, name, Field(v))
        if not _native().bj_check(str(int(self.x)), str(int(self.y))):
            raise ValueError("not a Baby Jubjub point in the prime-order subgroup")

    @classmethod
    def _trusted(cls, x: int, y: int) -> Point:
        p = object.__new__(cls)
        object.__setattr__(p, "x", Field(x))
        object.__setattr__(p, "y", Field(y))
        return p

    @classmethod
    def identity(cls) -> Point:
        return cls._trusted(0, 1)

    def _xy(self) -> tuple[str, str]:
        return str(int(self.x)), str(int(self.y))

    def __add__(self, other: Any) -> Point:
        if not isinstance(other, Point):
            return NotImplemented
        x, y = _native().bj_add(*self._xy(), *other._xy())
        return Point._trusted(int(x), int(y))

    def __radd__(self, other: Any) -> Point:
        if type(other) is int and other == 0:  # `sum(points)` starts from 0
            return self
        return NotImplemented

    def __neg__(self) -> Point:
        return Point._trusted(-int(self.x) % P, int(self.y))

    def __sub__(self, other: Any) -> Point:
        if not isinstance(other, Point):
            return NotImplemented
        return self + (-other)

    def __rmul__(self, k: Any) -> Point:
        """`k * p`: `k` an integer (any sign) or a Field element (its representative in [0, p))."""
        n = _scalar(k, "scalar multiplication") % SUBGROUP_ORDER
        x, y = _native().bj_mul(str(n), *self._xy())
        return Point._trusted(int(x), int(y))

    __mul__ = __rmul__


setattr(Point, KIND_ATTR, "babyjub.point")
PublicKey = Point
BASE8 = Point._trusted(
    5299619240641551281634865583518297030282874472190772894086521144482721001553,
    16950150798460657717958625567821834550301663161624707787222815936182638968203,
)


@dataclass(frozen=True)
class Ciphertext:
    """An exponential-ElGamal ciphertext `(c1, c2) = (r·B8, m·B8 + r·pk)`."""

    c1: Point
    c2: Point

    def __post_init__(self) -> None:
        for name in ("c1", "c2"):
            if not isinstance(getattr(self, name), Point):
                raise TypeError(f"Ciphertext.{name} must be a Point")

    def __add__(self, other: Any) -> Ciphertext:
        """Homomorphic addition: `Enc(m1; r1) + Enc(m2; r2) = Enc(m1 + m2; r1 + r2)`."""
        if not isinstance(other, Ciphertext):
            return NotImplemented
        return Ciphertext(self.c1 + other.c1, self.c2 + other.c2)

    def __radd__(self, other: Any) -> Ciphertext:
        if type(other) is int and other == 0:  # `sum(ciphertexts)` starts from 0
            return self
        return NotImplemented

    def __neg__(self) -> Ciphertext:
        """`Enc(m; r)` negated is `Enc(-m; -r)`."""
        return Ciphertext(-self.c1, -self.c2)

    def __sub__(self, other: Any) -> Ciphertext:
        if not isinstance(other, Ciphertext):
            return NotImplemented
        return self + (-other)

    def __rmul__(self, k: Any) -> Ciphertext:
        return Ciphertext(k * self.c1, k * self.c2)

    __mul__ = __rmul__


setattr(Ciphertext, KIND_ATTR, "babyjub.ciphertext")


def keygen() -> tuple[int, Point]:
    """A fresh secret key in `[1, l)` and its public key `sk·B8`."""
    sk = 1 + secrets.randbelow(SUBGROUP_ORDER - 1)
    return sk, sk * BASE8


def random_scalar() -> int:
    """Fresh encryption randomness in `[1, l)`."""
    return 1 + secrets.randbelow(SUBGROUP_ORDER - 1)


def encrypt(m: Any, pk: Point, r: Any) -> Ciphertext:
    """`(r·B8, m·B8 + r·pk)` for an integer message `m` and randomness `r`."""
    return Ciphertext(r * BASE8, m * BASE8 + r * pk)


def rerandomize(c: Ciphertext, pk: Point, r: Any) -> Ciphertext:
    """`c + Enc(0; r)`: the same plaintext, unlinkable randomness."""
    return c + encrypt(0, pk, r)


def encrypts_in_range(ct: Ciphertext, pk: Point, m, r, lo, hi) -> bool:
    """Whether `ct` is the encryption of `m` under `pk` with randomness `r`, and `lo <= m <= hi`:
    the statement a voter (a ballot encrypts 0 or 1) or a participant (a count of 0 to 2)
    proves about a published ciphertext, in `@zk` code with `m` and `r` private. Written in the
    language itself (an `encrypt` and two comparisons); `m`, `r`, `lo` and `hi` keep their own
    types (unsigned integers)."""
    return encrypt(m, pk, r) == ct and lo <= m and m <= hi


def decrypt(sk: int, c: Ciphertext, bits: int = 32) -> int:
    """The message `m < 2^bits` of `c` (baby-step giant-step; `bits ≤ 48`)."""
    c1 = (str(int(c.c1.x)), str(int(c.c1.y)))
    c2 = (str(int(c.c2.x)), str(int(c.c2.y)))
    return int(_native().bj_decrypt(str(sk % SUBGROUP_ORDER), c1, c2, bits))


@dataclass(frozen=True)
class Signature:
    """An EdDSA-Poseidon signature (circomlib/circomlibjs): `R8` and `S` (a Field below `l`)."""

    r8: Point
    s: Field

    def __post_init__(self) -> None:
        if not isinstance(self.r8, Point):
            raise TypeError("Signature.r8 must be a Point")
        if isinstance(self.s, bool) or not isinstance(self.s, int) or isinstance(self.s, ZInt):
            raise TypeError("Signature.s must be a Field element")
        object.__setattr__(self, "s", Field(self.s))


def eddsa_keygen() -> tuple[bytes, Point]:
    """A fresh 32-byte EdDSA seed and its public key (circomlibjs `prv2pub`)."""
    seed = secrets.token_bytes(32)
    return seed, eddsa_public_key(seed)


def eddsa_public_key(seed: bytes) -> Point:
    x, y = _native().bj_eddsa_public(seed)
    return Point._trusted(int(x), int(y))


def eddsa_sign(seed: bytes, msg: Any) -> Signature:
    """circomlibjs `signPoseidon` of the Field element `msg`."""
    (rx, ry), s = _native().bj_eddsa_sign(seed, str(int(Field(msg))))
    return Signature(Point._trusted(int(rx), int(ry)), Field(int(s)))


def eddsa_verify(pk: Point, msg: Any, sig: Signature) -> bool:
    """Whether `sig` is a valid EdDSA-Poseidon signature of `msg` under `pk` (circomlibjs
    `verifyPoseidon`, and `S < l`, and `pk` not the identity). In a `@zk` function write
    `check(eddsa_verify(pk, msg, sig))`: no proof exists for an invalid signature."""
    xy = (str(int(pk.x)), str(int(pk.y)))
    r8 = (str(int(sig.r8.x)), str(int(sig.r8.y)))
    return bool(_native().bj_eddsa_verify(xy, str(int(Field(msg))), r8, str(int(sig.s))))
