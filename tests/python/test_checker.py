"""`zeenot check`: deliberately under-constrained circuits are caught, their correct versions
are proved deterministic, and every gadget and example compiled by zeenot is checked."""

from __future__ import annotations

import json
import os
import sys

import pytest

from zeenot import api, cli
from zeenot.checker import R1cs, check, check_r1cs

from .conftest import EXAMPLES

if os.environ.get("CI"):
    import cvc5  # noqa: F401 - CI installs it (requirements-dev.txt): a missing solver fails
else:
    pytest.importorskip("cvc5")

ONE = 0


def is_zero(*, complete: bool) -> R1cs:
    """`out = (x == 0)`: `x·inv = 1 − out`, `x·out = 0` (the second is what makes `out` a
    function of `x`: without it, any `inv` gives some `out`)."""
    x, inv, out = 1, 2, 3
    rows = [({x: 1}, {inv: 1}, {ONE: 1, out: -1})]
    if complete:
        rows.append(({x: 1}, {out: 1}, {}))
    return R1cs.of_rows(rows, inputs=[x], outputs=[out], names={x: "x", inv: "inv", out: "out"})


def bits(*, boolean_b1: bool) -> R1cs:
    """`v = b0 + 2·b1`, output `b1`: without `b1·(b1 − 1) = 0`, `b1` may be `v/2` or
    `(v − 1)/2`."""
    v, b0, b1 = 1, 2, 3
    rows = [({b0: 1}, {b0: 1, ONE: -1}, {}), ({b0: 1, b1: 2}, {ONE: 1}, {v: 1})]
    if boolean_b1:
        rows.append(({b1: 1}, {b1: 1, ONE: -1}, {}))
    return R1cs.of_rows(rows, inputs=[v], outputs=[b1], names={v: "v", b0: "b0", b1: "b1"})


def test_a_correct_is_zero_is_deterministic():
    report = check_r1cs(is_zero(complete=True))
    assert report.verdict == "deterministic", report.to_json()


def test_an_is_zero_without_its_second_constraint_is_caught():
    report = check_r1cs(is_zero(complete=False))
    assert report.verdict == "under-constrained", report.to_json()
    (out,) = report.outputs
    assert out.verdict == "not unique" and out.witness is not None
    x1, x2 = out.witness["x"]
    o1, o2 = out.witness["out"]
    assert x1 == x2 and o1 != o2  # same input, two outputs


def test_a_bit_decomposition_missing_a_boolean_is_caught():
    assert check_r1cs(bits(boolean_b1=True)).verdict == "deterministic"
    report = check_r1cs(bits(boolean_b1=False))
    assert report.verdict == "under-constrained"
    v1, v2 = report.outputs[0].witness["v"]
    assert v1 == v2


def test_free_outputs_are_lint_errors():
    x, w, out, lone = 1, 2, 3, 4
    tied = R1cs.of_rows([({x: 1, w: 1}, {ONE: 1}, {out: 1})], inputs=[x], outputs=[out])
    report = check_r1cs(tied)
    assert report.verdict == "under-constrained"
    assert any("tied only linearly" in e for e in report.lints)
    loose = R1cs.of_rows([({x: 1}, {ONE: 1}, {out: 1})], inputs=[x], outputs=[out, lone])
    report = check_r1cs(loose)
    assert any("in no constraint" in e for e in report.lints)


def test_a_division_is_proved_by_ranges():
    """`100·q + r = n` with `q` of 3 bits and `r = 99 − s`, `s` of 7 bits, `r` of 7 bits."""
    n, q, r = 1, 2, 3
    qb = [5, 6, 7]
    rb = list(range(8, 15))
    sb = list(range(15, 22))
    rows = [({b: 1}, {b: 1, ONE: -1}, {}) for b in qb + rb + sb]
    rows.append(({b: 1 << i for i, b in enumerate(qb)}, {ONE: 1}, {q: 1}))
    rows.append(({b: 1 << i for i, b in enumerate(rb)}, {ONE: 1}, {r: 1}))
    rows.append(({b: 1 << i for i, b in enumerate(sb)}, {ONE: 1}, {ONE: 99, r: -1}))
    rows.append(({q: 100, r: 1}, {ONE: 1}, {n: 1}))
    m = R1cs.of_rows(rows, inputs=[n], outputs=[q, r])
    assert check_r1cs(m).verdict == "deterministic"
    # without the bound r ≤ 99, (q, r) and (q − 1, r + 100) both fit 7 bits: caught
    m = R1cs.of_rows(rows[:-2] + rows[-1:], inputs=[n], outputs=[q, r])
    assert check_r1cs(m, timeout_s=5).verdict != "deterministic"


GADGETS = {
    "arith": ("x: Private[u32], y: Private[u32]", "u64", "return u64(x) * u64(y) + u64(x - y)"),
    "compare": ("x: Private[u32], y: Public[u32]", "bool", "return x < y"),
    "equal": ("x: Private[u32], y: Private[u32]", "bool", "return x == y"),
    "select": ("c: Private[bool], x: Private[u32], y: Private[u32]", "u32", "return x if c else y"),
    "divmod_public": ("x: Private[u32]", "tuple[u32, u32]", "return x // 7, x % 7"),
    "divmod_private": (
        "x: Private[u32], d: Private[u8]",
        "u32",
        "check(d > 0)\n    return x // u32(d)",
    ),
    "signed": ("x: Private[i16], y: Private[i16]", "i32", "return i32(x) - i32(y)"),
    "lookup": ("xs: Private[MaxSize[list[u16], 8]], i: Private[u8]", "u16", "return xs[i]"),
    "sum_list": ("xs: Private[MaxSize[list[u32], 8]]", "u64", "return sum(u64(x) for x in xs)"),
    "poseidon": ("a: Private[Field], b: Private[Field]", "Field", "return poseidon(a, b)"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GADGETS))
def test_gadgets_are_not_under_constrained(tmp_path, name):
    params, ret, body = GADGETS[name]
    src = tmp_path / f"{name}.py"
    src.write_text(
        "from zeenot import zk, check, poseidon, Private, Public, MaxSize, Field, "
        "u8, u16, u32, u64, i16, i32\n\n"
        f"@zk\ndef g_{name}({params}) -> {ret}:\n    {body}\n"
    )
    circuit = api.compile(f"{src}:g_{name}")
    report = check(circuit, timeout_s=2, budget_s=10)
    print(json.dumps({name: [report.verdict, report.seconds]}), file=sys.stderr)
    assert report.verdict != "under-constrained", report.to_json()


EXPECTED = {  # what the checker proves today within a 10-second budget (see docs/check.md)
    "payd/app.py:weekly_premium": "deterministic",
    "fitbit/app.py:steps_donation": "deterministic",
    "study/app.py:vitals_summary": "deterministic",
    "metering/app.py:bill": "deterministic",
    "split/app.py:premium": "unknown",
    "cnids/app.py:header_alert": "unknown",
}


@pytest.mark.slow
@pytest.mark.parametrize("target", sorted(EXPECTED))
def test_examples_are_not_under_constrained(target):
    circuit = api.compile(str(EXAMPLES / target))
    report = check(circuit, timeout_s=1, budget_s=10)
    assert report.verdict == EXPECTED[target], report.to_json()


def test_cli_check(tmp_path, capsys):
    d = tmp_path / "payd"
    assert (
        cli.main(["compile", f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium", "-o", str(d)]) == 0
    )
    capsys.readouterr()
    assert cli.main(["check", str(d), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "deterministic" and report["lints"] == []
    assert cli.main(["check", str(tmp_path / "missing")]) == 2
