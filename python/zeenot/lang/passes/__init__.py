"""The middle end: the passes over the instructions the front end emits (docs/ir.md, "What the
front end leaves out"). Every pass keeps the IR's meaning: the differential tests compare
`simulate`, the IR interpreter and both back ends on random programs with these passes on.

In order, for each instruction as `lang/emit.py` emits it:

1. **Constant folding** (`fold`): an instruction whose operands are all integer or bool
   constants becomes the constant it computes; a `select` or `index` by a constant picks its
   operand without an instruction.
2. **No guard where nothing can fail** (`guards`): an instruction that cannot fail takes no
   guard, so instances under different conditions are the same instruction.
3. **Shared subexpressions** (`shared`): an instruction identical to an earlier one (under the
   same guard if it can fail) is not emitted again.

Then, once the whole body is emitted (`lang/compiler.py`):

4. **Packed equalities** (`packed_eq`): `a == b and c == d` over values of known intervals is
   one equality of packed values (`a != b or c != d` one inequality).
5. **Dead code** (`dead`): values nothing uses, from instructions that cannot fail, go.
6. **Renumbering** (`dead.renumber`): ids become dense again (an id is a value's position).
"""

from __future__ import annotations

from zeenot.lang.passes.dead import eliminate_dead, renumber
from zeenot.lang.passes.fold import fold
from zeenot.lang.passes.guards import FALLIBLE, can_fail
from zeenot.lang.passes.packed_eq import pack_equalities
from zeenot.lang.passes.shared import Shared

__all__ = [
    "FALLIBLE",
    "Shared",
    "can_fail",
    "eliminate_dead",
    "fold",
    "pack_equalities",
    "renumber",
]
