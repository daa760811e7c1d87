"""Applications and tiers: the plan of `main`, and the information-flow check (ZN5xx).

Each leaking program is a small application written to a temporary file; the check must
reject it at load time with the file and the line where the value crosses, naming the path it
took. The accepted programs are planned into the phases the runtime runs.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from zeenot.application import load_application
from zeenot.application.model import Input, RegionOut, StepOutput
from zeenot.errors import CompileError

HEADER = """
from zeenot import Client, Private, Public, Server, check, u32, worker, zk

Triple = tuple[u32, u32, u32]


@zk
def total(xs: Private[Triple], limit: Public[u32]) -> u32:
    s = xs[0] + xs[1] + xs[2]
    check(s <= limit)
    return s


@worker(tier="server")
def limit() -> u32:
    return u32(100)


@worker(tier="server")
def record(s: u32) -> dict:
    return {"total": s}
"""

GOOD = """
@worker(tier="client")
def prove_total(xs: Private[Triple, Client], lim: u32):
    return total(xs, lim)


def main(xs: Private[Triple, Client]):
    lim = limit()
    s = prove_total(xs, lim)
    return record(s)
"""


def _write(tmp_path: Path, body: str, name: str = "app.py") -> Path:
    path = tmp_path / name
    path.write_text(HEADER + textwrap.dedent(body))
    return path


def _line_of(path: Path, marker: str) -> int:
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if marker in line:
            return n
    raise AssertionError(marker)


def _rejects(tmp_path: Path, body: str, code: str, *words: str) -> CompileError:
    path = _write(tmp_path, body)
    with pytest.raises(CompileError) as info:
        load_application(path)
    d = info.value.diagnostic
    assert d.code == code, info.value
    assert d.file == str(path)
    assert d.line == _line_of(path, "# <- here"), info.value
    for word in words:
        assert word in d.message, d.message
    return info.value


def test_a_proved_output_crosses(tmp_path: Path) -> None:
    app = load_application(_write(tmp_path, GOOD))
    assert [(s.worker, s.phase) for s in app.steps] == [
        ("limit", "parameters"),
        ("prove_total", "client"),
        ("record", "server"),
    ]
    client = app.steps[1]
    assert client.args == {"xs": Input("xs", "client"), "lim": StepOutput(0, None)}
    assert client.returns == [RegionOut(0, None)]
    assert app.steps[2].args == {"s": StepOutput(1, None)}


# ---- leaks: a value private to the client reaches the server --------------------------------


def test_private_input_passed_to_a_server_worker(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        def main(xs: Private[Triple, Client]):
            return record(xs)  # <- here
        """,
        "ZN511",
        "`xs` (Private, client)",
        "record(s=…)",
    )


def test_client_worker_returns_its_private_parameter(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        @worker(tier="client")
        def leak(xs: Private[Triple, Client]):
            return xs


        def main(xs: Private[Triple, Client]):
            raw = leak(xs)
            return record(raw)  # <- here
        """,
        "ZN511",
        "returned by `leak`",
    )


def test_client_worker_returns_a_value_computed_from_private_data(tmp_path: Path) -> None:
    err = _rejects(
        tmp_path,
        """
        @worker(tier="client")
        def peek(xs: Private[Triple, Client], lim: u32):
            s = total(xs, lim)
            first = xs[0] * 2
            return s, first


        def main(xs: Private[Triple, Client]):
            lim = limit()
            s, first = peek(xs, lim)
            return record(first)  # <- here
        """,
        "ZN511",
        "computed on line",
    )
    assert "peek(xs=…)" in str(err)


def test_private_value_laundered_through_two_client_workers(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        @worker(tier="client")
        def first(xs: Private[Triple, Client]):
            return xs[0] + 1


        @worker(tier="client")
        def forward(v: u32):
            w = v
            return w


        def main(xs: Private[Triple, Client]):
            a = first(xs)
            b = forward(a)
            return record(b)  # <- here
        """,
        "ZN511",
        "returned by `first`",
        "returned by `forward`",
    )


def test_private_value_as_a_public_input_of_a_region(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        @worker(tier="client")
        def reveal(xs: Private[Triple, Client]):
            cap = xs[1]
            return total(xs, cap)  # <- here


        def main(xs: Private[Triple, Client]):
            s = reveal(xs)
            return record(s)
        """,
        "ZN510",
        "public input `limit` of `total`",
    )


def test_private_value_hidden_in_a_loop(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        @worker(tier="client")
        def count(xs: Private[Triple, Client]):
            n = 0
            for x in xs:
                if x > 10:
                    n += 1
            return n


        def main(xs: Private[Triple, Client]):
            n = count(xs)
            return record(n)  # <- here
        """,
        "ZN511",
        "returned by `count`",
    )


# ---- the server acts only on what it can check ------------------------------------------------


def test_unproved_client_computation_is_refused(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        @worker(tier="client")
        def bump(xs: Private[Triple, Client], lim: u32):
            s = total(xs, lim)
            return s + 1


        def main(xs: Private[Triple, Client]):
            lim = limit()
            s = bump(xs, lim)
            return record(s)  # <- here
        """,
        "ZN505",
        "without a proof",
    )


def test_region_public_input_computed_on_the_client_is_refused(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        @worker(tier="client")
        def loosen(xs: Private[Triple, Client], lim: u32):
            higher = lim * 2
            return total(xs, higher)  # <- here


        def main(xs: Private[Triple, Client]):
            lim = limit()
            s = loosen(xs, lim)
            return record(s)
        """,
        "ZN505",
        "public input `limit`",
    )


def test_region_called_in_a_loop_is_refused(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        @worker(tier="client")
        def many(xs: Private[Triple, Client], lim: u32):
            out = 0
            for _ in range(2):
                out = total(xs, lim)  # <- here
            return out


        def main(xs: Private[Triple, Client]):
            lim = limit()
            s = many(xs, lim)
            return record(s)
        """,
        "ZN504",
    )


def test_two_round_trips_are_refused(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        @worker(tier="client")
        def prove_total(xs: Private[Triple, Client], lim: u32):
            return total(xs, lim)


        @worker(tier="client")
        def again(r: dict):
            return r


        def main(xs: Private[Triple, Client]):
            lim = limit()
            s = prove_total(xs, lim)
            r = record(s)
            return again(r)  # <- here
        """,
        "ZN503",
    )


def test_main_input_private_to_the_server_is_refused(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        def main(xs: Private[Triple, Server]):  # <- here
            return record(xs)
        """,
        "ZN502",
    )


def test_main_with_computation_is_refused(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        def main(xs: Private[Triple, Client]):
            lim = limit()
            lim2 = lim + 1  # <- here
            return record(lim2)
        """,
        "ZN501",
        "each statement",
    )


def test_main_calling_a_region_directly_is_refused(tmp_path: Path) -> None:
    _rejects(
        tmp_path,
        """
        def main(xs: Private[Triple, Client]):
            return total(xs, 5)  # <- here
        """,
        "ZN501",
        "a @zk region",
    )


def test_string_and_class_tier_markers_agree() -> None:
    from zeenot import Client, Private
    from zeenot.types import Visibility

    a, b = Private[int, Client], Private[int, "client"]
    assert isinstance(a, Visibility) and (a.vis, a.tier) == (b.vis, b.tier) == ("private", "client")
    with pytest.raises(TypeError):
        Private[int, 3]
