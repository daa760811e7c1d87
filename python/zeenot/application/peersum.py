"""An application of peers declares `PeerSum(share=..., combine=..., contribution=..., peers=K)`:
a secret-shared sum of the peers' private vectors (ZØ's ClientShare tier). This is the
declaration and its checks; `zeenot.runtime.peers` and `zeenot.runtime.relay` run a round.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zeenot.errors import MalformedInput


@dataclass(frozen=True)
class PeerSum:
    """A secret-shared sum among `peers` clients (zeenot.runtime.peers runs its rounds)."""

    share: Callable[..., Any]
    combine: Callable[..., Any]
    contribution: Callable[..., list[Any]]
    peers: int
    result: Callable[[list[int]], Any] | None = None  # shapes the sum for the application
    deadline: float = 60.0  # seconds each phase of an attempt may take (sharing, combining)
    min_peers: int | None = None  # peers an attempt needs; default max(3, ceil(2K/3)), <= K

    def __post_init__(self) -> None:
        for region in (self.share, self.combine):
            if not hasattr(region, "__zk__"):
                raise MalformedInput(f"PeerSum: `{region.__name__}` is not a @zk region")
        params = list(inspect.signature(self.share).parameters)
        if params[-2:] != ["masks", "salts"]:
            raise MalformedInput("PeerSum: `share` ends with the parameters `masks, salts`")
        if list(inspect.signature(self.combine).parameters) != ["shares", "salts", "commitments"]:
            raise MalformedInput("PeerSum: `combine` takes `shares, salts, commitments`")
        if not 2 <= self.peers <= 256:
            raise MalformedInput("PeerSum: 2 to 256 peers")
        if not 0.1 <= self.deadline <= 86_400:
            raise MalformedInput("PeerSum: `deadline` is 0.1 to 86400 seconds")
        if self.min_peers is not None and not 2 <= self.min_peers <= self.peers:
            raise MalformedInput("PeerSum: `min_peers` is 2 to `peers`")

    @property
    def threshold(self) -> int:
        """The fewest peers an attempt of a round may have (docs/runtime.md, "Peers"): below
        it the round fails rather than go on with too few peers to hide each other."""
        if self.min_peers is not None:
            return self.min_peers
        return min(self.peers, max(3, -(-2 * self.peers // 3)))

    @property
    def data_params(self) -> list[str]:
        return list(inspect.signature(self.share).parameters)[:-2]


def find_peer_sum(module: Any) -> PeerSum | None:
    found = [v for v in vars(module).values() if isinstance(v, PeerSum)]
    if len(found) > 1:
        raise MalformedInput("an application declares at most one PeerSum")
    return found[0] if found else None
