"""Certified data (issue 30, CRISP's flow), path (a): a source signs a block of records once,
the user proves a result computed from it. The library (`zeenot.certified`: layout, signing,
the user's file), the attacks on a compiled and set-up circuit (forged, altered, reordered,
truncated, replayed to another user or period: no proof), and the three use cases against
their plain-Python references."""

from __future__ import annotations

import copy
import json

import pytest

from zeenot import _native, api
from zeenot.babyjub import BASE8, keygen
from zeenot.certified import SignedBlock, Source, load_blocks, parse_blocks, save_blocks
from zeenot.certified.commit import block_digest, per_word
from zeenot.errors import MalformedInput
from zeenot.simulate import simulate

from .conftest import EXAMPLES

METERING = f"{EXAMPLES / 'metering' / 'certified.py'}:bill_day"
GENOME = f"{EXAMPLES / 'genome' / 'certified.py'}:scores_256"
ACTIVITY = f"{EXAMPLES / 'activity' / 'certified.py'}:distance_32"


def data(example: str, name: str = "data.py"):
    from zeenot.lang import load_module

    return load_module(str(EXAMPLES / example / name))


def metering():
    return data("metering", "certified_data.py")


# ------------------------------------------------------------------------------- the library


def test_a_signed_block_verifies_and_binds_its_header():
    sk, user = keygen()
    src = Source(bytes(range(32)), 7)
    block = src.sign(user, 3, [1, 2, 3, 255], 8)
    assert block.verify()
    _, other = keygen()
    for changed in (
        SignedBlock(8, block.source_key, user, 3, 8, block.values, block.signature),
        SignedBlock(7, block.source_key, other, 3, 8, block.values, block.signature),
        SignedBlock(7, block.source_key, user, 4, 8, block.values, block.signature),
        SignedBlock(7, block.source_key, user, 3, 16, block.values, block.signature),
        SignedBlock(7, block.source_key, user, 3, 8, (1, 2, 3, 255, 0), block.signature),
        SignedBlock(7, block.source_key, user, 3, 8, (2, 1, 3, 255), block.signature),
    ):
        assert not changed.verify()
    assert "seed" not in repr(src) and str(bytes(range(32))) not in repr(src)


def test_the_layout_packs_values_and_counts_them():
    assert per_word(8) == 31 and per_word(16) == 15 and per_word(32) == 7
    _, user = keygen()
    vals = list(range(40))
    d = block_digest(1, user, 2, lambda k: vals[k], 40, 8)
    # trailing zeros are not free: the count is in the header
    vals0 = vals + [0]
    assert block_digest(1, user, 2, lambda k: vals0[k], 41, 8) != d


def test_signing_rejects_values_wider_than_the_block():
    src = Source(bytes(range(32)), 7)
    _, user = keygen()
    with pytest.raises(ValueError, match=r"\[0, 2\^8\)"):
        src.sign(user, 1, [256], 8)
    with pytest.raises(ValueError, match="bits"):
        src.sign(user, 1, [1], 12)
    with pytest.raises(ValueError, match="1 to"):
        src.sign(user, 1, [], 8)


def test_the_users_file_round_trips_and_is_checked(tmp_path):
    _, user = keygen()
    src = Source(bytes(range(32)), 7)
    blocks = [src.sign(user, p, [p, p + 1], 16) for p in range(3)]
    path = tmp_path / "blocks.json"
    save_blocks(path, blocks)
    assert load_blocks(path) == blocks
    assert path.stat().st_mode & 0o777 == 0o600  # her private data
    doc = json.loads(path.read_text())
    bad_value = copy.deepcopy(doc)
    bad_value["blocks"][0]["values"][0] = 2**16
    bad_point = copy.deepcopy(doc)
    bad_point["blocks"][1]["user"]["x"] = "1"  # off the curve
    extra = copy.deepcopy(doc)
    extra["blocks"][2]["note"] = "x"
    wrong_format = dict(doc, format="something/else")
    for bad in (bad_value, bad_point, extra, wrong_format):
        with pytest.raises(MalformedInput):
            parse_blocks(json.dumps(bad))
    with pytest.raises(MalformedInput, match="larger than"):
        parse_blocks(" " * (16 * 2**20 + 1))


# ------------------------------------------- the attacks, on a compiled and set-up circuit


@pytest.fixture(scope="module")
def meter_circuit():
    circuit = api.compile(METERING)
    return circuit, api.setup(circuit, seed=11)


@pytest.fixture(scope="module")
def day():
    return metering().inputs(days=1, seed=3)


def no_proof(meter_circuit, inputs: dict, match: str) -> None:
    circuit, keys = meter_circuit
    assert metering().reference(inputs) is None
    with pytest.raises(_native.UnsatisfiedError, match=match):
        api.prove(circuit, keys, inputs)


def test_the_signed_day_is_proved_and_verified(meter_circuit, day):
    circuit, keys = meter_circuit
    proof = api.prove(circuit, keys, day)
    assert proof.outputs == metering().reference(day)
    assert set(proof.public_inputs) == {"source", "source_id", "user", "period"}
    api.verify(circuit, keys.verifying_key, proof)


def test_forged_a_block_signed_by_another_key(meter_circuit, day):
    forger = Source(bytes(32), day["source_id"])  # signs as if it were the meter
    block = forger.sign(metering().user_key(), day["period"], day["wh"], 16)
    forged = dict(day, signature=metering().circuit_inputs(block, 0, "wh")["signature"])
    no_proof(meter_circuit, forged, "not signed by the meter")


def test_altered_one_reading(meter_circuit, day):
    altered = copy.deepcopy(day)
    altered["wh"][40] -= 1
    no_proof(meter_circuit, altered, "not signed by the meter")


def test_reordered_readings(meter_circuit, day):
    reordered = copy.deepcopy(day)
    wh = reordered["wh"]
    i = next(k for k in range(47) if wh[k] != wh[k + 1])
    wh[i], wh[i + 1] = wh[i + 1], wh[i]  # the same readings, the bill's peak hours moved
    no_proof(meter_circuit, reordered, "not signed by the meter")


def test_truncated_block(meter_circuit, day):
    truncated = copy.deepcopy(day)
    truncated["wh"].pop()
    no_proof(meter_circuit, truncated, "another number of readings")
    # nor is a block the meter cut short itself a day's block (the count is in the header)
    m = metering()
    short = m.meter().sign(m.user_key(), m.PERIOD, day["wh"][:47], 16)
    doc = m.circuit_inputs(short, m.USER_SK, "wh")
    doc["wh"].append(0)
    no_proof(meter_circuit, doc, "not signed by the meter")


def test_replayed_by_another_user_with_her_own_key(meter_circuit, day):
    sk, pk = keygen()
    replayed = dict(day, user={"x": str(int(pk.x)), "y": str(int(pk.y))}, user_sk=str(sk))
    no_proof(meter_circuit, replayed, "not signed by the meter")


def test_replayed_by_another_user_under_the_victims_key(meter_circuit, day):
    sk, _ = keygen()
    replayed = dict(day, user_sk=str(sk))  # the victim's public key, the thief's secret key
    no_proof(meter_circuit, replayed, "not the household's key")


def test_replayed_in_another_period(meter_circuit, day):
    replayed = dict(day, period=day["period"] + 1)
    no_proof(meter_circuit, replayed, "not signed by the meter")


# --------------------------------------------------------- the use cases, against references


@pytest.mark.parametrize("seed", [1, 2])
def test_metering_matches_the_reference(seed):
    doc = metering().inputs(days=1, seed=seed)
    want = metering().reference(doc)
    assert want is not None and want > 0
    assert simulate(api.load_target(METERING), doc) == want


def test_genome_matches_the_reference():
    g = data("genome")
    w = [row[:256] for row in g.weights()]
    for seed in (1, 2):
        doc = g.inputs(256, seed)
        want = g.reference(doc, w)
        assert want is not None and all(s > 0 for s in want)
        assert simulate(api.load_target(GENOME), doc) == want
    assert g.weights() == json.loads((EXAMPLES / "genome" / "weights.json").read_text())["weights"]


def test_activity_matches_the_reference_and_filters_glitches():
    a = data("activity")
    for seed in (1, 2, 3):
        doc = a.inputs(32, seed)
        want = a.reference(doc)
        assert want is not None
        assert simulate(api.load_target(ACTIVITY), doc) == want
    assert a.reference(a.inputs(32, 1)) == [17794, 28]  # three glitches of 31 steps left out


def test_activity_by_hand_rounds_each_step_exactly():
    """Steps of 500 cm (3-4-5), √20000 = 141.42 → 141 cm, 150 cm, a 20 m/s step (a car: left
    out), then 27 steps of 1 cm."""
    a = data("activity")
    trace = [(0, 0, 0), (1, 300, 400), (2, 400, 500), (3, 400, 650), (4, 2400, 650)]
    trace += [(4 + k, 2400 + k, 650) for k in range(1, 28)]
    src = a.provider()
    block = src.sign(a.user_key(), 1, a.flat(trace), 32)
    doc = a.circuit_inputs(block, a.USER_SK, "trace")
    v = doc["trace"]
    doc["trace"] = [{"t": v[k], "e": v[k + 1], "n": v[k + 2]} for k in range(0, len(v), 3)]
    assert a.reference(doc) == [500 + 141 + 150 + 27, 3 + 27]
    assert simulate(api.load_target(ACTIVITY), doc) == [500 + 141 + 150 + 27, 3 + 27]


def test_time_running_backwards_has_no_proof():
    a = data("activity")
    trace = [(t, 1000 * t, 0) for t in range(32)]
    trace[10] = (8, 10_000, 0)
    block = a.provider().sign(a.user_key(), 1, a.flat(trace), 32)
    doc = a.circuit_inputs(block, a.USER_SK, "trace")
    v = doc["trace"]
    doc["trace"] = [{"t": v[k], "e": v[k + 1], "n": v[k + 2]} for k in range(0, len(v), 3)]
    assert a.reference(doc) is None
    with pytest.raises(Exception, match="overflow|strictly increase"):
        simulate(api.load_target(ACTIVITY), doc)


def test_users_key_is_a_base8_multiple():
    m = metering()
    assert m.user_key() == m.USER_SK * BASE8


@pytest.mark.slow
@pytest.mark.parametrize("target,example", [(GENOME, "genome"), (ACTIVITY, "activity")])
def test_use_case_proved_and_verified(target, example):
    d = data(example)
    doc = d.inputs(256, 1) if example == "genome" else d.inputs(32, 1)
    want = d.reference(doc, [r[:256] for r in d.weights()]) if example == "genome" else None
    want = want if want is not None else d.reference(doc)
    circuit = api.compile(target)
    keys = api.setup(circuit, seed=3)
    proof = api.prove(circuit, keys, doc)
    assert proof.outputs == want
    api.verify(circuit, keys.verifying_key, proof)


ACTIVITY_HINTED = f"{EXAMPLES / 'activity' / 'certified.py'}:distance_hinted_32"


def test_activity_with_given_step_lengths_is_the_same_statement():
    """`distance_hinted_32` takes each step's rounded length from the prover and checks it
    (r² − r < d2 ≤ r² + r): the same results as `distance_32`, on fewer constraints; a length
    off by one either way has no proof."""
    a = data("activity")
    for seed in (1, 2, 3):
        doc = a.inputs(32, seed, hinted=True)
        assert simulate(api.load_target(ACTIVITY_HINTED), doc) == a.reference(doc)
    doc = a.inputs(32, 1, hinted=True)
    k = next(i for i, r in enumerate(doc["lengths"]) if r > 1)
    for wrong in (doc["lengths"][k] - 1, doc["lengths"][k] + 1):
        bad = copy.deepcopy(doc)
        bad["lengths"][k] = wrong
        with pytest.raises(Exception, match="too long|too short"):
            simulate(api.load_target(ACTIVITY_HINTED), bad)
    # rounding at the edges: √2 = 1.41 → 1, √3 = 1.73 → 2, √6 = 2.45 → 2, √7 = 2.65 → 3, ...
    assert [a.rounded_length(d) for d in (0, 1, 2, 3, 6, 7, 12, 13)] == [0, 1, 1, 2, 2, 3, 3, 4]
    hinted = api.compile(ACTIVITY_HINTED).stats["constraints"]
    assert hinted < 0.7 * api.compile(ACTIVITY).stats["constraints"]


def test_hinted_lengths_are_checked_at_the_rounding_edges():
    """Short steps of d2 = 2, 5, 8, 5, 8 (√ = 1.41, 2.24, 2.83: lengths 1, 2, 3, 2, 3), then 1 cm
    steps: the given lengths hold and their neighbours (±1) do not."""
    a = data("activity")
    trace = [(0, 0, 0), (1, 1, 1), (2, 3, 2), (3, 5, 3), (4, 7, 3), (5, 9, 5)]
    trace[3] = (3, 5, 4)  # from (3, 2): (2, 2) → d2 = 8 → 2.83 → 3
    trace += [(5 + k, 9 + k, 5) for k in range(1, 27)]
    block = a.provider().sign(a.user_key(), 1, a.flat(trace), 32)
    doc = a.circuit_inputs(block, a.USER_SK, "trace")
    v = doc["trace"]
    doc["trace"] = [{"t": v[k], "e": v[k + 1], "n": v[k + 2]} for k in range(0, len(v), 3)]
    doc["lengths"] = a.step_lengths(doc["trace"])
    assert simulate(api.load_target(ACTIVITY_HINTED), doc) == a.reference(doc)
    for k in range(5):
        for delta in (-1, 1):
            bad = copy.deepcopy(doc)
            bad["lengths"][k] += delta
            if bad["lengths"][k] < 0:
                continue
            with pytest.raises(Exception, match="too long|too short"):
                simulate(api.load_target(ACTIVITY_HINTED), bad)
