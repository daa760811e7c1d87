"""The collective authority (issue 29): servers holding a t-of-m ElGamal key aggregate
encrypted records of data providers and key-switch the result to a querier, every step with a
proof that the querier and an auditor check. `crypto` is the cryptographic core (Rust);
see docs/cothority.md."""
