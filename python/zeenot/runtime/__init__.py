"""The runtime: applications split across tiers, a server that verifies before it accepts, a
client that proves, one data layer (SQLite or PostgreSQL). See docs/runtime.md."""

from zeenot.runtime.app import TIERS, Application, load_application, worker

__all__ = ["TIERS", "Application", "load_application", "worker"]
