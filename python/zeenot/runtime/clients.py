"""Clients the server knows: the declaration lives with the application model
(`zeenot.application.clients`); the runtime enforces it (`runtime/service.py`: the signer and
its period stored with each run, `runtime/identity.py`: the signature)."""

from zeenot.application.clients import PERIODS, Clients, find_clients

__all__ = ["PERIODS", "Clients", "find_clients"]
