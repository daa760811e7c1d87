"""The regions an application's client proves, compiled as both tiers and the planner see them,
and the back end its `BACKENDS` pins for each ("auto" leaves the choice to the planner, which
the runtime asks; `zeenot.runtime.service.backend_of`)."""

from __future__ import annotations

from zeenot import api
from zeenot.application.model import Application
from zeenot.errors import MalformedInput


def backend_setting(app: Application, name: str) -> str | None:
    """What the application's `BACKENDS` says for a region: a back end, "auto" (the
    planner chooses: `BACKENDS = {"region": "auto"}` or `BACKENDS = "auto"` for every
    region), or None (the default)."""
    setting = getattr(app.module, "BACKENDS", {})
    chosen = setting if isinstance(setting, str) else setting.get(name)
    if chosen is not None and chosen not in (*api.BACKENDS, "auto"):
        raise MalformedInput(f"BACKENDS[{name!r}] is one of {', '.join(api.BACKENDS)} or auto")
    return chosen


def check_backend(app: Application, name: str, circuit: api.Circuit | api.Template) -> None:
    """Refuse a template (lists without MaxSize) pinned to groth16: no fixed circuit to set up."""
    if backend_setting(app, name) == "groth16" and isinstance(circuit, api.Template):
        raise MalformedInput(
            f"region `{name}` has lists without MaxSize: groth16 needs MaxSize bounds, or prove "
            f'it with BACKENDS = {{"{name}": "sigma"}}'
        )


def compile_regions(
    app: Application, *, synthesize: bool = True
) -> dict[str, api.Circuit | api.Template]:
    """The app's regions that its workers call (the client's, and a movable worker's wherever
    it is placed), compiled (both tiers do this)."""
    names = sorted({c.region for _, c in app.region_calls()})
    return compile_regions_by_name(app, names, synthesize=synthesize)


def compile_regions_by_name(
    app: Application, names: list[str], *, synthesize: bool = True
) -> dict[str, api.Circuit | api.Template]:
    """`names` compiled; `synthesize=False` leaves each circuit's synthesis to its first proof
    (see `api.compile`)."""
    out = {}
    for name in names:
        # @zk calls inline here
        compiled = api.compile(app.regions[name], regions=False, synthesize=synthesize)
        assert not isinstance(compiled, api.Regions)
        check_backend(app, name, compiled)  # on both tiers, before any key is made
        out[name] = compiled
    return out
