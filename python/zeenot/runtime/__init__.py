"""The runtime: applications split across tiers (their model: `zeenot.application`), a server
that verifies before it accepts, a client that proves, peers, one data layer (SQLite or
PostgreSQL). See docs/runtime.md."""

from zeenot.application import TIERS, Application, Clients, load_application, worker

__all__ = ["TIERS", "Application", "Clients", "load_application", "worker"]
