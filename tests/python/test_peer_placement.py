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

from zeenot.api import Proof
from zeenot.application import load_application
from zeenot.application.placement import options, place
from zeenot.errors import CompileError, MalformedInput
from zeenot.plan import Profile, Weights, plan, regions_of
from zeenot.plan.profile import DEFAULT
from zeenot.runtime.client import RunError, Runner
from zeenot.runtime.identity import Key
from zeenot.runtime.peer_prover import PeerProver
from zeenot.runtime.service import Rejected, Service
from zeenot.runtime.store import Store
from zeenot.simulate import simulate

from .conftest import EXAMPLES
from .runtime_server import serve
from .test_cli import zeenot
from .test_runtime_service import _Local

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


# -- the runtime follows the plan: the peer proves, the client relays, the server verifies ------

PANEL = [0] * 7 + [900, 2100, 3400, 4800, 5600, 6000, 5700, 4900, 3600, 2200, 800] + [0] * 6
HOME = [300] * 7 + [500, 700, 400, 300, 200, 900, 1200, 800, 400, 600, 1500] + [700] * 6
RUN = {"account": "H-17", "home": HOME}


def _expected() -> dict[str, Any]:
    app = load_application(SOLAR / "app.py")
    bounds = [10 * (i + 1) * (i + 1) for i in range(8)]
    cents = [max(12 - 2 * i, 3) for i in range(8)]
    kwh = simulate(app.regions["panel_export"], {"wh": PANEL})
    used = simulate(app.regions["home_use"], {"wh": HOME})
    credit, capped = simulate(
        app.regions["credit"], {"kwh": kwh, "bounds": bounds, "cents": cents, "cap_cents": 1500}
    )
    return {
        "account": "H-17",
        "used_kwh": used,
        "from_panel_kwh": min(used, kwh),
        "credit_cents": credit,
        "capped": capped,
    }


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Service, Key, Store]:
    store = Store(str(tmp_path_factory.mktemp("solar") / "server.db"))
    service = Service(load_application(SOLAR / "app.py"), store)
    panel = Key.generate("peer.panel-7")
    store.register_client(service.app.name, panel.name, panel.public_key)
    return service, panel, store


def _runner(service: Service, peer: Any = None) -> Runner:
    runner = Runner(load_application(SOLAR / "app.py"), "http://unused", peer=peer)
    runner.http = _Local(service)  # type: ignore[assignment]
    return runner


def _peer(service: Service, key: Key, panel: list[int] = PANEL) -> PeerProver:
    return PeerProver(_runner(service), key, {"panel": panel})


def test_the_peer_proves_its_regions_and_the_server_accepts(
    deployed: tuple[Service, Key, Store],
) -> None:
    """Placed by the example's weights: the panel proves its export and the credit, the
    household its use; the submission relays the peer's proofs with its signature, the server
    verifies every proof bound to the run and answers the bill. The panel's log never reaches
    the household: the request it answers holds only the run's public values."""
    service, panel, _ = deployed
    assert service.placement == {"exported": "peer", "price": "peer"}
    doc = service.descriptor()
    assert doc["peer_proofs"] == ["exported.0", "price.0"]
    assert sorted(doc["proofs"]) == ["exported.0", "price.0", "used.0"]
    asked: list[dict[str, Any]] = []
    prover = _peer(service, panel)

    def peer(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return prover(request)

    runner = _runner(service, peer)
    body = runner.prepare(RUN, submission_id="day-1")
    submission = json.loads(body)
    assert asked == [
        {"app": "solar_share", "id": "day-1", "inputs": {"account": "H-17"}, "client": None}
    ]
    assert sorted(submission["proofs"]) == ["exported.0", "price.0", "used.0"]
    assert submission["peer"]["name"] == "peer.panel-7"
    assert PANEL[9] not in _leaves(submission["peer"])
    status, answer = service.submit(body)
    assert status == 201 and answer["result"] == _expected()
    assert "proofs" not in answer  # the server proved nothing: the plan put nothing there


def _refused(service: Service, body: bytes | dict[str, Any], status: int, match: str) -> None:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    with pytest.raises(Rejected) as info:
        service.submit(data)
    assert info.value.status == status and re.search(match, info.value.reason), info.value.reason


def test_forged_and_replayed_peer_proofs_are_refused(
    deployed: tuple[Service, Key, Store], tmp_path: Path
) -> None:
    """The household cannot stand in for the panel (its own proofs of the panel's regions,
    signed by a key the server does not know as the panel's, or naming the panel), take the
    panel's proofs to another run, tamper with them, or leave the peer out."""
    service, panel, store = deployed
    good = json.loads(_runner(service, _peer(service, panel)).prepare(RUN, submission_id="day-2"))

    # a key that is not the registered panel's, proving a panel log of the household's choice
    impostor = Key.generate("peer.panel-7")
    inflated = [20_000] * 24
    forged = json.loads(
        _runner(service, _peer(service, impostor, inflated)).prepare(RUN, submission_id="day-3")
    )
    _refused(service, forged, 422, "signature does not cover")
    unknown = Key.generate("peer.panel-9")
    forged = json.loads(
        _runner(service, _peer(service, unknown, inflated)).prepare(RUN, submission_id="day-4")
    )
    _refused(service, forged, 422, "`peer.panel-9` is not a registered client")

    # the panel's proofs, signed for day-2, relayed in another run
    moved = json.loads(json.dumps(good))
    moved["id"] = "day-5"
    _refused(service, moved, 422, "signature does not cover")
    # ... signed over the new run by another party: the household (a client, not a peer), or
    # another registered peer (the proofs' contexts name the panel)
    from zeenot.runtime.binding import peer_statement
    from zeenot.runtime.peer_runs import proof_digests

    raw = {k: Proof.from_json(json.dumps(p)).proof for k, p in moved["proofs"].items()}
    for signer, why in (("household", "`household` is not a peer"), ("peer.other", "another run")):
        key = Key.generate(signer)
        store.register_client(service.app.name, key.name, key.public_key)
        statement = peer_statement(
            service.app.name,
            service.app.source_sha256,
            service.epoch,
            "day-5",
            moved["inputs"],
            None,
            key.name,
            proof_digests(service.app, raw),
        )
        moved["peer"] = {"name": key.name, "signature": key.private.sign(statement).hex()}
        _refused(service, moved, 422, why)
    # a peer does not submit runs (its role is in its registered name)
    with pytest.raises(Rejected) as info:
        service.submit(json.dumps(good).encode(), client="peer.panel-7")
    assert info.value.status == 403 and "registered as a peer" in info.value.reason

    # a tampered output, a missing or malformed peer part
    tampered = json.loads(json.dumps(good))
    tampered["proofs"]["exported.0"]["outputs"] = 999
    _refused(service, tampered, 422, "exported.0")
    missing = {k: v for k, v in good.items() if k != "peer"}
    _refused(service, missing, 400, "exactly the fields")
    _refused(service, {**good, "peer": {"name": "panel-7"}}, 400, "`peer` is")

    # the real one still goes through, once; a second time under a new id is a replay
    status, answer = service.submit(json.dumps(good).encode())
    assert status == 201 and answer["result"] == _expected()
    again = json.loads(json.dumps(good))
    again["id"] = "day-6"
    _refused(service, again, 422, "signature does not cover")


def test_a_run_without_its_peer_is_refused_before_anything_is_proved(
    deployed: tuple[Service, Key, Store],
) -> None:
    service, panel, _ = deployed
    with pytest.raises(RunError, match="needs its peer"):
        _runner(service).prepare(RUN, submission_id="day-7")
    with pytest.raises(MalformedInput, match="unknown `panel`"):
        _runner(service).prepare({**RUN, "panel": PANEL}, submission_id="day-7")
    with pytest.raises(MalformedInput, match="the peer's inputs"):
        PeerProver(_runner(service), panel, {"home": HOME})


def _leaves(value: object) -> list[object]:
    """Every number and string in a JSON document, as numbers where they read as one: a
    secret's digits may occur inside a proof's hex by chance, a value of its own may not."""
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return [int(value)]
    return [value]


def test_zeenot_run_with_a_peer_over_a_served_application(tmp_path: Path) -> None:
    """The three commands of docs/runtime.md against `zeenot serve`: the household writes the
    request, the panel answers it (its log stays in its own file), the household runs with the
    answer; an answer for another request is refused before anything is sent."""
    db = tmp_path / "server.db"
    panel = Key.generate("peer.panel-7")
    Store(str(db)).register_client("solar_share", panel.name, panel.public_key)
    panel.save(tmp_path / "panel.key")
    (tmp_path / "home.json").write_text(json.dumps(RUN))
    (tmp_path / "panel.json").write_text(json.dumps({"panel": PANEL}))
    app = str(SOLAR / "app.py")
    with serve([SOLAR / "app.py"], str(db), timeout=300) as (url, _):
        home = ("run", app, "--server", url, "--inputs", str(tmp_path / "home.json"))
        req, answer = str(tmp_path / "req.json"), str(tmp_path / "answer.json")
        zeenot(*home, "--id", "day-1", "--peer-request", req)
        assert json.loads(Path(req).read_text()) == {
            "app": "solar_share",
            "id": "day-1",
            "inputs": {"account": "H-17"},
            "client": None,
        }
        peer = ("run", app, "--server", url, "--tier", "peer", "--request", req)
        out = zeenot(
            *peer,
            "--inputs",
            str(tmp_path / "panel.json"),
            "--client-key",
            str(tmp_path / "panel.key"),
            "--save",
            answer,
        ).stdout
        assert json.loads(out)["proofs"] == ["exported.0", "price.0"]
        assert PANEL[9] not in _leaves(json.loads(Path(answer).read_text()))
        done = zeenot(*home, "--peer-answer", answer)
        assert json.loads(done.stdout)["result"] == _expected()
        other = zeenot(*home, "--peer-answer", answer, "--id", "day-2", check=2)
        assert "for another request" in other.stderr
