"""`api.compile(synthesize=False)`: the circuit is not synthesized until its first proof or
statistic (the runtime's clients and peers compile this way: the server synthesized the same
regions when it started), and it proves and verifies as the eagerly synthesized one does."""

from __future__ import annotations

from pathlib import Path

import pytest

from zeenot import _native, api
from zeenot.errors import UsageError

SOURCE = """
from zeenot import Private, Public, check, u32, zk

@zk
def under(x: Private[u32], limit: Public[u32]) -> u32:
    check(x < limit)
    return x + 1
"""


@pytest.fixture
def target(tmp_path: Path) -> str:
    path = tmp_path / "app.py"
    path.write_text(SOURCE)
    return f"{path}:under"


def test_lazy_compile_synthesizes_on_first_use(target: str) -> None:
    eager = api.compile(target)
    lazy = api.compile(target, synthesize=False)
    assert "stats" in vars(eager) and "stats" not in vars(lazy)
    keys = api.setup(lazy, seed=1)
    proof = api.prove(lazy, keys, {"x": 4, "limit": 9})
    assert proof.outputs == 5
    api.verify(eager, keys.verifying_key, proof)  # one program: the same hash and keys
    assert lazy.hash == eager.hash and lazy.stats == eager.stats


def test_a_false_witness_still_has_no_proof(target: str) -> None:
    lazy = api.compile(target, synthesize=False)
    keys = api.setup(lazy, seed=2)
    with pytest.raises(_native.UnsatisfiedError):
        api.prove(lazy, keys, {"x": 9, "limit": 9})


def test_synthesize_is_a_bool(target: str) -> None:
    with pytest.raises(UsageError, match="True or False"):
        api.compile(target, synthesize=1)  # type: ignore[arg-type]


def test_runtime_clients_compile_lazily() -> None:
    from zeenot.application import load_application
    from zeenot.runtime.binding import bound_regions

    app = load_application(Path(__file__).resolve().parent / "apps" / "tiny_peers.py")
    names = [app.peer_sum.share.__name__, app.peer_sum.combine.__name__]
    lazy = bound_regions(app, names, synthesize=False)
    eager = bound_regions(app, names)
    assert all("stats" not in vars(c) for c in lazy.values())
    assert {n: c.hash for n, c in lazy.items()} == {n: c.hash for n, c in eager.items()}
