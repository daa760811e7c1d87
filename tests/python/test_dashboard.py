"""The dashboard in a real headless browser (Debian's Chromium, driven by Playwright).

A real `zeenot serve` process with payd and the 3-peer test application; accepted and refused
submissions (an HTML injection attempt in one's result, another in one's id); the page must
list them with their results and reasons as text, and draw one bar per premium bracket.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import httpx
import pytest

from zeenot.application import load_application
from zeenot.runtime.client import Runner
from zeenot.runtime.identity import Key

from .runtime_server import ROOT, bearer, operator_token, serve

PAYD = ROOT / "examples" / "payd" / "app.py"
TINY = Path(__file__).resolve().parent / "apps" / "tiny_peers.py"
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing in CI: scripts/system_deps.sh installs it")
        pytest.skip("Debian's chromium is not installed (scripts/system_deps.sh)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


def test_the_dashboard_shows_accepted_and_rejected_submissions(browser, tmp_path: Path) -> None:
    log = json.loads((ROOT / "examples" / "payd" / "log.json").read_text())
    token_file, token = operator_token(tmp_path)
    args = ["--operator-token-file", str(token_file)]
    with serve([PAYD, TINY], str(tmp_path / "zeenot.db"), *args) as (url, _):
        cars = [Key.generate(f"car-{i}") for i in (1, 2, 3)]  # payd: one run a car a week
        for car in cars:
            public = {"name": car.name, "public_key": car.public_key}
            httpx.post(f"{url}/api/apps/payd/clients", json=public, headers=bearer(token))
        runner = Runner(load_application(PAYD), url, key=cars[0])
        runner.run(log, submission_id="driver-1")
        # capped at 40 €, and a policy name that is an HTML injection attempt (a public input
        # the client chooses; it lands in the server's result)
        injection = "<img src=x onerror=alert(1)>"
        runner.key = cars[1]
        runner.run({**log, "km": [500] * 7, "policy": injection}, submission_id="driver-2")
        body = json.loads(runner.prepare(log, submission_id="<img src=x onerror=alert(1)>"))
        body["proofs"]["quote.0"]["outputs"][0] = 1
        runner.key = cars[2]  # a car without a run this week: the proof is what is refused
        submit = f"{url}/api/apps/payd/submissions"
        refused = httpx.post(submit, json=body, auth=runner.auth())
        assert refused.status_code == 400  # the id itself is refused, before the proof
        body["id"] = "tampered-1"
        tampered = httpx.post(submit, json=body, auth=runner.auth())
        assert tampered.status_code == 422
        runner.close()

        page = browser.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(url + "/")  # without the operator's token: nothing to show
        page.wait_for_function("document.getElementById('updated').textContent.includes('token')")
        assert page.locator("tr.submission").count() == 0
        page.goto(url + "/#token=" + token)
        page.wait_for_selector("body[data-ready='1']", timeout=15_000)
        assert "token" not in page.url  # taken out of the address bar
        panel = page.locator("article[data-app='payd']")
        assert panel.locator(".count").inner_text() == "2 accepted submissions"
        ids = panel.locator("tr.submission td.id").all_inner_texts()
        assert sorted(ids) == ["driver-1", "driver-2"]
        results = panel.locator("tr.submission td.result").all_inner_texts()
        assert any('"premium_cents":2603' in r for r in results)
        assert any('"capped":true' in r and injection in r for r in results)
        assert panel.locator("rect.bar").count() == 5  # one per premium bracket
        assert page.locator("article[data-app='tiny_peers']").count() == 1

        rejections = page.locator("#rejections tr.rejection")
        reasons = rejections.locator("td.reason").all_inner_texts()
        assert any("proof `quote.0` rejected" in r for r in reasons)
        statuses = rejections.locator("td.status").all_inner_texts()
        assert "422" in statuses and "400" in statuses
        assert page.locator("img").count() == 0 and dialogs == []  # shown as text, never run
        page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)
        assert (tmp_path / "dashboard.png").stat().st_size > 10_000
        os.environ.get("ZEENOT_SCREENSHOT") and shutil.copy(
            tmp_path / "dashboard.png", os.environ["ZEENOT_SCREENSHOT"]
        )
        page.close()
