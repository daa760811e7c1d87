"""The IR document the front end emits, and the Program value conversions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zeenot import LoadError, Program, compile_function, load_function, simulate

from . import ir_interp

ROOT = Path(__file__).resolve().parents[2]
PAYD = ROOT / "examples" / "payd"


@pytest.fixture(scope="module")
def payd():
    fn = load_function(str(PAYD / "app.py"), "weekly_premium")
    return fn, compile_function(fn), json.loads((PAYD / "inputs.json").read_text())


def test_payd_compiles_and_matches(payd):
    fn, program, inputs = payd
    ir = program.ir
    assert ir["version"] == 1 and ir["name"] == "weekly_premium"
    assert ir["source"]["file"].endswith("app.py") and ir["source"]["line"] > 1
    assert len(ir["inputs"]) == 16
    assert [i["name"] for i in ir["inputs"]][:2] == ["km[0]", "km[1]"]
    assert [i["vis"] for i in ir["inputs"]].count("public") == 2
    assert ir["signature"]["returns"] == {"tuple": ["u64", "bool"]}
    assert [o["name"] for o in ir["outputs"]] == ["return[0]", "return[1]"]
    assert program.leaf_names() == [i["name"] for i in ir["inputs"]]
    assert program.output_names() == ["return[0]", "return[1]"]
    public = program.public_leaf_names()
    assert len(public) == 2 and len(program.public_values(inputs)) == 2
    assert public == [i["name"] for i in program.input_leaves if i["vis"] == "public"]
    assert simulate(fn, inputs) == [2603, False]
    for chaos in (None, 0, 1):
        leaves = ir_interp.run(ir, program.flatten_inputs(inputs), chaos=chaos)
        assert program.outputs_to_json(program.unflatten_outputs(leaves)) == [2603, False]


def test_instruction_shape(payd):
    _, program, _ = payd
    ids = [i["id"] for i in program.ir["inputs"]]
    fallible = {"add", "sub", "mul", "neg", "floordiv", "mod", "cast", "check"}
    checks = 0
    for ins in program.ir["body"]:
        if "id" in ins:
            ids.append(ins["id"])
        if ins["op"] in fallible:
            assert "guard" in ins and len(ins["loc"]) == 2
        if ins["op"] == "check":
            checks += 1
            assert ins["msg"].startswith("check(")
    assert ids == list(range(len(ids)))
    assert checks == 14
    consts = [(i["ty"], i["value"]) for i in program.ir["body"] if i["op"] == "const"]
    assert len(consts) == len(set(consts))
    # loc refers to the original file: the first check is `check(km <= MAX_DAILY_KM)`
    first = next(i for i in program.ir["body"] if i["op"] == "check")
    line = (PAYD / "app.py").read_text().splitlines()[first["loc"][0] - 1]
    assert line[first["loc"][1] :].startswith("check(km <= MAX_DAILY_KM)")


def test_canonical_json_roundtrip(payd):
    _, program, _ = payd
    text = program.to_json()
    assert " " not in text.replace('"', "")[:50] and text == Program.from_json(text).to_json()
    assert json.loads(text) == program.ir
    for bad in ("", "[]", "{}", '{"version": 2}', '{"version": 1, "inputs": []}'):
        with pytest.raises(ValueError):
            Program.from_json(bad)


def test_flatten_inputs_errors(payd):
    _, program, inputs = payd
    leaves = program.flatten_inputs(inputs)
    assert leaves[:7] == ["42", "0", "17", "230", "0", "8", "61"] and leaves[-2:] == ["500", "4000"]
    assert program.public_values(inputs) == ["500", "4000"]
    assert program.public_values({"base_cents": 1, "cap_cents": 2}) == ["1", "2"]
    cases = {
        "missing input `km`": {k: v for k, v in inputs.items() if k != "km"},
        "unexpected input `extra`": {**inputs, "extra": 1},
        "`km`: expected a list of 7": {**inputs, "km": [1, 2]},
        "`km[2]`: expected an integer": {**inputs, "km": [1, 2, True, 4, 5, 6, 7]},
        "`km[6]`: 4294967296 is out of range": {**inputs, "km": [1] * 6 + [2**32]},
        "`km[0]`: -1 is out of range": {**inputs, "km": [-1] + [1] * 6},
        "`base_cents`: expected an integer": {**inputs, "base_cents": "5"},
    }
    for msg, values in cases.items():
        with pytest.raises(ValueError, match=msg.replace("[", r"\[").replace("]", r"\]")):
            program.flatten_inputs(values)
        with pytest.raises(ValueError):
            simulate(load_function(str(PAYD / "app.py"), "weekly_premium"), values)


def test_outputs_conversions(payd):
    _, program, _ = payd
    assert program.unflatten_outputs(["2603", "0"]) == (2603, False)
    assert program.outputs_to_json((2603, False)) == [2603, False]
    assert program.flatten_outputs([2603, False]) == ["2603", "0"]
    for bad in ([2603], [2603, 0], [-1, False], [2**64, True], 5, None):
        with pytest.raises(ValueError):
            program.flatten_outputs(bad)
    with pytest.raises(ValueError):
        program.unflatten_outputs(["1"])
    with pytest.raises(ValueError):
        program.unflatten_outputs(["1", "2"])


def test_signed_outputs_and_tiers(tmp_path):
    src = tmp_path / "signed.py"
    src.write_text(
        "from zeenot import Private, Public, i8, zk\n\n\n@zk\n"
        'def main(a: Private[i8, "client"], b: Public[i8]) -> i8:\n    return a - b\n'
    )
    fn = load_function(str(src), "main")
    program = compile_function(fn)
    assert program.ir["inputs"][0]["tier"] == "client" and program.ir["inputs"][1]["tier"] is None
    assert simulate(fn, {"a": -3, "b": 4}) == -7
    assert program.flatten_outputs(-7) == ["-7"]
    assert program.unflatten_outputs(["-7"]) == -7
    p = 21888242871839275222246405745257275088548364400416034343698204186575808495617
    assert program.unflatten_outputs([str(p - 7)]) == -7


def test_load_function_errors(tmp_path):
    with pytest.raises(LoadError, match="no such file"):
        load_function(str(tmp_path / "missing.py"), "main")
    f = tmp_path / "app.py"
    f.write_text("from zeenot import zk\n\ndef helper():\n    pass\n\n@zk\ndef main():\n    pass\n")
    with pytest.raises(LoadError, match="has no function `nope`.*main"):
        load_function(str(f), "nope")
    with pytest.raises(LoadError, match="not decorated with @zk"):
        load_function(str(f), "helper")
    assert load_function(str(f), "main").__zk__["name"] == "main"
    boom = tmp_path / "boom.py"
    boom.write_text("x = 1\nraise RuntimeError('nope')\n")
    with pytest.raises(LoadError, match=r"boom.py:2.*RuntimeError"):
        load_function(str(boom), "main")


def test_zk_function_stays_callable():
    from zeenot import Private, u32, zk

    @zk
    def f(x: Private[u32]) -> u32:
        return x + 1

    assert f(u32(1)) == 2 and f.__zk__ == {"name": "f"}


def test_guards_in_ir(tmp_path):
    src = tmp_path / "g.py"
    src.write_text(
        "from zeenot import Private, u32, zk\n\n\n@zk\n"
        "def main(a: Private[u32], b: Private[u32]) -> u32:\n"
        "    return a // b if b != 0 else u32(0)\n"
    )
    program = compile_function(load_function(str(src), "main"))
    body = program.ir["body"]
    div = next(i for i in body if i["op"] == "floordiv")
    ne = next(i for i in body if i["op"] == "ne")
    assert div["guard"] == ne["id"] and div["loc"] == [6, 11]
    assert any(i["op"] == "select" for i in body)
