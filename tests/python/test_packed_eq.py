"""Packed equalities (zeenot.lang.passes.packed_eq, issue 28): `a == b and c == d` over values of
known widths is one equality of packed values. The natural k-anonymity check costs what its
hand-packed twin costs (4,624 -> 3,600 constraints, the twin's 3,600); unequal pairs stay unequal,
including pairs that would collide if the widths were ignored; the meaning is kept on both back
ends, the IR interpreter and `simulate`; and nothing is packed that does not fit."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from zeenot import api
from zeenot.simulate import simulate

from .ir_interp import outputs

PROGRAMS = Path(__file__).parent / "programs"
KANON = PROGRAMS / "kanon_pairs.py"

SOURCE = """
from zeenot import Private, Public, check, i8, i16, u8, u16, u32, u64, zk


@zk
def pair(a: Private[u16], b: Private[u16], c: Private[u16], d: Private[u16]) -> bool:
    return a == b and c == d


@zk
def pair_checked(a: Private[u16], b: Private[u16], c: Private[u16], d: Public[u16]) -> u16:
    check(a == b and c == d)
    return a


@zk
def three(a: Private[u8], b: Private[u8], c: Private[bool], d: Private[bool],
          e: Private[u32], f: Private[u32]) -> bool:
    return a == b and c == d and e == f


@zk
def signed(a: Private[i8], b: Private[i8], c: Private[i16], d: Private[i16]) -> bool:
    return a == b and c == d


@zk
def differ(a: Private[u32], b: Private[u32], c: Private[u8], d: Private[u8]) -> bool:
    return a != b or c != d


@zk
def narrowed(x: Private[u32], y: Private[u32], s: Private[i16], t: Private[i16]) -> bool:
    return x // 1000 == y // 1000 and s % 7 == t % 7


@zk
def too_wide(a: Private[u64], b: Private[u64], c: Private[u8], d: Private[u8]) -> bool:
    return a == b and c == d


@zk
def reused(
    a: Private[u8], b: Private[u8], c: Private[u8], d: Private[u8]
) -> tuple[bool, bool, bool]:
    e, f = a == b, c == d
    return e and f, e, f
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("packed") / "packed.py"
    path.write_text(SOURCE)
    return str(path)


def _ops(target: str) -> Counter[str]:
    circuit = api.compile(target)
    assert isinstance(circuit, api.Circuit)
    return Counter(i["op"] for i in circuit.program.body)


def _unpacked(target: str) -> api.Circuit:
    """The program compiled with the pass off (what it cost before)."""

    def off(inputs: Any, body: Any, values: Any, next_id: Any) -> Any:
        return body

    with mock.patch("zeenot.lang.compiler.pack_equalities", off):
        circuit = api.compile(target)
    assert isinstance(circuit, api.Circuit)
    return circuit


def test_natural_k_anonymity_costs_what_its_hand_packed_twin_costs():
    natural = api.compile(f"{KANON}:k_anonymous")
    twin = api.compile(f"{KANON}:k_anonymous_packed")
    before = _unpacked(f"{KANON}:k_anonymous")
    n, t, b = (c.stats["constraints"] for c in (natural, twin, before))
    assert n <= 1.1 * t, (n, t)
    assert b > 1.2 * t  # what it cost before packing (4,624 against 3,600)
    people = [{"zip": 10_000 + 100 * (i % 3) + i, "age": 30 + i % 4} for i in range(12)]
    keys = api.setup(natural, seed=2)
    for k, anonymous in ((4, True), (5, False)):  # three groups of four
        inputs = {"people": people, "k": k}
        want = simulate(api.load_target(f"{KANON}:k_anonymous"), inputs)
        assert want is anonymous
        assert simulate(api.load_target(f"{KANON}:k_anonymous_packed"), inputs) is anonymous
        assert api.prove(natural, keys, inputs).outputs == want
        assert api.prove_sigma(natural, inputs).outputs == want


def test_the_conjunction_is_one_equality(module):
    for fn, eqs in (("pair", 1), ("three", 1), ("signed", 1), ("narrowed", 1)):
        ops = _ops(f"{module}:{fn}")
        assert ops["and"] == 0 and ops["eq"] == eqs, (fn, ops)
    ops = _ops(f"{module}:differ")
    assert ops["or"] == 0 and ops["ne"] == 1
    # the narrowed pair packs in the intervals // and % leave, not the types' widths
    before = _unpacked(f"{module}:narrowed").stats["constraints"]
    assert api.compile(f"{module}:narrowed").stats["constraints"] < before


def test_nothing_is_packed_that_does_not_fit_or_saves_nothing(module):
    ops = _ops(f"{module}:too_wide")  # 64 + 8 bits: no 64-bit type holds the packed value
    assert ops["and"] == 1 and ops["eq"] == 2
    ops = _ops(f"{module}:reused")  # both equalities are outputs too: they stay
    assert ops["and"] == 1 and ops["eq"] == 2


# Pairs that an ill-chosen packing would merge: (a, c) = (1, 0) against (b, d) = (0, 256) is
# equal under a shift of 8 bits, but a u16 `c` needs 16; and 65,535 + 1 carries into the next
# field when the low part is not offset.
COLLIDING = [
    {"a": 1, "b": 0, "c": 0, "d": 256},
    {"a": 0, "b": 1, "c": 256, "d": 0},
    {"a": 1, "b": 0, "c": 0, "d": 65_536 - 1},
    {"a": 2, "b": 1, "c": 0, "d": 65_535},
    {"a": 1, "b": 1, "c": 65_535, "d": 65_534},
    {"a": 65_535, "b": 65_535, "c": 65_535, "d": 65_535},
    {"a": 0, "b": 0, "c": 0, "d": 0},
]


def _agree(target: str, inputs: dict[str, Any], keys: api.Keys) -> Any:
    circuit = api.compile(target)
    assert isinstance(circuit, api.Circuit)
    want = simulate(api.load_target(target), inputs)
    assert outputs(circuit, inputs) == want
    assert api.prove(circuit, keys, inputs).outputs == want
    assert api.prove_sigma(circuit, inputs).outputs == want
    return want


def test_unequal_pairs_are_unequal_on_every_back_end(module):
    target = f"{module}:pair"
    keys = api.setup(api.compile(target), seed=3)
    for inputs in COLLIDING:
        want = inputs["a"] == inputs["b"] and inputs["c"] == inputs["d"]
        assert _agree(target, inputs, keys) is want


def test_a_checked_conjunction_has_no_proof_for_unequal_pairs(module):
    target = f"{module}:pair_checked"
    circuit = api.compile(target)
    assert isinstance(circuit, api.Circuit)
    keys = api.setup(circuit, seed=4)
    for inputs in COLLIDING:
        ok = inputs["a"] == inputs["b"] and inputs["c"] == inputs["d"]
        if ok:
            assert api.prove(circuit, keys, inputs).outputs == inputs["a"]
            continue
        with pytest.raises(Exception, match="check"):
            api.prove(circuit, keys, inputs)
        with pytest.raises(Exception, match="check"):
            api.prove_sigma(circuit, inputs)


def test_meaning_is_kept_on_random_values(module):
    rng = random.Random(28)
    draw = {
        "u8": lambda: rng.choice([0, 1, 255, rng.randrange(256)]),
        "u16": lambda: rng.choice([0, 1, 255, 256, 65_535, rng.randrange(65_536)]),
        "u32": lambda: rng.choice([0, 999, 1000, 2**32 - 1, rng.randrange(2**32)]),
        "i8": lambda: rng.choice([-128, -1, 0, 127, rng.randrange(-128, 128)]),
        "i16": lambda: rng.choice([-32_768, -7, 0, 7, 32_767, rng.randrange(-32_768, 32_768)]),
        "bool": lambda: rng.random() < 0.5,
    }
    shapes = {
        "three": {"a": "u8", "b": "u8", "c": "bool", "d": "bool", "e": "u32", "f": "u32"},
        "signed": {"a": "i8", "b": "i8", "c": "i16", "d": "i16"},
        "differ": {"a": "u32", "b": "u32", "c": "u8", "d": "u8"},
        "narrowed": {"x": "u32", "y": "u32", "s": "i16", "t": "i16"},
    }
    for fn, shape in shapes.items():
        target = f"{module}:{fn}"
        keys = api.setup(api.compile(target), seed=5)
        seen = set()
        for _ in range(12):
            inputs = {k: draw[t]() for k, t in shape.items()}
            if rng.random() < 0.5:  # equal pairs too, not only unequal ones
                names = list(shape)
                for x, y in zip(names[::2], names[1::2], strict=True):
                    inputs[y] = inputs[x]
            seen.add(_agree(target, inputs, keys))
        assert seen == {True, False}, fn
