"""zeenot: a typed subset of Python compiled to zero-knowledge proofs (Groth16).

```python
from zeenot import zk, Private, Public, check, u32, u64

@zk
def premium(miles: Private[tuple[u32, u32]], base: Public[u32]) -> u64:
    check(miles[0] <= 1000)
    return u64(miles[0]) * 3 + u64(miles[1]) + u64(base)
```

`api` and `cli` (which need the native extension) are imported separately.
"""

from zeenot.errors import (
    CheckFailure,
    CompileError,
    Diagnostic,
    DivisionByZeroFailure,
    Failure,
    LoadError,
    OverflowFailure,
    RangeFailure,
    ZeenotError,
)
from zeenot.ir import Program
from zeenot.lang import compile_function, load_function
from zeenot.simulate import simulate
from zeenot.types import (
    Field,
    Private,
    Public,
    check,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    zk,
)

# --- lead: `from zeenot.api import ...` goes here (api needs the native extension; keep
# `import zeenot` working without it, e.g. with a lazy module `__getattr__`) ---

__all__ = [
    "CheckFailure",
    "CompileError",
    "Diagnostic",
    "DivisionByZeroFailure",
    "Failure",
    "Field",
    "LoadError",
    "OverflowFailure",
    "Private",
    "Program",
    "Public",
    "RangeFailure",
    "ZeenotError",
    "check",
    "compile_function",
    "i16",
    "i32",
    "i64",
    "i8",
    "load_function",
    "simulate",
    "u16",
    "u32",
    "u64",
    "u8",
    "zk",
]
