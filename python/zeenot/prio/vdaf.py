"""Prio3 (VDAF-08) with two aggregators, on the `prio` crate 0.16.8 (what Janus 0.7.145 speaks).

```python
from zeenot.prio import Vdaf

vdaf = Vdaf.from_description({"type": "Prio3Sum", "bits": 32})
public, (leader_in, helper_in) = vdaf.shard(1234, nonce)              # client
state, message = vdaf.leader_initialized(verify_key, nonce, public, leader_in)   # leader
helper_out, reply = vdaf.helper_initialized(verify_key, nonce, public, helper_in, message)
leader_out = vdaf.leader_continued(state, reply)
result = vdaf.unshard([vdaf.aggregate([leader_out]), vdaf.aggregate([helper_out])], 1)
```

Everything is bytes in, bytes out, encoded by the crate's own codecs; the operations are the
crate's (`shard`, `prepare_init`, `prepare_shares_to_prepare_message`, `prepare_next`,
`aggregate`, `unshard`) and DAP-09's ping-pong topology over them (`leader_initialized`,
`helper_initialized`, `leader_continued`). Descriptions use Janus's `VdafInstance` names:
`Prio3Count`, `Prio3Sum {bits}`, `Prio3SumVec {bits, length, chunk_length}`,
`Prio3Histogram {length, chunk_length}`, flat (`{"type": "Prio3Sum", "bits": 32}`) or as Janus
serializes them (`"Prio3Count"`, `{"Prio3Sum": {"bits": 32}}`).

zeenot's AFEs (`zeenot.prio.afe`: `AfeMeanVariance {bits}`, `AfeOr`, `AfeAnd`, `AfeMax {domain}`,
`AfeMin {domain}`, `AfeLinearRegression {features, bits}`, `AfeSetUnion {universe}`,
`AfeSetIntersection {universe}`) are Prio3 instances over custom FLP
validity circuits with private algorithm ids: they run the same operations between zeenot's own
aggregators (never Janus), and `Vdaf.decode` turns their sums into the statistic.

Preparation states and output shares hold measurement shares: store them like secrets.

Errors: `PrioDecodeError` (bytes that do not decode, a `MalformedInput`), `ReportRejected`
(preparation rejects the report: its validity proof fails, a `ProofRejected`), `HpkeError`
(`MalformedInput`), `UsageError` (a bad description, measurement, key or nonce length).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from zeenot import _native
from zeenot.errors import MalformedInput, ProofRejected, UsageError
from zeenot.prio import afe

VERIFY_KEY_SIZE = 16
"""Bytes of a Prio3 verification key (shared by the aggregators of a task, secret)."""
NONCE_SIZE = 16
"""Bytes of a report nonce (DAP: the report ID)."""

Measurement = bool | int | Sequence[int]
Result = int | list[int]

T = TypeVar("T")


class PrioDecodeError(MalformedInput):
    """A share, state or message that does not decode (truncated, trailing bytes, too long)."""


class ReportRejected(ProofRejected):
    """Preparation rejected the report: its validity proof does not verify, or its shares do
    not belong together."""


class HpkeError(MalformedInput):
    """HPKE: an unsupported config, or a ciphertext that does not open with this key, info and
    associated data."""


def _mapped(exc: Exception) -> Exception:
    """`_native`'s error as zeenot's error type (or itself)."""
    if isinstance(exc, _native.DecodeError):
        return PrioDecodeError(str(exc))
    if isinstance(exc, _native.PrioRejectedError):
        return ReportRejected(str(exc))
    if isinstance(exc, _native.PrioHpkeError):
        return HpkeError(str(exc))
    if isinstance(exc, ValueError | TypeError | OverflowError):
        return UsageError(str(exc))
    return exc


def _call(f: Callable[..., T], *args: Any) -> T:
    """`f(*args)` with `_native`'s errors mapped (a plain try: this is on the per-report path)."""
    try:
        return f(*args)
    except Exception as exc:
        raise _mapped(exc) from None


class Vdaf:
    """A Prio3 instance, built by the crate's `Prio3::new_*`."""

    verify_key_size = VERIFY_KEY_SIZE
    nonce_size = NONCE_SIZE

    def __init__(self, native: _native.PrioVdaf):
        self._native = native

    @classmethod
    def from_description(
        cls, description: Mapping[str, Any] | str, num_aggregators: int = 2
    ) -> Vdaf:
        """From a description: a mapping (`{"type": "Prio3Sum", "bits": 32}`), its JSON text,
        or a bare name (`"Prio3Count"`). `num_aggregators` other than 2 is for the VDAF's
        own operations only (DAP's ping-pong steps need 2)."""
        if isinstance(description, str):
            text = (
                description
                if description.lstrip().startswith(("{", '"'))
                else json.dumps(description)
            )
        elif isinstance(description, Mapping):
            text = json.dumps(dict(description))
        else:
            raise UsageError(f"a VDAF description is a mapping or a string, not {description!r}")
        return cls(_call(_native.PrioVdaf, text, num_aggregators))

    @property
    def description(self) -> dict[str, Any]:
        """The flat description (`{"type": ..., ...}`)."""
        return dict(json.loads(self._native.description))

    @property
    def num_aggregators(self) -> int:
        return self._native.num_aggregators

    def __repr__(self) -> str:
        return f"Vdaf({self._native.description})"

    # ---- client ----------------------------------------------------------------------------

    def shard(self, measurement: Measurement, nonce: bytes) -> tuple[bytes, list[bytes]]:
        """`(public_share, [input_share per aggregator])`, leader first. Count takes a bool or
        0/1, Sum an int in `[0, 2^bits)`, SumVec `length` such ints, Histogram a bucket index,
        an AFE an int (a bool for Or/And) or, for regression, `[x₁, …, x_d, y]`."""
        m = list(measurement) if isinstance(measurement, Sequence) else measurement
        return _call(self._native.shard, m, nonce)

    # ---- aggregators: the VDAF's operations ------------------------------------------------

    def prepare_init(
        self, verify_key: bytes, agg_id: int, nonce: bytes, public_share: bytes, input_share: bytes
    ) -> tuple[bytes, bytes]:
        """`(state, prep_share)` of aggregator `agg_id` (0 leader, 1 helper)."""
        return _call(
            self._native.prepare_init, verify_key, agg_id, nonce, public_share, input_share
        )

    def prepare_shares_to_prepare_message(
        self, agg_id: int, state: bytes, prep_shares: Sequence[bytes]
    ) -> bytes:
        """The prepare message from every aggregator's prepare share (leader first), decoded
        against the calling aggregator's `state`. `ReportRejected` if the proof fails."""
        return _call(
            self._native.prepare_shares_to_prepare_message, agg_id, state, list(prep_shares)
        )

    def prepare_next(self, agg_id: int, state: bytes, prep_message: bytes) -> bytes:
        """The output share (Prio3 prepares in one round)."""
        return _call(self._native.prepare_next, agg_id, state, prep_message)

    def aggregate(self, output_shares: Sequence[bytes]) -> bytes:
        """The aggregate share of these output shares (of one aggregator)."""
        return _call(self._native.aggregate, list(output_shares))

    def merge(self, aggregate_shares: Sequence[bytes]) -> bytes:
        """The sum of aggregate shares of one aggregator; no shares give the zero share."""
        return _call(self._native.merge, list(aggregate_shares))

    # ---- collector ---------------------------------------------------------------------------

    def unshard(self, aggregate_shares: Sequence[bytes], num_measurements: int) -> Result:
        """The result from every aggregator's aggregate share (leader first): an int (Count,
        Sum) or a list of ints (SumVec, Histogram, an AFE's sums)."""
        return _call(self._native.unshard, list(aggregate_shares), num_measurements)

    @property
    def is_afe(self) -> bool:
        """Whether this is one of zeenot's AFEs (which `decode` turns into a statistic)."""
        return afe.is_afe(self.description)

    def decode(self, result: Result, num_measurements: int) -> afe.Statistic:
        """An AFE's statistic from `unshard`'s sums (`zeenot.prio.afe.decode`)."""
        if not isinstance(result, list):
            raise UsageError(f"an AFE's result is a list of sums, not {result!r}")
        return afe.decode(self.description, result, num_measurements)

    # ---- DAP-09 ping-pong preparation ------------------------------------------------------

    def leader_initialized(
        self, verify_key: bytes, nonce: bytes, public_share: bytes, input_share: bytes
    ) -> tuple[bytes, bytes]:
        """Leader: `(state, message)`; the message (an encoded ping-pong message) goes in the
        `PrepareInit` for the helper, the state waits for the helper's reply."""
        return _call(self._native.leader_initialized, verify_key, nonce, public_share, input_share)

    def helper_initialized(
        self,
        verify_key: bytes,
        nonce: bytes,
        public_share: bytes,
        input_share: bytes,
        inbound: bytes,
    ) -> tuple[bytes, bytes]:
        """Helper: `(output_share, reply)` from the leader's message; the reply goes in a
        `PrepareResp` of type continue. `ReportRejected` if the report is invalid."""
        return _call(
            self._native.helper_initialized, verify_key, nonce, public_share, input_share, inbound
        )

    def leader_continued(self, state: bytes, inbound: bytes) -> bytes:
        """Leader: the output share, from its state and the helper's reply."""
        return _call(self._native.leader_continued, state, inbound)
