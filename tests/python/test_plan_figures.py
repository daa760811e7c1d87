"""Figures users can trust (issue 28): what the planner's features read off programs it was not
calibrated on (a list crossing between regions as a vector commitment), the calibration family
that measures vector commitments, and calibration passes merged by their least measures (a
shared, loaded machine)."""

from __future__ import annotations

import pytest

from zeenot import api
from zeenot.plan.calibrate import least_of, measure
from zeenot.plan.features import features, static_wide
from zeenot.plan.programs import program

SOURCE = """
from zeenot import Committed, Private, Public, u8, u32, u64, zk


@zk
def scalar(x: Committed[u32], bar: Public[u32]) -> u64:
    return u64(x) if x >= bar else u64(0)


@zk
def vector(xs: Committed[tuple[(u32,) * 24]], bar: Public[u32]) -> u64:
    return sum(u64(x) for x in xs if x >= bar)


@zk
def narrow_out(xs: Private[tuple[(u8,) * 24]]) -> Committed[tuple[(u8,) * 24]]:
    return xs
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("figures") / "crossing.py"
    path.write_text(SOURCE)
    return str(path)


def test_a_vector_commitment_is_estimated_by_its_leaves(module):
    """Without inputs (a region whose crossing values the planner does not know) the wide
    witnesses are estimated; a vector commitment's further leaves each cost a fixed-base
    multiplication by their width, which one count per commitment missed (2.5x low on a
    50-element list crossing). Within 12 %: an output's leaves cost a little more than an
    input's (17.4 wide values per u8 leaf against 14.5)."""
    for fn, inputs in (
        ("scalar", {"x": 77, "bar": 5}),
        ("vector", {"xs": [1000 + 37 * i for i in range(24)], "bar": 5}),
        ("narrow_out", {"xs": [200 - i for i in range(24)]}),
    ):
        circuit = api.compile(f"{module}:{fn}")
        assert isinstance(circuit, api.Circuit)
        counted = features(circuit, inputs)["wide_witnesses"]
        assert static_wide(circuit) == pytest.approx(counted, rel=0.12), fn


def test_the_vector_family_proves_with_its_blinding():
    cal = program("vector", 2)
    assert cal.blindings is not None
    circuit = api.compile(cal.fn)
    assert isinstance(circuit, api.Circuit)
    got = measure(circuit, cal.inputs, 1, backends=["sigma"], blindings=cal.blindings)
    assert got["sigma"]["prove_s"] > 0 and got["sigma"]["proof_bytes"] > 0
    assert features(circuit, cal.inputs)["pedersen"] == 1  # one commitment for the tuple


def test_passes_keep_each_measures_least():
    def sample(program: str, prove: float, verify: float, size: float) -> dict:
        return {
            "program": program,
            "features": {"one": 1.0},
            "sigma": {"prove_s": prove, "verify_s": verify, "proof_bytes": size},
        }

    first = [sample("a[2]", 0.5, 0.1, 600), sample("b[2]", 1.0, 0.2, 700)]
    second = [sample("a[2]", 0.3, 0.2, 600), sample("c[2]", 2.0, 0.3, 800)]
    merged = {s["program"]: s["sigma"] for s in least_of([first, second])}
    assert merged["a[2]"] == {"prove_s": 0.3, "verify_s": 0.1, "proof_bytes": 600}
    assert merged["b[2]"]["prove_s"] == 1.0 and merged["c[2]"]["prove_s"] == 2.0
    assert [s["program"] for s in least_of([first, second])] == ["a[2]", "c[2]", "b[2]"]
    assert first[0]["sigma"]["prove_s"] == 0.5  # the passes themselves are not changed
