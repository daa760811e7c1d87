"""One statistic query and one result, for both aggregation systems: the collective authority
(`zeenot.cothority`: ElGamal-encrypted records, verifiable shuffles and key switching) and Prio
(`zeenot.prio`: secret-shared reports with validity proofs, over DAP).

    q = StatQuery.from_json({"op": "variance", "attribute": "age"}, {"age": 8})
    q.prio_vdaf({"age": 8})        # {"type": "AfeMeanVariance", "bits": 8}
    StatResult.of(q, count, [Σx, Σx²]).row()  # {"count": …, "sum": …, "mean": …, "variance": …}

A query is `op` (SUM, COUNT, MEAN, VARIANCE) of an attribute of `bits` bits, optionally over the
records `WHERE attribute = value` and per value of `GROUP BY attribute`. Both systems compute a
count and the sums Σx (and Σx² for VARIANCE) and finish the statistic the same way
(`StatResult`). The collective authority answers every query (its servers see the encrypted
records and filter and group them homomorphically); Prio answers those without WHERE and GROUP BY
(its aggregators see only shares of an encoding of one value per report: a filter or a grouping
would have to be chosen by the clients before they encode, which DAP does not carry).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zeenot.errors import MalformedInput, UsageError

OPS = ("sum", "count", "mean", "variance")


@dataclass(frozen=True)
class StatQuery:
    """`op` of `attribute` over the records with `where` (attribute, value), per value of
    `group_by`."""

    op: str
    attribute: str | None
    where: tuple[str, int] | None = None
    group_by: str | None = None

    @classmethod
    def from_json(
        cls,
        doc: Mapping[str, Any],
        attributes: Mapping[str, int],
        squared: Collection[str] | None = None,
    ) -> StatQuery:
        """Read `op`, `attribute`, `where` and `group_by` of `doc` (other keys are the caller's)
        against the attributes (name → bits); VARIANCE needs its attribute in `squared` (all
        attributes if None). Every refusal is a `MalformedInput`."""
        op = doc.get("op")
        if op not in OPS:
            raise MalformedInput(f"`op` is one of {OPS}")
        attr = doc.get("attribute")
        if op == "count":
            if attr is not None:
                raise MalformedInput("COUNT takes no `attribute`")
        else:
            attr = _attribute(attr, attributes)
            if op == "variance" and squared is not None and attr not in squared:
                raise MalformedInput(f"VARIANCE of `{attr}` needs its square (`square: true`)")
        where = doc.get("where")
        if where is not None:
            if not (isinstance(where, list) and len(where) == 2 and isinstance(where[1], int)):
                raise MalformedInput("`where` is [attribute, value]")
            name = _attribute(where[0], attributes)
            bits = attributes[name]
            if isinstance(where[1], bool) or not 0 <= where[1] < 1 << bits:
                raise MalformedInput(f"`where`'s value is in [0, 2^{bits})")
            where = (name, where[1])
        group = doc.get("group_by")
        if group is not None:
            group = _attribute(group, attributes)
        return cls(op, attr, where, group)

    def to_json(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "attribute": self.attribute,
            "where": None if self.where is None else list(self.where),
            "group_by": self.group_by,
        }

    def value_columns(self) -> list[str]:
        """The sums a system computes per group besides the count: the attribute (SUM, MEAN),
        and its square (VARIANCE) as `attribute^2`."""
        if self.op == "count":
            return []
        assert self.attribute is not None
        if self.op == "variance":
            return [self.attribute, self.attribute + "^2"]
        return [self.attribute]

    def prio_vdaf(self, attributes: Mapping[str, int]) -> dict[str, Any]:
        """The Prio3 instance whose aggregate answers this query: Prio3Count, Prio3Sum of the
        attribute's bits, or zeenot's AfeMeanVariance (Σx and Σx², the square checked by the
        validity proof). `UsageError` for WHERE and GROUP BY (see the module's text)."""
        if self.where is not None or self.group_by is not None:
            raise UsageError("Prio answers a statistic of all reports: no WHERE, no GROUP BY")
        if self.op == "count":
            return {"type": "Prio3Count"}
        assert self.attribute is not None
        bits = attributes[self.attribute]
        if self.op == "sum":
            return {"type": "Prio3Sum", "bits": bits}
        return {"type": "AfeMeanVariance", "bits": bits}

    def prio_measurement(self, value: int) -> int | bool:
        """What a Prio client shards for a record whose attribute is `value`."""
        return True if self.op == "count" else value


@dataclass(frozen=True)
class StatResult:
    """A query's answer for one group: the count and the sums both systems compute, and the
    statistic finished from them."""

    op: str
    count: int
    sums: tuple[int, ...] = ()

    @classmethod
    def of(cls, query: StatQuery, count: int, sums: Sequence[int]) -> StatResult:
        need = len(query.value_columns())
        if len(sums) != need:
            raise UsageError(f"{query.op.upper()} has {need} sums, not {len(sums)}")
        return cls(query.op, int(count), tuple(int(s) for s in sums))

    @classmethod
    def from_prio(cls, query: StatQuery, result: Any, count: int) -> StatResult:
        """From a Prio collection: `Vdaf.unshard`'s result and the report count (Prio3Count's
        result is the count itself; AfeMeanVariance's is [Σx, Σx²])."""
        if query.op == "count":
            return cls.of(query, int(result), [])
        if query.op == "sum":
            return cls.of(query, count, [int(result)])
        if not isinstance(result, list) or len(result) != 2:
            raise UsageError(f"a mean or variance aggregate is [Σx, Σx²], not {result!r}")
        return cls.of(query, count, result if query.op == "variance" else result[:1])

    @property
    def mean(self) -> float | None:
        return self.sums[0] / self.count if self.sums and self.count > 0 else None

    @property
    def variance(self) -> float | None:
        if len(self.sums) < 2 or self.count <= 0:
            return None
        return self.sums[1] / self.count - (self.sums[0] / self.count) ** 2

    def row(self) -> dict[str, Any]:
        """`count`, then per op: `sum`; `sum`, `mean`; `sum`, `mean`, `sum_squares`,
        `variance` (None where the count is 0)."""
        row: dict[str, Any] = {"count": self.count}
        if self.op in ("sum", "mean", "variance"):
            row["sum"] = self.sums[0]
        if self.op in ("mean", "variance"):
            row["mean"] = self.mean
        if self.op == "variance":
            row["sum_squares"] = self.sums[1]
            row["variance"] = self.variance
        return row


def _attribute(name: Any, attributes: Mapping[str, int]) -> str:
    if not isinstance(name, str) or name not in attributes:
        raise MalformedInput(f"no attribute `{name}` (the schema has {list(attributes)})")
    return name
