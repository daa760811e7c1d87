"""zeenot: a typed subset of Python compiled to zero-knowledge proofs (Groth16).

```python
from zeenot import zk, Private, Public, check, u32, u64

@zk
def premium(miles: Private[tuple[u32, u32]], base: Public[u32]) -> u64:
    check(miles[0] <= 1000)
    return u64(miles[0]) * 3 + u64(miles[1]) + u64(base)
```

Then `zeenot.compile(premium)` → `.setup()`-style objects: `zeenot.setup`, `zeenot.prove`,
`zeenot.verify` (the same code path as the `zeenot` CLI; see `zeenot.api`).
"""

from zeenot.application.model import worker
from zeenot.errors import (
    CheckFailure,
    CompileError,
    Diagnostic,
    DivisionByZeroFailure,
    Failure,
    LoadError,
    MalformedInput,
    OverflowFailure,
    ProofRejected,
    RangeFailure,
    UsageError,
    ZeenotError,
)
from zeenot.fixed import Fixed
from zeenot.ir import Program
from zeenot.lang import compile_function, load_function
from zeenot.simulate import simulate
from zeenot.types import (
    Client,
    Committed,
    Field,
    MaxSize,
    Peer,
    Private,
    Public,
    Server,
    check,
    find,
    group_sum,
    i8,
    i16,
    i32,
    i64,
    isqrt,
    poseidon,
    u8,
    u16,
    u32,
    u64,
    zk,
)

# The proving API needs the native extension; load it on first use so that `import zeenot`
# (and `simulate`) works without it.
_API = (
    "compile",
    "setup",
    "prove",
    "prove_sigma",
    "verify",
    "load",
    "check_link",
    "export_snarkjs",
    "Circuit",
    "Template",
    "Keys",
    "Proof",
)


def __getattr__(name: str):
    if name in _API:
        from zeenot import api

        return getattr(api, name)
    raise AttributeError(f"module 'zeenot' has no attribute {name!r}")


__all__ = [
    "CheckFailure",
    "Client",
    "Committed",
    "CompileError",
    "Diagnostic",
    "DivisionByZeroFailure",
    "Failure",
    "Field",
    "LoadError",
    "MalformedInput",
    "MaxSize",
    "OverflowFailure",
    "Peer",
    "Private",
    "Program",
    "ProofRejected",
    "Public",
    "RangeFailure",
    "Server",
    "ZeenotError",
    "check",
    "compile_function",
    "Fixed",
    "find",
    "group_sum",
    "i16",
    "i32",
    "i64",
    "i8",
    "isqrt",
    "load_function",
    "poseidon",
    "simulate",
    "u16",
    "u32",
    "u64",
    "u8",
    "UsageError",
    "worker",
    "zk",
]
