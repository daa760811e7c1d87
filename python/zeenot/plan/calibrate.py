"""`zeenot calibrate`: measure both back ends on the calibration programs and fit the models.

Every measure is the best of `reps` runs (the least disturbed by the rest of the machine). The
Groth16 prover's time excludes validating the proving key, which happens once per key
(`zeenot.keycache`); setup time and key size are measured and modelled on their own, since a
plan amortises them over the proofs made with one key. Peak memory is the whole proving
process's (a fresh Python process that loads the program, its key and inputs and proves, as
`zeenot prove` does), measured once: a process's high-water mark is not reset by freeing.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from zeenot import api
from zeenot.errors import MalformedInput
from zeenot.files import read_json
from zeenot.plan import fingerprint
from zeenot.plan.features import features, sigma_supports
from zeenot.plan.models import FLOORED, FORMS, Model, fit
from zeenot.plan.profile import Profile
from zeenot.plan.programs import SIGMA_ONLY, SOURCES, program
from zeenot.verifier import Verifier

SIZES = (2, 4, 8, 16, 32, 64)
QUICK_SIZES = (2, 8, 32)
SCALE = {"publics": 4, "fields": 8}  # sizes multiplied: up to 256 and 512 public values
VERIFY_REPS = 4  # verifying takes milliseconds: more runs for a best that is not noise


def peak_reps(reps: int) -> int:
    """Proving processes per peak-memory measure: each costs a fresh interpreter, so fewer
    than the timed runs."""
    return min(reps, 3)


def cpu_model() -> str:
    """The CPU's model name (Linux), for a measurement's record."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def best_of(reps: int, run: Callable[[], Any]) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(reps):
        t = time.perf_counter()
        value = run()
        best = min(best, time.perf_counter() - t)
    return best, value


_PROVE_ONCE = """
import json, sys
from zeenot import api
d, backend = sys.argv[1], sys.argv[2]
circuit = api.Circuit.load(d)
run = json.load(open(d + "/run.json"))
if backend == "groth16":
    api.prove(circuit, api.Keys.load(d).for_proving(), run["inputs"], blindings=run["blindings"])
else:
    api.prove_sigma(circuit, run["inputs"], blindings=run["blindings"])
status = open("/proc/self/status").read()
print(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
"""


def peak_bytes(
    circuit: api.Circuit,
    inputs: dict[str, Any],
    backend: str,
    keys: api.Keys | None = None,
    blindings: dict[str, Any] | None = None,
    reps: int = 1,
) -> float:
    """The peak resident memory of a process that proves the program once (bytes): its own
    high-water mark after `exec` (a child's rusage would count the forked parent's pages); the
    least of `reps` processes, as times are the best of their runs (the allocator's arenas and
    threads move one process's mark by a few per cent)."""
    with tempfile.TemporaryDirectory() as tmp:
        circuit.save(tmp)
        if keys is not None:
            keys.save(tmp)
        (Path(tmp) / "run.json").write_text(json.dumps({"inputs": inputs, "blindings": blindings}))
        peaks = []
        for _ in range(max(reps, 1)):
            done = subprocess.run(
                [sys.executable, "-c", _PROVE_ONCE, tmp, backend], capture_output=True, text=True
            )
            if done.returncode != 0:
                raise RuntimeError(f"measuring peak memory failed: {done.stderr}")
            peaks.append(float(done.stdout.split()[-1]) * 1024)  # kB
        return min(peaks)


def measure(
    circuit: api.Circuit,
    inputs: dict[str, Any],
    reps: int = 3,
    *,
    backends: Sequence[str] = api.BACKENDS,
    blindings: dict[str, Any] | None = None,
) -> dict[str, dict[str, float]]:
    """One program's costs on each of `backends`: {backend: {measure: value}}."""
    out: dict[str, dict[str, float]] = {}
    if "groth16" in backends:
        setup_s, keys = best_of(reps, lambda: api.setup(circuit))
        keys.prepared  # noqa: B018 - validate the key once, outside the timed proofs
        prove_s, proof = best_of(
            reps, lambda: api.prove(circuit, keys, inputs, blindings=blindings)
        )
        verifier = Verifier.of(circuit, keys.verifying_key)
        verify_s, _ = best_of(VERIFY_REPS * reps, lambda: verifier.verify(proof))
        out["groth16"] = {
            "prove_s": prove_s,
            "verify_s": verify_s,
            "proof_bytes": float(len(proof.proof)),
            "setup_s": setup_s,
            "key_bytes": float(len(keys.proving_key)),
            "peak_bytes": peak_bytes(circuit, inputs, "groth16", keys, blindings, peak_reps(reps)),
        }
    if "sigma" in backends:
        prove_s, sigma = best_of(
            reps, lambda: api.prove_sigma(circuit, inputs, blindings=blindings)
        )
        verify_s, _ = best_of(VERIFY_REPS * reps, lambda: api.verify(circuit, None, sigma))
        out["sigma"] = {
            "prove_s": prove_s,
            "verify_s": verify_s,
            "proof_bytes": float(len(sigma.proof)),
            "peak_bytes": peak_bytes(circuit, inputs, "sigma", None, blindings, peak_reps(reps)),
        }
    return out


def calibrate(
    *,
    quick: bool = False,
    reps: int = 3,
    passes: int = 1,
    progress: Callable[[str], None] | None = None,
    families: tuple[str, ...] | None = None,
    sizes: tuple[int, ...] | None = None,
) -> Profile:
    """Measure the calibration programs (every family at every size unless given) and fit
    every model. `passes`: measure them all that many times, one pass after the other, and keep
    each measure's least (`least_of`): on a shared machine a disturbance lasts longer than one
    program's `reps` runs, and a later pass misses it."""
    runs = []
    for k in range(passes):
        report = None
        if progress is not None:
            report = progress if passes == 1 else lambda line, k=k: progress(f"[{k + 1}] {line}")
        runs.append(_measure_all(quick, reps, report, families, sizes))
    samples = least_of(runs)
    machine = f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    return Profile(
        fit_models(samples), machine=machine, samples=samples, backend=fingerprint.record()
    )


def _measure_all(
    quick: bool,
    reps: int,
    progress: Callable[[str], None] | None,
    families: tuple[str, ...] | None,
    sizes: tuple[int, ...] | None,
) -> list[dict[str, Any]]:
    """One pass over the calibration programs: a sample (features and measures) each."""
    samples = []
    sizes = sizes or (QUICK_SIZES if quick else SIZES)
    for family in families or tuple(SOURCES):
        for n in sizes:
            n *= SCALE.get(family, 1)
            cal = program(family, n)
            circuit = api.compile(cal.fn)
            assert isinstance(circuit, api.Circuit)
            backends = ["sigma"] if sigma_supports(circuit, cal.inputs) else []
            if family not in SIGMA_ONLY:
                backends.insert(0, "groth16")
            measured = measure(
                circuit, cal.inputs, reps, backends=backends, blindings=cal.blindings
            )
            samples.append(
                {"program": f"{family}[{n}]", "features": features(circuit, cal.inputs), **measured}
            )
            if progress is not None:
                progress(f"{family}[{n}]: {circuit.stats['constraints']} constraints")
    return samples


def least_of(runs: Sequence[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Passes over the same programs merged: per program, back end and measure, the least
    value any pass measured (sizes are exact and the same in every pass); the features and the
    order are the last pass's, and a program only some passes measured keeps what they did."""
    merged: dict[str, dict[str, Any]] = {}
    for run in runs:
        for sample in run:
            seen = merged.get(sample["program"])
            fresh = {k: dict(v) if isinstance(v, dict) else v for k, v in sample.items()}
            if seen is not None:
                for backend in api.BACKENDS:
                    if backend in seen and backend in fresh:
                        for what, value in fresh[backend].items():
                            fresh[backend][what] = min(value, seen[backend].get(what, value))
            merged[sample["program"]] = fresh
    last = [s["program"] for s in runs[-1]] if runs else []
    order = last + [p for p in merged if p not in last]
    return [merged[p] for p in order]


def fit_models(samples: list[dict[str, Any]]) -> dict[str, dict[str, Model]]:
    """Every model of `FORMS` fitted on measured samples (`Profile.samples`)."""
    needed = {n for forms in FORMS.values() for names in forms.values() for n in names}
    missing = sorted(n for n in needed if any(n not in s.get("features", {}) for s in samples))
    if missing:
        raise MalformedInput(
            f"the samples lack features this zeenot's models read ({', '.join(missing)}): "
            "measure again with `zeenot calibrate`"
        )
    return {
        backend: {
            what: fit(
                names,
                [s["features"] for s in samples if backend in s],
                [s[backend][what] for s in samples if backend in s],
                floored=what in FLOORED,
            )
            for what, names in forms.items()
        }
        for backend, forms in FORMS.items()
    }


def refit(path: str | Path) -> Profile:
    """A profile's own samples fitted again under this zeenot's model forms, without measuring
    (the models' forms changed, the measurements did not)."""
    doc = read_json(path, "the profile")
    samples = doc.get("samples") if isinstance(doc, dict) else None
    if not isinstance(samples, list) or not samples:
        raise MalformedInput(f"{path}: a profile with samples is needed to fit again")
    try:
        models = fit_models(samples)
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedInput(f"{path}: malformed samples ({exc})") from None
    # the samples keep the back end they were measured on
    backend = doc.get("backend") if isinstance(doc.get("backend"), dict) else None
    return Profile(models, doc.get("machine", ""), doc.get("measured_at", ""), samples, backend)
