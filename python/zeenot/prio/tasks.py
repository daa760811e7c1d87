"""A DAP task as zeenot's aggregators read it: one JSON file, identical on the leader and the
helper (`zeenot prio task new` writes it).

    {
      "zeenot_prio_task": 1,
      "task_id": "<32 bytes, base64url without padding>",
      "leader": "http://127.0.0.1:9001/",
      "helper": "http://127.0.0.1:9002/",
      "vdaf": {"type": "Prio3Sum", "bits": 32},
      "vdaf_verify_key": "<16 bytes, base64url>",
      "time_precision": 3600,
      "min_batch_size": 10,
      "collector_hpke_config": {"id": 1, "kem_id": 32, "kdf_id": 1, "aead_id": 1,
                                "public_key": "<base64url>"},
      "aggregator_auth_token": "<the leader's bearer token at the helper>",
      "collector_auth_token_sha256": "<hex SHA-256 of the collector's bearer token>"
    }

The file is a secret of the two aggregators (the verify key keeps clients from choosing shares
that pass verification; the aggregator token lets the leader drive the helper). It holds no
aggregator's HPKE private key (each aggregator draws its own into its own database) and only
the digest of the collector's token, so the file alone cannot collect. The collector keeps its
HPKE private key and its token in a janus `PrivateCollectorCredential` file.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from zeenot.errors import MalformedInput
from zeenot.files import read_json
from zeenot.prio.afe import AFE_PARAMS

FORMAT = 1
TASK_ID_BYTES = 32
VERIFY_KEY_BYTES = 16  # Prio3 with TurboSHAKE128 (prio 0.16.8: VERIFY_KEY_SIZE)
MAX_TIME_PRECISION = 366 * 86400
MIN_TOKEN = 16
# janus_core's BearerToken: what an `Authorization: Bearer` value may be.
_TOKEN = re.compile(r"[-A-Za-z0-9._~+/]+=*", re.ASCII)
_HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)
FIELDS = (
    "zeenot_prio_task",
    "task_id",
    "leader",
    "helper",
    "vdaf",
    "vdaf_verify_key",
    "time_precision",
    "min_batch_size",
    "collector_hpke_config",
    "aggregator_auth_token",
    "collector_auth_token_sha256",
)
# janus_core's VdafInstance names and their parameters, then zeenot's AFEs (private algorithm
# ids: a task with one runs between zeenot's aggregators only, never with Janus)
VDAF_PARAMS: dict[str, tuple[str, ...]] = {
    "Prio3Count": (),
    "Prio3Sum": ("bits",),
    "Prio3SumVec": ("bits", "length", "chunk_length"),
    "Prio3Histogram": ("length", "chunk_length"),
    **AFE_PARAMS,
}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: Any, what: str, size: int | None = None) -> bytes:
    """Decode unpadded base64url; `MalformedInput` naming `what` otherwise (or if not `size`)."""
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]*", text, re.ASCII):
        raise MalformedInput(f"{what} is unpadded base64url")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise MalformedInput(f"{what} is not valid base64url") from None
    if b64url(data) != text:  # one spelling per value: no trailing bits set
        raise MalformedInput(f"{what} is not canonical base64url")
    if size is not None and len(data) != size:
        raise MalformedInput(f"{what} is {size} bytes, not {len(data)}")
    return data


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_token(given: str | None, digest_hex: str) -> bool:
    """Whether `given` hashes to `digest_hex`, compared in constant time."""
    if given is None:
        return False
    return hmac.compare_digest(hashlib.sha256(given.encode()).hexdigest(), digest_hex)


def request_token(headers: Any) -> str | None:
    """The bearer token of a request: `Authorization: Bearer T` or janus's `DAP-Auth-Token: T`."""
    auth = headers.get("authorization")
    if auth is not None:
        scheme, _, value = auth.partition(" ")
        return value.strip() if scheme.lower() == "bearer" and value.strip() else None
    return headers.get("dap-auth-token")


@dataclass(frozen=True)
class CollectorConfig:
    """The collector's public HPKE configuration (DAP's `HpkeConfig`)."""

    id: int
    kem_id: int
    kdf_id: int
    aead_id: int
    public_key: bytes

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kem_id": self.kem_id,
            "kdf_id": self.kdf_id,
            "aead_id": self.aead_id,
            "public_key": b64url(self.public_key),
        }


@dataclass(frozen=True)
class Task:
    task_id: str  # base64url, as DAP's URLs spell it
    leader: str
    helper: str
    vdaf: dict[str, Any]
    verify_key: bytes
    time_precision: int
    min_batch_size: int
    collector_config: CollectorConfig
    aggregator_token: str
    collector_token_sha256: str

    @property
    def task_id_bytes(self) -> bytes:
        return unb64url(self.task_id, "task_id", TASK_ID_BYTES)

    def helper_url(self, path: str) -> str:
        return self.helper.rstrip("/") + "/" + path.lstrip("/")

    def to_json(self) -> dict[str, Any]:
        return {
            "zeenot_prio_task": FORMAT,
            "task_id": self.task_id,
            "leader": self.leader,
            "helper": self.helper,
            "vdaf": self.vdaf,
            "vdaf_verify_key": b64url(self.verify_key),
            "time_precision": self.time_precision,
            "min_batch_size": self.min_batch_size,
            "collector_hpke_config": self.collector_config.to_json(),
            "aggregator_auth_token": self.aggregator_token,
            "collector_auth_token_sha256": self.collector_token_sha256,
        }

    @classmethod
    def from_json(cls, data: Any) -> Task:
        if not isinstance(data, dict) or data.get("zeenot_prio_task") != FORMAT:
            raise MalformedInput(f'a task file is an object with "zeenot_prio_task": {FORMAT}')
        extra = sorted(set(data) - set(FIELDS))
        if extra:
            raise MalformedInput(f"a task file has no field {extra[0]!r}")
        get = _getter(data)
        task_id = get("task_id", str)
        unb64url(task_id, "task_id", TASK_ID_BYTES)
        token = get("aggregator_auth_token", str)
        if len(token) < MIN_TOKEN or not _TOKEN.fullmatch(token):
            raise MalformedInput(
                f"aggregator_auth_token is a bearer token of at least {MIN_TOKEN} characters "
                "(letters, digits, -._~+/)"
            )
        digest = get("collector_auth_token_sha256", str)
        if not _HEX64.fullmatch(digest):
            raise MalformedInput("collector_auth_token_sha256 is 64 lowercase hex digits")
        return cls(
            task_id=task_id,
            leader=_url(get("leader", str), "leader"),
            helper=_url(get("helper", str), "helper"),
            vdaf=_vdaf(get("vdaf", dict)),
            verify_key=unb64url(get("vdaf_verify_key", str), "vdaf_verify_key", VERIFY_KEY_BYTES),
            time_precision=_int(
                get("time_precision", int), "time_precision", 1, MAX_TIME_PRECISION
            ),
            min_batch_size=_int(get("min_batch_size", int), "min_batch_size", 1, 2**32),
            collector_config=_collector(get("collector_hpke_config", dict)),
            aggregator_token=token,
            collector_token_sha256=digest,
        )

    @classmethod
    def load(cls, path: str | Path) -> Task:
        return cls.from_json(read_json(Path(path), "task file"))


def _getter(data: dict[str, Any]) -> Any:
    def get(name: str, kind: type) -> Any:
        if name not in data:
            raise MalformedInput(f"a task file needs {name!r}")
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, kind):
            raise MalformedInput(f"{name!r} in a task file is a {kind.__name__}")
        return value

    return get


def _int(value: int, what: str, lo: int, hi: int) -> int:
    if not lo <= value <= hi:
        raise MalformedInput(f"{what} is from {lo} to {hi}, not {value}")
    return value


def _url(text: str, what: str) -> str:
    parsed = urlparse(text)
    if parsed.scheme not in ("http", "https") or not parsed.netloc or parsed.query:
        raise MalformedInput(f"{what} is an http(s) URL without a query, not {text!r}")
    return text if text.endswith("/") else text + "/"


def _vdaf(desc: dict[str, Any]) -> dict[str, Any]:
    kind = desc.get("type")
    params = VDAF_PARAMS.get(kind) if isinstance(kind, str) else None
    if params is None:
        raise MalformedInput(f"vdaf.type is one of {', '.join(VDAF_PARAMS)}, not {kind!r}")
    if set(desc) != {"type", *params}:
        raise MalformedInput(f"{kind} takes exactly {', '.join(params) or 'no parameters'}")
    for p in params:
        if isinstance(desc[p], bool) or not isinstance(desc[p], int) or not 1 <= desc[p] < 2**20:
            raise MalformedInput(f"vdaf.{p} is an integer from 1 to 2^20 - 1")
    return dict(desc)


def _collector(desc: dict[str, Any]) -> CollectorConfig:
    if set(desc) != {"id", "kem_id", "kdf_id", "aead_id", "public_key"}:
        raise MalformedInput("collector_hpke_config has id, kem_id, kdf_id, aead_id, public_key")
    ints = [desc[k] for k in ("id", "kem_id", "kdf_id", "aead_id")]
    if any(isinstance(v, bool) or not isinstance(v, int) for v in ints):
        raise MalformedInput("collector_hpke_config's ids are integers")
    if not 0 <= ints[0] < 256 or not all(0 <= v < 65536 for v in ints[1:]):
        raise MalformedInput("collector_hpke_config: id is a byte, kem/kdf/aead ids 16-bit")
    key = unb64url(desc["public_key"], "collector_hpke_config.public_key")
    if not 1 <= len(key) < 65536:
        raise MalformedInput("collector_hpke_config.public_key is 1 to 65535 bytes")
    return CollectorConfig(ints[0], ints[1], ints[2], ints[3], key)


# X25519-HKDF-SHA256, HKDF-SHA256, AES-128-GCM: RFC 9180's ids, and janus's names for them
KEM_X25519, KDF_SHA256, AEAD_AES128GCM = 0x0020, 0x0001, 0x0001


def new_task(
    leader: str,
    helper: str,
    vdaf: dict[str, Any],
    time_precision: int,
    min_batch_size: int,
) -> tuple[Task, dict[str, Any]]:
    """A fresh task and the collector's credential (a janus `PrivateCollectorCredential`:
    its HPKE key pair and its bearer token; the task keeps the token's digest only)."""
    import secrets

    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    key = X25519PrivateKey.generate()
    public_key = key.public_key().public_bytes_raw()
    collector_token = secrets.token_urlsafe(32)
    task = Task.from_json(
        {
            "zeenot_prio_task": FORMAT,
            "task_id": b64url(secrets.token_bytes(TASK_ID_BYTES)),
            "leader": leader,
            "helper": helper,
            "vdaf": vdaf,
            "vdaf_verify_key": b64url(secrets.token_bytes(VERIFY_KEY_BYTES)),
            "time_precision": time_precision,
            "min_batch_size": min_batch_size,
            "collector_hpke_config": CollectorConfig(
                1, KEM_X25519, KDF_SHA256, AEAD_AES128GCM, public_key
            ).to_json(),
            "aggregator_auth_token": secrets.token_urlsafe(32),
            "collector_auth_token_sha256": token_digest(collector_token),
        }
    )
    credential = {
        "id": 1,
        "kem": "X25519HkdfSha256",
        "kdf": "Sha256",
        "aead": "AesGcm128",
        "public_key": b64url(public_key),
        "private_key": b64url(key.private_bytes_raw()),
        "token": collector_token,
    }
    return task, credential
