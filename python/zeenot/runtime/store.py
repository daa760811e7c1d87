"""The runtime's one data layer: SQLite by default, PostgreSQL by URL, migrated by Alembic.

Every server process (the runtime's, and later the collective authority's and Prio's) reaches
its state only through a `Store`; processes keep none of their own, so several of them over one
PostgreSQL serve one application. Each write that acknowledges something to a client is one
transaction: a submission, its proofs' digests and its result are stored together or not at
all. SQLite runs in WAL mode with `synchronous=FULL`, so an acknowledged submission survives a
killed process.

`synchronous=NORMAL` is an explicit opt-in (`ZEENOT_SQLITE_SYNCHRONOUS=normal`, or
`Store(db, synchronous="normal")`): in WAL mode a commit then returns without flushing the WAL
(only checkpoints flush). A committed transaction still survives a killed process (kill -9: it
is in the operating system's page cache), but not a power loss or an operating-system crash,
which may take the last commits with them. Never the default.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import functools
import hashlib
import json
import os
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from zeenot.errors import UsageError

SCHEMA_HEAD = "0013"
SQLITE_SYNCHRONOUS_ENV = "ZEENOT_SQLITE_SYNCHRONOUS"  # `full` (the default) or `normal`
SQLITE_SYNCHRONOUS = ("full", "normal")
_MIGRATIONS = Path(__file__).with_name("migrations")

metadata = sa.MetaData()
# The tables as the code reads them; `migrations/versions` creates them (and must agree).
keys_table = sa.Table(
    "keys",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("region", sa.String(128), primary_key=True),
    sa.Column("program_hash", sa.String(64), primary_key=True),
    sa.Column("proving_key", sa.LargeBinary),
    sa.Column("verifying_key", sa.LargeBinary),
    sa.Column("proving_key_sha256", sa.String(64)),
    sa.Column("verifying_key_sha256", sa.String(64)),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
parameters_table = sa.Table(
    "parameters",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("source_sha256", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
epochs_table = sa.Table(
    "epochs",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("epoch", sa.String(64)),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
submissions_table = sa.Table(
    "submissions",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("digest", sa.String(64)),
    sa.Column("result", sa.Text),
    sa.Column("accepted_at", sa.DateTime(timezone=True)),
    sa.Column("client", sa.String(64)),  # the registered client that signed it (0003)
    sa.Column("period", sa.String(16)),  # its period, for one run per client per period
)
proofs_table = sa.Table(
    "proofs",
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("app", sa.String(128)),
    sa.Column("submission", sa.String(64)),
)
rejections_table = sa.Table(
    "rejections",
    metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("app", sa.String(128)),
    sa.Column("submission", sa.String(64)),
    sa.Column("status", sa.Integer),
    sa.Column("reason", sa.Text),
    sa.Column("rejected_at", sa.DateTime(timezone=True)),
)

# Dashboards (migration 0006): per application, aggregates updated with each accepted run.
dashboards_table = sa.Table(
    "dashboards",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("accepted", sa.BigInteger),
    sa.Column("fold", sa.String(64)),
    sa.Column("state", sa.Text),
    sa.Column("error", sa.Text),
    sa.Column("updated_at", sa.DateTime(timezone=True)),
)
MAX_STATE = 64 * 1024  # bytes of a dashboard fold's state (JSON): a bounded summary


@dataclass(frozen=True)
class Fold:
    """An application's incremental dashboard: `step(state, result) -> state` (state starts as
    None; JSON data of at most `MAX_STATE` bytes) and the SHA-256 of its source, which names
    the state it made (a changed fold is rebuilt from the stored runs)."""

    step: Any  # Callable[[Any, Any], Any]
    id: str


@dataclass(frozen=True)
class DashboardRow:
    accepted: int
    fold: str | None
    state: Any
    error: str | None


# Peers (migration 0002): one row per registered peer, shared vector, mailbox entry, partial sum;
# since 0005 the last three per attempt of the round, and a row per attempt.
round_peers_table = sa.Table(
    "round_peers",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("round", sa.String(64), primary_key=True),
    sa.Column("peer", sa.String(64), primary_key=True),
    sa.Column("position", sa.Integer),
    sa.Column("public_key", sa.String(64)),
    sa.Column("token_sha256", sa.String(64)),
    sa.Column("registered_at", sa.DateTime(timezone=True)),
)
round_attempts_table = sa.Table(
    "round_attempts",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("round", sa.String(64), primary_key=True),
    sa.Column("attempt", sa.Integer, primary_key=True),
    sa.Column("roster", sa.Text),
    sa.Column("size", sa.Integer),
    sa.Column("dropped", sa.Text),
    sa.Column("failed", sa.Text),
    sa.Column("started_at", sa.DateTime(timezone=True)),
)
round_shares_table = sa.Table(
    "round_shares",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("round", sa.String(64), primary_key=True),
    sa.Column("attempt", sa.Integer, primary_key=True),
    sa.Column("peer", sa.String(64), primary_key=True),
    sa.Column("commitments", sa.Text),
    sa.Column("shared_at", sa.DateTime(timezone=True)),
    sa.Column("next_key", sa.String(64)),
)
mailbox_table = sa.Table(
    "mailbox",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("round", sa.String(64), primary_key=True),
    sa.Column("attempt", sa.Integer, primary_key=True),
    sa.Column("recipient", sa.String(64), primary_key=True),
    sa.Column("sender", sa.String(64), primary_key=True),
    sa.Column("sealed", sa.LargeBinary),
)
round_partials_table = sa.Table(
    "round_partials",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("round", sa.String(64), primary_key=True),
    sa.Column("attempt", sa.Integer, primary_key=True),
    sa.Column("peer", sa.String(64), primary_key=True),
    sa.Column("partial", sa.Text),
    sa.Column("combined_at", sa.DateTime(timezone=True)),
)


# Who (migration 0003): registered clients, nonces of signed requests, jobs.
clients_table = sa.Table(
    "clients",
    metadata,
    sa.Column("app", sa.String(128), primary_key=True),
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("public_key", sa.String(64)),
    sa.Column("registered_at", sa.DateTime(timezone=True)),
)
nonces_table = sa.Table(
    "nonces",
    metadata,
    sa.Column("scope", sa.String(200), primary_key=True),
    sa.Column("nonce", sa.String(64), primary_key=True),
    sa.Column("expires_at", sa.DateTime(timezone=True)),
)
jobs_table = sa.Table(
    "jobs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(200)),
    sa.Column("kind", sa.String(64)),
    sa.Column("payload", sa.Text),
    sa.Column("state", sa.String(16)),  # queued, running, done, failed
    sa.Column("attempts", sa.Integer),
    sa.Column("max_attempts", sa.Integer),
    sa.Column("run_after", sa.DateTime(timezone=True)),
    sa.Column("lease_owner", sa.String(64)),
    sa.Column("lease_until", sa.DateTime(timezone=True)),
    sa.Column("last_error", sa.Text),
    sa.Column("result", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
)


@dataclass(frozen=True)
class PeerRow:
    peer: str
    position: int
    public_key: str
    token_sha256: str
    registered_at: dt.datetime | None = None


@dataclass(frozen=True)
class AttemptRow:
    """One attempt of a peers' round: its present peers ({peer, position, public_key}, the
    keys they use in it), the peers dropped from the attempt before and why, and why the round
    stops here if it does."""

    attempt: int
    roster: list[dict[str, Any]]
    dropped: list[dict[str, str]]
    failed: str | None
    started_at: dt.datetime


@dataclass(frozen=True)
class ShareRow:
    commitments: list[str]
    shared_at: dt.datetime
    next_key: str | None


# a quoted fragment: in backticks, or in quotes that do not follow a letter (not "server's")
_QUOTED = re.compile(r"`[^`]*`|(?<![A-Za-z])'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_OURS = re.compile(r"[`'\"][A-Za-z0-9 ._@:/=\[\]-]{0,64}[`'\"]", re.ASCII)
_NUMBER = re.compile(r"-?[0-9]{20,}")
MAX_REASON = 300


def redact(reason: str) -> str:
    """A refusal's reason as the public log keeps it: every quoted fragment that is not a
    short name (an input's, a region's, a validated id) and every long number is replaced by
    `#` and 8 hex digits of its SHA-256; control characters go; at most `MAX_REASON`
    characters. The client got the whole reason in its answer; the log is for everyone."""

    def digest(m: re.Match[str]) -> str:
        text = m.group(0)
        if _OURS.fullmatch(text):
            return text
        return "#" + hashlib.sha256(text.encode()).hexdigest()[:8]

    out = _NUMBER.sub(digest, _QUOTED.sub(digest, reason))
    out = "".join(c if c.isprintable() else " " for c in out)
    return out if len(out) <= MAX_REASON else out[: MAX_REASON - 1] + "…"


def now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def database_url(db: str) -> str:
    """`--db` as a SQLAlchemy URL: a path means a SQLite file; `postgresql://…` uses psycopg 3."""
    if "://" not in db:
        return f"sqlite:///{Path(db).resolve()}"
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if db.startswith(("sqlite://", "postgresql+psycopg://")):
        return db
    raise UsageError(f"--db is a SQLite file path or a postgresql:// URL, not `{db}`")


class DatabaseUnreachable(UsageError):
    """`--db` names a database this process cannot open: `zeenot serve` exits 2 with this
    message (the database's host and port or file, never a password, and what to check)."""


CONNECT_TIMEOUT = 5  # seconds to reach a PostgreSQL server before `zeenot serve` gives up


def describe_db(url: str) -> str:
    """A database as a message names it: a SQLite file's path, or PostgreSQL's host, port and
    database (no user, no password)."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"the SQLite file {parsed.database}"
    host = parsed.host or "localhost (its Unix socket)"
    return f"PostgreSQL at {host}:{parsed.port or 5432}, database `{parsed.database or ''}`"


def _unreachable(url: str, exc: BaseException) -> DatabaseUnreachable:
    parsed = sa.engine.make_url(url)
    cause = getattr(exc, "orig", None) or exc
    detail = " ".join(str(cause).split())[:300]
    if parsed.password:
        detail = detail.replace(parsed.password, "***")
    if parsed.get_backend_name() == "sqlite":
        where = Path(parsed.database or "").parent
        check = (
            f"check that the directory {where} exists and that this user may write there "
            "(SQLite writes the file, its journal and a lock file beside it)"
        )
    else:
        check = (
            "check that PostgreSQL runs there and accepts connections from this host, and the "
            "URL's user, password and database (--db)"
        )
    return DatabaseUnreachable(f"cannot open {describe_db(url)}: {detail}; {check}")


class Conflict(Exception):
    """A write that a unique key refused: another process (or an earlier request) wrote first."""


@dataclass(frozen=True)
class StoredSubmission:
    app: str
    id: str
    digest: str
    result: Any
    accepted_at: dt.datetime
    client: str | None = None


def sqlite_synchronous(value: str | None = None) -> str:
    """SQLite's `synchronous` level: `value`, else `$ZEENOT_SQLITE_SYNCHRONOUS`, else `full`.
    `normal` keeps every commit across a killed process but not across a power loss or an OS
    crash (the module's docstring); anything else is refused."""
    raw = value if value is not None else os.environ.get(SQLITE_SYNCHRONOUS_ENV, "")
    level = raw.strip().lower() or "full"
    if level not in SQLITE_SYNCHRONOUS:
        source = "synchronous" if value is not None else SQLITE_SYNCHRONOUS_ENV
        raise UsageError(
            f"{source} is `full` (the default: commits survive a power loss) or `normal` "
            f"(they survive a killed process only), not `{raw}`"
        )
    return level


class Store:
    """A database the runtime's servers share. `synchronous` (SQLite only): `sqlite_synchronous`;
    PostgreSQL keeps its own settings."""

    def __init__(self, db: str, *, synchronous: str | None = None):
        self.url = database_url(db)
        self.is_sqlite = self.url.startswith("sqlite")
        self.synchronous = sqlite_synchronous(synchronous) if self.is_sqlite else None
        if self.is_sqlite:
            self.engine: Engine = sa.create_engine(
                self.url, connect_args={"timeout": 30}, pool_pre_ping=True
            )
            pragmas = functools.partial(_sqlite_pragmas, synchronous=self.synchronous)
            sa.event.listen(self.engine, "connect", pragmas)
        else:
            self.engine = sa.create_engine(
                self.url,
                pool_pre_ping=True,
                pool_size=5,
                connect_args={"connect_timeout": CONNECT_TIMEOUT},
            )
        try:
            self.migrate()
        except (sa.exc.OperationalError, sa.exc.InterfaceError, OSError) as exc:
            self.engine.dispose()
            raise _unreachable(self.url, exc) from None

    # schema ----------------------------------------------------------------------------------

    def migrate(self) -> None:
        """Bring the schema to the head revision; servers starting together take turns."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(_MIGRATIONS))
        with self._migration_lock() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            conn.commit()

    @contextlib.contextmanager
    def _migration_lock(self) -> Iterator[Connection]:
        if self.is_sqlite:
            path = self.url.removeprefix("sqlite:///")
            with open(path + ".migrate.lock", "a") as lock, self.engine.connect() as conn:
                fcntl.flock(lock, fcntl.LOCK_EX)
                yield conn
        else:
            with self.engine.connect() as conn:
                conn.execute(sa.text("SELECT pg_advisory_lock(72057594037927)"))
                try:
                    yield conn
                finally:
                    conn.execute(sa.text("SELECT pg_advisory_unlock(72057594037927)"))
                    conn.commit()

    def schema_version(self) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(sa.text("SELECT version_num FROM zeenot_schema_version")).scalar()

    # keys and parameters: first writer wins ------------------------------------------------

    def keys(self, app: str, region: str, program_hash: str) -> tuple[bytes, bytes] | None:
        t = keys_table
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(t.c.proving_key, t.c.verifying_key).where(
                    t.c.app == app, t.c.region == region, t.c.program_hash == program_hash
                )
            ).first()
        return (bytes(row[0]), bytes(row[1])) if row else None

    def put_keys(
        self,
        app: str,
        region: str,
        program_hash: str,
        pk: bytes,
        vk: bytes,
        pk_sha: str,
        vk_sha: str,
    ) -> None:
        """Store keys unless another process stored some first (`Conflict`: read theirs)."""
        self._insert(
            keys_table,
            app=app,
            region=region,
            program_hash=program_hash,
            proving_key=pk,
            verifying_key=vk,
            proving_key_sha256=pk_sha,
            verifying_key_sha256=vk_sha,
            created_at=now(),
        )

    def parameters(self, app: str, source_sha256: str) -> Any | None:
        t = parameters_table
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(t.c.value).where(t.c.app == app, t.c.source_sha256 == source_sha256)
            ).scalar()
        return None if value is None else json.loads(value)

    def put_parameters(self, app: str, source_sha256: str, value: Any) -> None:
        self._insert(
            parameters_table,
            app=app,
            source_sha256=source_sha256,
            value=json.dumps(value),
            created_at=now(),
        )

    def epoch(self, app: str) -> str:
        """The application's epoch in this database: drawn by the first process to ask, read
        by every other (runtime/binding.py)."""
        t = epochs_table
        for _ in range(2):
            with self.engine.connect() as conn:
                value = conn.execute(sa.select(t.c.epoch).where(t.c.app == app)).scalar()
            if value is not None:
                return str(value)
            try:
                self._insert(t, app=app, epoch=secrets.token_hex(16), created_at=now())
            except Conflict:
                pass  # another process drew it first: read theirs
        raise AssertionError("the epoch row exists after an insert or a conflict")

    def _insert(self, table: sa.Table, **row: Any) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(table.insert().values(**row))
        except sa.exc.IntegrityError:
            raise Conflict(table.name) from None

    # submissions -----------------------------------------------------------------------------

    def submission(self, app: str, sid: str) -> StoredSubmission | None:
        t = submissions_table
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(t.c.digest, t.c.result, t.c.accepted_at, t.c.client).where(
                    t.c.app == app, t.c.id == sid
                )
            ).first()
        if row is None:
            return None
        return StoredSubmission(app, sid, row[0], json.loads(row[1]), _utc(row[2]), row[3])

    def accept(
        self,
        app: str,
        sid: str,
        digest: str,
        proofs: list[str],
        result: Any,
        *,
        client: str | None = None,
        period: str | None = None,
        jobs: list[dict[str, Any]] | None = None,
        fold: Fold | None = None,
    ) -> None:
        """Store a verified submission, its proofs' digests and its result in one transaction,
        with the client that signed it and its period, the jobs it starts (`jobs.job_row`: a
        transactional outbox) and the application's dashboard aggregates (its count, and
        `fold`'s state). `Conflict` if the id, one of the proofs or the client's run of this
        period was stored before: nothing is written."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    submissions_table.insert().values(
                        app=app,
                        id=sid,
                        digest=digest,
                        result=json.dumps(result),
                        accepted_at=now(),
                        client=client,
                        period=period,
                    )
                )
                if jobs:
                    conn.execute(jobs_table.insert(), jobs)
                if proofs:
                    conn.execute(
                        proofs_table.insert(),
                        [{"digest": d, "app": app, "submission": sid} for d in proofs],
                    )
                self._count_and_fold(conn, app, result, fold)  # last: its row lock is brief
        except sa.exc.IntegrityError:
            raise Conflict("submissions") from None

    # dashboards: aggregates kept with the runs -------------------------------------------------

    def _count_and_fold(self, conn: Connection, app: str, result: Any, fold: Fold | None) -> None:
        """Count the run in its application's dashboard row and fold its result into the
        state. The row is locked (PostgreSQL: FOR UPDATE; SQLite: this transaction holds the
        write lock since its first insert), so concurrent runs fold one after another. A fold
        that fails leaves the state as it was and its error on the row: it never refuses a run.
        Another version's state (a rolling restart) is left to that version."""
        t = dashboards_table
        at = now()
        if fold is None:
            conn.execute(
                t.update().where(t.c.app == app).values(accepted=t.c.accepted + 1, updated_at=at)
            )
            return
        row = conn.execute(
            sa.select(t.c.fold, t.c.state).where(t.c.app == app).with_for_update()
        ).first()
        values: dict[str, Any] = {"accepted": t.c.accepted + 1, "updated_at": at}
        if row is not None and row[0] == fold.id:
            try:
                values["state"] = _state_json(fold.step(_loads(row[1]), result))
                values["error"] = None
            except Exception as exc:  # noqa: BLE001 - the application's code: report, go on
                values["error"] = f"{type(exc).__name__}: {exc}"[:300]
        conn.execute(t.update().where(t.c.app == app).values(**values))

    def ensure_dashboard(self, app: str, fold: Fold | None = None) -> None:
        """The application's dashboard row exists, and if it has a fold, its state was made by
        this fold: otherwise rebuilt here from every stored run (once per new fold, by the
        first process to start; the others find it done)."""
        t = dashboards_table
        with contextlib.suppress(Conflict):
            self._insert(t, app=app, accepted=self.count_submissions(app), updated_at=now())
        if fold is None:
            return
        with self.engine.begin() as conn:
            # take the row's lock first (SQLite: the write lock, before any read)
            conn.execute(t.update().where(t.c.app == app).values(updated_at=now()))
            current = conn.execute(
                sa.select(t.c.fold).where(t.c.app == app).with_for_update()
            ).scalar()
            if current == fold.id:
                return
            s = submissions_table
            rows = conn.execute(
                sa.select(s.c.result)
                .where(s.c.app == app)
                .order_by(s.c.accepted_at)
                .execution_options(yield_per=2000)
            )
            state, error = None, None
            try:
                for (result,) in rows:
                    state = fold.step(state, json.loads(result))
                text = _state_json(state)
            except Exception as exc:  # noqa: BLE001 - the application's code
                text, error = None, f"{type(exc).__name__}: {exc}"[:300]
            finally:
                rows.close()  # PostgreSQL: the server-side cursor, before the next statement
            conn.execute(
                t.update().where(t.c.app == app).values(fold=fold.id, state=text, error=error)
            )

    def dashboard(self, app: str) -> DashboardRow:
        """The application's aggregates: one row, whatever the number of runs stored."""
        t = dashboards_table
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(t.c.accepted, t.c.fold, t.c.state, t.c.error).where(t.c.app == app)
            ).first()
        if row is None:
            return DashboardRow(0, None, None, None)
        return DashboardRow(int(row[0]), row[1], _loads(row[2]), row[3])

    def recent_results(self, app: str, limit: int) -> list[Any]:
        """The latest `limit` accepted results, oldest first (an index walk: its cost does not
        grow with the runs stored)."""
        t = submissions_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.c.result)
                .where(t.c.app == app)
                .order_by(t.c.accepted_at.desc())
                .limit(limit)
            ).all()
        return [json.loads(r[0]) for r in reversed(rows)]

    def proof_owner(self, digest: str) -> tuple[str, str] | None:
        t = proofs_table
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(t.c.app, t.c.submission).where(t.c.digest == digest)
            ).first()
        return (row[0], row[1]) if row else None

    def recent_submissions(
        self, app: str | None = None, limit: int = 50, *, client: str | None = None
    ) -> list[StoredSubmission]:
        """The latest accepted submissions (of one client's, if `client` is given)."""
        t = submissions_table
        query = sa.select(t.c.app, t.c.id, t.c.digest, t.c.result, t.c.accepted_at, t.c.client)
        if app is not None:
            query = query.where(t.c.app == app)
        if client is not None:
            query = query.where(t.c.client == client)
        query = query.order_by(t.c.accepted_at.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            StoredSubmission(r[0], r[1], r[2], json.loads(r[3]), _utc(r[4]), r[5]) for r in rows
        ]

    def period_owner(self, app: str, client: str, period: str) -> str | None:
        """The submission a client stored in a period, if any."""
        t = submissions_table
        with self.engine.connect() as conn:
            return conn.execute(
                sa.select(t.c.id).where(t.c.app == app, t.c.client == client, t.c.period == period)
            ).scalar()

    def results(self, app: str) -> list[Any]:
        """Every accepted submission's result, oldest first (for the app's aggregate views)."""
        t = submissions_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.c.result).where(t.c.app == app).order_by(t.c.accepted_at)
            ).all()
        return [json.loads(r[0]) for r in rows]

    def count_submissions(self, app: str) -> int:
        t = submissions_table
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    sa.select(sa.func.count()).select_from(t).where(t.c.app == app)
                ).scalar()
                or 0
            )

    def purge_runs(self, app: str, before: dt.datetime) -> int:
        """Delete `app`'s accepted runs stored before `before` (retention). Their proofs'
        digests stay (a deleted run's proof is still a replay) and so do the dashboard's
        aggregates (they are sums, not rows)."""
        t = submissions_table
        with self.engine.begin() as conn:
            done = conn.execute(t.delete().where(t.c.app == app, t.c.accepted_at < before))
        return int(done.rowcount or 0)

    # rejections ------------------------------------------------------------------------------

    def reject(self, app: str, sid: str | None, status: int, reason: str) -> None:
        """Log a refused submission (the audit log the dashboard shows; nothing else of it is
        kept). The reason is kept in our words only (`redact`): what a client chose in it
        (text, values) is replaced by a short digest; it never contains secrets."""
        with self.engine.begin() as conn:
            conn.execute(
                rejections_table.insert().values(
                    app=app, submission=sid, status=status, reason=redact(reason), rejected_at=now()
                )
            )

    def purge_rejections(self, before: dt.datetime) -> int:
        """Delete the refusals logged before `before` (retention)."""
        t = rejections_table
        with self.engine.begin() as conn:
            done = conn.execute(t.delete().where(t.c.rejected_at < before))
        return int(done.rowcount or 0)

    def recent_rejections(self, app: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        t = rejections_table
        query = sa.select(t.c.app, t.c.submission, t.c.status, t.c.reason, t.c.rejected_at)
        if app is not None:
            query = query.where(t.c.app == app)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(t.c.seq.desc()).limit(limit)).all()
        return [
            {
                "app": r[0],
                "submission": r[1],
                "status": r[2],
                "reason": r[3],
                "rejected_at": _utc(r[4]).isoformat(),
            }
            for r in rows
        ]

    # clients and nonces (runtime/identity.py) ---------------------------------------------------

    def register_client(self, app: str, name: str, public_key: str) -> None:
        """`Conflict` if the name or the key is registered for `app` already."""
        self._insert(clients_table, app=app, name=name, public_key=public_key, registered_at=now())

    def client_key(self, app: str, name: str) -> str | None:
        t = clients_table
        with self.engine.connect() as conn:
            return conn.execute(
                sa.select(t.c.public_key).where(t.c.app == app, t.c.name == name)
            ).scalar()

    def clients(self, app: str) -> list[tuple[str, str]]:
        t = clients_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.c.name, t.c.public_key).where(t.c.app == app).order_by(t.c.name)
            ).all()
        return [(r[0], r[1]) for r in rows]

    def use_nonce(self, scope: str, nonce: str, expires_at: dt.datetime) -> bool:
        """Record a signed request's nonce; False if it was used before (a replay), by any
        process over this database."""
        try:
            self._insert(nonces_table, scope=scope, nonce=nonce, expires_at=expires_at)
        except Conflict:
            return False
        return True

    def purge_nonces(self, before: dt.datetime) -> int:
        """Forget the nonces that expired before `before` (their requests are refused as too
        old anyway)."""
        with self.engine.begin() as conn:
            done = conn.execute(nonces_table.delete().where(nonces_table.c.expires_at < before))
        return int(done.rowcount or 0)

    # peers -----------------------------------------------------------------------------------

    def register_peer(
        self, app: str, rnd: str, peer: str, public_key: str, token_sha256: str, size: int
    ) -> int:
        """Add a peer to a round at the next position; `Conflict` if it is there already or the
        round is full. Positions are unique, so two processes cannot both take the last one."""
        t = round_peers_table
        try:
            with self.engine.begin() as conn:
                taken = conn.execute(
                    sa.select(sa.func.count())
                    .select_from(t)
                    .where(t.c.app == app, t.c.round == rnd)
                ).scalar()
                if int(taken or 0) >= size:
                    raise Conflict("round_peers")
                conn.execute(
                    t.insert().values(
                        app=app,
                        round=rnd,
                        peer=peer,
                        position=int(taken or 0),
                        public_key=public_key,
                        token_sha256=token_sha256,
                        registered_at=now(),
                    )
                )
                return int(taken or 0)
        except sa.exc.IntegrityError:
            raise Conflict("round_peers") from None

    def peers(self, app: str, rnd: str) -> list[PeerRow]:
        t = round_peers_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(
                    t.c.peer, t.c.position, t.c.public_key, t.c.token_sha256, t.c.registered_at
                )
                .where(t.c.app == app, t.c.round == rnd)
                .order_by(t.c.position)
            ).all()
        return [PeerRow(*r[:4], _utc(r[4])) for r in rows]

    def attempts(self, app: str, rnd: str) -> list[AttemptRow]:
        """A round's attempts, the first first (none before its roster is full)."""
        t = round_attempts_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.c.attempt, t.c.roster, t.c.dropped, t.c.failed, t.c.started_at)
                .where(t.c.app == app, t.c.round == rnd)
                .order_by(t.c.attempt)
            ).all()
        return [
            AttemptRow(r[0], json.loads(r[1]), json.loads(r[2]), r[3], _utc(r[4])) for r in rows
        ]

    def recent_rounds(self, app: str, limit: int = 5) -> list[str]:
        """The rounds whose latest attempt started last, the latest first."""
        t = round_attempts_table
        query = (
            sa.select(t.c.round)
            .where(t.c.app == app)
            .group_by(t.c.round)
            .order_by(sa.func.max(t.c.started_at).desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query).all()]

    def start_attempt(self, app: str, rnd: str, attempt: AttemptRow) -> None:
        """Record an attempt; `Conflict` if another process recorded this one first (then
        theirs holds: an attempt is decided once)."""
        self._insert(
            round_attempts_table,
            app=app,
            round=rnd,
            attempt=attempt.attempt,
            roster=json.dumps(attempt.roster),
            size=len(attempt.roster),
            dropped=json.dumps(attempt.dropped),
            failed=attempt.failed,
            started_at=attempt.started_at,
        )

    def put_share(
        self,
        app: str,
        rnd: str,
        peer: str,
        commitments: list[str],
        sealed: dict[str, bytes],
        proof_digest: str,
        *,
        attempt: int = 0,
        next_key: str | None = None,
        at: dt.datetime | None = None,
    ) -> None:
        """A peer's verified share in an attempt: its commitments, a sealed message for each
        recipient, the key it announces for the next attempt and its proof's digest, in one
        transaction (`Conflict` if it shared in this attempt before)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    round_shares_table.insert().values(
                        app=app,
                        round=rnd,
                        attempt=attempt,
                        peer=peer,
                        commitments=json.dumps(commitments),
                        shared_at=at or now(),
                        next_key=next_key,
                    )
                )
                conn.execute(
                    mailbox_table.insert(),
                    [
                        {
                            "app": app,
                            "round": rnd,
                            "attempt": attempt,
                            "recipient": r,
                            "sender": peer,
                            "sealed": m,
                        }
                        for r, m in sealed.items()
                    ],
                )
                conn.execute(
                    proofs_table.insert().values(
                        digest=proof_digest, app=app, submission=_step(rnd, attempt, peer, "share")
                    )
                )
        except sa.exc.IntegrityError:
            raise Conflict("round_shares") from None

    def share_rows(self, app: str, rnd: str, attempt: int = 0) -> dict[str, ShareRow]:
        t = round_shares_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.c.peer, t.c.commitments, t.c.shared_at, t.c.next_key).where(
                    t.c.app == app, t.c.round == rnd, t.c.attempt == attempt
                )
            ).all()
        return {r[0]: ShareRow(json.loads(r[1]), _utc(r[2]), r[3]) for r in rows}

    def shares(self, app: str, rnd: str, attempt: int = 0) -> dict[str, list[str]]:
        return {p: row.commitments for p, row in self.share_rows(app, rnd, attempt).items()}

    def mailbox(self, app: str, rnd: str, recipient: str, attempt: int = 0) -> dict[str, bytes]:
        t = mailbox_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.c.sender, t.c.sealed).where(
                    t.c.app == app,
                    t.c.round == rnd,
                    t.c.attempt == attempt,
                    t.c.recipient == recipient,
                )
            ).all()
        return {r[0]: bytes(r[1]) for r in rows}

    def put_partial(
        self,
        app: str,
        rnd: str,
        peer: str,
        partial: list[str],
        proof_digest: str,
        *,
        attempt: int = 0,
        at: dt.datetime | None = None,
    ) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    round_partials_table.insert().values(
                        app=app,
                        round=rnd,
                        attempt=attempt,
                        peer=peer,
                        partial=json.dumps(partial),
                        combined_at=at or now(),
                    )
                )
                conn.execute(
                    proofs_table.insert().values(
                        digest=proof_digest,
                        app=app,
                        submission=_step(rnd, attempt, peer, "partial"),
                    )
                )
        except sa.exc.IntegrityError:
            raise Conflict("round_partials") from None

    def partials(self, app: str, rnd: str, attempt: int = 0) -> dict[str, list[str]]:
        t = round_partials_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.c.peer, t.c.partial).where(
                    t.c.app == app, t.c.round == rnd, t.c.attempt == attempt
                )
            ).all()
        return {r[0]: json.loads(r[1]) for r in rows}

    def finished_rounds(self, app: str, size: int = 0, limit: int = 10) -> list[str]:
        """The rounds whose latest attempt has all its partial sums in, the latest first
        (`size` is unused: an attempt knows how many peers it has)."""
        t, a = round_partials_table, round_attempts_table
        query = (
            sa.select(t.c.round)
            .join(
                a, sa.and_(a.c.app == t.c.app, a.c.round == t.c.round, a.c.attempt == t.c.attempt)
            )
            .where(t.c.app == app, a.c.failed.is_(None))
            .group_by(t.c.round, t.c.attempt, a.c.size)
            .having(sa.func.count() == a.c.size)
            .order_by(sa.func.max(t.c.combined_at).desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query).all()]


def _step(rnd: str, attempt: int, peer: str, step: str) -> str:
    return f"{rnd}/{peer}/{step}" if attempt == 0 else f"{rnd}/{attempt}/{peer}/{step}"


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _state_json(state: Any) -> str:
    text = json.dumps(state, separators=(",", ":"), allow_nan=False)
    if len(text) > MAX_STATE:
        raise ValueError(f"the dashboard's state is {len(text)} bytes of JSON, over {MAX_STATE}")
    return text


def _utc(value: dt.datetime) -> dt.datetime:
    # SQLite hands back naive datetimes: they were written in UTC.
    return value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any, synchronous: str = "full") -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA synchronous={'NORMAL' if synchronous == 'normal' else 'FULL'}")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
