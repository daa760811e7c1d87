"""`isqrt` (issue 13): the integer square root of an unsigned value, the same in simulate, the
IR interpreter and both back ends, at the edges (0, perfect squares and their neighbours, the
type's maximum) and exhaustively for u8."""

from __future__ import annotations

import math

import pytest

from zeenot import CompileError, api, load_function, simulate

from . import ir_interp

SOURCE = """
from zeenot import Private, i32, isqrt, u8, u16, u32, u64, zk


@zk
def root8(x: Private[u8]) -> u8:
    return isqrt(x)


@zk
def root64(x: Private[u64]) -> u64:
    return isqrt(x)


@zk
def distance(dx: Private[u32], dy: Private[u32]) -> u64:
    return isqrt(u64(dx) * u64(dx) + u64(dy) * u64(dy))
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    path = tmp_path_factory.mktemp("isqrt") / "roots.py"
    path.write_text(SOURCE)
    return str(path)


def interpret(circuit, inputs):
    leaves = ir_interp.run(circuit.program.ir, circuit.program.flatten_inputs(inputs))
    return circuit.program.outputs_to_json(circuit.program.unflatten_outputs(leaves))


def test_every_u8(module):
    fn = load_function(module, "root8")
    circuit = api.compile(fn)
    for x in range(256):
        assert simulate(fn, {"x": x}) == interpret(circuit, {"x": x}) == math.isqrt(x)


def test_u64_edges_on_both_back_ends(module):
    fn = load_function(module, "root64")
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=1)
    edges = [0, 1, 2, 3, 4, 15, 16, 17, (1 << 32) - 1, 1 << 32, (1 << 64) - 1]
    edges += [
        k * k + d for k in (3_037_000_499, 4_294_967_295) for d in (-1, 0, 1) if k * k + d < 1 << 64
    ]
    for x in edges:
        want = math.isqrt(x)
        assert simulate(fn, {"x": x}) == interpret(circuit, {"x": x}) == want
    for x in (0, (1 << 64) - 1, 3_037_000_499**2 - 1):
        assert api.prove(circuit, keys, {"x": x}).outputs == math.isqrt(x)
        assert api.prove_sigma(circuit, {"x": x}).outputs == math.isqrt(x)


def test_a_distance(module):
    fn = load_function(module, "distance")
    circuit = api.compile(fn)
    assert simulate(fn, {"dx": 3, "dy": 4}) == 5
    assert interpret(circuit, {"dx": 300, "dy": 400}) == 500
    assert circuit.stats["constraints"] < 2500


def test_signed_and_field_values_are_refused(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text(
        "from zeenot import Field, Private, i32, isqrt, u32, zk\n\n\n"
        "@zk\ndef main(x: Private[i32]) -> u32:\n    return u32(isqrt(x))\n"
    )
    with pytest.raises(CompileError, match="isqrt"):
        api.compile(load_function(str(path), "main"))
