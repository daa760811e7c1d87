"""Cost models: non-negative linear combinations of a program's features, fitted by least
squares (scipy's bounded least squares: a cost never has a negative part), with R² reported.

The model forms, per back end and measure (n: R1CS constraints):

* groth16 prove_s: 1, n (the multi-exponentiations), the FFT domain (n rounded up to a power
  of two), witness values wider than 64 bits (and `w / log2 w` of them, and whether there is
  any: the multi-exponentiations take the wide scalars apart, where the first costs each MSM a
  pass of its own, a few cost nearly a full scalar multiplication each and many amortise as
  Pippenger's do), in-circuit Pedersen commitments and their leaves (a fixed-base
  multiplication each), public points (each checked when the instance is read);
* groth16 setup_s: 1, n, the domain, Poseidon hashes (dense constraints), public values (a key
  point each), instructions (the synthesis), the variables in B (a G2 multiplication each),
  in-circuit commitments (their generator tables, built in each of setup's two lowerings);
  key_bytes: 1, n; proof_bytes: a constant (three points);
* groth16 verify_s: 1, public integers, public field elements (and commitment coordinates),
  commitments and public points (each checked to be in the prime-order subgroup);
* sigma prove_s, verify_s: 1 and the proof's shape as the back end counts it
  (fresh commitments, the statement's secrets and equations, the compressed proof's generators
  and folding rounds, the arithmetic circuit's gates, padded gates, rounds and constraint
  terms); prove_s and verify_s also the instructions (both sides lower every one, the public
  ones in the clear: a public value costs through what reads it); verify_s also `m / log2 m`
  for the sigma terms and the circuit's generators (the verifier's one Pippenger
  multi-exponentiation grows slower than its terms); proof_bytes the parts of the encoding
  (1, the openings' commitments, the compressed proof's and the circuit proof's rounds);
* peak_bytes (the proving process's peak memory, fitted with a floor: `fit`): groth16 1, n,
  the FFT domain (the quotient's vectors), Poseidon hashes and point operations (their
  gadgets' long linear combinations while lowering), input leaves, n·log2 n (measured: memory
  grows faster than n, as vectors grown by doubling do); sigma 1, the fresh commitments, the
  gates, padded gates and constraint terms (the circuit proof's vectors and generators, the
  lowering's constraints).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zeenot.plan.features import SIGMA_FEATURES

FORMS: dict[str, dict[str, tuple[str, ...]]] = {
    "groth16": {
        "prove_s": (
            "one",
            "constraints",
            "domain",
            "wide_witnesses",
            "wide_msm",
            "any_wide",
            "pedersen",
            "public_point_inputs",
            # each committed leaf: a fixed-base multiplication (a list crossing between regions
            # is a vector commitment of its leaves)
            "committed_leaves",
        ),
        "verify_s": ("one", "public_narrow", "public_wide", "pedersen", "public_point_inputs"),
        "proof_bytes": ("one",),
        "setup_s": (
            "one",
            "constraints",
            "domain",
            "poseidon",
            "public_wide",
            "public_narrow",
            "instructions",
            "b_columns",
            # setup lowers the program twice (a count sizes the domain), and each in-circuit
            # commitment builds its generators' tables each time
            "pedersen",
        ),
        "key_bytes": ("one", "constraints"),
        "peak_bytes": (
            "one",
            "constraints",
            "domain",
            "poseidon",
            "input_leaves",
            "n_log_n",
            "point_terms",
        ),
    },
    "sigma": {
        # both sides lower every instruction, the public ones in the clear
        "prove_s": (*SIGMA_FEATURES, "instructions"),
        "verify_s": (*SIGMA_FEATURES, "sigma_msm", "circuit_msm", "instructions"),
        # the encoding's exact parts: the openings' commitments, the compressed proof's rounds
        # (four points each) and the circuit proof's (two); with every feature the fit had
        # more unknowns than the calibration's shapes pin down
        "proof_bytes": ("one", "commitments", "sigma_rounds", "circuit_rounds"),
        # memory: the circuit proof's vectors and generators, the lowering's constraints (the
        # statement's parts are small; with the generators' count among the features the
        # bounded fit took it for the intercept)
        "peak_bytes": ("one", "commitments", "gates", "padded_gates", "constraint_terms"),
    },
}


# Measures with a floor: a proving process's peak memory is at least the interpreter's, and
# the prover's own memory shows only once it outgrows what loading left free (`fit`).
FLOORED = frozenset({"peak_bytes"})


@dataclass(frozen=True)
class Model:
    features: tuple[str, ...]
    coefficients: tuple[float, ...]
    r2: float
    samples: int
    max_error: float = 0.0  # the largest relative error on the calibration samples
    floor: float = 0.0  # the prediction is at least this

    def predict(self, f: dict[str, float]) -> float:
        linear = sum(
            c * float(f[name]) for name, c in zip(self.features, self.coefficients, strict=True)
        )
        return float(max(self.floor, linear))

    def to_json(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "coefficients": list(self.coefficients),
            "r2": self.r2,
            "samples": self.samples,
            "max_error": self.max_error,
            "floor": self.floor,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Model:
        return cls(
            tuple(doc["features"]),
            tuple(float(c) for c in doc["coefficients"]),
            float(doc["r2"]),
            int(doc["samples"]),
            float(doc.get("max_error", 0.0)),
            float(doc.get("floor", 0.0)),
        )


def fit(
    names: tuple[str, ...],
    rows: Sequence[dict[str, float]],
    targets: Sequence[float],
    *,
    floored: bool = False,
) -> Model:
    """The non-negative least-squares fit of `targets` on the named features, weighted so that
    each sample counts by its relative error (costs span orders of magnitude).

    `floored`: the measure has a floor, the smallest sample (peak memory: the interpreter's).
    Samples within 2 % of it say only that the floor was not outgrown, so the linear part is
    fitted on the others (when there are enough of them) and the prediction is the larger of
    the two. R² and the largest error are those of that prediction on every sample."""
    import numpy as np  # only calibration needs numpy and scipy, not planning
    from scipy.optimize import lsq_linear

    x = np.array([[float(r[n]) for n in names] for r in rows])
    y = np.array(targets, dtype=float)
    floor = float(y.min()) if floored and len(y) else 0.0
    above = y > floor * 1.02 if floored else np.ones(len(y), dtype=bool)
    if above.sum() < 2 * len(names):
        floor, above = 0.0, np.ones(len(y), dtype=bool)  # too few to fit apart: one line
    xa, ya = x[above], y[above]
    weight = 1.0 / np.maximum(ya, 1e-12)
    used = np.abs(xa).max(axis=0) > 0  # a feature no sample has gets no coefficient
    scale = np.abs(xa[:, used]).max(axis=0)  # conditioning: columns to unit range
    a, b = (xa[:, used] / scale) * weight[:, None], ya * weight
    solved = lsq_linear(a, b, bounds=(0, np.inf), method="bvls")  # exact for few features
    coefficients = np.zeros(len(names))
    # bvls can end a hair below its bound (-1e-22): a cost has no negative part
    coefficients[used] = np.maximum(solved.x, 0.0) / scale
    predicted = np.maximum(x @ coefficients, floor)
    residual = float(((y - predicted) ** 2).sum())
    total = float(((y - y.mean()) ** 2).sum())
    r2 = 1.0 - residual / total if total > 0 else (1.0 if residual < 1e-18 else 0.0)
    max_error = float((np.abs(predicted - y) / np.maximum(np.abs(y), 1e-12)).max())
    return Model(names, tuple(float(c) for c in coefficients), r2, len(y), max_error, floor)
