"""A cothority server's tables (migration 0007) over the runtime's `Store`."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from zeenot.runtime.store import Conflict, Store, jobs_table, now

metadata = sa.MetaData()
state_table = sa.Table(
    "cothority_state",
    metadata,
    sa.Column("key", sa.String(200), primary_key=True),
    sa.Column("value", sa.Text),
    sa.Column("updated_at", sa.DateTime(timezone=True)),
)
records_table = sa.Table(
    "cothority_records",
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("provider", sa.String(64)),
    sa.Column("record_id", sa.String(64)),
    sa.Column("body", sa.Text),
    sa.Column("received_from", sa.String(64)),
    sa.Column("accepted_at", sa.DateTime(timezone=True)),
)
queries_table = sa.Table(
    "cothority_queries",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("querier", sa.String(64)),
    sa.Column("query", sa.Text),
    sa.Column("state", sa.String(16)),
    sa.Column("transcript", sa.Text),
    sa.Column("error", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("updated_at", sa.DateTime(timezone=True)),
)
steps_table = sa.Table(
    "cothority_steps",
    metadata,
    sa.Column("query", sa.String(64), primary_key=True),
    sa.Column("step", sa.String(64), primary_key=True),
    sa.Column("input_digest", sa.String(64)),
    sa.Column("output", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)


class Db:
    """What one cothority server keeps."""

    def __init__(self, store: Store):
        self.store = store
        self.engine = store.engine

    # state (the DKG) ---------------------------------------------------------------------------

    def get(self, key: str) -> Any | None:
        t = state_table
        with self.engine.connect() as conn:
            v = conn.execute(sa.select(t.c.value).where(t.c.key == key)).scalar()
        return None if v is None else json.loads(v)

    def put_first(self, key: str, value: Any) -> Any:
        """Store `value` under `key` unless something is there; the stored value either way
        (so a dealing drawn before a crash is the one used after it)."""
        try:
            self.store._insert(state_table, key=key, value=json.dumps(value), updated_at=now())
        except Conflict:
            pass
        return self.get(key)

    # records -----------------------------------------------------------------------------------

    def add_records(self, rows: list[dict[str, Any]], relay: list[tuple[str, str]]) -> list[str]:
        """Insert verified records (digest, provider, record_id, body, received_from) and, in
        the same transaction, a relay job per (server, url) for the new ones: what is
        acknowledged is stored and will reach the other servers. Returns the new digests; a
        record already stored (same provider and id) is skipped."""
        from zeenot.runtime.jobs import job_row

        t = records_table
        new: list[str] = []
        with self.engine.begin() as conn:
            for row in rows:
                exists = conn.execute(
                    sa.select(t.c.digest).where(
                        sa.or_(
                            t.c.digest == row["digest"],
                            sa.and_(
                                t.c.provider == row["provider"], t.c.record_id == row["record_id"]
                            ),
                        )
                    )
                ).first()
                if exists:
                    continue
                conn.execute(t.insert().values(**row, accepted_at=now()))
                new.append(row["digest"])
            if new:
                for server, url in relay:
                    payload = {"server": server, "url": url, "digests": new}
                    key = f"relay:{server}:{new[0]}:{len(new)}"
                    conn.execute(jobs_table.insert().values(**job_row("relay", key, payload)))
        return new

    def record_owner(self, provider: str, record_id: str) -> str | None:
        t = records_table
        with self.engine.connect() as conn:
            return conn.execute(
                sa.select(t.c.digest).where(t.c.provider == provider, t.c.record_id == record_id)
            ).scalar()

    def records(self, digests: list[str] | None = None) -> list[tuple[str, str]]:
        """(digest, body) of the given records (all, by digest, if None), in digest order."""
        t = records_table
        q = sa.select(t.c.digest, t.c.body).order_by(t.c.digest)
        out: list[tuple[str, str]] = []
        with self.engine.connect() as conn:
            if digests is None:
                return [(r[0], r[1]) for r in conn.execute(q)]
            for k in range(0, len(digests), 500):
                chunk = digests[k : k + 500]
                out += [(r[0], r[1]) for r in conn.execute(q.where(t.c.digest.in_(chunk)))]
        return sorted(out)

    def count_records(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(records_table)).scalar())

    # queries -----------------------------------------------------------------------------------

    def new_query(self, qid: str, querier: str, query: dict[str, Any]) -> bool:
        try:
            self.store._insert(
                queries_table,
                id=qid,
                querier=querier,
                query=json.dumps(query),
                state="running",
                created_at=now(),
                updated_at=now(),
            )
        except Conflict:
            return False
        return True

    def query(self, qid: str) -> dict[str, Any] | None:
        t = queries_table
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t).where(t.c.id == qid)).mappings().first()
        if row is None:
            return None
        out = dict(row)
        out["query"] = json.loads(out["query"])
        out["transcript"] = json.loads(out["transcript"]) if out["transcript"] else None
        return out

    def update_query(self, qid: str, **values: Any) -> None:
        if "transcript" in values:
            values["transcript"] = json.dumps(values["transcript"])
        t = queries_table
        with self.engine.begin() as conn:
            conn.execute(t.update().where(t.c.id == qid).values(**values, updated_at=now()))

    # steps this server answered ----------------------------------------------------------------

    def step(self, qid: str, step: str) -> tuple[str, Any] | None:
        t = steps_table
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(t.c.input_digest, t.c.output).where(t.c.query == qid, t.c.step == step)
            ).first()
        return None if row is None else (row[0], json.loads(row[1]))

    def put_step(self, qid: str, step: str, input_digest: str, output: Any) -> tuple[str, Any]:
        """Keep the first output of a step; the stored one (first writer wins)."""
        try:
            self.store._insert(
                steps_table,
                query=qid,
                step=step,
                input_digest=input_digest,
                output=json.dumps(output),
                created_at=now(),
            )
        except Conflict:
            pass
        stored = self.step(qid, step)
        assert stored is not None
        return stored
