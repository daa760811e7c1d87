"""Front-end behaviours beyond the fixtures: constants, modules, pruning, limits."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from zeenot import CompileError, Field, compile_function, load_function, simulate

from . import ir_interp

HEADER = "import zeenot as zn\nfrom zeenot import Field, Private, Public, check, i8, u8, u32, zk\n"


def build(tmp_path: Path, body: str, name: str = "main"):
    path = tmp_path / f"prog_{abs(hash(body))}.py"
    path.write_text(HEADER + textwrap.dedent(body))
    fn = load_function(str(path), name)
    return fn, compile_function(fn)


def run_ir(program, inputs):
    leaves = ir_interp.run(program.ir, program.flatten_inputs(inputs), chaos=3)
    return program.outputs_to_json(program.unflatten_outputs(leaves))


def agree(fn, program, inputs):
    expected = simulate(fn, inputs)
    assert run_ir(program, inputs) == expected
    return expected


def test_module_constants_modules_and_slices(tmp_path):
    fn, prog = build(
        tmp_path,
        """
        LIMIT = zn.u32(50)
        TABLE = (1, 2, 3, 4, 5)
        DEBUG = False

        @zk
        def main(t: Private[tuple[u32, u32, u32]]) -> tuple[u32, u32]:
            acc = zn.u32(0)
            for k in range(1, 5, 2):
                acc += t[k - 1] * TABLE[k]
            head = t[:2] + (t[2],)
            if DEBUG:
                check(False)
            return min(acc, LIMIT), head[-1]
        """,
    )
    assert not any(i["op"] == "check" for i in prog.ir["body"])  # constant `if` pruned
    assert agree(fn, prog, {"t": [1, 2, 3]}) == [14, 3]
    assert agree(fn, prog, {"t": [10, 2, 30]}) == [50, 30]


def test_plain_int_merge_adopts_type_and_nonconstant_branches(tmp_path):
    fn, prog = build(
        tmp_path,
        """
        @zk
        def main(a: Private[u8]) -> u8:
            x = a
            if a > 3:
                x = 7
            return x
        """,
    )
    assert agree(fn, prog, {"a": 9}) == 7
    assert agree(fn, prog, {"a": 2}) == 2


def test_mutual_recursion_rejected(tmp_path):
    with pytest.raises(CompileError) as info:
        build(
            tmp_path,
            """
            def even(n: u32) -> bool:
                return True if n == 0 else odd(n - 1)

            def odd(n: u32) -> bool:
                return False if n == 0 else even(n - 1)

            @zk
            def main(a: Private[u32]) -> bool:
                return even(a)
            """,
        )
    assert info.value.code == "ZN206"


def test_instruction_cap(tmp_path):
    with pytest.raises(CompileError) as info:
        build(
            tmp_path,
            """
            @zk
            def main(a: Private[u32]) -> u32:
                for i in range(300_000):
                    a = a + 1
                return a
            """,
        )
    assert info.value.code == "ZN114"


def test_loop_index_ambiguous_after_if(tmp_path):
    with pytest.raises(CompileError) as info:
        build(
            tmp_path,
            """
            @zk
            def main(a: Private[bool]) -> u32:
                i = 0
                if a:
                    i = 1
                return u32(i)
            """,
        )
    assert info.value.code == "ZN309"


def test_empty_and_trivial_programs(tmp_path):
    fn, prog = build(
        tmp_path,
        """
        @zk
        def main(a: Public[u8]) -> tuple[u8, bool, Field]:
            return 5, True, Field(-1)
        """,
    )
    out = agree(fn, prog, {"a": 1})
    assert out[0] == 5 and out[1] is True and out[2] == Field(-1)


def test_diagnostic_render_format(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        HEADER + "\n\n@zk\ndef main(x: Private[u32]) -> u32:\n    while x:\n        pass\n"
    )
    with pytest.raises(CompileError) as info:
        compile_function(load_function(str(bad), "main"))
    text = info.value.render()
    assert text.splitlines()[0] == "error[ZN101]: `while` loops are not supported"
    assert f"{bad}:7:5" in text and "    while x:" in text and "^^^^^" in text
    assert "= hint:" in text and "Traceback" not in text
    d = info.value.diagnostic
    assert (d.code, d.line, d.col) == ("ZN101", 7, 4)


def test_simulate_failure_names_the_file(tmp_path):
    fn, _ = build(
        tmp_path,
        """
        @zk
        def main(a: Private[u8]) -> u8:
            return a * 2
        """,
    )
    from zeenot import OverflowFailure

    with pytest.raises(OverflowFailure) as info:
        simulate(fn, {"a": 200})
    assert "prog_" in str(info.value) and ".py:" in str(info.value)


def test_helper_int_parameters_are_constants(tmp_path):
    fn, prog = build(
        tmp_path,
        """
        def scale(x: u32, k: int) -> u32:
            return x * k

        def pick(t: tuple[u32, u32], i: int = 1) -> u32:
            return t[i]

        @zk
        def main(a: Private[u32]) -> u32:
            return scale(a, 3) + pick((a, a + 1))
        """,
    )
    assert agree(fn, prog, {"a": 4}) == 17
    with pytest.raises(CompileError) as info:
        build(
            tmp_path,
            """
            def scale(x: u32, k: int) -> u32:
                return x * k

            @zk
            def main(a: Private[u32]) -> u32:
                return scale(a, a)
            """,
        )
    assert info.value.code == "ZN405" and "compile-time constant" in info.value.render()
