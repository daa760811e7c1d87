"""zeenot.prio.Vdaf: the VDAF-08 Prio3 test vectors that the prio crate 0.16.8 ships
(crates/zeenot-prio/tests/data/vdaf-08, provenance there) pass through the wrapper, DAP's
ping-pong preparation round-trips, and bad input is a clean zeenot error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from zeenot.errors import MalformedInput, ProofRejected, UsageError
from zeenot.prio import PrioDecodeError, ReportRejected, Vdaf

VECTORS = Path(__file__).resolve().parents[2] / "crates/zeenot-prio/tests/data/vdaf-08"
VK = bytes(range(16))


def _description(name: str, t: dict[str, Any]) -> dict[str, Any]:
    keys = {
        "Prio3Count": [],
        "Prio3Sum": ["bits"],
        "Prio3SumVec": ["bits", "length", "chunk_length"],
        "Prio3Histogram": ["length", "chunk_length"],
    }[name]
    return {"type": name, **{k: t[k] for k in keys}}


@pytest.mark.parametrize("name", ["Prio3Count", "Prio3Sum", "Prio3SumVec", "Prio3Histogram"])
@pytest.mark.parametrize("index", [0, 1])
def test_vdaf_08_vector(name: str, index: int) -> None:
    t = json.loads((VECTORS / f"{name}_{index}.json").read_text())
    n = t["shares"]
    vdaf = Vdaf.from_description(_description(name, t), num_aggregators=n)
    vk = bytes.fromhex(t["verify_key"])
    outs: list[list[bytes]] = [[] for _ in range(n)]
    for prep in t["prep"]:
        nonce = bytes.fromhex(prep["nonce"])
        public = bytes.fromhex(prep["public_share"])
        states, shares = [], []
        for agg_id, share_hex in enumerate(prep["input_shares"]):
            state, share = vdaf.prepare_init(vk, agg_id, nonce, public, bytes.fromhex(share_hex))
            assert share.hex() == prep["prep_shares"][0][agg_id]
            states.append(state)
            shares.append(share)
        for agg_id, state in enumerate(states):
            message = vdaf.prepare_shares_to_prepare_message(agg_id, state, shares)
            assert message.hex() == prep["prep_messages"][0]
            out = vdaf.prepare_next(agg_id, state, message)
            assert out.hex() == "".join(prep["out_shares"][agg_id])
            outs[agg_id].append(out)
    aggs = [vdaf.aggregate(o) for o in outs]
    assert [a.hex() for a in aggs] == t["agg_shares"]
    assert vdaf.unshard(aggs, len(t["prep"])) == t["agg_result"]
    # The vector's measurements, sharded afresh by the wrapper, prepare to the same result.
    if n == 2:
        assert _ping_pong(vdaf, [p["measurement"] for p in t["prep"]]) == t["agg_result"]


def _ping_pong(vdaf: Vdaf, measurements: list[Any]) -> Any:
    leader, helper = [], []
    for i, m in enumerate(measurements):
        nonce = bytes([i]) * 16
        public, (l_in, h_in) = vdaf.shard(m, nonce)
        state, message = vdaf.leader_initialized(VK, nonce, public, l_in)
        h_out, reply = vdaf.helper_initialized(VK, nonce, public, h_in, message)
        leader.append(vdaf.leader_continued(state, reply))
        helper.append(h_out)
    return vdaf.unshard([vdaf.aggregate(leader), vdaf.aggregate(helper)], len(measurements))


def test_round_trips_and_descriptions() -> None:
    assert _ping_pong(Vdaf.from_description("Prio3Count"), [True, 0, 1, False]) == 2
    assert _ping_pong(Vdaf.from_description({"Prio3Sum": {"bits": 32}}), [2**32 - 1, 1]) == 2**32
    sv = Vdaf.from_description({"type": "Prio3SumVec", "bits": 2, "length": 3, "chunk_length": 2})
    assert _ping_pong(sv, [[1, 2, 3], [3, 0, 1]]) == [4, 2, 4]
    h = Vdaf.from_description('{"type": "Prio3Histogram", "length": 3, "chunk_length": 2}')
    assert _ping_pong(h, [2, 2, 0]) == [1, 0, 2]
    assert h.description == {"type": "Prio3Histogram", "length": 3, "chunk_length": 2}
    assert (h.verify_key_size, h.nonce_size, h.num_aggregators) == (16, 16, 2)
    assert h.merge([]) == h.aggregate([])


def test_bit_flipped_input_share_is_rejected_at_preparation() -> None:
    vdaf = Vdaf.from_description({"type": "Prio3Sum", "bits": 32})
    nonce = b"\x05" * 16
    public, (l_in, h_in) = vdaf.shard(77, nonce)
    flipped = bytes([l_in[0] ^ 1]) + l_in[1:]
    _, message = vdaf.leader_initialized(VK, nonce, public, flipped)
    with pytest.raises(ReportRejected) as info:
        vdaf.helper_initialized(VK, nonce, public, h_in, message)
    assert isinstance(info.value, ProofRejected)
    h_state, h_share = vdaf.prepare_init(VK, 1, nonce, public, h_in)
    _, l_share = vdaf.prepare_init(VK, 0, nonce, public, flipped)
    with pytest.raises(ReportRejected):
        vdaf.prepare_shares_to_prepare_message(1, h_state, [l_share, h_share])


def test_truncated_bytes_are_decode_errors() -> None:
    vdaf = Vdaf.from_description({"type": "Prio3Count"})
    nonce = b"\x01" * 16
    public, (l_in, h_in) = vdaf.shard(True, nonce)
    with pytest.raises(PrioDecodeError) as info:
        vdaf.prepare_init(VK, 0, nonce, public, l_in[:-1])
    assert isinstance(info.value, MalformedInput)
    state, message = vdaf.leader_initialized(VK, nonce, public, l_in)
    with pytest.raises(PrioDecodeError):
        vdaf.helper_initialized(VK, nonce, public, h_in, message[:-1])
    with pytest.raises(PrioDecodeError):
        vdaf.leader_continued(state + b"\x00", message)
    with pytest.raises(PrioDecodeError):
        vdaf.unshard([b"", b""], 1)


@pytest.mark.parametrize(
    "call",
    [
        lambda: Vdaf.from_description({"type": "Prio3Sum", "bits": 0}),
        lambda: Vdaf.from_description({"type": "Prio3Sum"}),
        lambda: Vdaf.from_description({"type": "Poplar1", "bits": 8}),
        lambda: Vdaf.from_description(["Prio3Count"]),  # type: ignore[arg-type]
        lambda: Vdaf.from_description("Prio3Count", num_aggregators=1),
        lambda: Vdaf.from_description("Prio3Count").shard(2, b"\x00" * 16),
        lambda: Vdaf.from_description("Prio3Count").shard(True, b"\x00" * 15),
        lambda: Vdaf.from_description({"Prio3Sum": {"bits": 8}}).shard(256, b"\x00" * 16),
        lambda: Vdaf.from_description({"Prio3Sum": {"bits": 8}}).shard(-1, b"\x00" * 16),
        lambda: Vdaf.from_description({"Prio3Sum": {"bits": 8}}).shard("x", b"\x00" * 16),
        lambda: Vdaf.from_description("Prio3Count").prepare_init(VK[:3], 0, VK, b"", b""),
        lambda: Vdaf.from_description("Prio3Count").prepare_init(VK, 2, VK, b"", b""),
    ],
)
def test_bad_arguments_are_usage_errors(call: Any) -> None:
    with pytest.raises(UsageError):
        call()
