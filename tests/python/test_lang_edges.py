"""The language's edges a newcomer met (issue 28, item 4): `Fixed` division and a rounding
constructor, sets of `Field` values, diagnostics at the user's line, `statistics`."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from zeenot import CompileError, _native, api, load_function, simulate
from zeenot.errors import Failure, ProofRejected

from .ir_interp import outputs

FIXED_DIV = """
from zeenot import Fixed, Private, Public, i64, zk


class Rate(Fixed):
    FRAC = 8


@zk
def ratio(a: Private[Rate], b: Private[Rate], limit: Public[Rate]) -> tuple[i64, bool]:
    q = a / b
    return q.raw, q <= limit


@zk
def score(income: Private[Rate], debt: Private[Rate]) -> i64:
    return (debt / income * Rate(i64(100 * 256))).floor()
"""


def _load(tmp_path: Path, source: str, name: str):  # type: ignore[no-untyped-def]
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / f"{name}_app.py"
    path.write_text(source)
    return load_function(str(path), name)


def _raw(v: int) -> dict[str, int]:
    return {"raw": v}


def test_fixed_division_floors_the_exact_quotient(tmp_path):
    fn = _load(tmp_path, FIXED_DIV, "ratio")
    rate = fn.__globals__["Rate"]
    assert (rate.of(3) / rate.of(2)).raw == 384  # 1.5 exactly
    assert (rate.of(1) / rate.of(3)).raw == 85  # 0.33203125 ≤ 1/3 < 86/256
    assert (rate.of(-1) / rate.of(3)).raw == -86  # toward −∞, as `//`
    circuit = api.compile(fn)
    rng = random.Random(28)
    cases = [(768, 512), (256, 768), (-256, 768), (5, -3), (1 << 40, 7), (-(1 << 54), 1)]
    cases += [(rng.randint(-(1 << 30), 1 << 30), rng.randint(1, 1 << 20)) for _ in range(12)]
    for a, b in cases:
        inputs = {"a": _raw(a), "b": _raw(b), "limit": _raw(1 << 12)}
        q = (a << 8) // b
        want = simulate(fn, inputs)
        assert want == [q, q <= 1 << 12], (a, b)
        assert outputs(circuit, inputs) == want
        assert api.prove_sigma(circuit, inputs).outputs == want


def test_fixed_division_by_zero_or_overflow_has_no_proof(tmp_path):
    fn = _load(tmp_path, FIXED_DIV, "ratio")
    circuit = api.compile(fn)
    for a, b in [(256, 0), (1 << 56, 1)]:  # a zero divisor; raw · 2^8 leaves i64
        inputs = {"a": _raw(a), "b": _raw(b), "limit": _raw(0)}
        with pytest.raises(Failure):
            simulate(fn, inputs)
        with pytest.raises(Exception, match="overflow|division|fails|zero"):
            api.prove_sigma(circuit, inputs)


def test_fixed_division_quotient_witness_is_pinned(tmp_path):
    """Every internal witness of the division (quotient, remainder, their range bits) is
    pinned: changing any one alone breaks a constraint, so a prover cannot claim another
    quotient; and a proof with a tampered quotient output does not verify."""
    fn = _load(tmp_path, FIXED_DIV, "ratio")
    circuit = api.compile(fn)
    inputs = {"a": _raw(-1000), "b": _raw(77), "limit": _raw(0)}
    assert _native.check_mutations(circuit.native, circuit.program.flatten_inputs(inputs)) > 0
    keys = api.setup(circuit, seed=5)
    proof = api.prove(circuit, keys, inputs)
    api.verify(circuit, keys.verifying_key, proof)
    q = proof.outputs[0]
    for wrong in (q + 1, q - 1):
        forged = dataclasses.replace(proof, outputs=[wrong, *proof.outputs[1:]])
        with pytest.raises(ProofRejected):
            api.verify(circuit, keys.verifying_key, forged)


def test_fixed_division_composes(tmp_path):
    fn = _load(tmp_path, FIXED_DIV, "score")
    circuit = api.compile(fn)
    inputs = {"income": _raw(4000 << 8), "debt": _raw(1500 << 8)}
    assert simulate(fn, inputs) == 37 == outputs(circuit, inputs)  # 37.5 % floored


def test_fixed_rounding_constructor():
    from zeenot import Fixed

    class Rate(Fixed):
        FRAC = 8

    with pytest.raises(ValueError, match='rounding="nearest"'):
        Rate.of("0.35")  # 89.6 / 256: strict by default
    assert Rate.of("0.35", rounding="nearest").raw == 90
    assert Rate.of("0.35", rounding="floor").raw == 89
    assert Rate.of("0.35", rounding="ceil").raw == 90
    assert Rate.of("-0.35", rounding="floor").raw == -90
    assert Rate.of("1.5", rounding="nearest").raw == 384  # exact values are unchanged
    assert Rate.of(Rate.of(1).raw + 0, rounding="nearest").raw == 256 << 8
    assert Rate.of("0.001953125", rounding="nearest").raw == 0  # 0.5 step: ties to even
    with pytest.raises(ValueError, match="expected one of"):
        Rate.of("0.35", rounding="up")


PSI = """
from zeenot import Field, MaxSize, Private, Public, poseidon, u32, zk
from zeenot.babyjub import Point


@zk
def common(mine: Private[MaxSize[list[Field], 6]], theirs: Public[MaxSize[list[Field], 4]]) -> u32:
    hashed = set(poseidon(c) for c in mine)
    return u32(len(hashed & set(theirs)))


@zk
def distinct(xs: Private[MaxSize[list[Field], 5]]) -> tuple[u32, bool, u32]:
    s = set(xs)
    return u32(len(s)), Field(7) in s, u32(len(s - {Field(2)} | set(xs[:1])))


@zk
def points(ps: Private[MaxSize[list[Point], 3]]) -> u32:
    return u32(len(set(ps)))
"""


def test_sets_of_field_values_the_natural_psi(tmp_path):
    from zeenot import poseidon

    fn = _load(tmp_path, PSI, "common")
    circuit = api.compile(fn)
    theirs = [str(int(poseidon(1))), str(int(poseidon(3))), "5"]
    for mine, want in [(["1", "2", "3", "3"], 2), (["4"], 0), ([], 0), (["3"] * 6, 1)]:
        inputs = {"mine": mine, "theirs": theirs}
        assert simulate(fn, inputs) == want == outputs(circuit, inputs), mine
    keys = api.setup(circuit, seed=3)
    proof = api.prove(circuit, keys, {"mine": ["1", "2", "3"], "theirs": theirs})
    assert proof.outputs == 2
    api.verify(circuit, keys.verifying_key, proof)
    with pytest.raises(ProofRejected):
        api.verify(circuit, keys.verifying_key, dataclasses.replace(proof, outputs=3))


def test_set_of_fields_operators(tmp_path):
    fn = _load(tmp_path, PSI, "distinct")
    circuit = api.compile(fn)
    for xs in (["7", "2", "7", "9"], ["2", "2"], [], ["1", "2", "3", "4", "5"]):
        inputs = {"xs": xs}
        assert simulate(fn, inputs) == outputs(circuit, inputs), xs


def test_a_set_of_points_says_what_to_write(tmp_path):
    fn = _load(tmp_path, PSI, "points")
    with pytest.raises(CompileError) as info:
        api.compile(fn)
    text = str(info.value)
    assert "integers or Field values" in text and "key=" not in text and "poseidon" in text


LIBRARY_ERROR = """
from zeenot import Field, Fixed, Private, Public, i64, zk
from zeenot.babyjub import Ciphertext, Point, encrypts_in_range


@zk
def vote(ct: Public[Ciphertext], pk: Public[Point], m: Private[Field], r: Private[Field]) -> bool:
    return encrypts_in_range(ct, pk, m, r, 0, 1)


def mine(a: Field) -> bool:
    return a < Field(3)


@zk
def own(a: Private[Field]) -> bool:
    return mine(a)
"""


def test_a_library_helpers_diagnostic_points_at_the_users_call(tmp_path):
    fn = _load(tmp_path, LIBRARY_ERROR, "vote")
    with pytest.raises(CompileError) as info:
        api.compile(fn)
    d = info.value.diagnostic
    assert d.file == fn.__code__.co_filename and d.line == 8, d
    assert "inside `encrypts_in_range`, zeenot/babyjub.py:" in d.message
    assert "return encrypts_in_range(" in info.value.render()
    # a helper of the user's own keeps the diagnostic at the helper's line
    with pytest.raises(CompileError) as info:
        api.compile(_load(tmp_path, LIBRARY_ERROR, "own"))
    assert info.value.diagnostic.line == 12 and "inside" not in info.value.diagnostic.message


STATISTICS = """
import statistics
from statistics import median

from zeenot import MaxSize, Private, u32, u64, zk


@zk
def med(xs: Private[MaxSize[list[u32], 7]]) -> u32:
    return median(xs)


@zk
def mean(xs: Private[MaxSize[list[u32], 7]]) -> u32:
    return statistics.mean(xs)


@zk
def med_idiom(xs: Private[MaxSize[list[u32], 7]]) -> u32:
    s = sorted(xs)
    n = len(s)
    return (s[(n - 1) // 2] + s[n // 2]) // 2


@zk
def mean_idiom(xs: Private[MaxSize[list[u32], 7]]) -> u64:
    return sum(u64(x) for x in xs) // len(xs)
"""


@pytest.mark.parametrize(("name", "idiom"), [("med", "sorted(xs)"), ("mean", "sum(u64(x)")])
def test_statistics_is_refused_with_the_idiom_that_works(tmp_path, name, idiom):
    fn = _load(tmp_path, STATISTICS, name)
    with pytest.raises(CompileError) as info:
        api.compile(fn)
    d = info.value.diagnostic
    assert d.code == "ZN205" and d.file == fn.__code__.co_filename, d
    assert "standard library" in d.message and idiom in (d.hint or "")


def test_the_statistics_idioms_agree_with_statistics(tmp_path):
    import statistics

    med = _load(tmp_path, STATISTICS, "med_idiom")
    mean = _load(tmp_path, STATISTICS, "mean_idiom")
    mc, ac = api.compile(med), api.compile(mean)
    for xs in ([5, 1, 4, 2], [3, 9, 1], [7], [2, 2, 8, 8, 9, 1, 1]):
        inputs = {"xs": xs}
        assert simulate(med, inputs) == int(statistics.median(xs)) == outputs(mc, inputs)
        assert simulate(mean, inputs) == int(statistics.mean(xs)) == outputs(ac, inputs)
    with pytest.raises(Failure):
        simulate(med, {"xs": []})


CHECK_EQ = """
from zeenot import Private, Public, check, u32, zk


@zk
def checked(a: Private[u32], b: Public[u32]) -> u32:
    check(a == b)
    return a // 2


@zk
def unchecked(a: Private[u32], b: Public[u32]) -> u32:
    return a // 2


@zk
def returned(a: Private[u32], b: Public[u32]) -> tuple[u32, bool]:
    e = a == b
    check(e)
    return a // 2, e
"""


def test_check_of_an_equality_is_one_constraint(tmp_path):
    """`check(a == b)` costs one linear constraint over the program without it (the equality
    gadget's inverse witness and three constraints are not built: issue 28, item 6); an
    equality also returned keeps the gadget."""
    count = {
        name: api.compile(_load(tmp_path, CHECK_EQ, name)).stats["constraints"]
        for name in ("checked", "unchecked", "returned")
    }
    assert count["checked"] == count["unchecked"] + 1, count
    assert count["returned"] >= count["checked"] + 3, count


def test_check_of_an_equality_rejects_unequal_values(tmp_path):
    fn = _load(tmp_path, CHECK_EQ, "checked")
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=11)
    good = {"a": 7, "b": 7}
    assert _native.check_mutations(circuit.native, circuit.program.flatten_inputs(good)) > 0
    proof = api.prove(circuit, keys, good)
    api.verify(circuit, keys.verifying_key, proof)
    with pytest.raises(_native.UnsatisfiedError):  # no proof for a ≠ b
        api.prove(circuit, keys, {"a": 7, "b": 8})
    # the proof does not carry over to another public b
    forged = dataclasses.replace(proof, public_inputs=[8])
    with pytest.raises((ProofRejected, api.MalformedInput)):
        api.verify(circuit, keys.verifying_key, forged)


FIXED_OF = """
from zeenot import Fixed, Private, i64, zk

RATE = "0.35"


class Rate(Fixed):
    FRAC = 8


@zk
def scaled(a: Private[Rate]) -> i64:
    return (a * Rate.of(3) + Rate.of(RATE, rounding="nearest") - Rate.of("0.5")).raw
"""


def test_fixed_of_builds_a_constant_in_zk_code(tmp_path):
    """`Rate.of(...)` inside @zk code is the constant `Rate.of` builds in Python: the same
    value, the same rounding, the same refusal of an inexact decimal."""
    fn = _load(tmp_path, FIXED_OF, "scaled")
    rate = fn.__globals__["Rate"]
    want = (rate(384) * rate.of(3) + rate.of("0.35", rounding="nearest") - rate.of("0.5")).raw
    assert simulate(fn, {"a": _raw(384)}) == want == 384 * 3 + 90 - 128
    assert api.prove_sigma(api.compile(fn), {"a": _raw(384)}).outputs == want

    inexact = FIXED_OF.replace('Rate.of(RATE, rounding="nearest")', "Rate.of(RATE)")
    with pytest.raises(CompileError, match=r"ZN212.*not a multiple of 2\^-8") as info:
        api.compile(_load(tmp_path / "inexact", inexact, "scaled"))
    assert info.value.diagnostic.line == 13  # the `return` line, at the `Rate.of` call
    private = FIXED_OF.replace("Rate.of(3)", "Rate.of(a)")
    with pytest.raises(CompileError, match="known when compiling"):
        api.compile(_load(tmp_path / "private", private, "scaled"))
