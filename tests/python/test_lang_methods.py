"""Methods and operators on records: a record class's own methods (`rec.total()`), class
constants (`self.FRAC`) and the operators it defines (`__add__`, `__mul__`, `__lt__`, …) are
inlined as helpers are. Fixed point written in the language itself is the test bed: the same
as Python in simulate, the IR interpreter and both back ends, overflow included."""

from __future__ import annotations

import random

import pytest

from zeenot import CompileError, api, load_function, simulate
from zeenot.errors import Failure

from .ir_interp import outputs

SOURCE = '''
from dataclasses import dataclass

from zeenot import MaxSize, Private, Public, i64, u8, u32, zk


@dataclass(frozen=True)
class Q8:
    """Fixed point with 8 fractional bits over i64."""

    raw: i64
    FRAC = 8

    def __add__(self, other: "Q8") -> "Q8":
        return Q8(self.raw + other.raw)

    def __sub__(self, other: "Q8") -> "Q8":
        return Q8(self.raw - other.raw)

    def __mul__(self, other: "Q8") -> "Q8":
        return Q8(self.raw * other.raw // i64(1 << self.FRAC))

    def __lt__(self, other: "Q8") -> bool:
        return self.raw < other.raw

    def __ge__(self, other: "Q8") -> bool:
        return self.raw >= other.raw

    def floor(self) -> i64:
        return self.raw // i64(1 << self.FRAC)

    def scaled(self, k: u8) -> "Q8":
        return Q8(self.raw * i64(k))


@dataclass(frozen=True)
class Shape:
    w: u32
    h: u32

    def area(self) -> u32:
        return self.w * self.h


@dataclass(frozen=True)
class Square(Shape):
    def side(self) -> u32:
        return self.w


@zk
def compound(balance: Private[Q8], rate: Public[Q8]) -> tuple[i64, bool, bool]:
    b = balance
    for _ in range(3):
        b = b + b * rate
    return b.floor(), b >= balance, (b - balance).scaled(u8(2)) < Q8(i64(1 << 20))


@zk
def areas(shapes: Private[MaxSize[list[Square], 4]]) -> u32:
    return sum(s.area() + s.side() for s in shapes)


@zk
def plain(a: Private[Shape], b: Private[Shape]) -> u32:
    return (a + b).w
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    path = tmp_path_factory.mktemp("methods") / "records.py"
    path.write_text(SOURCE)
    return str(path)


def test_fixed_point_operators_agree_with_python(module):
    fn = load_function(module, "compound")
    circuit = api.compile(fn)
    rng = random.Random(3)
    cases = [(0, 0), (256, 13), (-25_600, 13), (1 << 40, 255), (-(1 << 30), -256)]
    cases += [(rng.randint(-(1 << 32), 1 << 32), rng.randint(-300, 300)) for _ in range(15)]
    for balance, rate in cases:
        inputs = {"balance": {"raw": balance}, "rate": {"raw": rate}}
        want = simulate(fn, inputs)
        assert outputs(circuit, inputs) == want, inputs
        assert outputs(circuit, inputs, chaos=4) == want, inputs
    keys = api.setup(circuit, seed=1)
    inputs = {"balance": {"raw": 25_600}, "rate": {"raw": 13}}
    want = simulate(fn, inputs)
    assert want[0] == 116  # 100 at 13/256 a period, three periods
    assert api.prove(circuit, keys, inputs).outputs == want
    assert api.prove_sigma(circuit, inputs).outputs == want


def test_overflow_in_an_operator_fails_as_in_python(module):
    fn = load_function(module, "compound")
    circuit = api.compile(fn)
    inputs = {"balance": {"raw": 1 << 50}, "rate": {"raw": 1 << 20}}  # the product overflows i64
    with pytest.raises(Failure):
        simulate(fn, inputs)
    with pytest.raises(Exception, match="overflow|fails"):
        api.prove_sigma(circuit, inputs)


def test_methods_and_inherited_methods(module):
    fn = load_function(module, "areas")
    circuit = api.compile(fn)
    shapes = [{"w": 3, "h": 4}, {"w": 5, "h": 5}]
    assert simulate(fn, {"shapes": shapes}) == 12 + 3 + 25 + 5
    assert outputs(circuit, {"shapes": shapes}) == 45


def test_a_record_without_the_operator_is_a_diagnostic(module):
    with pytest.raises(CompileError) as exc:
        api.compile(f"{module}:plain")
    assert exc.value.diagnostic.code == "ZN303"


def test_generated_dataclass_ordering_is_not_inlined(tmp_path):
    """`order=True` makes Python generate `__lt__`; it has no source to inline: a diagnostic."""
    path = tmp_path / "ordered.py"
    path.write_text(
        "from dataclasses import dataclass\n\nfrom zeenot import Private, u32, zk\n\n\n"
        "@dataclass(frozen=True, order=True)\nclass P:\n    x: u32\n\n\n@zk\n"
        "def f(a: Private[P], b: Private[P]) -> bool:\n    return a < b\n"
    )
    with pytest.raises(CompileError):
        api.compile(f"{path}:f")


FIXED_SOURCE = """
from zeenot import Fixed, MaxSize, Private, Public, i64, u32, zk


class Rate(Fixed):
    FRAC = 8


class Money(Fixed):
    FRAC = 4


@zk
def grow(start: Private[Rate], rate: Public[Rate], periods: Public[u32]) -> tuple[i64, bool]:
    x = start
    for k in range(4):
        if u32(k) < periods:
            x = x + x * rate
    return x.floor(), x > start


@zk
def total(items: Private[MaxSize[list[Money], 6]], cap: Public[Money]) -> tuple[i64, bool, i64]:
    s = Money(i64(0))
    for m in items:
        s = s + m
    return s.raw, s <= cap, s // Money(i64(16))
"""


def test_the_library_fixed_type(tmp_path):
    from zeenot import Fixed

    path = tmp_path / "fixed.py"
    path.write_text(FIXED_SOURCE)
    module = str(path)
    rate_cls = load_function(module, "grow").__globals__["Rate"]
    assert rate_cls.of("1.5").raw == 384 and rate_cls(384).to_float() == 1.5
    with pytest.raises(ValueError):
        rate_cls.of("0.001")  # not a multiple of 1/256
    assert issubclass(rate_cls, Fixed)
    fn = load_function(module, "grow")
    circuit = api.compile(fn)
    rng = random.Random(9)
    cases = [(256, 13, 3), (-(1 << 20), 100, 4), (0, 255, 0), (1 << 40, 1 << 12, 4)]
    cases += [
        (rng.randint(-(1 << 24), 1 << 24), rng.randint(0, 600), rng.randint(0, 4))
        for _ in range(10)
    ]
    for start, rate, periods in cases:
        inputs = {"start": {"raw": start}, "rate": {"raw": rate}, "periods": periods}
        try:
            want = simulate(fn, inputs)
        except Failure:
            with pytest.raises(Exception, match="overflow|fails"):
                api.prove_sigma(circuit, inputs)
            continue
        assert outputs(circuit, inputs) == want, inputs
        assert outputs(circuit, inputs, chaos=2) == want, inputs
    total = load_function(module, "total")
    tc = api.compile(total)
    keys = api.setup(tc, seed=2)
    inputs = {"items": [{"raw": 40}, {"raw": -8}, {"raw": 17}], "cap": {"raw": 50}}
    want = simulate(total, inputs)
    assert want == [49, True, 3]  # 2.5 - 0.5 + 1.0625 = 3.0625, floor-divided by 1.0
    assert api.prove(tc, keys, inputs).outputs == want
    assert api.prove_sigma(tc, inputs).outputs == want
