"""Run-time types: range checks at every width, Python floor semantics, Field arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zeenot import (
    CheckFailure,
    DivisionByZeroFailure,
    Field,
    OverflowFailure,
    RangeFailure,
    check,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
)
from zeenot.types import P

ALL = [u8, u16, u32, u64, i8, i16, i32, i64]


@pytest.mark.parametrize("t", ALL, ids=lambda t: t.NAME)
def test_construction_edges(t):
    assert t(t.LO) == t.LO and t(t.HI) == t.HI
    for bad in (t.LO - 1, t.HI + 1):
        with pytest.raises(OverflowFailure) as info:
            t(bad)
        assert info.value.kind == "overflow"
    assert t(True) == 1 and type(t(False)) is t
    with pytest.raises(TypeError):
        t(1.0)


@pytest.mark.parametrize("t", ALL, ids=lambda t: t.NAME)
def test_arithmetic_overflow_edges(t):
    assert type(t(t.HI) + 0) is t and type(0 + t(t.HI)) is t
    with pytest.raises(OverflowFailure):
        t(t.HI) + 1
    with pytest.raises(OverflowFailure):
        t(t.LO) - 1
    with pytest.raises(OverflowFailure):
        t(t.HI) * 2
    if t.LO < 0:
        with pytest.raises(OverflowFailure):
            -t(t.LO)
        with pytest.raises(OverflowFailure):
            t(t.LO) // -1
        with pytest.raises(OverflowFailure):
            abs(t(t.LO))
        assert -t(t.HI) == -t.HI
    else:
        with pytest.raises(OverflowFailure):
            -t(1)
        assert -t(0) == 0


@pytest.mark.parametrize("t", [i8, i16, i32, i64])
@given(data=st.data())
def test_floor_div_mod_match_python(t, data):
    a = data.draw(st.integers(t.LO, t.HI))
    b = data.draw(st.integers(t.LO, t.HI).filter(lambda v: v != 0))
    if t.LO <= a // b <= t.HI:
        assert t(a) // t(b) == a // b and type(t(a) // t(b)) is t
    assert t(a) % t(b) == a % b


def test_division_by_zero():
    with pytest.raises(DivisionByZeroFailure) as info:
        u32(5) // 0
    assert info.value.kind == "division_by_zero"
    with pytest.raises(DivisionByZeroFailure):
        i8(5) % i8(0)


def test_mixing_types_is_a_type_error():
    with pytest.raises(TypeError, match="u64"):
        u32(1) + u64(1)
    with pytest.raises(TypeError):
        assert u8(1) < i8(1)
    with pytest.raises(TypeError):
        u8(1) + True
    with pytest.raises(TypeError):
        u8(1) / u8(1)
    with pytest.raises(TypeError):
        u8(1) & u8(1)
    with pytest.raises(OverflowFailure):
        u8(1) + 300  # a plain int adopts the typed operand's type and must fit


def test_plain_int_adopts_type():
    assert type(u16(3) * 2) is u16 and type(2 - i8(3)) is i8 and 2 - i8(3) == -1
    assert u32(5) == 5 and u32(5) < 6 and hash(u32(5)) == hash(5)
    assert repr(u8(3)) == "u8(3)" and str(u8(3)) == "3"


def test_field():
    assert Field(-1) == P - 1 and Field(-1) == -1
    assert Field(P - 1) + 1 == 0
    assert Field(3) * Field(5) == 15 and -Field(1) == P - 1
    assert Field(u8(7)) == 7 and Field(i8(-1)) == P - 1 and Field(True) == 1
    assert 1 - Field(2) == P - 1 and type(1 - Field(2)) is Field
    for op in ("__lt__", "__le__", "__gt__", "__ge__", "__floordiv__", "__mod__"):
        with pytest.raises(TypeError):
            getattr(Field(1), op)(Field(2))
    with pytest.raises(TypeError, match="Field"):
        Field(1) + u8(1)
    assert u8(Field(255)) == 255
    with pytest.raises(RangeFailure) as info:
        u8(Field(256))
    assert info.value.kind == "range"
    with pytest.raises(RangeFailure):
        i8(Field(-1))


@given(st.integers(0, P - 1), st.integers(0, P - 1))
def test_field_matches_modular_arithmetic(a, b):
    assert Field(a) + Field(b) == (a + b) % P
    assert Field(a) - Field(b) == (a - b) % P
    assert Field(a) * Field(b) == (a * b) % P


def test_check_and_failure_location():
    check(True)
    with pytest.raises(CheckFailure) as info:
        check(1 > 2)
    exc = info.value
    assert exc.kind == "check" and exc.file == __file__ and exc.line is not None
    assert "test_types.py" in str(exc) and "check(1 > 2)" in str(exc)
    with pytest.raises(TypeError):
        check(u8(1))
    with pytest.raises(OverflowFailure) as info2:
        u8(255) + 1
    assert "test_types.py" in str(info2.value)
