"""The dashboard `zeenot serve` shows at `/`: per application, the accepted submissions and a
chart of their results; the rejected submissions with their reasons. A static page
(`static/`, no build step, nothing fetched from elsewhere) polls JSON routes of its own.

A poll's cost does not grow with the runs stored: the count of accepted runs and the chart's
state are aggregates kept in the `dashboards` table, updated in the transaction that accepts
each run (runtime/store.py), and the latest runs are an index walk. An application shapes its
chart by declaring, at module level, either an incremental fold

    def dashboard_fold(state, result):  # state: None at first, then what it returned (JSON
        ...                             #   data, at most 64 KiB: a bounded summary)
    def dashboard_view(state) -> dict   # the chart, from the state alone

or, for a small application, `dashboard(results: list) -> dict`, given the latest
`WINDOW` accepted results (oldest first; the chart says so when there are more). A chart is
`{"kind": "bars", "title": str, "values": [numbers], "labels": [str]}` or
`{"kind": "heatmap", "title": str, "values": [numbers], "width": columns}`. An application of
peers shows its latest finished round's result when that result is such a dict (Waze's
density map). Otherwise the chart is the count of accepted submissions. An application of peers
also lists its latest rounds: state, attempt, and who stalled or was dropped, and why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from zeenot.runtime.store import Store

STATIC = Path(__file__).with_name("static")
WINDOW = 1_000  # the latest results an application's `dashboard(results)` is given


def view(service: Any, relay: Any, store: Store) -> dict[str, Any]:
    """The JSON behind one application's panel: one row of aggregates, and at most `WINDOW`
    latest results for an application with `dashboard(results)`."""
    app = service.app
    row = store.dashboard(app.name)
    accepted = row.accepted
    chart: dict[str, Any] = {"kind": "count", "title": "accepted submissions", "value": accepted}
    fold = getattr(service, "fold", None)
    shape = getattr(app.module, "dashboard", None)
    try:
        if fold is not None:
            if row.fold == fold.id:
                chart = _checked(app.module.dashboard_view(row.state))
                if row.error:
                    chart["note"] = f"dashboard_fold() failed on a run: {row.error}"
            else:
                chart["title"] = "accepted submissions (the chart's state is being rebuilt)"
        elif callable(shape):
            results = store.recent_results(app.name, WINDOW)
            chart = _checked(shape(results))
            if accepted > len(results):
                chart["note"] = f"the latest {len(results)} of {accepted} runs"
        elif relay is not None:
            done = store.finished_rounds(app.name, app.peer_sum.peers, limit=1)
            if done:
                result = relay.status(done[0])["result"]
                if isinstance(result, dict) and result.get("kind") in ("bars", "heatmap"):
                    chart = _checked({**result, "title": f"{result.get('title', '')} ({done[0]})"})
                accepted = len(done)
    except (TypeError, ValueError, KeyError) as exc:
        chart = {"kind": "count", "title": f"the dashboard failed: {exc}", "value": accepted}
    doc = {"app": app.name, "accepted": accepted, "chart": chart}
    if relay is not None:
        doc["rounds"] = rounds(relay, store)
    return doc


def rounds(relay: Any, store: Store, limit: int = 5) -> list[dict[str, Any]]:
    """A peers' application's latest rounds and who stalled in them (shown as text)."""
    out = []
    for rnd in store.recent_rounds(relay.app, limit):
        status = relay.status(rnd)
        out.append(
            {
                "round": rnd,
                "state": status["state"],
                "attempt": status["attempt"],
                "peers": len(status["peers"]),
                "failed": status["failed"],
                "stalled": status["stalled"],
            }
        )
    return out


def _checked(chart: Any) -> dict[str, Any]:
    if not isinstance(chart, dict) or chart.get("kind") not in ("bars", "heatmap", "count"):
        raise ValueError("dashboard() returns {'kind': 'bars' | 'heatmap', ...}")
    values = chart.get("values", [])
    if not isinstance(values, list) or not all(isinstance(v, (int, float)) for v in values):
        raise ValueError("`values` is a list of numbers")
    return chart


def routes(
    services: dict[str, Any], relays: dict[str, Any], store: Store, gate: Any = None
) -> list[Any]:
    """The page (public: it holds no data) and the panels (an operator's, unless the server
    runs with `--public-reads`: the page sends the token it was opened with, `/#token=…`)."""

    async def page(_: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-store"})

    async def panel(request: Request) -> Response:
        name = request.path_params["app"]
        if gate is not None and not gate.public_reads:
            gate.require_operator(request.headers, "the dashboard")
        if name not in services:
            return JSONResponse({"status": "rejected", "reason": f"no `{name}`"}, status_code=404)
        doc = await run_in_threadpool(view, services[name], relays.get(name), store)
        return JSONResponse(doc)

    return [
        Route("/", page),
        Route("/api/apps/{app}/dashboard", panel),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
