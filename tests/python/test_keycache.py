"""Proving keys validated once per machine (`zeenot.keycache`): a recorded key skips the point
checks, anything else is checked in full, and an unsafe record is ignored."""

from __future__ import annotations

import json
import os

import pytest

from zeenot import _native, api, keycache
from zeenot.errors import ZeenotError

from .conftest import EXAMPLES


@pytest.fixture
def cache(tmp_path, monkeypatch):
    d = tmp_path / "validated"
    monkeypatch.setenv("ZEENOT_CACHE_DIR", str(d))
    calls: list[bool] = []
    real = _native.prepare_proving_key

    def spy(key: bytes, validated: bool = False):
        calls.append(validated)
        return real(key, validated)

    monkeypatch.setattr(_native, "prepare_proving_key", spy)
    return d, calls


def fresh(keys: api.Keys) -> api.Keys:
    """The same keys without the per-process prepared key."""
    return api.Keys(keys.program_hash, keys.proving_key, keys.verifying_key)


def test_setup_records_its_key_and_proving_skips_the_checks(cache, payd):
    d, calls = cache
    circuit, _, inputs = payd
    keys = api.setup(circuit, seed=3)
    assert keycache.is_validated(api._sha256(keys.proving_key))
    proof = api.prove(circuit, fresh(keys), inputs, seed=1)
    api.verify(circuit, keys.verifying_key, proof)
    assert calls == [True]


def test_a_key_from_elsewhere_is_checked_once(cache, payd):
    d, calls = cache
    circuit, keys, inputs = payd  # made before the record existed: "from elsewhere"
    api.prove(circuit, fresh(keys), inputs, seed=1)
    api.prove(circuit, fresh(keys), inputs, seed=2)
    assert calls == [False, True]
    assert os.listdir(d) == [api._sha256(keys.proving_key)]


def test_a_changed_key_is_checked_in_full(cache, payd):
    d, calls = cache
    circuit, keys, inputs = payd
    api.prove(circuit, fresh(keys), inputs, seed=1)
    # flip a coordinate bit of a point in the key's last query: a different digest, so checked
    bad = bytearray(keys.proving_key)
    bad[-5] ^= 1
    forged = api.Keys(keys.program_hash, bytes(bad), keys.verifying_key)
    with pytest.raises(api.MalformedInput, match="proving key"):
        api.prove(circuit, forged, inputs, seed=1)
    assert calls == [False, False]


def test_an_unsafe_record_is_ignored(cache, payd):
    d, calls = cache
    circuit, keys, inputs = payd
    api.prove(circuit, fresh(keys), inputs, seed=1)
    os.chmod(d, 0o777)  # others could mark a key as validated
    api.prove(circuit, fresh(keys), inputs, seed=2)
    assert calls == [False, False]


def test_the_record_can_be_disabled(monkeypatch, payd):
    monkeypatch.setenv("ZEENOT_CACHE_DIR", "")
    assert keycache.directory() is None
    keycache.record("0" * 64)
    assert not keycache.is_validated("0" * 64)


def test_cli_prove_uses_the_record(tmp_path, monkeypatch):
    from zeenot import cli

    monkeypatch.setenv("ZEENOT_CACHE_DIR", str(tmp_path / "validated"))
    d = tmp_path / "payd"
    app = f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium"
    inputs = str(EXAMPLES / "payd" / "inputs.json")
    assert cli.main(["compile", app, "-o", str(d)]) == 0
    assert cli.main(["setup", str(d)]) == 0
    assert len(os.listdir(tmp_path / "validated")) == 1
    assert cli.main(["prove", str(d), "--inputs", inputs, "-o", str(d / "p.json")]) == 0
    assert json.loads((d / "p.json").read_text())["outputs"] == [2603, False]


def test_keys_for_proving_let_the_encoded_key_go(cache, payd, tmp_path):
    _, calls = cache
    circuit, keys, inputs = payd
    lean = fresh(keys).for_proving()
    assert lean.proving_key == b"" and lean.verifying_key == keys.verifying_key
    assert len(calls) == 1  # decoded once, when made
    proof = api.prove(circuit, lean, inputs, seed=1)
    api.verify(circuit, lean.verifying_key, proof)
    assert len(calls) == 1  # proving reads the decoded key
    assert proof.proof == api.prove(circuit, keys, inputs, seed=1).proof
    (tmp_path / "c").mkdir()
    with pytest.raises(ZeenotError, match="no proving key"):
        lean.save(tmp_path / "c")
    assert not list((tmp_path / "c").iterdir())
