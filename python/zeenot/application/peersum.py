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

    @property
    def data_params(self) -> list[str]:
        return list(inspect.signature(self.share).parameters)[:-2]


def find_peer_sum(module: Any) -> PeerSum | None:
    found = [v for v in vars(module).values() if isinstance(v, PeerSum)]
    if len(found) > 1:
        raise MalformedInput("an application declares at most one PeerSum")
    return found[0] if found else None
