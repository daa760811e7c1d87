"""Peers as a tier of the placement (issue 28, item 2): a worker whose private inputs belong to
the run's peer is pinned there, a worker on public data may run on the client, the server or
the peer, and the planner places it by cost for the whole application; `zeenot plan` shows the
tier and why; the runtime follows the plan (the peer proves, the client relays, the server
verifies the proof bound to the run and signed by the peer).

examples/solar_share is the application: a neighbour's panel (the peer) proves its exported
kWh from its private log, the household (the client) its used kWh, and the feed-in credit on
the proved export (`price`, `@worker(tier="auto")`) runs wherever it is cheapest.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from zeenot.application import load_application
from zeenot.application.placement import options, place
from zeenot.errors import CompileError
from zeenot.plan import Profile, Weights, plan, regions_of
from zeenot.plan.profile import DEFAULT

from .conftest import EXAMPLES
from .test_cli import zeenot

SOLAR = EXAMPLES / "solar_share"
SOURCE = (SOLAR / "app.py").read_text()


def _variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """examples/solar_share with one piece changed (`old` must be in it)."""
    assert old in SOURCE, old
    path = tmp_path / name / "app.py"
    path.parent.mkdir()
    path.write_text(SOURCE.replace(old, new))
    return path


def _plan(target: str, weights: Weights) -> tuple[dict[str, str], dict[str, Any]]:
    p = plan(regions_of(target), Profile.load(DEFAULT), weights)
    return p.placement, {c.region.name: c for c in p.choices}


# -- the planner ------------------------------------------------------------------------------


def test_a_region_on_public_data_moves_among_client_server_and_peer_by_cost() -> None:
    """The panel idle (the example's weights): the peer proves the credit. The panel's time
    dear: the server. The server's too: the client. The objective is the least over every
    legal placement, and each tier's figure is the plan's objective with `price` there."""
    app = load_application(SOLAR / "app.py")
    assert app.tiers == ("client", "server", "peer")
    assert options(app).tiers("price") == ["client", "server", "peer"]

    seen = {}
    for text, where in (
        ("client=4,server=2,peer=1", "peer"),
        ("client=4,server=2,peer=10", "server"),
        ("client=1,server=10,peer=10", "client"),
    ):
        weights = Weights.parse(text)
        placed, regions = _plan(str(SOLAR), weights)
        assert placed == {"exported": "peer", "price": where}, text
        credit = regions["credit"]
        assert credit.tier == where
        assert credit.tier_why.startswith(f"cheaper on the {where}:")
        assert set(credit.tiers) == {"client", "server", "peer"}
        assert all(isinstance(v, float) for v in credit.tiers.values())
        assert credit.tiers[where] == min(credit.tiers.values())
        seen[where] = credit.tiers
    # the peer's seconds are charged to the peer: raising its weight raises only its figure
    # by the proving time (the proofs it makes), never the client's or the server's
    assert seen["server"]["peer"] > seen["peer"]["peer"]
    assert seen["server"]["client"] == pytest.approx(
        seen["peer"]["client"] + 9 * regions_prove(SOLAR, "panel_export")
    )


def regions_prove(target: Path, name: str) -> float:
    """The predicted proving seconds of region `name` on its chosen back end."""
    _, regions = _plan(str(target), Weights.parse("client=4,server=2,peer=1"))
    return regions[name].predicted[regions[name].backend].prove_s


def test_a_peer_proof_pays_for_its_relay() -> None:
    """A peer's proof crosses twice (to the client, which relays it): with every tier's time
    free, the bytes decide, and the peer loses to the client by one proof's bytes."""
    weights = Weights(client=0, server=0, peer=0, byte=1.0)
    _, regions = _plan(str(SOLAR), weights)
    credit = regions["credit"]
    cost = credit.predicted[credit.backend]
    tiers = credit.tiers
    assert isinstance(tiers["peer"], float) and isinstance(tiers["client"], float)
    assert tiers["peer"] - tiers["client"] == pytest.approx(cost.proof_bytes, rel=1e-6)


def test_a_region_is_pinned_by_its_private_inputs_owner(tmp_path: Path) -> None:
    """`exported` reads the panel's private log: only the peer may run it, whatever the
    weights; the client and the server are refused by the flow check, naming the input."""
    app = load_application(SOLAR / "app.py")
    opts = options(app)
    assert opts.tiers("exported") == ["peer"]
    assert opts.refused["exported"] == {
        "client": "private inputs of the peer (`panel`; ZN513 on the client)",
        "server": "private inputs of the peer (`panel`; ZN511 on the server)",
    }
    for weights in (Weights(peer=1000), Weights(client=0, server=0, peer=1000)):
        placed, regions = _plan(str(SOLAR), weights)
        assert placed["exported"] == "peer"
        assert regions["panel_export"].tier_why == (
            "only peer: private inputs of the peer (`panel`; ZN513 on the client, ZN511 on "
            "the server)"
        )
    for tier, code in (("client", "ZN513"), ("server", "ZN511")):
        with pytest.raises(CompileError) as info:
            place(app, {"exported": tier, "price": "server"})
        assert info.value.diagnostic.code == code
    assert app.placement() == {"exported": "peer", "price": "client"}  # left as it was

    # the household's own log pins `used` on the client the same way (never on the peer)
    movable = _variant(
        tmp_path,
        "movable_used",
        '@worker(tier="client")\ndef used(',
        '@worker(tier="auto")\ndef used(',
    )
    opts = options(load_application(movable))
    assert opts.tiers("used") == ["client"]
    assert (
        opts.refused["used"]["peer"] == "private inputs of the client (`home`; ZN513 on the peer)"
    )


def test_the_flow_check_refuses_what_would_leak_between_client_and_peer(tmp_path: Path) -> None:
    """A declared peer worker fed the client's private log, a client worker fed the panel's,
    a peer worker reading what the client computed in the run (after the peer: ZN503), and
    the server acting on a value the peer computed without a proof (ZN505)."""
    cases = [
        ("kwh = exported(panel)", "kwh = exported(home)", "ZN513", "private to the client"),
        ("used_kwh = used(home)", "used_kwh = used(panel)", "ZN513", "private to the peer"),
    ]
    for i, (old, new, code, text) in enumerate(cases):
        path = _variant(tmp_path, f"leak{i}", old, new)
        path.write_text(
            path.read_text().replace(
                '@worker(tier="auto")\ndef exported(', '@worker(tier="peer")\ndef exported('
            )
        )
        with pytest.raises(CompileError) as info:
            load_application(path)
        assert info.value.diagnostic.code == code and text in info.value.diagnostic.message

    after = _variant(
        tmp_path,
        "after",
        "    credit_cents, capped = price(kwh, bounds, cents, cap)",
        "    credit_cents, capped = price(used_kwh, bounds, cents, cap)\n"
        "    again = echo(used_kwh)",
    )
    after.write_text(
        after.read_text()
        + textwrap.dedent(
            """

            @worker(tier="peer")
            def echo(x: u32):
                return x
            """
        )
    )
    with pytest.raises(CompileError) as info:
        load_application(after)
    assert info.value.diagnostic.code == "ZN503"

    unproved = _variant(
        tmp_path,
        "unproved",
        '    """On the panel (its private log pins it there): the day\'s exported kWh, proved."""\n'
        "    return panel_export(panel)",
        "    total = panel_export(panel)\n    return total + 1",
    )
    unproved.write_text(
        unproved.read_text().replace(
            '@worker(tier="auto")\ndef exported(', '@worker(tier="peer")\ndef exported('
        )
    )
    with pytest.raises(CompileError) as info:
        load_application(unproved)
    assert info.value.diagnostic.code == "ZN505"
    assert "computes on the peer" in info.value.diagnostic.message


def test_an_application_without_a_peer_has_two_tiers() -> None:
    """examples/tariff declares no peer: its movable worker is placed between the client and
    the server only, as before."""
    app = load_application(EXAMPLES / "tariff" / "app.py")
    assert app.tiers == ("client", "server")
    assert options(app).tiers("price") == ["client", "server"]
    _, regions = _plan(str(EXAMPLES / "tariff"), Weights())
    assert set(regions["premium"].tiers) == {"client", "server"}


def _masked(text: str) -> str:
    """The plan's tier table with its figures masked (a recalibrated profile moves them)."""
    table = text[text.index("| region | tier | why |") :].split("\n\n")[0]
    return re.sub(r"\d+(\.\d+)?(e-?\d+)?", "N", table)


def test_plan_command_shows_the_peer_in_the_tier_column() -> None:
    out = zeenot("plan", str(SOLAR)).stdout
    assert "weights: client 4/s, server 2/s, peer 1/s," in out
    assert "| credit | **peer** |" in out and "| panel_export | **peer** |" in out
    assert _masked(out) == textwrap.dedent(
        """\
        | region | tier | why |
        |---|---|---|
        | credit | peer | cheaper on the peer: N vs N on the server (plan objective) |
        | home_use | client | declared @worker(tier="client") |
        | panel_export | peer | only peer: private inputs of the peer (`panel`; """
        "ZNN on the client, ZNN on the server) |"
    )
    doc = json.loads(zeenot("plan", str(SOLAR), "--json", "--weights", "peer=10").stdout)
    assert doc["placement"] == {"exported": "peer", "price": "server"}
    assert doc["weights"]["peer"] == 10
