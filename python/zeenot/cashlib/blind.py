"""RSA blind signatures as RFC 9474 specifies them (RSABSSA), for e-cash and tokens.

A client blinds a message for a signer's public key, the signer signs the blinded message
without seeing it, and the client finalizes that into an ordinary RSA-PSS signature of the
message. The signer cannot link the signature it later sees to the signing session.

```python
from zeenot.cashlib import blind

sk = blind.keygen(2048)                         # RSABSSA-SHA384-PSS-Randomized by default
pk = sk.public_key()
state = blind.blind(pk, b"coin serial")         # client: keep `state` secret
blind_sig = blind.blind_sign(sk, state.blinded_message)   # signer sees only the blinded message
sig = blind.finalize(pk, blind_sig, state, b"coin serial")
assert blind.verify(pk, sig, b"coin serial")
```

Variants (RFC 9474 §5): `RSABSSA-SHA384-PSS-Randomized` (recommended), `-PSSZERO-Randomized`,
`-PSS-Deterministic`, `-PSSZERO-Deterministic`. A key carries its variant. The randomized
variants prefix the message with 32 random bytes (the `randomizer`, part of the `Signature`):
without it, a signer could sign a message chosen so that the signature on it is a signature on
another (RFC 9474 §7.3); use the deterministic ones only where the application already makes
messages unpredictable to the signer.

Keys read and written as the `blind-rsa-signatures` crate does: secret keys as PKCS#8 (or
PKCS#1) DER/PEM; public keys as SubjectPublicKeyInfo (or PKCS#1) DER/PEM, and as an
RSASSA-PSS SPKI (`to_spki`, the encoding of RFC 9578 Privacy Pass issuers). Moduli of 2048 to
4096 bits, e = 3 or 65537. Every length is bounded (messages to 1 MiB); bad input is a
`BlindSignatureError` (a `ZeenotError` and a `ValueError`) that says what was wrong; a signature
that does not verify is `False` from `verify`.

The RSA work is the pinned `blind-rsa-signatures` crate's (crates/zeenot-cash). Checked against
RFC 9474 Appendix A (tests/python/test_cashlib_blind.py, crates/zeenot-cash/tests/rfc9474.rs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zeenot.errors import ZeenotError

__all__ = [
    "DEFAULT_VARIANT",
    "MAX_MESSAGE_BYTES",
    "RANDOMIZER_BYTES",
    "VARIANTS",
    "BlindSignatureError",
    "Blinding",
    "PublicKey",
    "SecretKey",
    "Signature",
    "blind",
    "blind_sign",
    "finalize",
    "keygen",
    "verify",
]

VARIANTS = (
    "RSABSSA-SHA384-PSS-Randomized",
    "RSABSSA-SHA384-PSSZERO-Randomized",
    "RSABSSA-SHA384-PSS-Deterministic",
    "RSABSSA-SHA384-PSSZERO-Deterministic",
)
DEFAULT_VARIANT = "RSABSSA-SHA384-PSS-Randomized"
MAX_MESSAGE_BYTES = 1 << 20
RANDOMIZER_BYTES = 32
# Encoded keys are bounded before they reach the parser (the Rust side checks again).
_MAX_KEY_BYTES = 8192


class BlindSignatureError(ZeenotError, ValueError):
    """A bad key, variant or argument, or a blind signature that does not finalize."""


def _native() -> Any:
    from zeenot import _native

    return _native


def _call(f: Any, *args: Any) -> Any:
    """A native call with its errors as `BlindSignatureError`."""
    native = _native()
    try:
        return f(*args)
    except (ValueError, native.ZeenotError) as e:
        raise BlindSignatureError(str(e)) from None


def _bytes(v: Any, what: str, limit: int = MAX_MESSAGE_BYTES) -> bytes:
    if not isinstance(v, (bytes, bytearray, memoryview)):
        raise TypeError(f"{what} must be bytes, got {type(v).__name__}")
    b = bytes(v)
    if len(b) > limit:
        raise BlindSignatureError(f"{what} is {len(b)} bytes, more than the {limit} allowed")
    return b


def _variant(name: Any) -> str:
    if name not in VARIANTS:
        raise BlindSignatureError(f"unknown variant {name!r}: one of {', '.join(VARIANTS)}")
    return str(name)


def _text(v: Any, what: str) -> str:
    if isinstance(v, (bytes, bytearray)):
        v = bytes(v).decode("ascii", errors="replace")
    if not isinstance(v, str):
        raise TypeError(f"{what} must be str or bytes, got {type(v).__name__}")
    if len(v) > _MAX_KEY_BYTES:
        raise BlindSignatureError(f"{what} is {len(v)} characters, more than {_MAX_KEY_BYTES}")
    return v


@dataclass(frozen=True)
class Blinding:
    """The client's state between `blind` and `finalize`. Only `blinded_message` goes to the
    signer: `inv` (RFC 9474's unblinding factor) links the blinded message to the final
    signature, and `randomizer` (randomized variants) is revealed with the signature only."""

    blinded_message: bytes
    inv: bytes
    randomizer: bytes | None

    def __repr__(self) -> str:
        return f"Blinding({len(self.blinded_message)}-byte blinded message, inv withheld)"


@dataclass(frozen=True)
class Signature:
    """A finalized RFC 9474 signature: the RSA-PSS signature and, for the randomized variants,
    the 32-byte randomizer the message was prefixed with (the verifier needs it).

    `to_bytes()` is `randomizer ‖ signature` (the randomizer absent for deterministic variants);
    `from_bytes(data, pk)` splits by the key's modulus length."""

    signature: bytes
    randomizer: bytes | None = None

    def to_bytes(self) -> bytes:
        return (self.randomizer or b"") + self.signature

    @classmethod
    def from_bytes(cls, data: Any, pk: PublicKey) -> Signature:
        data = _bytes(data, "a signature", 4096)
        k = pk.modulus_bytes
        r = RANDOMIZER_BYTES if pk.is_randomized else 0
        if len(data) != r + k:
            raise BlindSignatureError(
                f"a {pk.variant} signature under a {pk.modulus_bits}-bit key is {r + k} bytes, "
                f"not {len(data)}"
            )
        return cls(data[r:], data[:r] if r else None)


class PublicKey:
    """An RFC 9474 public key (of one variant)."""

    __slots__ = ("_key",)

    def __init__(self, native_key: Any):
        if not isinstance(native_key, _native().BlindRsaPublicKey):
            raise TypeError("use PublicKey.from_der / from_pem / from_spki or SecretKey.public_key")
        self._key = native_key

    @classmethod
    def from_der(cls, der: Any, variant: str = DEFAULT_VARIANT) -> PublicKey:
        """From SubjectPublicKeyInfo (rsaEncryption) or PKCS#1 DER."""
        n = _native()
        return cls(_call(n.BlindRsaPublicKey.from_der, _variant(variant), _bytes(der, "DER")))

    @classmethod
    def from_pem(cls, pem: Any, variant: str = DEFAULT_VARIANT) -> PublicKey:
        n = _native()
        return cls(_call(n.BlindRsaPublicKey.from_pem, _variant(variant), _text(pem, "PEM")))

    @classmethod
    def from_spki(cls, spki: Any, variant: str = DEFAULT_VARIANT) -> PublicKey:
        """From an RSASSA-PSS SubjectPublicKeyInfo (Privacy Pass's encoding)."""
        n = _native()
        return cls(_call(n.BlindRsaPublicKey.from_spki, _variant(variant), _bytes(spki, "SPKI")))

    @property
    def variant(self) -> str:
        return str(self._key.variant)

    @property
    def is_randomized(self) -> bool:
        return self.variant.endswith("-Randomized")

    @property
    def modulus_bits(self) -> int:
        return int(self._key.modulus_bits)

    @property
    def modulus_bytes(self) -> int:
        """The length of blinded messages, blind signatures and signatures."""
        return int(self._key.modulus_bytes)

    def to_der(self) -> bytes:
        return bytes(_call(self._key.to_der))

    def to_pem(self) -> str:
        return str(_call(self._key.to_pem))

    def to_spki(self) -> bytes:
        return bytes(_call(self._key.to_spki))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PublicKey) and bool(self._key == other._key)

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"<blind.PublicKey {self.variant}, {self.modulus_bits} bits>"


class SecretKey:
    """An RFC 9474 secret key (the signer's, of one variant). Its repr shows no secret."""

    __slots__ = ("_key",)

    def __init__(self, native_key: Any):
        if not isinstance(native_key, _native().BlindRsaSecretKey):
            raise TypeError("use keygen() or SecretKey.from_der / from_pem / from_components")
        self._key = native_key

    @classmethod
    def generate(cls, bits: int = 2048, variant: str = DEFAULT_VARIANT) -> SecretKey:
        """A fresh key: `bits` from 2048 to 4096 (a multiple of 8), e = 65537."""
        if isinstance(bits, bool) or not isinstance(bits, int):
            raise TypeError("bits must be an integer")
        if not 2048 <= bits <= 4096 or bits % 8:
            raise BlindSignatureError(f"an RSA modulus of 2048 to 4096 bits (×8), not {bits}")
        return cls(_call(_native().BlindRsaSecretKey.generate, _variant(variant), bits))

    @classmethod
    def from_der(cls, der: Any, variant: str = DEFAULT_VARIANT) -> SecretKey:
        """From PKCS#8 or PKCS#1 DER (the key is validated)."""
        der = _bytes(der, "DER", _MAX_KEY_BYTES)
        return cls(_call(_native().BlindRsaSecretKey.from_der, _variant(variant), der))

    @classmethod
    def from_pem(cls, pem: Any, variant: str = DEFAULT_VARIANT) -> SecretKey:
        pem = _text(pem, "PEM")
        return cls(_call(_native().BlindRsaSecretKey.from_pem, _variant(variant), pem))

    @classmethod
    def from_components(
        cls, n: int, e: int, d: int, p: int, q: int, variant: str = DEFAULT_VARIANT
    ) -> SecretKey:
        """From the integers `n, e, d, p, q` (as RFC 9474's test vectors give them)."""
        parts = []
        for name, v in (("n", n), ("e", e), ("d", d), ("p", p), ("q", q)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{name} must be an integer")
            if not 0 < v < 1 << 4096:
                raise BlindSignatureError(f"{name} must be in (0, 2^4096)")
            parts.append(v.to_bytes((v.bit_length() + 7) // 8, "big"))
        native = _native().BlindRsaSecretKey.from_components
        return cls(_call(native, _variant(variant), *parts))

    @property
    def variant(self) -> str:
        return str(self._key.variant)

    @property
    def modulus_bits(self) -> int:
        return int(self._key.modulus_bits)

    def public_key(self) -> PublicKey:
        return PublicKey(self._key.public_key())

    def to_der(self) -> bytes:
        """PKCS#8 DER (secret: store it as you would any signing key)."""
        return bytes(_call(self._key.to_der))

    def to_pem(self) -> str:
        return str(_call(self._key.to_pem))

    def __repr__(self) -> str:
        return f"<blind.SecretKey {self.variant}, {self.modulus_bits} bits>"


def keygen(bits: int = 2048, variant: str = DEFAULT_VARIANT) -> SecretKey:
    """A fresh signing key (`SecretKey.generate`); its public key is `.public_key()`."""
    return SecretKey.generate(bits, variant)


def blind(pk: PublicKey, msg: Any) -> Blinding:
    """RFC 9474 `Prepare` + `Blind` (client): fresh randomness; send `.blinded_message`."""
    _check(pk, PublicKey, "pk")
    b, inv, r = _call(pk._key.blind, _bytes(msg, "the message"))
    return Blinding(bytes(b), bytes(inv), None if r is None else bytes(r))


def blind_sign(sk: SecretKey, blinded_message: Any) -> bytes:
    """RFC 9474 `BlindSign` (signer): the blind signature of a blinded message."""
    _check(sk, SecretKey, "sk")
    return bytes(_call(sk._key.blind_sign, _bytes(blinded_message, "the blinded message", 4096)))


def finalize(pk: PublicKey, blind_signature: Any, state: Blinding, msg: Any) -> Signature:
    """RFC 9474 `Finalize` (client): the signature of `msg`, checked against `pk`; a blind
    signature that does not unblind to a valid signature is a `BlindSignatureError`."""
    _check(pk, PublicKey, "pk")
    _check(state, Blinding, "state")
    sig = _call(
        pk._key.finalize,
        _bytes(blind_signature, "the blind signature", 4096),
        _bytes(state.blinded_message, "the blinded message", 4096),
        _bytes(state.inv, "inv", 4096),
        None if state.randomizer is None else _bytes(state.randomizer, "the randomizer", 64),
        _bytes(msg, "the message"),
    )
    return Signature(bytes(sig), state.randomizer)


def verify(pk: PublicKey, signature: Signature, msg: Any) -> bool:
    """RFC 9474 `Verify`: whether `signature` signs `msg` under `pk` (`False` for anything that
    does not verify: another message or key, a changed signature or randomizer)."""
    _check(pk, PublicKey, "pk")
    _check(signature, Signature, "signature")
    if not isinstance(signature.signature, (bytes, bytearray)) or len(signature.signature) > 4096:
        return False
    r = signature.randomizer
    if r is not None and (not isinstance(r, (bytes, bytearray)) or len(r) > 64):
        return False
    return bool(
        _call(
            pk._key.verify,
            bytes(signature.signature),
            None if r is None else bytes(r),
            _bytes(msg, "the message"),
        )
    )


def _check(v: Any, cls: type, what: str) -> None:
    if not isinstance(v, cls):
        raise TypeError(f"{what} must be a blind.{cls.__name__}, got {type(v).__name__}")
