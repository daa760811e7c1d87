"""What the aggregators need of DAP-09's messages and of HPKE, in the aggregators' own terms.

Every encoding and decoding here is `zeenot.prio.messages` (janus_messages 0.7.145 through the
native module: a message as a dict, byte strings as bytes) and every seal and open is its
HPKE (DAP-09's application info strings, as janus_core builds them); this module only maps the
few shapes the leader, the helper, the client and the collector use to those objects, so that
they read as DAP's prose does. Nothing here writes a DAP encoding by hand. Ciphertexts travel
between the functions below as encoded `HpkeCiphertext` bytes.

On the per-report paths (an upload, a batch of them, an aggregation job's input shares) the JSON
round trip cost more than the cryptography; `split_uploads`, `open_input_shares` and the
aggregation job's request (`encode_init_req`, `decode_init_req`) call `zeenot_prio::shares`
instead (the same janus_messages decoding and HPKE, many reports per
native call, without the GIL).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zeenot import _native
from zeenot.errors import ZeenotError
from zeenot.prio import messages
from zeenot.prio.vdaf import _call

LEADER, HELPER, COLLECTOR, CLIENT = "leader", "helper", "collector", "client"


@dataclass(frozen=True)
class Report:
    report_id: bytes
    time: int
    public_share: bytes
    leader_share: bytes  # the encoded HpkeCiphertext
    helper_share: bytes


@dataclass(frozen=True)
class PrepareInit:
    report_id: bytes
    time: int
    public_share: bytes
    encrypted_share: bytes  # the helper's encoded HpkeCiphertext
    message: bytes  # the leader's ping-pong message


@dataclass(frozen=True)
class PrepareResp:
    report_id: bytes
    kind: str  # continue, finished, reject
    message: bytes = b""  # for continue: the helper's ping-pong message
    error: str | None = None  # for reject: DAP's PrepareError name (vdaf_prep_error, …)


@dataclass(frozen=True)
class ShareRequest:
    start: int
    duration: int
    agg_param: bytes
    report_count: int
    checksum: bytes


class CodecError(ValueError):
    """Bytes that are not the DAP message they should be, or a ciphertext that does not open."""


def _wrap(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except (ZeenotError, ValueError, TypeError, KeyError) as exc:
        raise CodecError(str(exc)) from None


def _dec(kind: str, data: bytes) -> dict[str, Any]:
    value = _wrap(messages.decode, kind, data, "time_interval")
    if not isinstance(value, dict):
        raise CodecError(f"{kind} did not decode to an object")
    return value


def _enc(kind: str, value: dict[str, Any]) -> bytes:
    return bytes(_wrap(messages.encode, kind, value, "time_interval"))


def _hex(value: Any) -> bytes:
    if not isinstance(value, bytes):
        raise CodecError("a byte string field is not bytes")
    return value


def _metadata(report_id: bytes, time: int) -> dict[str, Any]:
    return {"report_id": report_id, "time": time}


def checksum(report_ids: list[bytes]) -> bytes:
    """DAP's batch checksum: the XOR of the SHA-256 of each report id (janus_messages')."""
    return bytes(_wrap(messages.report_id_checksum, report_ids))


# reports and input shares ---------------------------------------------------------------------


def decode_report(data: bytes) -> Report:
    return decode_upload(data)[0]


def decode_upload(data: bytes) -> tuple[Report, int]:
    """A Report and the HPKE config id its leader share is sealed under (one decoding)."""
    (got,) = split_uploads([data])
    if isinstance(got, str):
        raise CodecError(got)
    return got


def split_uploads(data: list[bytes]) -> list[tuple[Report, int] | str]:
    """For each encoded Report, in one native call: the Report and the HPKE config id of its
    leader share, or why it does not decode."""
    out: list[tuple[Report, int] | str] = []
    for item in _wrap(_call, _native.prio_dap_split_reports, data):
        if isinstance(item, str):
            out.append(item)
        else:
            rid, at, public, leader, helper, config_id = item
            out.append((Report(rid, at, public, leader, helper), config_id))
    return out


def open_input_shares(
    keys: list[tuple[bytes, bytes]],
    recipient: str,
    task_id: bytes,
    shares: list[tuple[bytes, int, bytes, bytes]],
) -> list[bytes | str]:
    """Open input shares sealed to `recipient` with whichever of `keys` (encoded HpkeConfig,
    private key) each names; `shares` holds (report id, time, public share, HpkeCiphertext).
    Each result is the VDAF input share or DAP's PrepareError name (`invalid_message` for a
    ciphertext or plaintext that does not decode or an extension, `hpke_unknown_config_id`,
    `hpke_decrypt_error`)."""
    return list(_wrap(_call, _native.prio_dap_open_input_shares, keys, recipient, task_id, shares))


def ciphertext_config_id(ciphertext: bytes) -> int:
    return int(_dec("HpkeCiphertext", ciphertext)["config_id"])


def hpke_config(id: int, kem_id: int, kdf_id: int, aead_id: int, public_key: bytes) -> bytes:
    return _enc(
        "HpkeConfig",
        {
            "id": id,
            "kem_id": kem_id,
            "kdf_id": kdf_id,
            "aead_id": aead_id,
            "public_key": public_key,
        },
    )


def hpke_config_list(configs: list[bytes]) -> bytes:
    return _enc("HpkeConfigList", {"configs": [_dec("HpkeConfig", c) for c in configs]})


def decode_hpke_config_list(data: bytes) -> list[bytes]:
    return [_enc("HpkeConfig", c) for c in _dec("HpkeConfigList", data)["configs"]]


def generate_hpke(config_id: int) -> tuple[bytes, bytes]:
    """A fresh X25519/HKDF-SHA256/AES-128-GCM key pair: (encoded HpkeConfig, private key)."""
    pair = _wrap(messages.HpkeKeypair.generate, config_id)
    return bytes(pair.config), bytes(pair.private_key)


def _input_share_aad(task_id: bytes, report_id: bytes, time: int, public_share: bytes) -> bytes:
    return _enc(
        "InputShareAad",
        {
            "task_id": task_id,
            "metadata": _metadata(report_id, time),
            "public_share": public_share,
        },
    )


def open_input_share(
    config: bytes, private_key: bytes, recipient: str, ciphertext: bytes, task_id: bytes, r: Report
) -> bytes:
    """Open an input share sealed to `recipient` for report `r` and return the VDAF input share
    (the `PlaintextInputShare`'s payload). An extension is refused: DAP-09 defines none, and an
    aggregator must reject what it does not recognise."""
    aad = _input_share_aad(task_id, r.report_id, r.time, r.public_share)
    pair = messages.HpkeKeypair(config, private_key)
    plain = bytes(_wrap(messages.open_, pair, "input_share", CLIENT, recipient, ciphertext, aad))
    share = _dec("PlaintextInputShare", plain)
    if share["extensions"]:
        raise CodecError("the input share carries an extension this aggregator does not know")
    return _hex(share["payload"])


def encode_report(
    task_id: bytes,
    report_id: bytes,
    time: int,
    public_share: bytes,
    input_shares: tuple[bytes, bytes],
    configs: tuple[bytes, bytes],
) -> bytes:
    """Seal each input share (in a `PlaintextInputShare` without extensions) to its aggregator
    and encode the `Report`, as janus_client does."""
    aad = _input_share_aad(task_id, report_id, time, public_share)
    sealed = [
        _dec(
            "HpkeCiphertext",
            bytes(
                _wrap(
                    messages.seal,
                    config,
                    "input_share",
                    CLIENT,
                    role,
                    _enc("PlaintextInputShare", {"extensions": [], "payload": share}),
                    aad,
                )
            ),
        )
        for config, role, share in zip(configs, (LEADER, HELPER), input_shares, strict=True)
    ]
    return _enc(
        "Report",
        {
            "metadata": _metadata(report_id, time),
            "public_share": public_share,
            "leader_encrypted_input_share": sealed[0],
            "helper_encrypted_input_share": sealed[1],
        },
    )


# aggregation jobs -----------------------------------------------------------------------------


def encode_init_req(inits: list[PrepareInit]) -> bytes:
    """The leader's AggregationJobInitializeReq (one native call, no JSON)."""
    items = [(p.report_id, p.time, p.public_share, p.encrypted_share, p.message) for p in inits]
    return bytes(_wrap(_call, _native.prio_dap_encode_init_req, items))


def decode_init_req(data: bytes) -> tuple[bytes, list[PrepareInit]]:
    """The aggregation parameter and the reports of an AggregationJobInitializeReq."""
    param, items = _wrap(_call, _native.prio_dap_decode_init_req, data)
    return bytes(param), [PrepareInit(*item) for item in items]


def encode_job_resp(resps: list[PrepareResp]) -> bytes:
    def result(p: PrepareResp) -> dict[str, Any]:
        if p.kind == "continue":
            return {"type": "continue", "message": p.message}
        if p.kind == "reject":
            return {"type": "reject", "error": p.error}
        return {"type": "finished"}

    return _enc(
        "AggregationJobResp",
        {"prepare_resps": [{"report_id": p.report_id, "result": result(p)} for p in resps]},
    )


def decode_job_resp(data: bytes) -> list[PrepareResp]:
    out = []
    for p in _dec("AggregationJobResp", data)["prepare_resps"]:
        r = p["result"]
        out.append(
            PrepareResp(
                _hex(p["report_id"]),
                str(r["type"]),
                _hex(r.get("message", b"")),
                r.get("error"),
            )
        )
    return out


# aggregate shares and collections -------------------------------------------------------------


def _interval(start: int, duration: int) -> dict[str, Any]:
    return {"batch_interval": {"start": start, "duration": duration}}


def encode_share_req(req: ShareRequest) -> bytes:
    return _enc(
        "AggregateShareReq",
        {
            "batch_selector": _interval(req.start, req.duration),
            "aggregation_parameter": req.agg_param,
            "report_count": req.report_count,
            "checksum": req.checksum,
        },
    )


def decode_share_req(data: bytes) -> ShareRequest:
    v = _dec("AggregateShareReq", data)
    interval = v["batch_selector"]["batch_interval"]
    return ShareRequest(
        int(interval["start"]),
        int(interval["duration"]),
        _hex(v["aggregation_parameter"]),
        int(v["report_count"]),
        _hex(v["checksum"]),
    )


def encode_share(ciphertext: bytes) -> bytes:
    return _enc("AggregateShare", {"encrypted_aggregate_share": _dec("HpkeCiphertext", ciphertext)})


def decode_share(data: bytes) -> bytes:
    return _enc("HpkeCiphertext", _dec("AggregateShare", data)["encrypted_aggregate_share"])


def _share_aad(task_id: bytes, start: int, duration: int) -> bytes:
    return _enc(
        "AggregateShareAad",
        {
            "task_id": task_id,
            "aggregation_parameter": b"",
            "batch_selector": _interval(start, duration),
        },
    )


def seal_aggregate_share(
    collector_config: bytes, sender: str, share: bytes, task_id: bytes, start: int, duration: int
) -> bytes:
    """Seal an aggregate share to the collector, bound to the task and the batch interval."""
    aad = _share_aad(task_id, start, duration)
    return bytes(
        _wrap(messages.seal, collector_config, "aggregate_share", sender, COLLECTOR, share, aad)
    )


def open_aggregate_share(
    config: bytes,
    private_key: bytes,
    sender: str,
    ciphertext: bytes,
    task_id: bytes,
    start: int,
    duration: int,
) -> bytes:
    pair = messages.HpkeKeypair(config, private_key)
    aad = _share_aad(task_id, start, duration)
    return bytes(_wrap(messages.open_, pair, "aggregate_share", sender, COLLECTOR, ciphertext, aad))


def decode_collection_req(data: bytes) -> tuple[int, int, bytes]:
    """(batch start, batch duration, aggregation parameter) of a time-interval CollectionReq."""
    v = _dec("CollectionReq", data)
    interval = v["query"].get("batch_interval")
    if not isinstance(interval, dict):
        raise CodecError("this task's queries are time intervals")
    return int(interval["start"]), int(interval["duration"]), _hex(v["aggregation_parameter"])


def encode_collection_req(start: int, duration: int) -> bytes:
    query = {"query": _interval(start, duration), "aggregation_parameter": b""}
    return _enc("CollectionReq", query)


def encode_collection(
    report_count: int, start: int, duration: int, leader_share: bytes, helper_share: bytes
) -> bytes:
    return _enc(
        "Collection",
        {
            "partial_batch_selector": {},
            "report_count": report_count,
            "interval": {"start": start, "duration": duration},
            "leader_encrypted_agg_share": _dec("HpkeCiphertext", leader_share),
            "helper_encrypted_agg_share": _dec("HpkeCiphertext", helper_share),
        },
    )


def decode_collection(data: bytes) -> tuple[int, int, int, bytes, bytes]:
    """(report count, interval start, interval duration, leader's and helper's sealed shares)."""
    v = _dec("Collection", data)
    return (
        int(v["report_count"]),
        int(v["interval"]["start"]),
        int(v["interval"]["duration"]),
        _enc("HpkeCiphertext", v["leader_encrypted_agg_share"]),
        _enc("HpkeCiphertext", v["helper_encrypted_agg_share"]),
    )
