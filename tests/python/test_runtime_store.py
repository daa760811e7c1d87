"""The data layer on both databases it supports: SQLite (a file) and PostgreSQL (a server).

Migrations reach the head revision, also when several processes start together; a submission,
its proofs' digests and its result are written together or not at all; the first writer of
keys and parameters wins and the others read its values; peers racing for a round's last place
get distinct positions.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from tests.python.postgres import fresh_database

from zeenot.runtime.store import SCHEMA_HEAD, Conflict, Store


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "zeenot.db")
    return fresh_database(request.getfixturevalue("postgres_url"))


def test_migrations_reach_the_head(db: str) -> None:
    store = Store(db)
    assert store.schema_version() == SCHEMA_HEAD
    Store(db)  # a second start finds nothing to do
    assert store.schema_version() == SCHEMA_HEAD


def test_processes_starting_together_migrate_once(db: str) -> None:
    code = "import sys; from zeenot.runtime.store import Store; Store(sys.argv[1])"
    procs = [subprocess.Popen([sys.executable, "-c", code, db]) for _ in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    assert Store(db).schema_version() == SCHEMA_HEAD


def test_a_submission_is_written_whole_or_not_at_all(db: str) -> None:
    store = Store(db)
    store.accept("app", "s1", "d" * 64, ["p1", "p2"], {"x": 1})
    assert store.submission("app", "s1").result == {"x": 1}
    with pytest.raises(Conflict):  # the same id again
        store.accept("app", "s1", "e" * 64, ["p3"], {"x": 2})
    with pytest.raises(Conflict):  # a new id with a proof stored before: nothing of it stays
        store.accept("app", "s2", "f" * 64, ["p9", "p2"], {"x": 3})
    assert store.submission("app", "s2") is None
    assert store.proof_owner("p9") is None and store.proof_owner("p3") is None
    assert store.proof_owner("p2") == ("app", "s1")
    assert store.count_submissions("app") == 1


def test_keys_and_parameters_first_writer_wins(db: str) -> None:
    store = Store(db)
    store.put_keys("app", "r", "h" * 64, b"pk1", b"vk1", "a" * 64, "b" * 64)
    with pytest.raises(Conflict):
        store.put_keys("app", "r", "h" * 64, b"pk2", b"vk2", "c" * 64, "d" * 64)
    assert store.keys("app", "r", "h" * 64) == (b"pk1", b"vk1")
    store.put_parameters("app", "s" * 64, {"0": [1, 2]})
    with pytest.raises(Conflict):
        store.put_parameters("app", "s" * 64, {"0": [3, 4]})
    assert store.parameters("app", "s" * 64) == {"0": [1, 2]}


def test_rejections_are_logged_newest_first(db: str) -> None:
    store = Store(db)
    store.reject("app", "a", 400, "first")
    store.reject("app", None, 413, "second")
    rows = store.recent_rejections("app")
    assert [(r["submission"], r["status"], r["reason"]) for r in rows] == [
        (None, 413, "second"),
        ("a", 400, "first"),
    ]


def test_peers_racing_for_places_get_distinct_positions(db: str) -> None:
    store = Store(db)
    outcomes: list[object] = []

    def register(i: int) -> None:
        for _ in range(50):
            try:
                outcomes.append(store.register_peer("app", "r1", f"p{i}", "k" * 64, "t" * 64, 5))
                return
            except Conflict:
                if len(store.peers("app", "r1")) >= 5:
                    outcomes.append("full")
                    return

    threads = [threading.Thread(target=register, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    positions = sorted(o for o in outcomes if isinstance(o, int))
    assert positions == [0, 1, 2, 3, 4] and outcomes.count("full") == 3
    assert [p.position for p in store.peers("app", "r1")] == [0, 1, 2, 3, 4]


def test_the_runtime_serves_from_postgresql(postgres_url: str) -> None:
    """payd end to end through the service, stored in PostgreSQL."""
    import json

    from zeenot.application import load_application
    from zeenot.runtime.client import Runner
    from zeenot.runtime.identity import Key
    from zeenot.runtime.service import Service

    from .test_runtime_service import LOG, PAYD, _Local

    store = Store(fresh_database(postgres_url))
    service = Service(load_application(PAYD), store)
    runner = Runner(service.app, "http://unused")
    runner.http = _Local(service)  # type: ignore[assignment]
    runner.key = Key.generate("car-1")
    body = runner.prepare(LOG, submission_id="pg-1")
    assert service.submit(body, "car-1")[0] == 201 and service.submit(body, "car-1")[0] == 200
    assert store.submission("payd", "pg-1").result["premium_cents"] == 2603
    assert json.loads(body)["id"] == "pg-1"


def test_rounds_written_before_attempts_become_attempt_0(db: str) -> None:
    """Migration 0005 keys shares, mailboxes and partial sums by attempt: rows written under
    0004 are kept as attempt 0 of their round."""
    from alembic import command
    from alembic.config import Config

    from zeenot.runtime.store import _MIGRATIONS, database_url

    engine = sa.create_engine(database_url(db))
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    with engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0004")
        conn.commit()
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO round_shares (app, round, peer, commitments, shared_at) "
                "VALUES ('a', 'r', 'p0', '[\"1\", \"2\"]', CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO mailbox (app, round, recipient, sender, sealed) "
                "VALUES ('a', 'r', 'p1', 'p0', :sealed)"
            ),
            {"sealed": b"\x01\x02"},
        )
        conn.execute(
            sa.text(
                "INSERT INTO round_partials (app, round, peer, partial, combined_at) "
                "VALUES ('a', 'r', 'p1', '[\"3\"]', CURRENT_TIMESTAMP)"
            )
        )
    engine.dispose()
    store = Store(db)
    assert store.schema_version() == SCHEMA_HEAD
    assert store.shares("a", "r", 0) == {"p0": ["1", "2"]}
    assert store.mailbox("a", "r", "p1", 0) == {"p0": b"\x01\x02"}
    assert store.partials("a", "r", 0) == {"p1": ["3"]}
    assert store.shares("a", "r", 1) == {}
    store.put_share("a", "r", "p0", ["4"], {"p1": b"\x03"}, "d" * 64, attempt=1, next_key="k")
    assert store.share_rows("a", "r", 1)["p0"].next_key == "k"
