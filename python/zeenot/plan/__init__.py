"""The planner: cost models fitted per back end (`zeenot calibrate`) and the choice of a back
end per region (`zeenot plan`). See docs/planner.md."""

from zeenot.plan.planner import Cost, Plan, Region, Weights, plan, predict, regions_of
from zeenot.plan.profile import Profile

__all__ = ["Cost", "Plan", "Profile", "Region", "Weights", "plan", "predict", "regions_of"]
