"""A constraint system with the role of each variable, as the checker reads it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from zeenot.types import P

# A row of a matrix: {variable: coefficient in [0, p)}.
Row = dict[int, int]


@dataclass
class R1cs:
    """`A·z ∘ B·z = C·z` over `z = (1, instance…, witness…)`.

    `inputs` are the variables the prover chooses or the verifier gives (public input leaves,
    private input leaves, blindings) and `outputs` those the verifier reads back (public outputs
    and commitments): the circuit is *deterministic* when the outputs are functions of the
    inputs. `names` labels variables in reports."""

    a: list[Row]
    b: list[Row]
    c: list[Row]
    num_vars: int
    inputs: set[int]
    outputs: list[int]
    names: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.inputs.add(0)  # the constant one

    @property
    def num_constraints(self) -> int:
        return len(self.a)

    def vars_of(self, k: int) -> set[int]:
        return set(self.a[k]) | set(self.b[k]) | set(self.c[k])

    def name(self, v: int) -> str:
        return self.names.get(v, f"w{v}")

    @classmethod
    def of_rows(
        cls,
        rows: Iterable[tuple[Row, Row, Row]],
        *,
        inputs: Iterable[int],
        outputs: Iterable[int],
        names: dict[int, str] | None = None,
    ) -> R1cs:
        """A hand-built system (tests): coefficients are reduced mod p, so `-1` may be given."""
        a, b, c = [], [], []
        top = 0
        for ra, rb, rc in rows:
            for dst, src in ((a, ra), (b, rb), (c, rc)):
                dst.append({v: x % P for v, x in src.items() if x % P})
                top = max([top, *src])
        return cls(a, b, c, top + 1, set(inputs), list(outputs), names or {})

    @classmethod
    def of_native(cls, doc: dict, output_names: list[str], input_names: list[str]) -> R1cs:
        """From `_native.r1cs`: instance `1..public_inputs` and the recorded witnesses are
        inputs; the rest of the instance is outputs."""

        def rows(m: list[list[tuple[int, str]]]) -> list[Row]:
            return [{v: int(x) for v, x in row} for row in m]

        n_inst = doc["num_instance"]
        public = list(range(1, doc["public_inputs"] + 1))
        private = list(doc["input_witnesses"])
        inputs = set(public) | set(private) | set(doc["blinding_witnesses"])
        outputs = list(range(doc["public_inputs"] + 1, n_inst))
        names = {0: "one"}
        leaf_names = iter(input_names)
        for v in public + private:
            names[v] = next(leaf_names, f"input{v}")
        for v in doc["blinding_witnesses"]:
            names[v] = f"blinding(w{v})"
        for v, n in zip(outputs, output_names, strict=False):
            names[v] = n
        return cls(
            rows(doc["a"]),
            rows(doc["b"]),
            rows(doc["c"]),
            n_inst + doc["num_witness"],
            inputs,
            outputs,
            names,
        )
