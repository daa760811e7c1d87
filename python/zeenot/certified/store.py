"""The certified parties' state in the runtime's data layer (`zeenot.runtime.store.Store`:
SQLite or PostgreSQL, migrated by Alembic; the tables are migration 0009's, and 0013's for
path (b)).

A source keeps its accounts (who may fetch blocks, and the Baby Jubjub key the blocks are
issued to) and its readings, one row per account and period, final once written. A service
keeps one verified result per (source, user key, period). Every write is one transaction
committed before the server answers; a unique key refuses the second writer (`Conflict`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from zeenot.babyjub import Point
from zeenot.runtime.store import Conflict, Store, now

metadata = sa.MetaData()
accounts = sa.Table(
    "certified_accounts",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("auth_key", sa.String(64)),
    sa.Column("user_key", sa.String(160)),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
readings = sa.Table(
    "certified_readings",
    metadata,
    sa.Column("account", sa.String(64), primary_key=True),
    sa.Column("period", sa.BigInteger, primary_key=True),
    sa.Column("bits", sa.Integer),
    sa.Column("values_json", sa.Text),
    sa.Column("values_sha256", sa.String(64)),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("signed_at", sa.DateTime(timezone=True)),
)
results = sa.Table(
    "certified_results",
    metadata,
    sa.Column("source_id", sa.BigInteger, primary_key=True),
    sa.Column("user_key", sa.String(160), primary_key=True),
    sa.Column("period", sa.BigInteger, primary_key=True),
    sa.Column("program_hash", sa.String(64)),
    sa.Column("result", sa.Text),
    sa.Column("proof_sha256", sa.String(64)),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)

encrypted = sa.Table(
    "certified_encrypted",
    metadata,
    sa.Column("source_id", sa.BigInteger, primary_key=True),
    sa.Column("user_key", sa.String(160), primary_key=True),
    sa.Column("period", sa.BigInteger, primary_key=True),
    sa.Column("regions_hash", sa.String(64)),
    sa.Column("bundle_sha256", sa.String(64)),
    sa.Column("sums", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("result", sa.Text),
    sa.Column("decrypted_at", sa.DateTime(timezone=True)),
)


def point_key(p: Point) -> str:
    """A Baby Jubjub point as the tables spell it: `x,y` in decimal (one spelling per point)."""
    return f"{int(p.x)},{int(p.y)}"


@dataclass(frozen=True)
class Account:
    name: str
    auth_key: str  # Ed25519 public key, hex
    user_key: str  # point_key of the Baby Jubjub key blocks are issued to


@dataclass(frozen=True)
class Reading:
    bits: int
    values: list[int]


@dataclass(frozen=True)
class Result:
    source_id: int
    user_key: str
    period: int
    program_hash: str
    result: Any
    proof_sha256: str


@dataclass(frozen=True)
class Encrypted:
    """Path (b) at a service: the sums it computed for a verified bundle, and once her
    decryptions are proved, the results."""

    source_id: int
    user_key: str
    period: int
    regions_hash: str
    bundle_sha256: str
    sums: Any  # JSON ciphertexts
    result: Any = None  # None until the decryptions are proved


def _values_sha256(bits: int, values: list[int]) -> str:
    return hashlib.sha256(json.dumps([bits, values], separators=(",", ":")).encode()).hexdigest()


class CertifiedStore:
    """A source's or a service's certified state over one `Store`."""

    def __init__(self, store: Store):
        self.store = store
        self.engine = store.engine

    # a source: accounts ----------------------------------------------------------------------

    def add_account(self, account: Account) -> str:
        """`created`; `repeated` (the same account was registered before: nothing written);
        `taken` (the name is another account's: nothing written)."""
        try:
            self.store._insert(
                accounts,
                name=account.name,
                auth_key=account.auth_key,
                user_key=account.user_key,
                created_at=now(),
            )
        except Conflict:
            return "repeated" if self.account(account.name) == account else "taken"
        return "created"

    def account(self, name: str) -> Account | None:
        t = accounts
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(t.c.name, t.c.auth_key, t.c.user_key).where(t.c.name == name)
            ).first()
        return None if row is None else Account(str(row[0]), str(row[1]), str(row[2]))

    # a source: readings ----------------------------------------------------------------------

    def put_reading(self, account: str, period: int, bits: int, values: list[int]) -> str:
        """`stored`; `repeated` (these very values were stored for this period: nothing
        written); `final` (other values were: nothing written, readings never change)."""
        digest = _values_sha256(bits, values)
        try:
            self.store._insert(
                readings,
                account=account,
                period=period,
                bits=bits,
                values_json=json.dumps(values, separators=(",", ":")),
                values_sha256=digest,
                created_at=now(),
            )
        except Conflict:
            t = readings
            with self.engine.connect() as conn:
                stored = conn.execute(
                    sa.select(t.c.values_sha256).where(t.c.account == account, t.c.period == period)
                ).scalar()
            return "repeated" if stored == digest else "final"
        return "stored"

    def reading(self, account: str, period: int) -> Reading | None:
        """The readings of one period, and the first time they are asked for, `signed_at`."""
        t = readings
        where = sa.and_(t.c.account == account, t.c.period == period)
        with self.engine.begin() as conn:
            row = conn.execute(sa.select(t.c.bits, t.c.values_json).where(where)).first()
            if row is None:
                return None
            conn.execute(t.update().where(where, t.c.signed_at.is_(None)).values(signed_at=now()))
        return Reading(int(row[0]), [int(v) for v in json.loads(row[1])])

    # a service: results ----------------------------------------------------------------------

    def put_result(self, result: Result) -> bool:
        """Store a verified result; False if this source, user key and period has one already
        (a replay: nothing written)."""
        try:
            self.store._insert(
                results,
                source_id=result.source_id,
                user_key=result.user_key,
                period=result.period,
                program_hash=result.program_hash,
                result=json.dumps(result.result),
                proof_sha256=result.proof_sha256,
                created_at=now(),
            )
        except Conflict:
            return False
        return True

    def results(self) -> list[Result]:
        t = results
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(
                    t.c.source_id,
                    t.c.user_key,
                    t.c.period,
                    t.c.program_hash,
                    t.c.result,
                    t.c.proof_sha256,
                ).order_by(t.c.created_at, t.c.period)
            ).all()
        return [
            Result(int(r[0]), str(r[1]), int(r[2]), str(r[3]), json.loads(r[4]), str(r[5]))
            for r in rows
        ]

    # a service, path (b): encrypted sums, then their proved decryptions ---------------------

    def put_encrypted(self, row: Encrypted) -> bool:
        """Store the sums computed for a verified bundle; False if this source, user key and
        period has a row already (a replay: nothing written)."""
        try:
            self.store._insert(
                encrypted,
                source_id=row.source_id,
                user_key=row.user_key,
                period=row.period,
                regions_hash=row.regions_hash,
                bundle_sha256=row.bundle_sha256,
                sums=json.dumps(row.sums),
                created_at=now(),
            )
        except Conflict:
            return False
        return True

    def encrypted_row(self, source_id: int, user_key: str, period: int) -> Encrypted | None:
        t = encrypted
        cols = (t.c.regions_hash, t.c.bundle_sha256, t.c.sums, t.c.result)
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(*cols).where(
                    t.c.source_id == source_id, t.c.user_key == user_key, t.c.period == period
                )
            ).first()
        if row is None:
            return None
        result = None if row[3] is None else json.loads(row[3])
        return Encrypted(
            source_id, user_key, period, str(row[0]), str(row[1]), json.loads(row[2]), result
        )

    def put_decrypted(self, source_id: int, user_key: str, period: int, result: Any) -> bool:
        """Record the proved results once; False if they were recorded before (nothing
        written): the update takes only a row whose result is still NULL."""
        t = encrypted
        with self.engine.begin() as conn:
            done = conn.execute(
                t.update()
                .where(
                    t.c.source_id == source_id,
                    t.c.user_key == user_key,
                    t.c.period == period,
                    t.c.result.is_(None),
                )
                .values(result=json.dumps(result), decrypted_at=now())
            )
        return done.rowcount == 1
