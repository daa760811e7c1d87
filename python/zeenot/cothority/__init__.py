"""A collective authority (issue 29): servers that distrust each other aggregate encrypted data
and answer queries, every step publicly verifiable. `crypto` is the cryptographic core."""
