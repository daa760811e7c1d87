"""Clients the server knows: an application's opt-in, and its rule of one run per period.

An application that bills declares at module level

    CLIENTS = Clients(one_run_per="week")

and then the server accepts its runs only from registered clients (each submission signed
with the client's key, `zeenot.runtime.identity`), stores the client with the run, and keeps at
most one run per client per period: the period is computed from the server's clock (UTC) and
a unique index on (application, client, period) refuses a second run (409), whichever server
process receives it. `Clients()` (no period) requires registered clients without a limit.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from zeenot.errors import MalformedInput

PERIODS = ("day", "week", "month", "year")


@dataclass(frozen=True)
class Clients:
    one_run_per: str | None = None

    def __post_init__(self) -> None:
        if self.one_run_per is not None and self.one_run_per not in PERIODS:
            raise MalformedInput(
                f"Clients(one_run_per=…) is one of {', '.join(PERIODS)} or None, "
                f"not {self.one_run_per!r}"
            )

    def period(self, at: dt.datetime) -> str | None:
        """The period a run at `at` falls in, as the server stores it (None: no rule)."""
        at = at.astimezone(dt.timezone.utc)
        if self.one_run_per == "day":
            return at.strftime("%Y-%m-%d")
        if self.one_run_per == "week":
            year, week, _ = at.isocalendar()
            return f"{year}-W{week:02d}"
        if self.one_run_per == "month":
            return at.strftime("%Y-%m")
        if self.one_run_per == "year":
            return at.strftime("%Y")
        return None

    def describe(self) -> dict[str, Any]:
        return {"registered": True, "one_run_per": self.one_run_per}


def find_clients(module: Any) -> Clients | None:
    found = [v for v in vars(module).values() if isinstance(v, Clients)]
    if len(found) > 1:
        raise MalformedInput("an application declares at most one Clients(...)")
    return found[0] if found else None
