"""What the aggregators need of DAP-09's messages and of HPKE, in the aggregators' own terms.

Every encoding and decoding here is `zeenot.prio.messages` (janus_messages 0.7.145 through the
native module) and every seal and open is its HPKE (DAP-09's application info strings, as
janus_core builds them); this module only names the few shapes the leader and the helper use,
so that they read as DAP's prose does. Nothing here writes a DAP encoding by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from zeenot.prio import messages

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


def _wrap(fn, *args):  # type: ignore[no-untyped-def]
    try:
        return fn(*args)
    except (ValueError, TypeError) as exc:
        raise CodecError(str(exc)) from None


def decode_report(data: bytes) -> Report:
    m = _wrap(messages.decode_report, data)
    return Report(m.report_id, m.time, m.public_share, m.leader_share, m.helper_share)


def hpke_config_list(configs: list[bytes]) -> bytes:
    return bytes(_wrap(messages.encode_hpke_config_list, configs))


def hpke_config(id: int, kem_id: int, kdf_id: int, aead_id: int, public_key: bytes) -> bytes:
    return bytes(_wrap(messages.encode_hpke_config, id, kem_id, kdf_id, aead_id, public_key))


def generate_hpke(config_id: int) -> tuple[bytes, bytes]:
    """A fresh X25519/HKDF-SHA256/AES-128-GCM key pair: (encoded HpkeConfig, private key)."""
    config, private_key = _wrap(messages.hpke_generate, config_id)
    return bytes(config), bytes(private_key)


def ciphertext_config_id(ciphertext: bytes) -> int:
    return int(_wrap(messages.hpke_ciphertext_config_id, ciphertext))


def open_input_share(
    config: bytes, private_key: bytes, recipient: str, ciphertext: bytes, task_id: bytes, r: Report
) -> bytes:
    """Open an input share sealed to `recipient` for report `r` and return the VDAF input share
    (the `PlaintextInputShare`'s payload). An extension is refused: DAP-09 defines none, and an
    aggregator must reject what it does not recognise."""
    aad = _wrap(messages.encode_input_share_aad, task_id, r.report_id, r.time, r.public_share)
    plain = _wrap(messages.hpke_open_input_share, config, private_key, recipient, ciphertext, aad)
    extensions, payload = _wrap(messages.decode_plaintext_input_share, plain)
    if extensions:
        raise CodecError("the input share carries an extension this aggregator does not know")
    return bytes(payload)


def encode_init_req(inits: list[PrepareInit]) -> bytes:
    return bytes(_wrap(messages.encode_aggregation_job_init_req, b"", inits))


def decode_init_req(data: bytes) -> tuple[bytes, list[PrepareInit]]:
    agg_param, inits = _wrap(messages.decode_aggregation_job_init_req, data)
    return bytes(agg_param), [
        PrepareInit(p.report_id, p.time, p.public_share, p.encrypted_share, p.message)
        for p in inits
    ]


def encode_job_resp(resps: list[PrepareResp]) -> bytes:
    return bytes(_wrap(messages.encode_aggregation_job_resp, resps))


def decode_job_resp(data: bytes) -> list[PrepareResp]:
    return [
        PrepareResp(p.report_id, p.kind, p.message, p.error)
        for p in _wrap(messages.decode_aggregation_job_resp, data)
    ]


def encode_share_req(req: ShareRequest) -> bytes:
    return bytes(
        _wrap(
            messages.encode_aggregate_share_req,
            req.start,
            req.duration,
            req.agg_param,
            req.report_count,
            req.checksum,
        )
    )


def decode_share_req(data: bytes) -> ShareRequest:
    start, duration, agg_param, count, checksum = _wrap(messages.decode_aggregate_share_req, data)
    return ShareRequest(start, duration, bytes(agg_param), count, bytes(checksum))


def encode_share(ciphertext: bytes) -> bytes:
    return bytes(_wrap(messages.encode_aggregate_share, ciphertext))


def decode_share(data: bytes) -> bytes:
    return bytes(_wrap(messages.decode_aggregate_share, data))


def seal_aggregate_share(
    collector_config: bytes, sender: str, share: bytes, task_id: bytes, start: int, duration: int
) -> bytes:
    """Seal an aggregate share to the collector, bound to the task and the batch interval."""
    aad = _wrap(messages.encode_aggregate_share_aad, task_id, b"", start, duration)
    return bytes(_wrap(messages.hpke_seal_aggregate_share, collector_config, sender, share, aad))


def decode_collection_req(data: bytes) -> tuple[int, int, bytes]:
    """(batch start, batch duration, aggregation parameter) of a time-interval CollectionReq;
    `CodecError` for another query type."""
    start, duration, agg_param = _wrap(messages.decode_collection_req, data)
    return start, duration, bytes(agg_param)


def encode_collection(
    report_count: int, start: int, duration: int, leader_share: bytes, helper_share: bytes
) -> bytes:
    return bytes(
        _wrap(
            messages.encode_collection,
            report_count,
            start,
            duration,
            leader_share,
            helper_share,
        )
    )


# the client's and the collector's side (zeenot.prio.dap_client) --------------------------------


def decode_hpke_config_list(data: bytes) -> list[bytes]:
    return [bytes(c) for c in _wrap(messages.decode_hpke_config_list, data)]


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
    aad = _wrap(messages.encode_input_share_aad, task_id, report_id, time, public_share)
    sealed = [
        _wrap(
            messages.hpke_seal_input_share,
            config,
            role,
            _wrap(messages.encode_plaintext_input_share, [], share),
            aad,
        )
        for config, role, share in zip(configs, (LEADER, HELPER), input_shares, strict=True)
    ]
    return bytes(_wrap(messages.encode_report, report_id, time, public_share, *sealed))


def encode_collection_req(start: int, duration: int) -> bytes:
    return bytes(_wrap(messages.encode_collection_req, start, duration, b""))


def decode_collection(data: bytes) -> tuple[int, int, int, bytes, bytes]:
    """(report count, interval start, interval duration, leader's and helper's sealed shares)."""
    count, start, duration, leader, helper = _wrap(messages.decode_collection, data)
    return int(count), int(start), int(duration), bytes(leader), bytes(helper)


def open_aggregate_share(
    config: bytes,
    private_key: bytes,
    sender: str,
    ciphertext: bytes,
    task_id: bytes,
    start: int,
    duration: int,
) -> bytes:
    aad = _wrap(messages.encode_aggregate_share_aad, task_id, b"", start, duration)
    return bytes(
        _wrap(messages.hpke_open_aggregate_share, config, private_key, sender, ciphertext, aad)
    )
