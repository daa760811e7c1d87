"""The middle end (zeenot.lang.passes): shared subexpressions, no guard where nothing can
fail, dead code, constant folding. Golden checks on the IR, the k-anonymity bound of issue 13,
and the meaning kept (simulate = proofs on both back ends)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from zeenot import api
from zeenot.lang.passes import can_fail
from zeenot.simulate import simulate

PROGRAMS = Path(__file__).parent / "programs"

SOURCE = """
from zeenot import Private, Public, check, i32, u8, u32, u64, zk


@zk
def branches(x: Private[u32], y: Private[u32], flag: Private[bool]) -> u32:
    if flag:
        a = x // 10 + y
    else:
        a = x // 10 + u32(1)
    return a + x // 10


@zk
def fallible(x: Private[u32], y: Private[u32], flag: Private[bool]) -> u32:
    if flag:
        a = x + y
    else:
        a = x + y + u32(1)
    b = x + y
    c = x + y
    return a + b + c


@zk
def dead(x: Private[u32], y: Private[u32]) -> u32:
    unused = x < y
    also = u64(x) * u64(3)
    return x // y


@zk
def folded(x: Private[u32], k: Private[u8]) -> tuple[u32, bool, i32, u8]:
    a = u32(3) * u32(4) + u32(5)
    table = (u8(10), u8(20), u8(30))
    return x + a, u32(7) < u32(9) and not u8(1) == u8(2), i32(-7) // i32(2), table[u8(2)] + k


@zk
def kept(flag: Private[bool], d: Private[u32]) -> tuple[u8, u32]:
    if flag:
        return u8(200) + u8(100), u32(1) // (d - d)
    return u8(1), u32(2)


@zk
def divisors(x: Private[i32], flag: Private[bool]) -> i32:
    if flag:
        return x // i32(-1) + x // i32(7)
    return i32(0)
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("opt") / "progs.py"
    path.write_text(SOURCE)
    return path


def ir(module: Path, name: str) -> dict:
    return api.compile(f"{module}:{name}").program.ir


def ops(doc: dict) -> Counter:
    return Counter(i["op"] for i in doc["body"])


def test_a_value_computed_in_both_branches_is_computed_once(module):
    doc = ir(module, "branches")
    divs = [i for i in doc["body"] if i["op"] == "floordiv"]
    assert len(divs) == 1 and divs[0]["guard"] is None  # / 10 cannot fail: no guard
    ids = [i["id"] for i in doc["inputs"]] + [i["id"] for i in doc["body"] if "id" in i]
    assert ids == list(range(len(ids)))  # dense after dead code is removed


def test_fallible_instructions_are_shared_only_under_the_same_guard(module):
    doc = ir(module, "fallible")
    adds = [i for i in doc["body"] if i["op"] == "add" and i["args"][:2] == [0, 1]]
    # x + y under `flag`, under `not flag`, and once unguarded for b and c (shared)
    assert sorted(str(i["guard"]) for i in adds).count("None") == 1
    assert len(adds) == 3


def test_dead_values_go_but_failures_stay(module):
    doc = ir(module, "dead")
    counts = ops(doc)
    assert "lt" not in counts  # an unused comparison cannot fail: removed
    assert counts["mul"] == 1  # an unused multiplication may overflow: kept
    assert counts["floordiv"] == 1 and doc["body"][-1]["op"] != "const"


def test_division_by_minus_one_or_zero_keeps_its_guard(module):
    doc = ir(module, "divisors")
    divs = {i["args"][1]: i for i in doc["body"] if i["op"] == "floordiv"}
    consts = {i["id"]: int(i["value"]) for i in doc["body"] if i["op"] == "const"}
    by_value = {consts[k]: d for k, d in divs.items()}
    assert by_value[-1]["guard"] is not None  # i32 MIN // -1 overflows
    assert by_value[7]["guard"] is None


def test_can_fail_reads_types_and_constants():
    assert not can_fail("cast", "u32", "u8", None)
    assert can_fail("cast", "u8", "u32", None)
    assert not can_fail("cast", "i64", "u32", None) and can_fail("cast", "i32", "u32", None)
    assert can_fail("cast", "u64", "i32", None)  # a negative value does not fit
    assert not can_fail("cast", "u8", "bool", None) and not can_fail("cast", "field", "i32", None)
    assert can_fail("floordiv", "u32", "u32", 0)
    assert not can_fail("mod", "u32", "u32", 3)
    assert can_fail("add", "u32", "u32", None)


@pytest.mark.parametrize("flag", [True, False])
def test_meaning_is_kept(module, flag):
    for name, inputs in (
        ("branches", {"x": 1234, "y": 5, "flag": flag}),
        ("fallible", {"x": 7, "y": 9, "flag": flag}),
        ("divisors", {"x": -50, "flag": flag}),
    ):
        circuit = api.compile(f"{module}:{name}")
        want = simulate(api.load_target(f"{module}:{name}"), inputs)
        assert api.prove_sigma(circuit, inputs).outputs == want
        keys = api.setup(circuit, seed=1)
        assert api.prove(circuit, keys, inputs).outputs == want


def test_k_anonymity_written_naturally_costs_what_hoisted_costs():
    natural = api.compile(f"{PROGRAMS / 'kanon.py'}:k_anonymous")
    hoisted = api.compile(f"{PROGRAMS / 'kanon.py'}:k_anonymous_hoisted")
    assert natural.stats["constraints"] <= 1.1 * hoisted.stats["constraints"]
    people = [{"zip": 10_000 + 100 * (i % 3) + i, "age": 30 + i % 4} for i in range(12)]
    keys = api.setup(natural, seed=2)
    for k, anonymous in ((4, True), (5, False)):  # three groups of four
        inputs = {"people": people, "k": k}
        want = simulate(api.load_target(f"{PROGRAMS / 'kanon.py'}:k_anonymous"), inputs)
        assert want is anonymous
        assert api.prove(natural, keys, inputs).outputs == want


def test_constants_fold_to_constants(module):
    doc = ir(module, "folded")
    counts = ops(doc)
    assert counts["mul"] == 0 and counts["floordiv"] == 0 and counts["lt"] == 0
    assert counts["eq"] == 0 and counts["index"] == 0 and counts["not"] == 0
    assert counts["add"] == 2  # x + 17 and 30 + k: only what depends on the inputs
    values = {i["value"] for i in doc["body"] if i["op"] == "const"}
    assert {"17", "-4", "30"} <= values  # 3·4+5, -7 // 2 (floor, as Python), table[2]
    fn = api.load_target(f"{module}:folded")
    for x, k in ((0, 0), (2**32 - 18, 225)):
        inputs = {"x": x, "k": k}
        assert api.prove_sigma(api.compile(fn), inputs).outputs == simulate(fn, inputs)


def test_folding_keeps_what_fails(module):
    """An overflow or a division by zero of constants stays an instruction (under its guard),
    so the program still fails exactly where Python does."""
    doc = ir(module, "kept")
    adds = [i for i in doc["body"] if i["op"] == "add"]
    assert len(adds) == 1 and adds[0]["guard"] is not None
    fn = api.load_target(f"{module}:kept")
    circuit = api.compile(fn)
    assert simulate(fn, {"flag": False, "d": 3}) == [1, 2]
    assert api.prove_sigma(circuit, {"flag": False, "d": 3}).outputs == [1, 2]
    with pytest.raises(Exception, match="overflow|out of range"):
        simulate(fn, {"flag": True, "d": 3})
    with pytest.raises(Exception, match="fails|overflow|out of range"):
        api.prove_sigma(circuit, {"flag": True, "d": 3})
