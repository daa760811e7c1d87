"""The runtime as it is deployed: `zeenot serve` and `zeenot run` as two processes over HTTP."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import httpx
import pytest

from zeenot.runtime.identity import Key

from .runtime_server import ROOT, ZEENOT, bearer, operator_token, serve

PAYD = ROOT / "examples" / "payd" / "app.py"
LOG = ROOT / "examples" / "payd" / "log.json"


TOKEN: dict[str, str] = {}
CAR = Path()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    """payd with an operator token and one registered car (payd takes signed runs only)."""
    global CAR
    tmp = tmp_path_factory.mktemp("http")
    token_file, token = operator_token(tmp)
    TOKEN.update(bearer(token))
    key = Key.generate("car-1")
    CAR = tmp / "car-1.key"
    key.save(CAR)
    args = ["--max-body", "65536", "--operator-token-file", str(token_file)]
    with serve([PAYD], str(tmp / "zeenot.db"), *args) as (url, _):
        public = {"name": key.name, "public_key": key.public_key}
        assert (
            httpx.post(f"{url}/api/apps/payd/clients", json=public, headers=TOKEN).status_code
            == 201
        )
        yield url


def _run(url: str, *extra: str, inputs: Path = LOG) -> subprocess.CompletedProcess[str]:
    key = ["--client-key", str(CAR)] if CAR.name else []
    return subprocess.run(
        [*ZEENOT, "run", str(PAYD), "--server", url, "--inputs", str(inputs), *key, *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_client_and_server_processes(server: str, tmp_path: Path) -> None:
    done = _run(server, "--id", "cli-1")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer == {
        "id": "cli-1",
        "status": "accepted",
        "result": {"policy": "P-1042", "premium_cents": 2603, "capped": False},
    }
    stored = httpx.get(f"{server}/api/apps/payd/submissions/cli-1", headers=TOKEN).json()
    assert stored["result"] == answer["result"]
    # Running again under the same id proves again: other proof bytes of the same statement,
    # so the same run, answered from the database; the same id with another input is refused.
    again = _run(server, "--id", "cli-1")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == answer
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**json.loads(LOG.read_text()), "policy": "P-2"}))
    reused = _run(server, "--id", "cli-1", inputs=other)
    assert reused.returncode == 1 and "used for another submission" in reused.stderr
    listed = httpx.get(f"{server}/api/apps/payd/submissions", headers=TOKEN).json()
    assert [s["id"] for s in listed].count("cli-1") == 1


def test_the_descriptor_publishes_hashes_and_parameters(server: str) -> None:
    doc = httpx.get(f"{server}/api/apps/payd").json()
    region = doc["regions"]["weekly_premium"]
    pk = httpx.get(f"{server}/api/apps/payd/regions/weekly_premium/proving_key").content
    import hashlib

    assert hashlib.sha256(pk).hexdigest() == region["proving_key_sha256"]
    assert doc["parameters"] == {"0": [500, 4000]} and doc["proofs"] == ["quote.0"]


def test_a_failing_check_yields_no_proof_and_no_submission(server: str, tmp_path: Path) -> None:
    bad = tmp_path / "log.json"
    log = json.loads(LOG.read_text())
    log["km"][0] = 5_000  # beyond MAX_DAILY_KM: no proof exists
    bad.write_text(json.dumps(log))
    done = _run(server, "--id", "cli-bad", inputs=bad)
    assert done.returncode == 1, done.stderr
    assert "no proof exists" in done.stderr
    missing = httpx.get(f"{server}/api/apps/payd/submissions/cli-bad", headers=TOKEN)
    assert missing.status_code == 404


def test_oversized_and_unknown_requests(server: str) -> None:
    big = httpx.post(f"{server}/api/apps/payd/submissions", content=b" " * 70_000)
    assert big.status_code == 413 and "larger than 65536" in big.json()["reason"]
    assert httpx.post(f"{server}/api/apps/nope/submissions", json={}).status_code == 404
    assert httpx.get(f"{server}/api/apps/payd/regions/weekly_premium/secret").status_code == 404
    assert httpx.get(f"{server}/api/rejections?limit=0", headers=TOKEN).status_code == 400
    reasons = httpx.get(f"{server}/api/rejections", headers=TOKEN).json()
    assert any(r["status"] == 413 for r in reasons)


def test_unreachable_server_is_a_clear_error(tmp_path: Path) -> None:
    from .runtime_server import free_port

    done = _run(f"http://127.0.0.1:{free_port()}")
    assert done.returncode == 2 and "cannot reach the server" in done.stderr
