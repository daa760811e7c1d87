"""Tier placement (issue 28, item 2): a movable worker's tier (`@worker(tier="auto")`) is a
decision variable of the planner, legal where the information-flow check allows it, chosen
by cost for the whole application, shown by `zeenot plan`, and followed by the runtime.

examples/tariff is the application: the car proves its week's totals from its private log
(`totals`, on the client), and the tariff on those public totals (`price`) may run on the car
or at the insurer.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from zeenot.application import load_application
from zeenot.application.placement import options, place
from zeenot.errors import CompileError
from zeenot.plan import Profile, Weights, plan, regions_of
from zeenot.plan.profile import DEFAULT
from zeenot.runtime.client import RunError, Runner
from zeenot.runtime.service import Service
from zeenot.runtime.store import Store
from zeenot.simulate import simulate

from .conftest import EXAMPLES
from .test_cli import zeenot
from .test_runtime_service import _Local

TARIFF = EXAMPLES / "tariff"
RUN = json.loads((TARIFF / "run.json").read_text())
SOURCE = (TARIFF / "app.py").read_text()


def _variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """examples/tariff with one line changed (`old` must be in it)."""
    assert old in SOURCE
    path = tmp_path / name / "app.py"
    path.parent.mkdir()
    path.write_text(SOURCE.replace(old, new))
    return path


def _placement(target: str, weights: Weights) -> tuple[dict[str, str], Any]:
    p = plan(regions_of(target), Profile.load(DEFAULT), weights)
    return p.placement, {c.region.name: c for c in p.choices}


# -- the planner ------------------------------------------------------------------------------


def test_the_planner_places_the_movable_region_by_cost() -> None:
    """The car's time dear: the insurer proves the tariff; the insurer's time dear: the car
    does. The privately fed region stays on the car whatever the weights."""
    cheap_server, regions = _placement(str(TARIFF), Weights(client=4, server=1))
    assert cheap_server == {"price": "server"}
    assert regions["premium"].tier == "server"
    assert regions["premium"].tier_why.startswith("cheaper on the server:")
    assert regions["weekly_totals"].tier == "client"
    assert regions["weekly_totals"].tier_why == 'declared @worker(tier="client")'

    busy_server, regions = _placement(str(TARIFF), Weights(client=1, server=10))
    assert busy_server == {"price": "client"}
    assert regions["premium"].tier_why.startswith("cheaper on the client:")
    assert regions["weekly_totals"].tier == "client"


def test_the_chosen_placement_is_the_cheapest_legal_one() -> None:
    """The plan's objective is the least over every legal placement, each costed by hand."""
    regions = regions_of(str(TARIFF))
    profile = Profile.load(DEFAULT)
    for weights in (Weights(), Weights(client=4), Weights(server=3), Weights(byte=1e-3)):
        p = plan(regions, profile, weights)
        by_tier = p.choices[0].tiers  # premium: the plan's objective with price on each tier
        assert set(by_tier) == {"client", "server"}
        assert p.objective() == pytest.approx(min(by_tier.values()))  # type: ignore[type-var]
        assert p.objective() == pytest.approx(by_tier[p.placement["price"]])


def test_the_application_declares_its_weights(tmp_path: Path) -> None:
    """`PLAN_WEIGHTS` in the module are the plan's weights unless `--weights` says otherwise;
    the server places by them."""
    busy = _variant(
        tmp_path, "busy", 'PLAN_WEIGHTS = "client=4,server=1"', 'PLAN_WEIGHTS = "server=10"'
    )
    doc = json.loads(zeenot("plan", str(busy), "--json").stdout)
    assert doc["placement"] == {"price": "client"} and doc["weights"]["server"] == 10
    doc = json.loads(zeenot("plan", str(busy), "--json", "--weights", "client=4").stdout)
    assert doc["placement"] == {"price": "server"}
    premium = next(r for r in doc["regions"] if r["name"] == "premium")
    assert premium["tier"] == "server" and set(premium["tiers"]) == {"client", "server"}


def test_plan_command_shows_the_tier_column_and_why() -> None:
    out = zeenot("plan", str(TARIFF)).stdout
    assert "| region | tier | size | back end |" in out
    assert "| premium | **server** |" in out and "| weekly_totals | **client** |" in out
    assert "| premium | server | cheaper on the server:" in out
    assert '| weekly_totals | client | declared @worker(tier="client") |' in out


# -- the privacy constraint and the flow check ------------------------------------------------


def test_a_region_on_private_client_inputs_is_never_placed_on_the_server(tmp_path: Path) -> None:
    """`totals` made movable: it reads the car's private log, so the flow check allows it on
    the client only, and no weight moves it (the server's time free, the car's dear)."""
    path = _variant(
        tmp_path,
        "movable_totals",
        '@worker(tier="client")\ndef totals(',
        '@worker(tier="auto")\ndef totals(',
    )
    app = load_application(path)
    opts = options(app)
    assert opts.tiers("totals") == ["client"] and opts.tiers("price") == ["client", "server"]
    assert "private inputs of the client (`km`, `night_km`" in opts.refused["totals"]["server"]
    for weights in (Weights(client=1000, server=0), Weights(), Weights(server=1000)):
        placed, regions = _placement(str(path), weights)
        assert placed["totals"] == "client"
        assert regions["weekly_totals"].tier_why.startswith("only client: private inputs")
    with pytest.raises(CompileError) as info:
        place(app, {"totals": "server", "price": "server"})
    assert info.value.diagnostic.code == "ZN511"
    assert app.placement() == {"totals": "client", "price": "client"}  # left as it was


def test_the_flow_check_rejects_illegal_placements(tmp_path: Path) -> None:
    """A movable worker whose result a client worker reads cannot run on the server after the
    client (ZN503); one on published values only would prove before any run (ZN512); and an
    application whose only placements are illegal does not load."""
    feeds = _variant(
        tmp_path,
        "feeds",
        "    return bill(policy, premium_cents, capped)",
        "    again = totals(km, night_km)\n    return bill(policy, premium_cents, capped)",
    )
    # `again` reads nothing of price's; make a client worker read price's result instead
    source = feeds.read_text().replace(
        "again = totals(km, night_km)", "again = echo(premium_cents)"
    )
    source += textwrap.dedent(
        """

        @worker(tier="client")
        def echo(x: u64):
            return x
        """
    )
    feeds.write_text(source)
    app = load_application(feeds)
    assert app.placement() == {"price": "client"}
    assert options(app).tiers("price") == ["client"]
    assert options(app).refused["price"]["server"].startswith("ZN503")

    published = _variant(
        tmp_path,
        "published",
        "premium_cents, capped = price(total_km, night, zone, bounds, cents, zones, cap)",
        "premium_cents, capped = price(cap, cap, cap, bounds, cents, zones, cap)",
    )
    app = load_application(published)
    with pytest.raises(CompileError) as info:
        place(app, {"price": "server"})
    assert info.value.diagnostic.code == "ZN512"
    assert options(app).tiers("price") == ["client"]


# -- the runtime follows the plan -------------------------------------------------------------


def _deploy(path: Path, db: Path) -> tuple[Service, Runner]:
    app = load_application(path)
    service = Service(app, Store(str(db)))
    runner = Runner(load_application(path), "http://unused")  # the client's own copy
    runner.http = _Local(service)  # type: ignore[assignment]
    return service, runner


def _expected() -> dict[str, Any]:
    bounds = [25 * (i + 1) * (i + 1) for i in range(24)]
    cents = [max(9 - i // 3, 2) for i in range(24)]
    zones = [5 * (i % 4) for i in range(16)]
    app = load_application(TARIFF / "app.py")
    log = {"km": RUN["km"], "night_km": RUN["night_km"]}
    total, night = simulate(app.regions["weekly_totals"], log)
    premium, capped = simulate(
        app.regions["premium"],
        {
            "total_km": total,
            "night_km": night,
            "zone": RUN["zone"],
            "bounds": bounds,
            "cents": cents,
            "zone_percent": zones,
            "cap_cents": 9000,
        },
    )
    return {"policy": RUN["policy"], "premium_cents": premium, "capped": capped}


def test_the_runtime_proves_a_region_where_the_plan_places_it(tmp_path: Path) -> None:
    """Placed on the server (the example's weights): the car proves only its totals, the
    insurer proves the tariff and answers with the proof, which the car checks (and refuses
    when it is tampered with). Placed on the car: the car proves both, the answer has none."""
    service, runner = _deploy(TARIFF / "app.py", tmp_path / "server.db")
    assert service.placement == {"price": "server"}
    assert service.descriptor()["server_proofs"] == ["price.0"]
    body = runner.prepare(RUN, submission_id="week-1")
    submission = json.loads(body)
    assert list(submission["proofs"]) == ["totals.0"]
    status, answer = service.submit(body)
    assert status == 201 and answer["result"] == _expected()
    assert list(answer["proofs"]) == ["price.0"]
    runner.check_server_proofs(submission, answer)  # valid, this run's, on this run's values

    forged = json.loads(json.dumps(answer))
    forged["proofs"]["price.0"]["outputs"][0] -= 100  # a lower bill than the tariff's
    with pytest.raises(RunError, match="price.0"):
        runner.check_server_proofs(submission, forged)
    other = json.loads(runner.prepare({**RUN, "zone": 1}, submission_id="week-2"))
    with pytest.raises(RunError, match="another run"):
        runner.check_server_proofs(other, answer)  # a proof of another run's bill
    with pytest.raises(RunError, match="carries no proofs"):
        runner.check_server_proofs(submission, {**answer, "proofs": None})

    busy = _variant(
        tmp_path, "busy", 'PLAN_WEIGHTS = "client=4,server=1"', 'PLAN_WEIGHTS = "server=10"'
    )
    service, runner = _deploy(busy, tmp_path / "client.db")
    assert service.placement == {"price": "client"}
    assert "server_proofs" in service.descriptor()
    assert service.descriptor()["server_proofs"] == []
    body = runner.prepare(RUN, submission_id="week-1")
    assert sorted(json.loads(body)["proofs"]) == ["price.0", "totals.0"]
    status, answer = service.submit(body)
    assert status == 201 and answer["result"] == _expected() and "proofs" not in answer


def test_the_client_refuses_a_placement_the_flow_check_refuses(tmp_path: Path) -> None:
    """A server that asks the car to let it run a worker reading the car's private log is
    refused before anything is proved."""
    path = _variant(
        tmp_path,
        "movable_totals",
        '@worker(tier="client")\ndef totals(',
        '@worker(tier="auto")\ndef totals(',
    )
    runner = Runner(load_application(path), "http://unused")
    with pytest.raises(RunError, match="ZN511|private"):
        runner._follow({"totals": "server", "price": "server"})
    with pytest.raises(RunError, match="placement"):
        runner._follow({"price": "server"})  # names not every movable worker
    runner._follow({"totals": "client", "price": "server"})
    assert runner.app.placement() == {"totals": "client", "price": "server"}
