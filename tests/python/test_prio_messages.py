"""zeenot.prio.messages: DAP-09 messages through janus_messages' codecs (round trips, strict
shapes, clean errors for truncated bytes) and DAP's HPKE (seal/open with the application info
bound), in a client → leader → helper → collector flow."""

from __future__ import annotations

from typing import Any

import pytest

from zeenot.errors import MalformedInput, UsageError
from zeenot.prio import HpkeError, PrioDecodeError, Vdaf
from zeenot.prio import messages as dap

TASK_ID = bytes(range(32))
VK = b"\x09" * 16


def _ct(config_id: int = 1) -> dict[str, Any]:
    return {"config_id": config_id, "encapsulated_key": b"\xaa" * 32, "payload": b"\xbb" * 5}


def test_media_types_are_janus_messages() -> None:
    assert dap.MEDIA_TYPES["Report"] == "application/dap-report"
    assert dap.MEDIA_TYPES["HpkeConfigList"] == "application/dap-hpke-config-list"
    assert dap.MEDIA_TYPES["AggregationJobInitializeReq"] == (
        "application/dap-aggregation-job-init-req"
    )
    assert dap.MEDIA_TYPES["CollectionReq"] == "application/dap-collect-req"
    assert set(dap.MEDIA_TYPES) <= set(dap.KINDS)


@pytest.mark.parametrize(
    ("kind", "message", "query_type"),
    [
        (
            "HpkeConfigList",
            {
                "configs": [
                    {"id": 7, "kem_id": 32, "kdf_id": 1, "aead_id": 1, "public_key": b"\x01" * 32}
                ]
            },
            "time_interval",
        ),
        (
            "Report",
            {
                "metadata": {"report_id": b"\x02" * 16, "time": 1_700_000_000},
                "public_share": b"",
                "leader_encrypted_input_share": _ct(1),
                "helper_encrypted_input_share": _ct(2),
            },
            "time_interval",
        ),
        ("PlaintextInputShare", {"extensions": [], "payload": b"\x03" * 40}, "time_interval"),
        (
            "CollectionReq",
            {
                "query": {"batch_interval": {"start": 3600, "duration": 7200}},
                "aggregation_parameter": b"",
            },
            "time_interval",
        ),
        (
            "CollectionReq",
            {"query": {"type": "current_batch"}, "aggregation_parameter": b""},
            "fixed_size",
        ),
        (
            "Collection",
            {
                "partial_batch_selector": {},
                "report_count": 12,
                "interval": {"start": 3600, "duration": 3600},
                "leader_encrypted_agg_share": _ct(),
                "helper_encrypted_agg_share": _ct(),
            },
            "time_interval",
        ),
        ("AggregationJobContinueReq", {"step": 1, "prepare_continues": []}, "time_interval"),
        ("AggregateShare", {"encrypted_aggregate_share": _ct()}, "time_interval"),
        (
            "AggregateShareAad",
            {
                "task_id": TASK_ID,
                "aggregation_parameter": b"",
                "batch_selector": {"batch_id": b"\x04" * 32},
            },
            "fixed_size",
        ),
    ],
)
def test_round_trip(kind: str, message: dict[str, Any], query_type: Any) -> None:
    data = dap.encode(kind, message, query_type)
    assert dap.decode(kind, data, query_type) == message
    with pytest.raises(PrioDecodeError) as info:
        dap.decode(kind, data[:-1], query_type)
    assert isinstance(info.value, MalformedInput)
    with pytest.raises(PrioDecodeError):
        dap.decode(kind, data + b"\x00", query_type)


def test_strict_shapes() -> None:
    with pytest.raises(UsageError):
        dap.encode("Report", {"metadata": {}})
    with pytest.raises(UsageError):
        dap.encode("Interval", {"start": 1, "duration": 2, "extra": 3})
    with pytest.raises(UsageError):
        dap.encode("Interval", {"start": -1, "duration": 2})
    with pytest.raises(UsageError):
        dap.encode("NoSuchMessage", {})
    with pytest.raises(UsageError):
        dap.decode("Query", b"\x01", "sideways")  # type: ignore[arg-type]


def test_report_id_checksum() -> None:
    a, b = b"\x01" * 16, b"\x02" * 16
    assert dap.report_id_checksum([a, b]) == dap.report_id_checksum([b, a])
    assert dap.report_id_checksum([a, a]) == bytes(32)
    with pytest.raises(UsageError):
        dap.report_id_checksum([b"short"])


def test_hpke_binds_info_and_aad() -> None:
    pair = dap.HpkeKeypair.generate(5)
    assert pair.config_id == 5 and "private_key" not in repr(pair)
    assert dap.application_info("input_share", "client", "leader") == b"dap-09 input share\x01\x02"
    ct = dap.seal(pair.config, "input_share", "client", "leader", b"hello", b"aad")
    assert dap.open_(pair, "input_share", "client", "leader", ct, b"aad") == b"hello"
    with pytest.raises(HpkeError):
        dap.open_(pair, "input_share", "client", "helper", ct, b"aad")
    with pytest.raises(HpkeError):
        dap.open_(pair, "input_share", "client", "leader", ct, b"other aad")
    with pytest.raises(HpkeError):
        dap.open_(dap.HpkeKeypair.generate(6), "input_share", "client", "leader", ct, b"aad")
    with pytest.raises(UsageError):
        dap.application_info("input_share", "client", "server")  # type: ignore[arg-type]


def test_dap_flow_client_leader_helper_collector() -> None:
    """A report through the messages and HPKE as a leader and helper handle it."""
    vdaf = Vdaf.from_description({"type": "Prio3Sum", "bits": 32})
    leader_keys, helper_keys = dap.HpkeKeypair.generate(1), dap.HpkeKeypair.generate(2)
    collector_keys = dap.HpkeKeypair.generate(3)
    config_list = dap.decode(
        "HpkeConfigList",
        dap.encode("HpkeConfigList", {"configs": [dap.decode("HpkeConfig", leader_keys.config)]}),
    )
    assert dap.encode("HpkeConfig", config_list["configs"][0]) == leader_keys.config

    # Client.
    metadata = {"report_id": b"\x0a" * 16, "time": 1_700_000_000}
    public, (l_in, h_in) = vdaf.shard(41, metadata["report_id"])
    aad = dap.input_share_aad(TASK_ID, metadata, public)
    sealed = {}
    for role, keys, share in (("leader", leader_keys, l_in), ("helper", helper_keys, h_in)):
        plaintext = dap.encode("PlaintextInputShare", {"extensions": [], "payload": share})
        ct = dap.seal(keys.config, "input_share", "client", role, plaintext, aad)
        sealed[role] = dap.decode("HpkeCiphertext", ct)
    body = dap.encode(
        "Report",
        {
            "metadata": metadata,
            "public_share": public,
            "leader_encrypted_input_share": sealed["leader"],
            "helper_encrypted_input_share": sealed["helper"],
        },
    )

    # Leader.
    report = dap.decode("Report", body)
    aad = dap.input_share_aad(TASK_ID, report["metadata"], report["public_share"])
    ct = dap.encode("HpkeCiphertext", report["leader_encrypted_input_share"])
    plain = dap.decode(
        "PlaintextInputShare", dap.open_(leader_keys, "input_share", "client", "leader", ct, aad)
    )
    nonce = report["metadata"]["report_id"]
    state, message = vdaf.leader_initialized(VK, nonce, report["public_share"], plain["payload"])
    init_req = dap.encode(
        "AggregationJobInitializeReq",
        {
            "aggregation_parameter": b"",
            "partial_batch_selector": {},
            "prepare_inits": [
                {
                    "report_share": {
                        "metadata": report["metadata"],
                        "public_share": report["public_share"],
                        "encrypted_input_share": report["helper_encrypted_input_share"],
                    },
                    "message": message,
                }
            ],
        },
    )

    # Helper.
    req = dap.decode("AggregationJobInitializeReq", init_req)
    (pi,) = req["prepare_inits"]
    rs = pi["report_share"]
    aad = dap.input_share_aad(TASK_ID, rs["metadata"], rs["public_share"])
    ct = dap.encode("HpkeCiphertext", rs["encrypted_input_share"])
    plain = dap.decode(
        "PlaintextInputShare", dap.open_(helper_keys, "input_share", "client", "helper", ct, aad)
    )
    h_out, reply = vdaf.helper_initialized(
        VK, rs["metadata"]["report_id"], rs["public_share"], plain["payload"], pi["message"]
    )
    assert dap.decode("PingPongMessage", reply)["type"] == "finish"
    resp = dap.encode(
        "AggregationJobResp",
        {
            "prepare_resps": [
                {
                    "report_id": rs["metadata"]["report_id"],
                    "result": {"type": "continue", "message": reply},
                }
            ]
        },
    )

    # Leader finishes; both seal aggregate shares to the collector.
    (pr,) = dap.decode("AggregationJobResp", resp)["prepare_resps"]
    l_out = vdaf.leader_continued(state, pr["result"]["message"])
    selector = {"batch_interval": {"start": 1_699_999_200, "duration": 3600}}
    agg_aad = dap.aggregate_share_aad(TASK_ID, b"", selector)
    shares = [
        dap.seal(
            collector_keys.config,
            "aggregate_share",
            role,
            "collector",
            vdaf.aggregate([out]),
            agg_aad,
        )
        for role, out in (("leader", l_out), ("helper", h_out))
    ]

    # Collector.
    opened = [
        dap.open_(collector_keys, "aggregate_share", role, "collector", ct, agg_aad)
        for role, ct in zip(("leader", "helper"), shares, strict=True)
    ]
    assert vdaf.unshard(opened, 1) == 41
