"""The planner's choice between certified data's paths (issue 30; zeenot.certified.paths):
`zeenot certified plan` costs path (a) (the bill proved) and path (b) (the readings and tier
energies encrypted, the tariff applied by the utility, the sum decrypted with a DLEQ proof)
and picks; with private weights path (a) does not apply; `--compile-to` writes the chosen
path's directory, which `certified prove` and `service serve` follow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zeenot import bundle, cli
from zeenot.certified.encrypted_client import load_regions

from .conftest import EXAMPLES

PATH_A = f"{EXAMPLES / 'metering' / 'certified.py'}:bill_day"
PATH_B = f"{EXAMPLES / 'metering' / 'certified_encrypted.py'}:encrypted_bill_48"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def test_both_paths_costed_and_the_cheaper_picked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "certified", "plan", "--a", PATH_A, "--b", PATH_B, "--results", "1", "--json"
    )
    assert code == 0, err
    doc = json.loads(out)
    a, b = doc["a"], doc["b"]
    assert a["backends"] == {"bill_day": "groth16"}
    assert b["backends"] == {
        "encrypted_bill_48": "groth16",  # the meter's signature
        "encrypt_usage_48": "sigma",  # the 51 encryptions
        "decrypts_dleq": "sigma (×1)",
    }
    assert set(b["unprofiled_s"]) == {"service_sums_s", "decrypt_s"}
    # one 128-byte proof against a bundle, a DLEQ proof and a decryption: (a) is cheaper
    assert a["proof_bytes"] == 128 < b["proof_bytes"]
    assert doc["chosen"] == "a" and a["objective"] < b["objective"]
    assert "cheaper than path (b)" in doc["why"]


def test_private_weights_rule_out_path_a_and_the_directory_follows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "chosen"
    code, out, err = run(
        capsys, "certified", "plan", "--a", PATH_A, "--b", PATH_B, "--results", "1",
        "--private-weights", "--compile-to", str(out_dir),
    )  # fmt: skip
    assert code == 0, err
    assert "chosen: path (b)" in out and "excluded: the service's weights are private" in out
    regions, keys = load_regions(str(out_dir))  # what `certified prove` / `serve` load
    assert isinstance(regions, bundle.Regions) and regions.name == "encrypted_bill_48"
    assert set(keys) == {"encrypted_bill_48"}

    code, _, err = run(capsys, "certified", "plan", "--a", PATH_A, "--b", PATH_A, "--results", "1")
    assert code != 0 and "shows no ciphertexts" in err
