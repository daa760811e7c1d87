"""The `zeenot` command as a user runs it: exit codes, stdout data, stderr errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EXAMPLES, ROOT

APP = f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium"
INPUTS = str(EXAMPLES / "payd" / "inputs.json")
SNARKJS = ROOT / "node_modules" / ".bin" / "snarkjs"


def zeenot(*args: str, check: int | None = 0) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "zeenot.cli", *args], capture_output=True, text=True, timeout=300
    )
    if check is not None:
        assert proc.returncode == check, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    return proc


@pytest.fixture(scope="module")
def circuit_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("payd")
    out = zeenot("compile", APP, "-o", str(d), "--json")
    stats = json.loads(out.stdout)
    assert (
        stats["constraints"] > 0 and stats["public_inputs"] == 4 and stats["private_inputs"] == 14
    )
    zeenot("setup", str(d))
    zeenot("prove", str(d), "--inputs", INPUTS, "-o", str(d / "proof.json"))
    return d


def test_simulate_prints_outputs():
    out = zeenot("simulate", APP, "--inputs", INPUTS)
    assert json.loads(out.stdout) == [2603, False]


def test_verify_valid(circuit_dir):
    out = zeenot("verify", str(circuit_dir), str(circuit_dir / "proof.json"))
    assert out.stdout.strip() == "valid"


def test_prove_profile_prints_stages_on_stderr(circuit_dir, tmp_path):
    out = zeenot(
        "prove", str(circuit_dir), "--inputs", INPUTS, "-o", str(tmp_path / "p.json"), "--profile"
    )
    json.loads(out.stdout)  # stdout is still the JSON result alone
    stages = [line.split()[0] for line in out.stderr.splitlines()[1:]]
    for stage in ("load", "witness", "synthesis", "fft", "msm", "write", "total"):
        assert stage in stages, out.stderr
    zeenot("verify", str(circuit_dir), str(tmp_path / "p.json"))


def test_verify_tampered_output_exits_1(circuit_dir, tmp_path):
    doc = json.loads((circuit_dir / "proof.json").read_text())
    doc["outputs"][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    out = zeenot("verify", str(circuit_dir), str(bad), check=1)
    assert out.stderr.startswith("invalid:")


def test_verify_tampered_proof_exits_1(circuit_dir, tmp_path):
    doc = json.loads((circuit_dir / "proof.json").read_text())
    other = tmp_path / "other"
    shutil.copytree(circuit_dir, other)
    zeenot(
        "setup", str(other), "--force"
    )  # fresh keys: the old proof's points decode but do not verify
    doc["verifying_key_hash"] = json.loads((other / "keys.json").read_text())[
        "verifying_key_sha256"
    ]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    zeenot("verify", str(other), str(bad), check=1)


@pytest.mark.parametrize("content", ["", "not json", "[]", '{"zeenot_proof": 1}', '{"a": 1}'])
def test_verify_garbage_exits_2(circuit_dir, tmp_path, content):
    bad = tmp_path / "garbage.json"
    bad.write_text(content)
    out = zeenot("verify", str(circuit_dir), str(bad), check=2)
    assert out.stderr.startswith("error:")


def test_verify_garbage_proof_bytes_exits_2(circuit_dir, tmp_path):
    doc = json.loads((circuit_dir / "proof.json").read_text())
    doc["proof"] = "ab" * 10
    bad = tmp_path / "short.json"
    bad.write_text(json.dumps(doc))
    zeenot("verify", str(circuit_dir), str(bad), check=2)


def test_missing_files_exit_2(tmp_path):
    zeenot("verify", str(tmp_path), str(tmp_path / "nope.json"), check=2)
    zeenot("setup", str(tmp_path), check=2)
    zeenot("simulate", APP, "--inputs", str(tmp_path / "nope.json"), check=2)
    zeenot("compile", "no_colon", "-o", str(tmp_path), check=2)


def test_failing_inputs_exit_1(tmp_path, circuit_dir):
    doc = json.loads(Path(INPUTS).read_text())
    doc["km"][0] = 5000
    bad = tmp_path / "in.json"
    bad.write_text(json.dumps(doc))
    out = zeenot("simulate", APP, "--inputs", str(bad), check=1)
    assert "app.py" in out.stderr
    out = zeenot(
        "prove", str(circuit_dir), "--inputs", str(bad), "-o", str(tmp_path / "p"), check=1
    )
    assert "app.py:" in out.stderr
    assert not (tmp_path / "p").exists()


def test_out_of_range_input_exits_2(tmp_path, circuit_dir):
    doc = json.loads(Path(INPUTS).read_text())
    doc["base_cents"] = -3
    bad = tmp_path / "in.json"
    bad.write_text(json.dumps(doc))
    zeenot("prove", str(circuit_dir), "--inputs", str(bad), "-o", str(tmp_path / "p"), check=2)


def test_compile_error_has_location(tmp_path):
    src = tmp_path / "bad.py"
    src.write_text(
        "from zeenot import zk, Private, u32\n\n@zk\ndef f(x: Private[u32]) -> u32:\n"
        "    while x > 0:\n        x = x - 1\n    return x\n"
    )
    out = zeenot("compile", f"{src}:f", "-o", str(tmp_path / "o"), check=2)
    assert "bad.py:5:" in out.stderr and "while" in out.stderr


def test_snarkjs_accepts_exported_proof(circuit_dir, tmp_path):
    if not SNARKJS.exists():
        if os.environ.get("CI"):
            pytest.fail("snarkjs is not installed: run ./scripts/bootstrap.sh")
        pytest.skip("snarkjs not installed (npm ci)")
    out_dir = tmp_path / "snarkjs"
    zeenot(
        "export", "snarkjs", str(circuit_dir), str(circuit_dir / "proof.json"), "-o", str(out_dir)
    )
    files = [str(out_dir / f) for f in ("verification_key.json", "public.json", "proof.json")]
    ok = subprocess.run([str(SNARKJS), "groth16", "verify", *files], capture_output=True, text=True)
    assert ok.returncode == 0 and "OK" in ok.stdout, ok.stdout + ok.stderr
    # and snarkjs rejects a changed public value
    public = json.loads(Path(files[1]).read_text())
    public[-2] = str(int(public[-2]) + 1)
    Path(files[1]).write_text(json.dumps(public))
    bad = subprocess.run(
        [str(SNARKJS), "groth16", "verify", *files], capture_output=True, text=True
    )
    assert "OK" not in bad.stdout


@pytest.mark.parametrize(
    "damage",
    [
        # verify reads the layout of the public values, not the IR (prove reads the IR)
        lambda d: (d / "verifier.json").write_text("{not json"),
        lambda d: (d / "verifier.json").write_text('{"zeenot_verifier": 2}'),
        lambda d: (d / "verifier.json").unlink() or (d / "program.ir.json").write_text("{"),
        lambda d: (d / "verifying.key").write_bytes(b"\x00" * 10),
        lambda d: (d / "keys.json").write_text("[]"),
    ],
)
def test_damaged_circuit_dir_exits_2(circuit_dir, tmp_path, damage):
    d = tmp_path / "damaged"
    shutil.copytree(circuit_dir, d)
    damage(d)
    out = zeenot("verify", str(d), str(d / "proof.json"), check=2)
    assert out.stderr.startswith("error:")


def test_damaged_ir_exits_2_when_proving(circuit_dir, tmp_path):
    d = tmp_path / "damaged"
    shutil.copytree(circuit_dir, d)
    (d / "program.ir.json").write_text('{"version": 2}')
    out = zeenot("prove", str(d), "--inputs", INPUTS, "-o", str(d / "p.json"), check=2)
    assert "program.ir.json" in out.stderr


def test_version_and_usage():
    assert zeenot("--version").stdout.startswith("zeenot ")
    out = zeenot("frobnicate", check=2)
    assert "invalid choice" in out.stderr


@pytest.mark.parametrize(
    "app, field, value, message",
    [
        (
            "loyalty/app.py:discount",
            "history",
            "double",
            "96 values, more than the maximum size 64",
        ),
        ("loyalty/app.py:discount", "history", "record", "`history[0]`: missing field `category`"),
        ("metering/app.py:bill", "meter", {"x": 1, "y": 2}, "`meter`: not a Baby Jubjub point"),
    ],
)
def test_bad_list_record_and_point_inputs_exit_2(tmp_path, app, field, value, message):
    example = app.split("/")[0]
    inputs = json.loads((EXAMPLES / example / "inputs.json").read_text())
    if value == "double":
        inputs[field] = inputs[field] * 2
    elif value == "record":
        inputs[field][0] = {"day": 1}
    else:
        inputs[field] = value
    bad = tmp_path / "inputs.json"
    bad.write_text(json.dumps(inputs))
    proc = zeenot("simulate", str(EXAMPLES / app), "--inputs", str(bad), check=2)
    assert message in proc.stderr
