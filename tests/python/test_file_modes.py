"""What zeenot writes is readable by whom it is meant for: the artefacts a prover hands to a
verifier (circuit, keys, proof, verifier, bundle) mode 0644; the prover's secrets (the opening
of a `Committed` output, a signing key, an operator token) mode 0600 (issue 28, item 3)."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from zeenot import files
from zeenot.errors import MalformedInput

from .conftest import EXAMPLES

SPLIT = EXAMPLES / "split"


def zeenot(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "zeenot.cli", *args], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    return proc


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_compile_setup_prove_write_public_files_0644_and_the_opening_0600(tmp_path):
    d = tmp_path / "km"
    zeenot("compile", f"{SPLIT / 'app.py'}:monthly_km", "-o", str(d))
    zeenot("setup", str(d))
    proof, opening = tmp_path / "proof.json", tmp_path / "opening.json"
    zeenot(
        "prove", str(d), "--inputs", str(SPLIT / "inputs.json"), "-o", str(proof),
        "--opening", str(opening),
    )  # fmt: skip
    public = sorted(p for p in d.iterdir() if p.is_file())
    names = {p.name for p in public}
    assert {"circuit.json", "verifying.key", "proving.key", "verifier.json"} <= names, names
    for p in [*public, proof]:
        assert mode(p) == 0o644, (p.name, oct(mode(p)))
    assert mode(opening) == 0o600


def test_keys_and_tokens_are_the_owners_alone(tmp_path):
    key, token = tmp_path / "server.key", tmp_path / "operator.token"
    zeenot("keys", "new", "--name", "server", "--out", str(key))
    zeenot("keys", "token", "--out", str(token))
    assert mode(key) == 0o600 and mode(token) == 0o600


@pytest.mark.parametrize(("secret", "expected"), [(True, 0o600), (False, 0o644)])
def test_write_atomic_sets_the_mode_it_is_told(tmp_path, secret, expected):
    target = tmp_path / "f"
    target.write_bytes(b"old")
    target.chmod(0o666 if secret else 0o600)  # the old file's mode is not kept
    files.write_atomic(target, b"new", secret=secret)
    assert target.read_bytes() == b"new" and mode(target) == expected
    assert [p.name for p in tmp_path.iterdir()] == ["f"]


def test_write_atomic_requires_the_caller_to_say(tmp_path):
    with pytest.raises(TypeError):
        files.write_atomic(tmp_path / "f", b"x")  # type: ignore[call-arg]
    assert not (tmp_path / "f").exists()
    with pytest.raises(MalformedInput):
        files.write_atomic(tmp_path / "no" / "f", b"x", secret=False)
