"""What the cost models read off a compiled program.

Groth16's prover follows its constraint count (the multi-exponentiations), its FFT domain (the
constraints rounded up to a power of two: a program just past a power of two costs a step more),
its witness values wider than 64 bits (inverses, hashes, curve points, blindings: the multi-
exponentiations take narrow scalars on fast paths; counted on the inputs when given, else
estimated from the instructions by `static_wide`) and its in-circuit Pedersen commitments
(`Committed` inputs and outputs: curve arithmetic). Its verifier follows its public values
(field elements and commitments' coordinates cost more than small integers).

The sigma back end's costs follow the shape of its proof, which the back end itself counts
without proving (`zeenot_sigma::backend::shape`): the fresh commitments, the sigma statement's
secrets and equations, its compressed proof's generators (the secrets rounded up to a power of
two: the prover folds them, the verifier's multi-exponentiation reads them) and folding rounds,
the arithmetic circuit (its multiplication gates, the gates rounded up to a power of two that
the circuit proof folds, its rounds, and its linear constraints' terms), and the point work:
the terms of revealed points' equations (an encryption's) and the public points checked (keys,
published ciphertexts). Counting with the back end's own lowering keeps one definition of what
a sigma proof contains, so the features cannot drift from the prover.
"""

from __future__ import annotations

import math
from typing import Any

from zeenot import _native
from zeenot.api import Circuit
from zeenot.ir import Program
from zeenot.types import int_range

SIGMA_FEATURES = (
    "one",
    "commitments",
    "secrets",
    "equations",
    "sigma_generators",
    "sigma_rounds",
    "gates",
    "padded_gates",
    "circuit_rounds",
    "constraint_terms",
    "point_terms",
    "public_points",
)


def public_leaves(circuit: Circuit, inputs: dict[str, Any] | None) -> list[str | None]:
    """One entry per input leaf: a public input's value when `inputs` give it, else None
    (the shape then counts that input as private: an upper bound)."""
    leaves = circuit.program.ir["inputs"]
    if inputs is not None:
        try:
            values = circuit.program.flatten_inputs(inputs)
        except (ValueError, KeyError, TypeError):
            values = None
        if values is not None:
            return [
                v if i["vis"] == "public" else None for i, v in zip(leaves, values, strict=True)
            ]
    return [None] * len(leaves)


def _public_point_inputs(circuit: Circuit, inputs: dict[str, Any] | None) -> int:
    """Baby Jubjub points among the public parameters (a ciphertext is two): each is checked
    on the curve and in the subgroup when the instance is read. A list counts the elements
    `inputs` give it (its padding, the identity, costs nothing), else its maximum size."""
    from zeenot.types import POINT_KIND, ListTy, RecordTy

    def count(t: Any, value: Any) -> int:
        if isinstance(t, tuple):
            values = value if isinstance(value, list) and len(value) == len(t) else [None] * len(t)
            return sum(count(e, v) for e, v in zip(t, values, strict=True))
        if isinstance(t, ListTy):
            n = len(value) if isinstance(value, list) and len(value) <= t.max else t.max
            return n * count(t.elem, None)
        if isinstance(t, RecordTy):
            return 1 if t.kind == POINT_KIND else sum(count(f, None) for _, f in t.fields)
        return 0

    given = inputs or {}
    params = circuit.program.params
    return sum(count(p["ty"], given.get(p["name"])) for p in params if p["vis"] == "public")


def sigma_unsupported(circuit: Circuit, inputs: dict[str, Any] | None = None) -> str | None:
    """Why the sigma back end cannot prove this program (its own words: Poseidon, signatures,
    private points, a product of two private points…), or None when it can. The back end
    decides, by lowering the program as it would to prove it, with the public values `inputs`
    give (one it is not given counts as private: a branch on it may then be refused)."""
    try:
        _native.sigma_program_shape(circuit.native, public_leaves(circuit, inputs))
    except _native.UnsupportedError as exc:
        return str(exc)
    return None


def sigma_supports(circuit: Circuit, inputs: dict[str, Any] | None = None) -> bool:
    """Whether the sigma back end proves this program."""
    return sigma_unsupported(circuit, inputs) is None


def wide_witnesses(circuit: Circuit, inputs: dict[str, Any] | None) -> float | None:
    """Groth16 witness values wider than 64 bits on these inputs; None when the inputs are
    not all given (or the program fails on them)."""
    if inputs is None:
        return None
    try:
        leaves = circuit.program.flatten_inputs(inputs)
        return float(_native.wide_witnesses(circuit.native, leaves))
    except (ValueError, KeyError, TypeError, _native.ZeenotError):
        return None


# Wide witness values per instruction, measured once with `wide_witnesses` on one-operation
# programs (2026-11-25): what `static_wide` counts when the inputs are not given.
_WIDE_PER_OP = {
    "eq": 1,  # an inverse
    "ne": 1,
    "poseidon": 240,  # two inputs; about 20 more per further input
    "point_add_x": 6,  # per addition (the _y half is counted with it)
    "eddsa_check": 2180,
    "point_check": 2,
}
_WIDE_PER_SCALAR_BIT = 8  # point_mul_x: per bit of an integer scalar; a field scalar: 1,414
_WIDE_FIELD_SCALAR = 1414
_WIDE_PER_COMMITMENT = 435  # an in-circuit Pedersen commitment (Committed input or output)
# each further leaf of a vector commitment (a tuple or list crossing, `joint`): a fixed-base
# multiplication by the leaf, about 1.72 wide values per bit of its type (measured 2026-11-27
# on 9 leaves of u8, u16, u32, u64: 14.5, 28, 55, 109 each)
_WIDE_PER_JOINT_BIT = 1.72


def _types(program: Program) -> dict[int, str]:
    """Every value's type, by id."""
    types = {i["id"]: i["ty"] for i in program.ir["inputs"]}
    types.update((i["id"], i["ty"]) for i in program.body if "id" in i)
    return types


def _commitments(ir: dict[str, Any]) -> int:
    """The program's in-circuit Pedersen commitments: committed inputs and outputs, a run of
    `joint` leaves (a vector commitment) counting once."""
    return sum(
        1
        for leaf in [*ir["inputs"], *ir["outputs"]]
        if leaf.get("vis") == "committed" and not leaf.get("joint")
    )


def _pippenger(m: float) -> float:
    """`m / log2 m`: how a Pippenger multi-exponentiation of `m` terms grows."""
    return m / math.log2(m) if m > 2 else m


def static_wide(circuit: Circuit) -> float:
    """An estimate of the wide witness values from the instructions alone (no inputs)."""
    ir = circuit.program.ir
    types = _types(circuit.program)
    total = 0.0
    for ins in circuit.program.body:
        op = ins["op"]
        if op == "poseidon":
            total += _WIDE_PER_OP[op] + 20 * max(len(ins["args"]) - 2, 0)
        elif op == "point_mul_x":
            scalar = types[ins["args"][0]]  # unsigned, bool or field (the language's rule)
            bits = int_range(scalar)[1].bit_length()
            total += _WIDE_FIELD_SCALAR if scalar == "field" else _WIDE_PER_SCALAR_BIT * bits
        else:
            total += _WIDE_PER_OP.get(op, 0)
    joint = _WIDE_PER_JOINT_BIT * _joint_bits(ir, types)
    return total + _WIDE_PER_COMMITMENT * _commitments(ir) + joint


def _joint_bits(ir: dict[str, Any], types: dict[int, str]) -> int:
    """The bits of every vector commitment's further leaves (each a fixed-base multiplication
    by a scalar of its type's width); an output leaf's type is its value's."""
    total = 0
    for leaf in [*ir["inputs"], *ir["outputs"]]:
        if leaf.get("vis") == "committed" and leaf.get("joint"):
            lo, hi = int_range(leaf.get("ty") or types[leaf["value"]])
            total += max(hi - lo, 1).bit_length()
    return total


def features(circuit: Circuit, inputs: dict[str, Any] | None = None) -> dict[str, float]:
    """Every feature both back ends' models use, for one compiled program. A program the sigma
    back end cannot prove (`field` values) has its sigma features at zero."""
    out: dict[str, float] = dict.fromkeys(SIGMA_FEATURES, 0.0)
    out["one"] = 1.0
    try:
        shape = _native.sigma_program_shape(circuit.native, public_leaves(circuit, inputs))
    except _native.UnsupportedError:
        shape = []
    # (the circuit's own `constraints` count is not a feature: the groth16 one has that name)
    out.update({k: float(v) for k, v in shape if k in SIGMA_FEATURES})
    # the sigma verifier's one Pippenger multi-exponentiation: m terms cost about m / log2 m
    sigma_terms = out["sigma_generators"] + out["equations"] + out["commitments"]
    out["sigma_msm"] = _pippenger(sigma_terms)
    # the circuit proof's generators: 2 per padded gate
    out["circuit_msm"] = _pippenger(2 * out["padded_gates"])
    stats = circuit.stats
    out["constraints"] = float(stats["constraints"])
    out["domain"] = float(
        1 << math.ceil(math.log2(stats["constraints"] + stats["public_inputs"] + 1))
    )
    out["n_log_n"] = out["constraints"] * math.log2(max(out["constraints"], 2.0))
    # the verifier's multi-exponentiation: a field element or a commitment's coordinate costs
    # every window, a small integer much less
    ir = circuit.program.ir
    committed = _commitments(ir)
    types = _types(circuit.program)
    # a public field element known to fit 64 bits (a list's padding: 0 and 1) is narrow
    known = public_leaves(circuit, inputs)
    wide_public = sum(
        1
        for i, v in zip(ir["inputs"], known, strict=True)
        if i["vis"] == "public" and i["ty"] == "field" and (v is None or int(v) >= 1 << 64)
    )
    wide_public += sum(
        1 for o in ir["outputs"] if o.get("vis") != "committed" and types.get(o["value"]) == "field"
    )
    wide_public += 2 * committed
    out["public_wide"] = float(wide_public)
    out["public_narrow"] = float(stats["public_inputs"] - wide_public)
    out["pedersen"] = float(committed)
    # every committed leaf is a fixed-base multiplication in the circuit (a vector commitment's
    # leaves each, beside the blinding's)
    out["committed_leaves"] = float(
        sum(1 for leaf in [*ir["inputs"], *ir["outputs"]] if leaf.get("vis") == "committed")
    )
    out["public_point_inputs"] = float(_public_point_inputs(circuit, inputs))
    # setup multiplies a G2 point for every variable that appears in B
    out["b_columns"] = float(_native.r1cs_density(circuit.native)[1])
    # the IR as the prover holds it (Python's dict, Rust's program): memory
    out["instructions"] = float(len(circuit.program.body))
    out["input_leaves"] = float(len(ir["inputs"]))
    # Poseidon's constraints are dense (its partial rounds): more memory per constraint
    out["poseidon"] = float(sum(1 for ins in circuit.program.body if ins["op"] == "poseidon"))
    wide = wide_witnesses(circuit, inputs)
    # without the inputs, an estimate from the instructions (docs/planner.md)
    out["wide_witnesses"] = static_wide(circuit) if wide is None else wide
    # the wide scalars' share of the multi-exponentiations: a few cost nearly a scalar
    # multiplication each, many amortise (Pippenger)
    out["wide_msm"] = _pippenger(out["wide_witnesses"])
    out["any_wide"] = 1.0 if out["wide_witnesses"] > 0 else 0.0
    out["inputs_known"] = 0.0 if wide is None else 1.0
    return out
