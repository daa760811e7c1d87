"""`sorted()` (issue 13): a fixed odd-even merge network over the list's slots. The same as
Python's `sorted` in simulate, the IR interpreter and both back ends, with duplicates, extremes,
empty and full lists of private length; a median of 31 values within a tenth of the O(n²)
version's 112,727 constraints."""

from __future__ import annotations

import itertools
import random

import pytest

from zeenot import CompileError, api, load_function, simulate
from zeenot.lang.sets import _odd_even_merge_network

from .ir_interp import outputs

SOURCE = """
from typing import NamedTuple

from zeenot import MaxSize, Private, check, i16, u8, u32, zk


@zk
def median(xs: Private[MaxSize[list[u32], 31]]) -> u32:
    check(len(xs) >= 1)
    return sorted(xs)[len(xs) // 2]


@zk
def descending(xs: Private[MaxSize[list[i16], 9]]) -> MaxSize[list[i16], 9]:
    return sorted(xs, reverse=True)


@zk
def top3(xs: Private[MaxSize[list[u32], 12]]) -> u32:
    s = sorted(xs, reverse=True)
    return s[0] + s[1] + s[2]


class Entry(NamedTuple):
    score: u32
    tag: u8


@zk
def by_score(es: Private[MaxSize[list[Entry], 7]]) -> MaxSize[list[Entry], 7]:
    return sorted(es, key=lambda e: e.score)


@zk
def by_score_desc(es: Private[MaxSize[list[Entry], 7]]) -> MaxSize[list[Entry], 7]:
    return sorted(es, key=lambda e: e.score, reverse=True)
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    path = tmp_path_factory.mktemp("sorting") / "sorts.py"
    path.write_text(SOURCE)
    return str(path)


@pytest.mark.parametrize("n", [1, 2, 4, 8, 16])
def test_the_network_sorts_every_zero_one_input(n):
    """The 0-1 principle: a comparator network that sorts every 0/1 input sorts every input."""
    network = _odd_even_merge_network(n)
    for bits in itertools.product((0, 1), repeat=n):
        v = list(bits)
        for i, j in network:
            if v[i] > v[j]:
                v[i], v[j] = v[j], v[i]
        assert v == sorted(bits)


def test_sorted_agrees_with_python(module):
    rng = random.Random(13)
    cases = {
        "median": [[7], [0, 2**32 - 1], [5] * 31, [2**32 - 1] * 31, list(range(31, 0, -1))]
        + [
            [rng.choice([0, 1, 5, 5, 9, 2**32 - 1]) for _ in range(rng.randint(1, 31))]
            for _ in range(8)
        ],
        "descending": [[], [-32768, 32767, 0], [3, 3, 3], list(range(-4, 5))]
        + [[rng.randint(-5, 5) for _ in range(rng.randint(0, 9))] for _ in range(8)],
        "top3": [[1, 2, 3], [100] * 12]
        + [[rng.randint(0, 100) for _ in range(rng.randint(3, 12))] for _ in range(8)],
    }
    for name, lists in cases.items():
        fn = load_function(module, name)
        circuit = api.compile(fn)
        for xs in lists:
            inputs = {"xs": xs}
            want = simulate(fn, inputs)
            assert outputs(circuit, inputs) == want, (name, xs)
            assert outputs(circuit, inputs, chaos=5) == want, (name, xs)


def test_sorted_on_both_back_ends(module):
    fn = load_function(module, "descending")
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=1)
    for xs in ([], [4, -2, 4, 9], [-32768, 32767]):
        want = simulate(fn, {"xs": xs})
        assert want == sorted(xs, reverse=True)
        assert api.prove(circuit, keys, {"xs": xs}).outputs == want
        assert api.prove_sigma(circuit, {"xs": xs}).outputs == want


def test_a_median_costs_a_tenth_of_the_quadratic_one(module):
    assert api.compile(f"{module}:median").stats["constraints"] <= 11_272


def test_sorting_by_a_key_is_stable(module):
    """Ties keep their original order, as Python's sort does, with and without reverse."""
    rng = random.Random(21)
    for name in ("by_score", "by_score_desc"):
        fn = load_function(module, name)
        circuit = api.compile(fn)
        for _ in range(25):
            es = [{"score": rng.randint(0, 3), "tag": i} for i in range(rng.randint(0, 7))]
            want = simulate(fn, {"es": es})
            assert outputs(circuit, {"es": es}) == want, (name, es)
            assert outputs(circuit, {"es": es}, chaos=3) == want, (name, es)
        es = [{"score": 2, "tag": 0}, {"score": 1, "tag": 1}, {"score": 2, "tag": 2}]
        keys = api.setup(circuit, seed=2)
        want = simulate(fn, {"es": es})
        assert api.prove(circuit, keys, {"es": es}).outputs == want
        assert api.prove_sigma(circuit, {"es": es}).outputs == want


def test_sorted_refuses_what_it_cannot_sort(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text(
        "from zeenot import MaxSize, Private, u32, zk\n\n\n@zk\n"
        "def main(xs: Private[MaxSize[list[u32], 4]]) -> bool:\n"
        "    return sorted(xs, key=lambda x: x > 2)[0] > 1\n"
    )
    with pytest.raises(CompileError, match="sorts by integers"):
        api.compile(load_function(str(path), "main"))
