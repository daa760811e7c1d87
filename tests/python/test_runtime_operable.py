"""An operable server: a clean exit when the database cannot be reached, Prometheus metrics,
an access log without private data, a config file beside the flags, retention, and a
dashboard whose poll does not read every stored run."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from zeenot.application import load_application
from zeenot.runtime import metrics
from zeenot.runtime.client import Runner
from zeenot.runtime.identity import Key

from .runtime_server import ROOT, ZEENOT, bearer, operator_token, serve

PAYD = ROOT / "examples" / "payd" / "app.py"


def _serve_exits(*args: str, timeout: float = 30.0) -> tuple[int, str, float]:
    started = time.monotonic()
    done = subprocess.run(
        [*ZEENOT, "serve", str(PAYD), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return done.returncode, done.stderr, time.monotonic() - started


def test_an_unreachable_postgresql_exits_2_naming_it_without_its_password() -> None:
    code, err, took = _serve_exits("--db", "postgresql://zeenot:s3cret@127.0.0.1:1/runs")
    assert code == 2, err
    assert "PostgreSQL at 127.0.0.1:1, database `runs`" in err
    assert "check that PostgreSQL runs there" in err
    assert "s3cret" not in err and "Traceback" not in err
    assert took < 20


def test_a_sqlite_file_in_a_missing_directory_exits_2(tmp_path: Path) -> None:
    db = tmp_path / "nowhere" / "zeenot.db"
    code, err, _ = _serve_exits("--db", str(db))
    assert code == 2, err
    assert f"the SQLite file {db}" in err and "exists" in err
    assert "Traceback" not in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_a_sqlite_file_in_a_read_only_directory_exits_2(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        code, err, _ = _serve_exits("--db", str(locked / "zeenot.db"))
    finally:
        locked.chmod(0o700)
    assert code == 2, err
    assert "may write there" in err


def test_a_sqlite_file_under_a_plain_file_exits_2(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("not a directory")  # fails as root too
    code, err, _ = _serve_exits("--db", str(tmp_path / "plain" / "zeenot.db"))
    assert code == 2, err
    assert "Traceback" not in err and "may write there" in err


# ---- metrics and the access log ---------------------------------------------------------------

_SAMPLE = re.compile(
    r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? '
    r"(-?[0-9.e+-]+|\+Inf|NaN)"
)


def parse_exposition(text: str) -> dict[str, dict[str, float]]:
    """The Prometheus text format, checked strictly: every family has HELP and TYPE before its
    samples; a counter's samples end in _total; a histogram's are _bucket (with `le`, ending
    at +Inf, cumulative), _sum and _count (= the +Inf bucket). {sample name: {labels: value}}."""
    assert text.endswith("\n")
    samples: dict[str, dict[str, float]] = {}
    kinds: dict[str, str] = {}
    helped: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# HELP "):
            helped.add(line.split()[2])
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split()
            assert name in helped and name not in kinds, line
            kinds[name] = kind
            continue
        m = _SAMPLE.fullmatch(line)
        assert m, f"not a sample line: {line!r}"
        name, labels, value = m.group(1), m.group(2) or "", float(m.group(3))
        family = next(f for f in kinds if name == f or name.startswith(f + "_"))
        if kinds[family] == "counter":
            assert name == family and name.endswith("_total"), line
        if kinds[family] == "histogram":
            assert name[len(family) :] in ("_bucket", "_sum", "_count"), line
        samples.setdefault(name, {})[labels] = value
    for family, kind in kinds.items():
        if kind != "histogram":
            continue
        for labels, count in samples.get(family + "_count", {}).items():
            inner = labels[1:-1]
            buckets = [
                (k, v)
                for k, v in samples[family + "_bucket"].items()
                if re.sub(r',?le="[^"]*"', "", k[1:-1]) == inner
            ]
            values = [v for _, v in buckets]
            assert values == sorted(values) and 'le="+Inf"' in buckets[-1][0]
            assert values[-1] == count
    return samples


def test_the_exposition_format_by_hand() -> None:
    reg = metrics.Registry()
    c = reg.add(metrics.Counter("t_events", 'help with \\ and "quotes"', ("kind",)))
    h = reg.add(metrics.Histogram("t_seconds", "latency", ("app",), (0.1, 1.0)))
    c.inc(kind='a"b\nc')
    c.inc(2, kind="x")
    for v in (0.05, 0.5, 5.0):
        h.observe(v, app="p")
    text = reg.exposition()
    assert text.startswith('# HELP t_events_total help with \\\\ and "quotes"\n')
    assert "# TYPE t_events_total counter\n" in text
    assert 't_events_total{kind="a\\"b\\nc"} 1.0\n' in text
    assert 't_seconds_bucket{app="p",le="0.1"} 1\n' in text
    assert 't_seconds_bucket{app="p",le="1.0"} 2\n' in text
    assert 't_seconds_bucket{app="p",le="+Inf"} 3\n' in text
    assert 't_seconds_sum{app="p"} 5.55\n' in text and 't_seconds_count{app="p"} 3\n' in text
    parse_exposition(text)
    with pytest.raises(ValueError):
        c.inc(kind="a", extra="b")


@pytest.mark.parametrize(
    ("status", "reason", "code"),
    [
        (413, "submission larger than 1024 bytes", "size"),
        (401, "unknown signer `x`: not a registered client of `payd`", "auth"),
        (
            400,
            "a submission has exactly the fields ['app', 'id', 'inputs', 'proofs']: `x`",
            "shape",
        ),
        (400, "`id` is 1 to 64 characters of A-Z a-z 0-9 . _ -", "shape"),
        (422, "missing proof `quote.0` (this application's runs carry ['quote.0'])", "proof"),
        (422, "proof `quote.0` rejected: the pairing check failed", "proof"),
        (400, "proof `quote.0`: bad hex", "proof"),
        (400, "input `policy`: expected a str", "input"),
        (422, "proof `quote.0` belongs to another run: it is bound to another id", "context"),
        (
            422,
            "proof `quote.0`: public input `base` is 0, the server's value is 500",
            "public_input",
        ),
        (422, "`bill` failed on the values: ValueError: no", "worker"),
        (409, "replayed proof: it was submitted before as `a`", "replay"),
        (409, "submission id `a` was used for another submission", "conflict"),
        (
            409,
            "client `c` has run `payd` this week already (2025-W07: submission `a`): "
            "one run per client per week",
            "period",
        ),
        (500, "<script>anything a client wrote</script>", "other"),
    ],
)
def test_refusals_are_labelled_by_a_bounded_code(status: int, reason: str, code: str) -> None:
    assert metrics.reason_code(status, reason) == code
    assert code in metrics.REASONS


def test_metrics_and_the_access_log_of_a_real_server(tmp_path: Path) -> None:
    log = json.loads((ROOT / "examples" / "payd" / "log.json").read_text())
    token_file, token = operator_token(tmp_path)
    args = ["--operator-token-file", str(token_file), "--max-body", "65536"]
    with serve([PAYD], str(tmp_path / "zeenot.db"), *args) as (url, proc):
        car = Key.generate("car-1")
        public = {"name": car.name, "public_key": car.public_key}
        httpx.post(f"{url}/api/apps/payd/clients", json=public, headers=bearer(token))
        runner = Runner(load_application(PAYD), url, key=car)
        runner.run(log, submission_id="secret-run-7")
        runner.run(log, submission_id="secret-run-7")  # a retry
        body = json.loads(runner.prepare(log, submission_id="tampered-secret"))
        body["proofs"]["quote.0"]["outputs"][0] = 1
        submit = f"{url}/api/apps/payd/submissions"
        assert httpx.post(submit, json=body, auth=runner.auth()).status_code == 422
        big = {"zeenot_submission": 1, "pad": "x" * 70_000}
        assert httpx.post(submit, json=big).status_code == 413
        runner.close()
        httpx.get(f"{url}/api/apps/payd/submissions/secret-run-7?limit=9", headers=bearer(token))

        assert httpx.get(f"{url}/metrics").status_code == 401
        answer = httpx.get(f"{url}/metrics", headers=bearer(token))
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
        samples = parse_exposition(answer.text)
        accepted = samples["zeenot_submissions_accepted_total"]
        assert accepted['{app="payd",outcome="stored"}'] == 1
        assert accepted['{app="payd",outcome="retry"}'] == 1
        refused = samples["zeenot_submissions_refused_total"]
        assert refused['{app="payd",status="422",reason="proof"}'] == 1
        assert refused['{app="payd",status="413",reason="size"}'] == 1
        assert samples["zeenot_verify_seconds_count"]['{app="payd"}'] == 3
        assert samples["zeenot_store_seconds_count"]['{app="payd"}'] == 2
        assert sum(samples["zeenot_verify_batch_size_count"].values()) == 3
        route = '{method="POST",route="/api/apps/{app}/submissions"}'
        assert samples["zeenot_http_request_seconds_count"][route] == 4
        assert "secret" not in answer.text and token not in answer.text
        proc.terminate()
        out = proc.communicate(timeout=20)[0].decode()
    lines = [line for line in out.splitlines() if " POST " in line or " GET " in line]
    assert any(
        re.fullmatch(r"\S+Z POST /api/apps/payd/submissions 201 [0-9.]+ms [0-9]+B", line)
        for line in lines
    )
    assert any("GET /api/apps/payd/submissions/{sid} 200" in line for line in lines)
    assert any("POST /api/apps/payd/submissions 413" in line for line in lines)
    assert "secret" not in out and token not in out and "limit" not in out


def test_a_stderr_nobody_reads_never_stalls_the_server(tmp_path: Path) -> None:
    """`serve` (runtime_server.py) pipes the server's output and reads it only at the end, as
    benchmarks/runtime_load.py does: the access log fills the pipe (64 KiB) after about a
    thousand requests. Its lines wait in a queue for a writer thread; the server goes on."""
    with serve([PAYD], str(tmp_path / "z.db"), "--public-reads") as (url, _):
        with httpx.Client(base_url=url, timeout=10) as client:
            for _ in range(1500):
                assert client.get("/api/health").status_code == 200
            samples = parse_exposition(client.get("/metrics").text)
    assert samples["zeenot_access_log_dropped_total"][""] == 0  # queued, not dropped (yet)


# ---- the dashboard's aggregates ---------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "zeenot.db")
    from .postgres import fresh_database

    return fresh_database(request.getfixturevalue("postgres_url"))


def _tally(state: Any, result: Any) -> Any:  # an application's fold
    state = state or {"n": 0, "sum": 0}
    if result["v"] < 0:
        raise ValueError("negative")
    return {"n": state["n"] + 1, "sum": state["sum"] + result["v"]}


def test_runs_are_counted_and_folded_in_their_own_transaction(db: str) -> None:
    import threading

    from zeenot.runtime.store import Fold, Store

    store = Store(db)
    fold = Fold(_tally, "tally-1")
    store.ensure_dashboard("app", fold)
    assert store.dashboard("app").accepted == 0

    def accept(i: int) -> None:
        store.accept("app", f"s{i}", f"d{i}", [f"p{i}"], {"v": i}, fold=fold)

    threads = [threading.Thread(target=accept, args=(i,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    row = store.dashboard("app")
    assert row.accepted == 24 and row.state == {"n": 24, "sum": sum(range(24))}
    with pytest.raises(Exception):  # noqa: B017 - a replay: nothing written, nothing folded
        store.accept("app", "s-new", "d-new", ["p3"], {"v": 100}, fold=fold)
    store.accept("app", "bad", "d-bad", ["p-bad"], {"v": -1}, fold=fold)  # the fold fails
    row = store.dashboard("app")
    assert row.accepted == 25 and row.state["n"] == 24 and "negative" in row.error
    # a changed fold is rebuilt from the stored runs (its failure on `bad` recorded)
    store.ensure_dashboard("app", Fold(lambda s, r: (s or 0) + 1, "count-2"))
    row = store.dashboard("app")
    assert (row.fold, row.state, row.accepted) == ("count-2", 25, 25)


def test_a_fold_state_stays_bounded(tmp_path: Path) -> None:
    from zeenot.runtime.store import Fold, Store

    store = Store(str(tmp_path / "z.db"))
    fold = Fold(lambda s, r: (s or []) + ["x" * 1000], "grows")
    store.ensure_dashboard("app", fold)
    for i in range(70):
        store.accept("app", f"s{i}", f"d{i}", [f"p{i}"], {}, fold=fold)
    row = store.dashboard("app")
    assert row.accepted == 70 and len(row.state) < 70 and "over 65536" in row.error


def test_a_dashboard_of_results_reads_a_bounded_window(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from zeenot.runtime import dashboard
    from zeenot.runtime.store import Store

    store = Store(str(tmp_path / "z.db"))
    store.ensure_dashboard("app")
    for i in range(12):
        store.accept("app", f"s{i}", f"d{i}", [f"p{i}"], {"v": i})
    seen: list[list] = []

    def shape(results: list) -> dict:
        seen.append(results)
        return {"kind": "bars", "title": "t", "values": [r["v"] for r in results]}

    app = SimpleNamespace(name="app", module=SimpleNamespace(dashboard=shape))
    service = SimpleNamespace(app=app, fold=None)
    old, dashboard.WINDOW = dashboard.WINDOW, 5
    try:
        doc = dashboard.view(service, None, store)
    finally:
        dashboard.WINDOW = old
    assert doc["accepted"] == 12 and seen == [[{"v": v} for v in range(7, 12)]]
    assert doc["chart"]["note"] == "the latest 5 of 12 runs"


# ---- the config file ------------------------------------------------------------------------


def _serve_args(*argv: str):  # noqa: ANN202
    from zeenot.cli import _parser
    from zeenot.runtime.cli import serve_options

    return serve_options(_parser().parse_args(["serve", *argv]))


def test_a_config_file_beside_the_flags(tmp_path: Path) -> None:
    config = tmp_path / "serve.toml"
    config.write_text(
        'apps = ["payd/app.py"]\ndb = "data/payd.db"\nport = 9100\nworkers = 2\n'
        'public-reads = true\nretain-days = 30\noperator-token-file = "op.token"\n'
        "access-log = false\n"
    )
    args = _serve_args("--config", str(config))
    assert args.apps == [str(tmp_path / "payd" / "app.py")]  # relative to the file
    assert args.db == str(tmp_path / "data" / "payd.db")
    assert (args.port, args.workers, args.public_reads, args.retain_days) == (9100, 2, True, 30)
    assert args.operator_token_file == str(tmp_path / "op.token") and args.access_log is False
    assert args.host == "127.0.0.1" and args.forward_to == "sink"  # the defaults
    # flags override the file, also back to a default value, and booleans both ways
    args = _serve_args(
        "--config", str(config), "x.py", "--port", "8000", "--no-public-reads", "--access-log"
    )
    assert (args.apps, args.port, args.public_reads, args.access_log) == (
        ["x.py"],
        8000,
        False,
        True,
    )
    assert args.workers == 2
    args = _serve_args("x.py", "--db", "postgresql://h/db")
    assert (args.db, args.port, args.retain_days, args.access_log) == (
        "postgresql://h/db",
        8000,
        None,
        True,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('apps = ["a.py"]\nprot = 8000\n', "unknown key `prot`"),
        ('apps = ["a.py"]\nport = "8000"\n', "`port` is a whole number"),
        ('apps = ["a.py"]\npublic-reads = 1\n', "`public-reads` is true or false"),
        ('apps = ["a.py"]\npublic_reads = true\n', "unknown key `public_reads`"),
        ("apps = [\n", "is not TOML"),
        ("port = 1\n", "give the applications to serve"),
    ],
)
def test_a_bad_config_file_exits_2_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    config = tmp_path / "serve.toml"
    config.write_text(text)
    done = subprocess.run(
        [*ZEENOT, "serve", "--config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


def test_a_server_started_from_its_config_file(tmp_path: Path) -> None:
    token_file, token = operator_token(tmp_path)
    (tmp_path / "serve.toml").write_text(
        f'db = "payd.db"\noperator-token-file = "{token_file.name}"\naccess-log = false\n'
    )
    # `serve` (runtime_server.py) adds the app, --db and --port as flags: they override
    extra = ["--config", str(tmp_path / "serve.toml")]
    with serve([PAYD], str(tmp_path / "flag.db"), *extra) as (url, proc):
        assert httpx.get(f"{url}/metrics", headers=bearer(token)).status_code == 200
        httpx.get(f"{url}/api/apps/payd")
        proc.terminate()
        out = proc.communicate(timeout=20)[0].decode()
    assert (tmp_path / "flag.db").exists() and not (tmp_path / "payd.db").exists()
    assert "GET /api/apps/payd " not in out  # access-log = false


# ---- retention --------------------------------------------------------------------------------


def test_retention_deletes_old_runs_and_refusals_and_keeps_the_aggregates(tmp_path: Path) -> None:
    import datetime as dt

    from zeenot.runtime.jobs import retention
    from zeenot.runtime.store import Fold, Store, now, rejections_table, submissions_table

    store = Store(str(tmp_path / "z.db"))
    fold = Fold(_tally, "tally-1")
    for app in ("app", "other"):
        store.ensure_dashboard(app, fold)
    for i in range(10):
        store.accept("app", f"s{i}", f"d{i}", [f"p{i}"], {"v": i}, fold=fold)
        store.reject("app", f"r{i}", 422, "proof `quote.0` rejected")
    store.accept("other", "o1", "do1", ["po1"], {"v": 1}, fold=fold)
    old = now() - dt.timedelta(days=3)
    with store.engine.begin() as conn:  # back-date the first six runs and four refusals
        s, r = submissions_table, rejections_table
        conn.execute(
            s.update().where(s.c.id.in_([f"s{i}" for i in range(6)])).values(accepted_at=old)
        )
        conn.execute(s.update().where(s.c.id == "o1").values(accepted_at=old))
        conn.execute(
            r.update().where(r.c.submission.in_(["r0", "r1", "r2", "r3"])).values(rejected_at=old)
        )
    done = retention(store, retain_days=2, apps=("app",))({})
    assert (done["runs"], done["rejections"]) == (6, 4)
    assert sorted(x.id for x in store.recent_submissions("app", 50)) == [
        f"s{i}" for i in range(6, 10)
    ]
    assert len(store.recent_rejections("app", 50)) == 6
    assert store.submission("other", "o1") is not None  # not served here: not this server's
    row = store.dashboard("app")
    assert row.accepted == 10 and row.state == {"n": 10, "sum": 45}  # aggregates, not rows
    # a deleted run's proof is still a replay
    with pytest.raises(Exception):  # noqa: B017
        store.accept("app", "s0", "d0", ["p0"], {"v": 0}, fold=fold)
    assert retention(store)({}).keys() == {"nonces", "jobs"}  # without --retain-days: no rows


def test_retention_keeps_the_current_period_of_one_run_per_client() -> None:
    from zeenot.application.clients import Clients
    from zeenot.errors import MalformedInput
    from zeenot.runtime.jobs import check_retention

    check_retention(7, {"payd": Clients(one_run_per="week"), "x": None})
    check_retention(1, {"x": Clients()})
    with pytest.raises(MalformedInput, match="current week of `payd`.*at least 7 days"):
        check_retention(6, {"payd": Clients(one_run_per="week")})
    with pytest.raises(MalformedInput, match="from 1"):
        check_retention(0, {})
    code, err, _ = _serve_exits("--db", "x.db", "--retain-days", "3")
    assert code == 2 and "keep at least 7 days" in err


def test_the_example_config_file_reads() -> None:
    args = _serve_args("--config", str(ROOT / "examples" / "payd" / "serve.toml"))
    assert args.apps == [str(PAYD)] and args.db == str(ROOT / "out" / "payd.db")
    assert args.retain_days == 90 and args.port == 8765
