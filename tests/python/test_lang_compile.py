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


def test_plain_int_chosen_at_run_time_stays_untyped_until_used(tmp_path):
    fn, prog = build(
        tmp_path,
        """
        @zk
        def main(a: Private[bool], x: Private[u32], s: Private[i8]) -> tuple[u32, u32, bool, i8]:
            i = 0
            if a:
                i = 1
            rate = 3 if x > 100 else 1
            k = rate * 10 - i          # Python int arithmetic on every path
            big = k > 15
            neg = -rate if not a else abs(-rate)
            return u32(i), x * k, big and not (k == 29), s + neg
        """,
    )
    selects = [i for i in prog.ir["body"] if i["op"] == "select"]
    assert selects and {i["ty"] for i in selects} <= {"u32", "bool", "i8"}
    for a in (False, True):
        for x in (5, 101, 500_000_000):
            for s in (-128, 0, 120):
                try:
                    expected = ("ok", simulate(fn, {"a": a, "x": x, "s": s}))
                except Exception as exc:  # noqa: BLE001
                    expected = ("fail", type(exc).__name__)
                try:
                    got = ("ok", run_ir(prog, {"a": a, "x": x, "s": s}))
                except ir_interp.InterpFailure:
                    got = ("fail", "OverflowFailure")
                assert got == expected, (a, x, s)


def test_plain_int_depending_on_too_many_conditions(tmp_path):
    src = """
        @zk
        def main(t: Private[tuple[u8, u8, u8, u8, u8, u8, u8, u8]]) -> u8:
            n = 0
            for i in range(8):
                if t[i] > 5:
                    n += 1
            return u8(n)
        """
    with pytest.raises(CompileError) as info:
        build(tmp_path, src)
    assert info.value.code == "ZN309"
    assert "too many conditions" in str(info.value) and "u32(0)" in str(info.value)
    # typed, it compiles
    typed = """
        @zk
        def main(t: Private[tuple[u8, u8, u8, u8, u8, u8, u8, u8]]) -> u8:
            n = u8(0)
            last = 0
            for i in range(8):
                if t[i] > 5:
                    n += 1
                    last = i  # a plain int chosen at run time, never used
            return n
        """
    fn, prog = build(tmp_path, typed)
    assert agree(fn, prog, {"t": [9, 1, 9, 1, 9, 1, 9, 9]}) == 5


def test_bool_operators_return_an_operand_like_python(tmp_path):
    fn, prog = build(
        tmp_path,
        """
        @zk
        def main(x: Private[u8], c: Private[bool]) -> tuple[u8, u8, bool]:
            five = 0 or 5
            zero = 0 and 7
            y = True and x
            return u8(five + zero), y, (1 and c) or False
        """,
    )
    assert agree(fn, prog, {"x": 3, "c": True}) == [5, 3, True]
    assert agree(fn, prog, {"x": 3, "c": False}) == [5, 3, False]


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


@pytest.mark.parametrize(
    "expr, hint",
    [
        ("u32(len(frozenset(xs)))", "use `set(xs)`"),
        ("u32(len(dict()))", "a list of records and `find`"),
        ("u32(float(xs[0]))", "scale to an integer"),
        ("u32(round(xs[0]))", "scaled integers"),
    ],
)
def test_unsupported_builtins_have_hints(tmp_path, expr, hint):
    bad = tmp_path / "bad.py"
    bad.write_text(
        HEADER + "from zeenot import MaxSize\n\n\n@zk\n"
        f"def main(xs: Private[MaxSize[list[u32], 4]]) -> u32:\n    return {expr}\n"
    )
    with pytest.raises(CompileError) as info:
        compile_function(load_function(str(bad), "main"))
    d = info.value.diagnostic
    assert d.code == "ZN205" and d.line == 8 and hint in (d.hint or "")


@pytest.mark.parametrize(
    "body, code",
    [
        ("return next(reversed(xs))", "ZN205"),  # runs in Python, rejected by the compiler
        ("return u32(len(set(xs) + set(xs)))", "ZN303"),  # a TypeError in Python
        ("d = {1: 2}\n    return xs[0]", "ZN"),
        ("f = 1.5\n    return xs[0]", "ZN201"),
        ("for x in xs:\n        return x\n    return u32(0)", "ZN109"),
        ("return xs[0] / u32(2)", "ZN208"),  # Python errors: the compiler's diagnostic
        ("return u32(xs[0] <= u64(1))", "ZN"),
    ],
)
def test_simulate_rejects_what_compile_rejects(tmp_path, body, code):
    """`simulate` is the front door: a program the compiler rejects fails there first, with
    the same diagnostic, never an internal error."""
    path = tmp_path / "prog.py"
    path.write_text(
        HEADER + "from zeenot import MaxSize, u64\n\n\n@zk\n"
        f"def main(xs: Private[MaxSize[list[u32], 4]]) -> u32:\n    {body}\n"
    )
    fn = load_function(str(path), "main")
    with pytest.raises(CompileError) as compiled:
        compile_function(fn)
    with pytest.raises(CompileError) as simulated:
        simulate(fn, {"xs": [3, 1, 2]})
    assert simulated.value.diagnostic == compiled.value.diagnostic
    assert simulated.value.diagnostic.code.startswith(code)


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


@pytest.mark.parametrize("op", ["**", "<<", ">>", "&", "|", "^", "@"])
def test_unsupported_operators_have_hints(tmp_path, op):
    """Every operator integer arithmetic lacks says what to write instead."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        HEADER + "\n\n@zk\n"
        f"def main(x: Private[u32], y: Private[u32]) -> u32:\n    return x {op} y\n"
    )
    with pytest.raises(CompileError) as info:
        compile_function(load_function(str(bad), "main"))
    d = info.value.diagnostic
    assert d.code == "ZN208" and d.hint and d.hint != "supported: + - * // %", d
