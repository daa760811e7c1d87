"""Shared fixtures: the repository root and compiled example circuits (keys cached per session)."""

from __future__ import annotations

import functools
import json
import os
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def read_json(path: Path) -> dict:
    return json.loads(path.read_text())


@functools.cache
def example_data(example: str) -> ModuleType:
    """An example's `data.py` (its input generators and independent references), by path."""
    from zeenot.lang import load_module

    return load_module(str(EXAMPLES / example / "data.py"))


@pytest.fixture(scope="session")
def payd():
    """The pay-as-you-drive example compiled, with deterministic (test-only) keys."""
    from zeenot import api

    circuit = api.compile(f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium")
    keys = api.setup(circuit, seed=7)
    return circuit, keys, read_json(EXAMPLES / "payd" / "inputs.json")


# The record of validated proving keys (zeenot.keycache) goes to a fresh directory for the test
# session, never to the user's cache; CLI subprocesses inherit it.
os.environ["ZEENOT_CACHE_DIR"] = tempfile.mkdtemp(prefix="zeenot-test-keys-")


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL server for the whole session (skipped only where PostgreSQL 15 is not
    installed and CI is not set: CI installs it, and a missing server there is a failure).
    Under pytest-xdist each worker starts its own (a temporary directory, a free port); tests
    create uniquely named databases in it."""
    from .postgres import available, postgres_server

    if not available():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL 15 is missing in CI: scripts/system_deps.sh installs it")
        pytest.skip("PostgreSQL 15 is not installed (scripts/system_deps.sh)")
    with postgres_server() as url:
        yield url


# The files that run longest (`pytest --durations`, 2026-11-27), started first: pytest-xdist
# hands each worker whole files in collection order, so a long file collected last would run
# alone at the end while the other workers idle (longest first keeps the workers' ends close).
# A stale list costs only wall time, never a test.
LONGEST_FIRST = (
    "test_runtime_peers.py",
    "test_prio_dap.py",
    "test_runtime_reliability.py",
    "test_cothority_servers.py",
    "test_solidity.py",
    "test_checker.py",
    "test_certified_encrypted_parties.py",
    "test_certified_encrypted.py",
    "test_cashlib_market.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: order kept within
