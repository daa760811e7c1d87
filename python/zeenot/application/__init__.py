"""Applications: one Python module whose workers are placed on tiers, the plan `main` makes of
them, the information-flow check on that plan, and the regions its client proves. Below both
the planner (`zeenot.plan`, which plans an application's regions) and the runtime
(`zeenot.runtime`, which serves and runs it). See docs/runtime.md."""

from zeenot.application.clients import Clients
from zeenot.application.load import load_application
from zeenot.application.model import TIERS, Application, worker
from zeenot.application.peersum import PeerSum
from zeenot.application.regions import backend_setting, compile_regions

__all__ = [
    "TIERS",
    "Application",
    "Clients",
    "PeerSum",
    "backend_setting",
    "compile_regions",
    "load_application",
    "worker",
]
