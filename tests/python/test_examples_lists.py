"""The list case studies (examples/fitbit, study, loyalty, cnids): plain-Python semantics against
independent references, input validation, and (slow) proofs end to end.

Expected outputs are hard-coded: for `inputs.json` they were computed by each example's
`data.reference` (plain Python over the JSON values, written without the app), and the small
hand-made cases were worked out by hand in the comments.
"""

from __future__ import annotations

import copy
import ipaddress
from typing import Any

import pytest

from zeenot import _native, api
from zeenot.errors import Failure
from zeenot.simulate import simulate

from .conftest import EXAMPLES, example_data, read_json

# example: (@zk function, bound constant, the list parameter it bounds)
APPS = {
    "fitbit": ("steps_donation", "MAX_SAMPLES", "trace"),
    "study": ("vitals_summary", "MAX_READINGS", "readings"),
    "loyalty": ("discount", "MAX_PURCHASES", "history"),
    "cnids": ("header_alert", "MAX_PACKETS", "trace"),
}


def ip(text: str) -> int:
    return int(ipaddress.IPv4Address(text))


# outputs on each example's inputs.json, from data.reference
EXPECTED = {
    "fitbit": [93, 3740, False],
    "study": [
        36,
        [[2576, 189212], [4523, 572055], [2655, 196617], [3839, 432013]],
        7,
        [59, 102],
        43,
        471,
    ],
    "loyalty": [1947, 1],
    "cnids": [ip("203.0.113.35"), 2, 26, 1667],
}


def target(example: str) -> str:
    return f"{EXAMPLES / example / 'app.py'}:{APPS[example][0]}"


def app(example: str) -> Any:
    return api.load_target(target(example))


def bound(example: str) -> int:
    return app(example).__globals__[APPS[example][1]]


def inputs(example: str) -> dict:
    return read_json(EXAMPLES / example / "inputs.json")


def outcome(fn: Any, values: dict) -> Any:
    """simulate's outputs, or None when the program fails (no proof exists)."""
    try:
        return simulate(fn, values)
    except Failure:
        return None


# ------------------------------------------------------------------------------------------
# inputs.json and the generated data


@pytest.mark.parametrize("example", APPS)
def test_inputs_json_gives_the_expected_outputs(example):
    assert simulate(app(example), inputs(example)) == EXPECTED[example]
    assert example_data(example).reference(inputs(example)) == EXPECTED[example]


@pytest.mark.parametrize("example", APPS)
def test_inputs_json_is_what_data_py_generates(example):
    d = example_data(example)
    generated = d.generate(d.DEFAULT_LENGTH, d.DEFAULT_SEED)
    assert generated == inputs(example)
    param = APPS[example][2]
    assert 30 <= len(generated[param]) <= bound(example)


@pytest.mark.parametrize("example", APPS)
def test_simulate_agrees_with_the_reference_on_generated_data(example):
    fn, d, n_max = app(example), example_data(example), bound(example)
    for n in (0, 1, 2, 3, 4, 7, 20, n_max):
        for seed in (1, 2, 3):
            values = d.generate(n, seed)
            assert len(values[APPS[example][2]]) == n
            assert outcome(fn, values) == d.reference(values), (n, seed)


@pytest.mark.parametrize(
    ("example", "n", "expected"),
    [
        ("fitbit", 0, [0, 0, False]),
        ("fitbit", 1, [0, 0, False]),  # the first sample only starts the log
        ("study", 0, [0, [[0, 0]] * 4, 0, [0, 0], 0, 65535]),
        ("loyalty", 0, [0, 0]),  # a new customer: no offers, bronze tier
        ("cnids", 0, None),  # no proof without an attack in the trace
        ("cnids", 2, None),
    ],
)
def test_short_lists(example, n, expected):
    assert outcome(app(example), example_data(example).generate(n)) == expected


@pytest.mark.parametrize("example", APPS)
def test_a_list_over_the_bound_is_rejected(example):
    n_max, param = bound(example), APPS[example][2]
    too_long = example_data(example).generate(n_max + 1)
    with pytest.raises(ValueError, match=rf"{param}.*{n_max + 1}.*{n_max}"):
        simulate(app(example), too_long)
    at_bound = example_data(example).generate(n_max)
    assert len(at_bound[param]) == n_max
    simulate(app(example), at_bound)  # the full bound itself is fine


def test_a_basket_over_its_bound_is_rejected():
    fn = app("loyalty")
    items = fn.__globals__["MAX_ITEMS"]
    values = dict(inputs("loyalty"), basket=[{"category": 0, "price": 100}] * (items + 1))
    with pytest.raises(ValueError, match=rf"basket.*{items + 1}.*{items}"):
        simulate(fn, values)


@pytest.mark.parametrize("example", APPS)
def test_malformed_elements_are_rejected(example):
    values = inputs(example)
    param = APPS[example][2]
    first = values[param][0]
    field = next(iter(first))
    for bad in ({**first, field: -1}, {k: v for k, v in first.items() if k != field}, [1, 2]):
        broken = copy.deepcopy(values)
        broken[param][0] = bad
        with pytest.raises(ValueError):
            simulate(app(example), broken)


# ------------------------------------------------------------------------------------------
# hand-made cases


def sample(t: int, steps: int, x: int, y: int) -> dict:
    return {"t": t, "steps": steps, "x": x, "y": y}


FITBIT_TRACE = [
    sample(1000, 0, 0, 0),
    sample(1060, 110, 60, 60),  # 85 m in 60 s: walking, counted
    sample(1120, 30, 660, 860),  # 1000 m in 60 s (a car): not counted, 420 m is the reach
    sample(1180, 240, 660, 1280),  # exactly 420 m, and 4 steps/s: counted
    sample(9000, 2000, 20000, 1280),  # 19.3 km after 2 h 10 min off: reach capped at 1 h, 25.2 km
]


def test_fitbit_by_hand():
    fn = app("fitbit")
    values = {"trace": FITBIT_TRACE, "cents_per_1000_steps": 40, "cap_cents": 1000}
    # 110 + 240 + 2000 = 2350 steps; 2350 · 40 // 1000 = 94 cents
    assert simulate(fn, values) == [94, 2350, False]
    assert simulate(fn, dict(values, cap_cents=90)) == [90, 2350, True]
    assert example_data("fitbit").reference(values) == [94, 2350, False]


@pytest.mark.parametrize(
    "change",
    [
        lambda tr: tr.__setitem__(2, sample(1060, 30, 660, 860)),  # two samples at one time
        lambda tr: tr.__setitem__(2, sample(1059, 30, 660, 860)),  # time runs backwards
        lambda tr: tr.__setitem__(3, sample(1180, 241, 660, 1280)),  # more than 4 steps/s
        lambda tr: tr.__setitem__(4, sample(9000, 2000, 2**31 - 1, -(2**31))),  # i32 overflow
    ],
)
def test_fitbit_implausible_trace_has_no_proof(change):
    trace = copy.deepcopy(FITBIT_TRACE)
    change(trace)
    values = {"trace": trace, "cents_per_1000_steps": 40, "cap_cents": 1000}
    with pytest.raises(Failure):
        simulate(app("fitbit"), values)
    assert example_data("fitbit").reference(values) is None


def reading(minute: int, hr: int, systolic: int, diastolic: int, glucose: int) -> dict:
    return {
        "minute": minute,
        "hr": hr,
        "systolic": systolic,
        "diastolic": diastolic,
        "glucose": glucose,
    }


STUDY_READINGS = [
    reading(0, 60, 120, 80, 90),
    reading(20, 80, 145, 85, 65),  # systolic high; hypoglycaemic
    reading(65, 70, 130, 92, 60),  # diastolic high; 45 minutes after the previous one
]


def test_study_by_hand():
    values = {"readings": STUDY_READINGS, "high_systolic": 140, "high_diastolic": 90}
    expected = [
        3,
        [
            [60 + 80 + 70, 60**2 + 80**2 + 70**2],
            [120 + 145 + 130, 120**2 + 145**2 + 130**2],
            [80 + 85 + 92, 80**2 + 85**2 + 92**2],
            [90 + 65 + 60, 90**2 + 65**2 + 60**2],
        ],
        2,
        [60, 80],
        45,
        20,
    ]
    assert simulate(app("study"), values) == expected
    assert example_data("study").reference(values) == expected


@pytest.mark.parametrize(
    "bad",
    [
        reading(20, 24, 145, 85, 65),  # heart rate below the sensor's range
        reading(20, 80, 145, 161, 65),  # diastolic out of range
        reading(20, 80, 120, 120, 65),  # diastolic not below systolic
        reading(20, 80, 145, 85, 601),  # glucose out of range
        reading(0, 80, 145, 85, 65),  # the same minute as the previous reading
    ],
)
def test_study_invalid_reading_has_no_proof(bad):
    readings = [STUDY_READINGS[0], bad, STUDY_READINGS[2]]
    values = {"readings": readings, "high_systolic": 140, "high_diastolic": 90}
    with pytest.raises(Failure):
        simulate(app("study"), values)
    assert example_data("study").reference(values) is None


def purchase(day: int, category: int, amount: int) -> dict:
    return {"day": day, "category": category, "amount": amount}


LOYALTY = {
    "history": [
        purchase(800, 2, 5000),  # 200 days ago: outside the window
        purchase(950, 2, 3000),  # baby: new → baby once
        purchase(960, 0, 150),  # too small to count
        purchase(960, 2, 2500),  # baby again: parent
        purchase(999, 3, 900),  # parents stay parents
    ],
    "basket": [
        {"category": 2, "price": 2000},  # 15 % as a parent
        {"category": 5, "price": 1000},  # 5 %
        {"category": 0, "price": 500},  # nothing
    ],
    "today": 1000,
}


def test_loyalty_by_hand():
    fn = app("loyalty")
    # three qualifying purchases: bronze; (2000 · 15 + 1000 · 5) // 100 = 350
    assert simulate(fn, LOYALTY) == [350, 0]
    groceries = [purchase(999, 0, 1000)]
    basket = [{"category": 0, "price": 1000}]  # 2 % as a regular, plus the tier's bonus
    silver = {"history": groceries * 10, "basket": basket, "today": 1000}
    gold = {"history": groceries * 25, "basket": basket, "today": 1000}
    assert simulate(fn, silver) == [30, 1]
    assert simulate(fn, gold) == [50, 2]
    for values in (LOYALTY, silver, gold):
        assert example_data("loyalty").reference(values) == simulate(fn, values)


@pytest.mark.parametrize(
    "change",
    [
        lambda v: v["history"].reverse(),  # not in ascending order of day
        lambda v: v["history"].append(purchase(1001, 0, 500)),  # in the future
        lambda v: v["history"].append(purchase(1000, 6, 500)),  # no such category
        lambda v: v["basket"].append({"category": 6, "price": 100}),
        lambda v: v["basket"].append({"category": 0, "price": 1_000_001}),
    ],
)
def test_loyalty_bad_history_or_basket_has_no_proof(change):
    values = copy.deepcopy(LOYALTY)
    change(values)
    with pytest.raises(Failure):
        simulate(app("loyalty"), values)
    assert example_data("loyalty").reference(values) is None


A, B = ip("203.0.113.7"), ip("10.0.2.40")


def packet(t_ms: int, src: int, flags: int, length: int, dport: int = 445) -> dict:
    return {"t_ms": t_ms, "src": src, "dport": dport, "flags": flags, "length": length}


CNIDS = {
    "trace": [
        packet(10, A, 2, 60),
        packet(20, B, 16, 52),  # another source in between: no match at 0
        packet(30, A, 24, 1200),
        packet(40, A, 2, 60),  # match at 3
        packet(45, A, 16, 52),
        packet(50, A, 24, 1000),  # exactly the minimum length
        packet(5000, A, 2, 60),
        packet(5010, A, 16, 52),
        packet(7001, A, 24, 1300),  # 2001 ms after the SYN: outside the window
        packet(7002, A, 2, 60),  # match at 9
        packet(7003, A, 16, 52),
        packet(9002, A, 24, 1100),  # exactly 2000 ms
        packet(9003, B, 24, 1100, dport=80),
    ],
    "signature": [[445, 2, 0], [445, 16, 0], [445, 24, 1000]],
    "window_ms": 2000,
}


def test_cnids_by_hand():
    assert simulate(app("cnids"), CNIDS) == [A, 2, 3, 40]
    assert example_data("cnids").reference(CNIDS) == [A, 2, 3, 40]


def break_both_matches(v: dict) -> None:
    v["trace"][5] = packet(50, A, 24, 999)  # one byte short
    v["trace"][10] = packet(7003, A, 24, 52)  # PSH+ACK instead of ACK


@pytest.mark.parametrize(
    "change",
    [
        break_both_matches,
        lambda v: v["trace"].__setitem__(1, packet(5, B, 16, 52)),  # out of time order
        lambda v: v.__setitem__("trace", v["trace"][:2]),  # too short for any match
    ],
)
def test_cnids_no_alert_no_proof(change):
    values = copy.deepcopy(CNIDS)
    change(values)
    with pytest.raises(Failure):
        simulate(app("cnids"), values)
    assert example_data("cnids").reference(values) is None


def test_cnids_one_match_left():
    values = copy.deepcopy(CNIDS)
    values["trace"][5] = packet(50, A, 24, 999)
    assert simulate(app("cnids"), values) == [A, 1, 9, 7002]


# ------------------------------------------------------------------------------------------
# end to end: compile → setup → prove → verify


@pytest.fixture(scope="module")
def circuits():
    cache: dict[str, tuple[api.Circuit, api.Keys]] = {}

    def get(example: str) -> tuple[api.Circuit, api.Keys]:
        if example not in cache:
            circuit = api.compile(target(example))
            cache[example] = circuit, api.setup(circuit, seed=7)
        return cache[example]

    return get


@pytest.mark.slow
@pytest.mark.parametrize("example", APPS)
def test_proofs_match_simulate_and_verify(example, circuits):
    circuit, keys = circuits(example)
    fn = app(example)
    d = example_data(example)
    cases = [inputs(example), d.generate(bound(example), 5), d.generate(3, 6)]
    for values in cases:
        expected = simulate(fn, values)
        proof = api.prove(circuit, keys, values)
        assert proof.outputs == expected
        api.verify(circuit, keys.verifying_key, proof)
        again = api.Proof.from_json(proof.to_json())
        api.verify(circuit, keys.verifying_key, again)


HAND_MADE = {
    "fitbit": {"trace": FITBIT_TRACE, "cents_per_1000_steps": 40, "cap_cents": 90},
    "study": {"readings": STUDY_READINGS, "high_systolic": 140, "high_diastolic": 90},
    "loyalty": LOYALTY,
    "cnids": CNIDS,
}


@pytest.mark.slow
@pytest.mark.parametrize("example", APPS)
def test_hand_made_cases_prove_and_a_changed_output_is_rejected(example, circuits):
    circuit, keys = circuits(example)
    values = HAND_MADE[example]
    proof = api.prove(circuit, keys, values)
    assert proof.outputs == simulate(app(example), values)
    api.verify(circuit, keys.verifying_key, proof)
    forged = copy.deepcopy(proof.outputs)
    forged[0] = forged[0] + 1 if not isinstance(forged[0], bool) else not forged[0]
    bad = api.Proof.from_json(proof.to_json())
    object.__setattr__(bad, "outputs", forged)
    with pytest.raises(api.ProofRejected):
        api.verify(circuit, keys.verifying_key, bad)


NO_PROOF = {
    "fitbit": lambda v: v["trace"].__setitem__(3, sample(1180, 241, 660, 1280)),
    "study": lambda v: v["readings"].__setitem__(1, reading(20, 24, 145, 85, 65)),
    "loyalty": lambda v: v["history"].reverse(),
    "cnids": lambda v: v["trace"].__setitem__(1, packet(5, B, 16, 52)),
}


@pytest.mark.slow
@pytest.mark.parametrize("example", APPS)
def test_no_proof_where_simulate_fails(example, circuits):
    circuit, keys = circuits(example)
    values = copy.deepcopy(HAND_MADE[example])
    NO_PROOF[example](values)
    with pytest.raises(Failure):
        simulate(app(example), values)
    with pytest.raises(_native.UnsatisfiedError):
        api.prove(circuit, keys, values)
