"""Who is speaking: the identities of servers and clients, rosters, signed requests, operators.

The floor the collective authority and Prio will stand on, used now by every `zeenot serve`:

* A **key** is an Ed25519 signing key with a name (`zeenot keys new --name insurer --out F`):
  a JSON file written atomically with mode 0600. A server's key is its identity (`--identity`);
  a client's key never leaves the client: the operator registers its public half with the
  server (`POST /api/apps/{app}/clients`), so the server can check its signatures but never
  make one.
* A **roster** (`--roster R.json`) names the servers this one talks to and their public keys:
  `{"zeenot_roster": 1, "servers": {"helper": {"public_key": "…hex…"}}}`.
* A **signed request** carries `Zeenot-Signer`, `Zeenot-Audience`, `Zeenot-Timestamp`,
  `Zeenot-Nonce` and `Zeenot-Signature` headers: an Ed25519 signature of the method, the path
  with its query, the body's SHA-256, the time, a random nonce, the signer's name and the
  audience (the name of the server it is meant for). The receiver refuses (401) an unknown
  signer, a bad signature, another audience, a time further than `MAX_SKEW` seconds from its
  clock, and a nonce it has seen before: nonces are stored in the database until their
  request would be too old anyway, so a replay is refused by every process over that database.
* An **operator** presents `Authorization: Bearer TOKEN`; the server keeps the tokens' SHA-256
  only (`--operator-token-file`, one token a line) and compares in constant time.

Nothing here logs or returns a secret: reasons name the signer and what failed, never a key,
a token or a signature.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from zeenot.errors import MalformedInput, ZeenotError
from zeenot.files import check_output_file, read_json, write_atomic

KEY_FORMAT = 1
ROSTER_FORMAT = 1
MAX_SKEW = 300  # seconds a signed request's time may differ from the receiver's clock
MAX_ROSTER = 256  # servers in a roster
MAX_FILE = 64 * 1024  # bytes of a key or roster file
MIN_TOKEN = 20  # characters of an operator token
NAME = re.compile(r"[A-Za-z0-9._-]{1,64}", re.ASCII)
_NONCE = re.compile(r"[A-Za-z0-9_-]{16,64}", re.ASCII)
_HEX_KEY = re.compile(r"[0-9a-f]{64}", re.ASCII)
_SIGNATURE = re.compile(r"[0-9a-f]{128}", re.ASCII)
HEADERS = ("zeenot-signer", "zeenot-audience", "zeenot-timestamp", "zeenot-nonce")
SIGNATURE_HEADER = "zeenot-signature"


class AuthError(ZeenotError):
    """A request refused for who sent it; `status` is the HTTP status to answer with."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


def check_name(name: Any, what: str = "a name") -> str:
    if not (isinstance(name, str) and NAME.fullmatch(name)):
        raise MalformedInput(f"{what} is 1 to 64 characters of A-Z a-z 0-9 . _ -")
    return name


def public_key(text: Any, what: str = "a public key") -> Ed25519PublicKey:
    """An Ed25519 public key from its 64 lowercase hex digits."""
    if not (isinstance(text, str) and _HEX_KEY.fullmatch(text)):
        raise MalformedInput(f"{what} is 64 lowercase hex digits (an Ed25519 public key)")
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))


def public_hex(key: Ed25519PublicKey) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return key.public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


# ---- keys -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Key:
    """A named signing key (a server's identity, or a client's)."""

    name: str
    private: Ed25519PrivateKey

    @classmethod
    def generate(cls, name: str) -> Key:
        return cls(check_name(name, "a key's name"), Ed25519PrivateKey.generate())

    @property
    def public_key(self) -> str:
        return public_hex(self.private.public_key())

    def save(self, path: str | Path) -> None:
        """Write the key atomically, readable by its owner only (mode 0600: the temporary
        file `write_atomic` renames is created so)."""
        from cryptography.hazmat.primitives.serialization import (
            Encoding,
            NoEncryption,
            PrivateFormat,
        )

        check_output_file(path)
        raw = self.private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        doc = {
            "zeenot_key": KEY_FORMAT,
            "name": self.name,
            "algorithm": "ed25519",
            "private_key": raw.hex(),
            "public_key": self.public_key,
        }
        write_atomic(path, json.dumps(doc, indent=2) + "\n", secret=True)

    @classmethod
    def load(cls, path: str | Path) -> Key:
        p = Path(path)
        _bounded(p, "key")
        if p.stat().st_mode & 0o077:
            raise MalformedInput(
                f"key `{p}` is readable by others (mode {p.stat().st_mode & 0o777:o}): chmod 600 it"
            )
        doc = read_json(p, "key")
        if not isinstance(doc, dict) or doc.get("zeenot_key") != KEY_FORMAT:
            raise MalformedInput(f"`{p}` is not a zeenot key (`zeenot_key: {KEY_FORMAT}`)")
        name = check_name(doc.get("name"), f"key `{p}`: `name`")
        raw = doc.get("private_key")
        if not (isinstance(raw, str) and _HEX_KEY.fullmatch(raw)):
            raise MalformedInput(f"key `{p}`: `private_key` is 64 lowercase hex digits")
        key = cls(name, Ed25519PrivateKey.from_private_bytes(bytes.fromhex(raw)))
        if doc.get("public_key") not in (None, key.public_key):
            raise MalformedInput(f"key `{p}`: `public_key` is not the private key's")
        return key

    def sign_request(
        self,
        method: str,
        target: str | bytes,
        body: bytes,
        audience: str,
        *,
        timestamp: int | None = None,
        nonce: str | None = None,
    ) -> dict[str, str]:
        """The headers that sign one request for `audience` (the receiving server's name)."""
        fields = {
            "zeenot-signer": self.name,
            "zeenot-audience": check_name(audience, "the audience (the server's name)"),
            "zeenot-timestamp": str(int(time.time()) if timestamp is None else timestamp),
            "zeenot-nonce": nonce or secrets.token_urlsafe(18),
        }
        message = canonical(method, target, body, fields)
        return {**fields, SIGNATURE_HEADER: self.private.sign(message).hex()}


def _bounded(path: Path, what: str) -> None:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise MalformedInput(f"cannot read {what} `{path}`: {exc.strerror or exc}") from None
    if size > MAX_FILE:
        raise MalformedInput(f"{what} `{path}` is larger than {MAX_FILE} bytes")


def canonical(method: str, target: str | bytes, body: bytes, fields: Mapping[str, str]) -> bytes:
    """What a request's signature covers, one field a line (no field holds a newline: names,
    digits and the nonce are checked, the target is a request line's)."""
    if isinstance(target, str):
        target = target.encode()
    if b"\n" in target or b"\r" in target:
        raise AuthError(400, "a request target holds no line breaks")
    lines = [
        b"zeenot-request-v1",
        method.upper().encode(),
        target,
        hashlib.sha256(body).hexdigest().encode(),
        *(fields[h].encode() for h in ("zeenot-timestamp", "zeenot-nonce")),
        fields["zeenot-signer"].encode(),
        fields["zeenot-audience"].encode(),
    ]
    return b"\n".join(lines)


# ---- rosters --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roster:
    """The servers this one knows, by name: their public keys (and URLs, where given)."""

    servers: dict[str, Ed25519PublicKey]
    urls: dict[str, str]

    @classmethod
    def load(cls, path: str | Path) -> Roster:
        p = Path(path)
        _bounded(p, "roster")
        doc = read_json(p, "roster")
        if not isinstance(doc, dict) or doc.get("zeenot_roster") != ROSTER_FORMAT:
            raise MalformedInput(f"`{p}` is not a roster (`zeenot_roster: {ROSTER_FORMAT}`)")
        members = doc.get("servers")
        if not isinstance(members, dict) or not 1 <= len(members) <= MAX_ROSTER:
            raise MalformedInput(
                f"roster `{p}`: `servers` maps 1 to {MAX_ROSTER} names to their public keys"
            )
        servers, urls, seen = {}, {}, set()
        for name, entry in members.items():
            check_name(name, f"roster `{p}`: a server's name")
            if not isinstance(entry, dict) or set(entry) - {"public_key", "url"}:
                raise MalformedInput(f"roster `{p}`: `{name}` is {{public_key, url}}")
            key = entry.get("public_key")
            servers[name] = public_key(key, f"roster `{p}`: `{name}`'s public_key")
            if key in seen:
                raise MalformedInput(f"roster `{p}`: `{name}` shares its key with another server")
            seen.add(key)
            if "url" in entry:
                url = entry["url"]
                if not (isinstance(url, str) and url.startswith(("http://", "https://"))):
                    raise MalformedInput(f"roster `{p}`: `{name}`'s url is http(s)://…")
                urls[name] = url[:2048]
        return cls(servers, urls)

    def lookup(self, name: str) -> Ed25519PublicKey | None:
        return self.servers.get(name)


# ---- verifying a signed request -------------------------------------------------------------

Lookup = Callable[[str], Ed25519PublicKey | None]
UseNonce = Callable[[str, str, dt.datetime], bool]


def signed(headers: Mapping[str, str]) -> bool:
    """Whether a request carries a signature at all (then it must be a valid one)."""
    return SIGNATURE_HEADER in headers or "zeenot-signer" in headers


def verify_request(
    method: str,
    target: str | bytes,
    body: bytes,
    headers: Mapping[str, str],
    *,
    audience: str,
    lookup: Lookup,
    use_nonce: UseNonce,
    scope: str,
    max_skew: int = MAX_SKEW,
    now: float | None = None,
) -> str:
    """The name of the request's signer, or `AuthError(401)` naming what is wrong. `lookup`
    gives a signer's public key (None: unknown); `use_nonce(scope, nonce, expires)` records a
    nonce and says whether it is new. The nonce is recorded only after the signature checks,
    so that nobody but a known signer can fill the table."""
    fields = {h: headers.get(h) for h in (*HEADERS, SIGNATURE_HEADER)}
    missing = [h for h, v in fields.items() if v is None]
    if missing:
        raise AuthError(401, f"not a signed request: no `{missing[0]}` header")
    signer, stamp, nonce, sig = (
        fields["zeenot-signer"],
        fields["zeenot-timestamp"],
        fields["zeenot-nonce"],
        fields[SIGNATURE_HEADER],
    )
    assert signer is not None and stamp is not None and nonce is not None and sig is not None
    if not NAME.fullmatch(signer):
        raise AuthError(401, "`zeenot-signer` is 1 to 64 characters of A-Z a-z 0-9 . _ -")
    if fields["zeenot-audience"] != audience:
        raise AuthError(401, f"`{signer}` signed the request for another server, not `{audience}`")
    if not (stamp.isascii() and stamp.isdigit() and len(stamp) <= 12):
        raise AuthError(401, "`zeenot-timestamp` is whole seconds since 1970")
    if not _NONCE.fullmatch(nonce):
        raise AuthError(401, "`zeenot-nonce` is 16 to 64 characters of A-Z a-z 0-9 _ -")
    if not _SIGNATURE.fullmatch(sig):
        raise AuthError(401, "`zeenot-signature` is 128 lowercase hex digits")
    key = lookup(signer)
    if key is None:
        raise AuthError(401, f"unknown signer `{signer}`")
    message = canonical(method, target, body, fields)  # type: ignore[arg-type]
    try:
        key.verify(bytes.fromhex(sig), message)
    except InvalidSignature:
        raise AuthError(401, f"the signature of `{signer}` does not verify") from None
    clock = time.time() if now is None else now
    if abs(clock - int(stamp)) > max_skew:
        raise AuthError(
            401,
            f"`{signer}`'s request is dated {int(clock) - int(stamp)} s from this server's "
            f"clock (at most {max_skew} s either way)",
        )
    expires = dt.datetime.fromtimestamp(int(stamp) + max_skew + 1, dt.timezone.utc)
    if not use_nonce(scope, nonce, expires):
        raise AuthError(401, f"replayed request: `{signer}` used this nonce before")
    return signer


def request_target(scope: Mapping[str, Any]) -> bytes:
    """An ASGI request's target as the client sent it: the raw path and its query."""
    raw = scope.get("raw_path") or scope["path"].encode()
    query = scope.get("query_string") or b""
    return raw + (b"?" + query if query else b"")


class SignedAuth(httpx.Auth):
    """Sign every request of an `httpx.Client` with `key`, for the server named `audience`.
    A request sent again (a retry) is signed again: a new nonce, so it is not a replay."""

    requires_request_body = True

    def __init__(self, key: Key, audience: str):
        self.key, self.audience = key, audience

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers.update(
            self.key.sign_request(
                request.method, request.url.raw_path, request.content, self.audience
            )
        )
        yield request


# ---- operators ------------------------------------------------------------------------------


class OperatorTokens:
    """The operators' bearer tokens, kept as SHA-256 digests and compared in constant time."""

    def __init__(self, tokens: list[str]):
        if not tokens:
            raise MalformedInput("an operator token file holds at least one token")
        for token in tokens:
            if len(token) < MIN_TOKEN or not token.isascii() or not token.isprintable():
                raise MalformedInput(
                    f"an operator token is at least {MIN_TOKEN} printable ASCII characters "
                    "(`zeenot keys token --out F` makes one)"
                )
        self._digests = [hashlib.sha256(t.encode()).digest() for t in tokens]

    @classmethod
    def load(cls, path: str | Path) -> OperatorTokens:
        p = Path(path)
        _bounded(p, "operator token file")
        if p.stat().st_mode & 0o077:
            raise MalformedInput(f"operator token file `{p}` is readable by others: chmod 600 it")
        from zeenot.files import read_text

        lines = [line.strip() for line in read_text(p, "operator token file").splitlines()]
        return cls([line for line in lines if line and not line.startswith("#")])

    def check(self, authorization: str | None) -> bool:
        if not authorization or not authorization.startswith("Bearer "):
            return False
        given = hashlib.sha256(authorization[len("Bearer ") :].strip().encode()).digest()
        found = False
        for digest in self._digests:  # every one compared: no early exit
            found |= hmac.compare_digest(given, digest)
        return found


def new_token() -> str:
    return secrets.token_urlsafe(32)


def write_secret(path: str | Path, text: str) -> None:
    """A file only its owner may read, written atomically (`write_atomic`'s temporary file is
    created with mode 0600 and renamed over `path`)."""
    check_output_file(path)
    write_atomic(path, text, secret=True)


# ---- a server's gate: who may do what -------------------------------------------------------


@dataclass
class Gate:
    """What one server knows of who is asking: its own name (the audience requests must be
    signed for) and key, its roster, its operators' tokens, and the database of registered
    clients and used nonces. Methods take a request's parts (not Starlette's object), so that
    they run in a worker thread: the lookups and the nonce are database writes."""

    name: str
    store: Any  # zeenot.runtime.store.Store
    key: Key | None = None
    roster: Roster | None = None
    operators: OperatorTokens | None = None
    public_reads: bool = False
    max_skew: int = MAX_SKEW

    def describe(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"name": self.name}
        if self.key is not None:
            doc["public_key"] = self.key.public_key
        return doc

    def operator(self, headers: Mapping[str, str]) -> bool:
        return self.operators is not None and self.operators.check(headers.get("authorization"))

    def require_operator(self, headers: Mapping[str, str], what: str) -> None:
        if self.operator(headers):
            return
        if self.operators is None:
            raise AuthError(
                401,
                f"{what} needs an operator's token and this server has none configured "
                "(`zeenot serve --operator-token-file F`)",
            )
        raise AuthError(401, f"{what} needs an operator's token (`Authorization: Bearer …`)")

    def client(
        self, app: str, method: str, target: bytes, body: bytes, headers: Mapping[str, str]
    ) -> str | None:
        """The registered client of `app` that signed the request; None if it is not signed
        at all (a signed request that does not verify is refused)."""
        if not signed(headers):
            return None

        def lookup(name: str) -> Ed25519PublicKey | None:
            known = self.store.client_key(app, name)
            return None if known is None else public_key(known)

        try:
            return verify_request(
                method,
                target,
                body,
                headers,
                audience=self.name,
                lookup=lookup,
                use_nonce=self.store.use_nonce,
                scope=f"client:{app}",
                max_skew=self.max_skew,
            )
        except AuthError as exc:
            if exc.reason.startswith("unknown signer"):
                raise AuthError(401, f"{exc.reason}: not a registered client of `{app}`") from None
            raise

    def server(self, method: str, target: bytes, body: bytes, headers: Mapping[str, str]) -> str:
        """The roster's server that signed the request, or `AuthError`."""
        if self.roster is None:
            raise AuthError(401, "this server has no roster (`zeenot serve --roster R.json`)")
        roster = self.roster
        try:
            return verify_request(
                method,
                target,
                body,
                headers,
                audience=self.name,
                lookup=roster.lookup,
                use_nonce=self.store.use_nonce,
                scope="server",
                max_skew=self.max_skew,
            )
        except AuthError as exc:
            if exc.reason.startswith("unknown signer"):
                raise AuthError(403, f"{exc.reason}: not in this server's roster") from None
            raise

    def reader(
        self, app: str | None, method: str, target: bytes, headers: Mapping[str, str], what: str
    ) -> str | None:
        """Who may read: None for an operator (or anyone, with `--public-reads`: everything),
        else the signing client of `app` (its own runs only); `AuthError` otherwise."""
        if self.public_reads or self.operator(headers):
            return None
        if app is not None and signed(headers):
            client = self.client(app, method, target, b"", headers)
            if client is not None:
                return client
        self.require_operator(headers, what)
        return None  # unreachable: require_operator raised
