"""Shared fixtures: the repository root and compiled example circuits (keys cached per session)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def read_json(path: Path) -> dict:
    return json.loads(path.read_text())


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
