"""DAP-09 messages as `janus_messages` 0.7.145 encodes them, and DAP's HPKE.

```python
from zeenot.prio import messages as dap

report = dap.decode("Report", body)                  # a dict; byte fields are bytes
report["metadata"]["report_id"], report["public_share"], report["leader_encrypted_input_share"]
body = dap.encode("AggregationJobResp", {"prepare_resps": [...]})
dap.MEDIA_TYPES["Report"]                            # "application/dap-report"
```

The encodings are the crate's own (`Encode`/`Decode`); this module only turns a message into a
dict and back. Field names are the crate's (see `zeenot_prio::dap` for every shape); byte
strings (IDs, keys, shares, ciphertexts, encoded ping-pong `message`s) are `bytes`, integers
`int`, variants a `"type"` name. Dicts are strict: a missing or unknown key is a `UsageError`.
Messages whose encoding depends on the task's query type (`Query`, `BatchSelector`,
`PartialBatchSelector`, `CollectionReq`, `Collection`, `AggregationJobInitializeReq`,
`AggregateShareReq`, `AggregateShareAad`) take `query_type="time_interval"` or `"fixed_size"`.

HPKE (`seal`, `open_`, `HpkeKeypair.generate`) is `hpke-dispatch`'s, the crate janus_core uses,
with DAP-09's application info (`"dap-09 input share"` / `"dap-09 aggregate share"`, then the
sender's and the recipient's role byte).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from zeenot import _native
from zeenot.prio.vdaf import _call

QueryType = Literal["time_interval", "fixed_size"]
Role = Literal["collector", "client", "leader", "helper"]
Label = Literal["input_share", "aggregate_share"]

BYTES_FIELDS = frozenset(
    {
        "public_key",
        "encapsulated_key",
        "payload",
        "report_id",
        "public_share",
        "data",
        "task_id",
        "batch_id",
        "aggregation_parameter",
        "checksum",
        "message",
        "prep_share",
        "prep_msg",
    }
)
"""The fields that hold byte strings (hex in the native JSON, `bytes` here)."""

KINDS: tuple[str, ...] = tuple(_native.prio_dap_kinds())
"""The message kinds `decode` and `encode` take (`zeenot_prio::dap::KINDS`, read from the native
module so that the list is kept in one place)."""

MEDIA_TYPES: dict[str, str] = dict(_native.prio_dap_media_types())
"""The HTTP media type of each message that is a request or response body (janus_messages'
`MEDIA_TYPE`s): exact strings, without parameters, as Janus requires."""

PREPARE_ERRORS = (
    "batch_collected",
    "report_replayed",
    "report_dropped",
    "hpke_unknown_config_id",
    "hpke_decrypt_error",
    "vdaf_prep_error",
    "batch_saturated",
    "task_expired",
    "invalid_message",
    "report_too_early",
)
"""DAP-09's `PrepareError` names for a `PrepareResp` of type reject."""


def _from_native(v: Any, key: str | None = None) -> Any:
    if isinstance(v, dict):
        return {k: _from_native(x, k) for k, x in v.items()}
    if isinstance(v, list):
        return [_from_native(x) for x in v]
    if key in BYTES_FIELDS and isinstance(v, str):
        return bytes.fromhex(v)
    return v


def _to_native(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _to_native(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_to_native(x) for x in v]
    if isinstance(v, bytes | bytearray | memoryview):
        return bytes(v).hex()
    return v


def decode(kind: str, data: bytes, query_type: QueryType = "time_interval") -> dict[str, Any]:
    """The message `kind` decoded from all of `data` (`PrioDecodeError` if it does not)."""
    text = _call(_native.prio_dap_decode, kind, bytes(data), query_type)
    return dict(_from_native(json.loads(text)))


def encode(kind: str, message: dict[str, Any], query_type: QueryType = "time_interval") -> bytes:
    """The encoding of `message` as `kind` (`UsageError` for a wrong shape)."""
    return _call(_native.prio_dap_encode, kind, json.dumps(_to_native(message)), query_type)


def report_id_checksum(report_ids: Iterable[bytes]) -> bytes:
    """DAP-09's checksum of a batch's report IDs: the XOR of SHA-256 of each 16-byte ID."""
    return _call(_native.prio_report_id_checksum, [bytes(r) for r in report_ids])


def input_share_aad(task_id: bytes, metadata: dict[str, Any], public_share: bytes) -> bytes:
    """The encoded `InputShareAad` a report's input shares are sealed under."""
    aad = {"task_id": task_id, "metadata": metadata, "public_share": public_share}
    return encode("InputShareAad", aad)


def aggregate_share_aad(
    task_id: bytes,
    aggregation_parameter: bytes,
    batch_selector: dict[str, Any],
    query_type: QueryType = "time_interval",
) -> bytes:
    """The encoded `AggregateShareAad` an aggregate share is sealed under."""
    aad = {
        "task_id": task_id,
        "aggregation_parameter": aggregation_parameter,
        "batch_selector": batch_selector,
    }
    return encode("AggregateShareAad", aad, query_type)


# ---- HPKE --------------------------------------------------------------------------------------

KEM_X25519_HKDF_SHA256 = 0x0020
KEM_P256_HKDF_SHA256 = 0x0010
KDF_HKDF_SHA256 = 0x0001
AEAD_AES_128_GCM = 0x0001
AEAD_CHACHA20_POLY1305 = 0x0003


def application_info(label: Label, sender: Role, recipient: Role) -> bytes:
    """DAP-09's HPKE application info: `"dap-09 " + label` then the two role bytes."""
    return _call(_native.prio_hpke_info, label, sender, recipient)


@dataclass(frozen=True)
class HpkeKeypair:
    """An HPKE config (encoded `HpkeConfig`, public) and its private key (secret)."""

    config: bytes
    private_key: bytes = field(repr=False)

    @classmethod
    def generate(
        cls,
        config_id: int,
        kem_id: int = KEM_X25519_HKDF_SHA256,
        kdf_id: int = KDF_HKDF_SHA256,
        aead_id: int = AEAD_AES_128_GCM,
    ) -> HpkeKeypair:
        config, private_key = _call(_native.prio_hpke_generate, config_id, kem_id, kdf_id, aead_id)
        return cls(config, private_key)

    @property
    def config_id(self) -> int:
        return int(decode("HpkeConfig", self.config)["id"])


def seal(
    config: bytes, label: Label, sender: Role, recipient: Role, plaintext: bytes, aad: bytes
) -> bytes:
    """Seal to the encoded `HpkeConfig`; returns an encoded `HpkeCiphertext`."""
    info = application_info(label, sender, recipient)
    return _call(_native.prio_hpke_seal, config, info, plaintext, aad)


def open_(
    keypair: HpkeKeypair,
    label: Label,
    sender: Role,
    recipient: Role,
    ciphertext: bytes,
    aad: bytes,
) -> bytes:
    """Open an encoded `HpkeCiphertext` (`HpkeError` if its config id is not the keypair's or it
    does not open with this info and AAD)."""
    info = application_info(label, sender, recipient)
    return _call(_native.prio_hpke_open, keypair.config, keypair.private_key, info, ciphertext, aad)
