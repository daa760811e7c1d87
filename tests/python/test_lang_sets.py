"""Sets (issue 13): `set(xs)` of integers, and `len`, `in`, `sum`, comprehensions, `sorted` and
`& | - ^` on them, built by the sorting network (O(n log² n) comparisons) or by pairwise
equality (O(n²) tests of a few constraints each), whichever costs less for the list's size and
type. Both constructions are the same as Python in simulate, the IR interpreter (with
unspecified values scrambled) and both back ends; the choice is the cheaper one. Group-by sums
(`group_sum`) sort by key and restart running sums at each new key."""

from __future__ import annotations

import random

import pytest

from zeenot import CompileError, _native, api, load_function, simulate
from zeenot.lang import sets

from .ir_interp import outputs

SOURCE = """
from typing import NamedTuple

from zeenot import MaxSize, Private, Public, group_sum, i8, i16, u8, u32, u64, zk


class Sale(NamedTuple):
    shop: u8
    delta: i8


@zk
def distinct(xs: Private[MaxSize[list[u32], 12]]) -> u32:
    return u32(len(set(xs)))


@zk
def combine(
    xs: Private[MaxSize[list[i8], 8]], ys: Public[MaxSize[list[i8], 6]]
) -> tuple[u32, u32, u32, u32, u32]:
    a, b = set(xs), set(ys)
    return u32(len(a & b)), u32(len(a | b)), u32(len(a - b)), u32(len(b - a)), u32(len(a ^ b))


@zk
def summary(xs: Private[MaxSize[list[u8], 10]], x: Public[u8]) -> tuple[bool, u64, u32, u32]:
    s = set(xs)
    evens = sum(u32(1) for v in s if v % 2 == 0)
    smallest = u32(sorted(s)[0]) if len(s) > 0 else u32(0)
    return x in s, sum(u64(v) for v in s), evens, smallest


@zk
def per_shop(sales: Private[MaxSize[list[Sale], 9]]) -> tuple[u32, i16, i16, bool]:
    groups = group_sum(sales, lambda s: s.shop, lambda s: i16(s.delta))
    best = max((t for _, t in groups), default=i16(0))
    first = next((t for _, t in groups), i16(0))  # the smallest shop's total: key order
    return u32(len(groups)), best, first, any(k == 3 and t < 0 for k, t in groups)


@zk
def per_shop_narrow(sales: Private[MaxSize[list[Sale], 6]]) -> i8:
    return sum(t for _, t in group_sum(sales, lambda s: s.shop, lambda s: s.delta))


@zk
def distinct_pairwise(xs: Private[MaxSize[list[u8], 160]]) -> u32:
    return sum(u32(1) for i, x in enumerate(xs) if not any(xs[j] == x for j in range(i)))


@zk
def distinct_by_set(xs: Private[MaxSize[list[u8], 160]]) -> u32:
    return u32(len(set(xs)))
"""


@pytest.fixture(params=["auto", "sorting", "pairwise"])
def construction(request, monkeypatch):
    """Each test runs with the cost-based choice and with each construction forced."""
    forced = {"sorting": True, "pairwise": False}.get(request.param)
    if forced is not None:
        monkeypatch.setattr(sets, "_set_by_sorting", lambda *_: forced)
    return request.param


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    path = tmp_path_factory.mktemp("sets") / "sets.py"
    path.write_text(SOURCE)
    return str(path)


def agree(module, name, cases):
    fn = load_function(module, name)
    circuit = api.compile(fn)
    for inputs in cases:
        want = simulate(fn, inputs)
        assert outputs(circuit, inputs) == want, (name, inputs)
        assert outputs(circuit, inputs, chaos=7) == want, (name, inputs)
    return fn, circuit


def test_distinct_counts_agree_with_python(module, construction):
    rng = random.Random(5)
    cases = [[], [7], [3, 3, 3], [0, 2**32 - 1, 0], list(range(12)), [9] * 12]
    cases += [
        [rng.choice([0, 1, 2, 2**32 - 1]) for _ in range(rng.randint(0, 12))] for _ in range(10)
    ]
    agree(module, "distinct", [{"xs": xs} for xs in cases])


def test_set_algebra_agrees_with_python(module, construction):
    rng = random.Random(6)
    cases = [
        ([], []),
        ([1, 2], []),
        ([], [1, 1]),
        ([-128, 127, 0], [0, 127, 127]),
        ([5] * 8, [5] * 6),
    ]
    for _ in range(20):
        xs = [rng.randint(-3, 3) for _ in range(rng.randint(0, 8))]
        ys = [rng.randint(-3, 3) for _ in range(rng.randint(0, 6))]
        cases.append((xs, ys))
    fn, circuit = agree(module, "combine", [{"xs": xs, "ys": ys} for xs, ys in cases])
    for xs, ys in cases[:5]:
        a, b = set(xs), set(ys)
        assert simulate(fn, {"xs": xs, "ys": ys}) == [
            len(a & b),
            len(a | b),
            len(a - b),
            len(b - a),
            len(a ^ b),
        ]


def test_membership_sums_filters_and_sorting_on_sets(module, construction):
    rng = random.Random(7)
    cases = [{"xs": [], "x": 0}, {"xs": [4, 4, 2], "x": 4}, {"xs": [255] * 10, "x": 254}]
    cases += [
        {"xs": [rng.randint(0, 6) for _ in range(rng.randint(0, 10))], "x": rng.randint(0, 6)}
        for _ in range(15)
    ]
    agree(module, "summary", cases)


def test_sets_on_both_back_ends(module, construction):
    fn = load_function(module, "combine")
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=1)
    for xs, ys in (([3, -1, 3, 2], [2, 2, 5]), ([], [1])):
        inputs = {"xs": xs, "ys": ys}
        want = simulate(fn, inputs)
        assert api.prove(circuit, keys, inputs).outputs == want
        assert api.prove_sigma(circuit, inputs).outputs == want
        assert _native.check_mutations(circuit.native, circuit.program.flatten_inputs(inputs)) > 0


def test_the_cheaper_construction_is_chosen(module, monkeypatch):
    """160 bytes: sorting (41,153 constraints) beats the pairwise count (65,748) written by
    hand or built by `set`; at 16 values of u32 the pairwise construction wins and is chosen."""
    pairwise = api.compile(f"{module}:distinct_pairwise").stats["constraints"]
    by_set = api.compile(f"{module}:distinct_by_set").stats["constraints"]
    assert by_set * 3 < pairwise * 2, (by_set, pairwise)
    small = api.compile(f"{module}:distinct").stats["constraints"]
    monkeypatch.setattr(sets, "_set_by_sorting", lambda *_: True)
    assert small < api.compile(f"{module}:distinct").stats["constraints"]


def test_group_sums_agree_with_python(module):
    rng = random.Random(8)
    cases = [[], [{"shop": 3, "delta": -5}], [{"shop": 1, "delta": 127}] * 9]
    for _ in range(20):
        n = rng.randint(0, 9)
        cases.append(
            [{"shop": rng.randint(0, 4), "delta": rng.randint(-128, 127)} for _ in range(n)]
        )
    fn, circuit = agree(module, "per_shop", [{"sales": c} for c in cases])
    keys = api.setup(circuit, seed=4)
    inputs = {"sales": cases[5]}
    want = simulate(fn, inputs)
    assert api.prove(circuit, keys, inputs).outputs == want
    assert api.prove_sigma(circuit, inputs).outputs == want


def test_group_sum_overflow_fails_as_in_python(module):
    """i8 totals: 100 + 100 overflows in Python, in the IR and in both provers alike; the
    same values with -100 first do not (each group adds in the list's order)."""
    fn = load_function(module, "per_shop_narrow")
    circuit = api.compile(fn)
    fine = [{"shop": 1, "delta": -100}, {"shop": 1, "delta": 100}, {"shop": 1, "delta": 100}]
    assert simulate(fn, {"sales": fine}) == 100
    assert outputs(circuit, {"sales": fine}) == 100
    bad = [{"shop": 1, "delta": 100}, {"shop": 2, "delta": 1}, {"shop": 1, "delta": 100}]
    with pytest.raises(Exception, match="overflow|out of range"):
        simulate(fn, {"sales": bad})
    with pytest.raises(_native.UnsatisfiedError):
        outputs(circuit, {"sales": bad})
    with pytest.raises(_native.UnsatisfiedError):
        api.prove_sigma(circuit, {"sales": bad})


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("return u32(len(set()))", "`set()` takes one list"),
        ("return u32(len(set(xs) + set(xs)))", "combine sets made with `set(xs)`"),
        ("return u32(len(set(xs) & xs))", "combine sets made with `set(xs)`"),
        ("return set(xs)[0]", "filtered list"),
        ("return u32(len(group_sum(xs, lambda x: x, lambda x: 1)))", "give the value a sized"),
    ],
)
def test_unsupported_set_forms_have_hints(tmp_path, body, message):
    path = tmp_path / "bad.py"
    path.write_text(
        "from zeenot import MaxSize, Private, group_sum, u32, zk\n\n\n@zk\n"
        f"def f(xs: Private[MaxSize[list[u32], 4]]) -> u32:\n    {body}\n"
    )
    with pytest.raises(CompileError) as exc:
        api.compile(f"{path}:f")
    assert message in str(exc.value) or message in (exc.value.diagnostic.hint or ""), exc.value
