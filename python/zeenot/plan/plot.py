"""`zeenot plan --plot OUT.png`: each model's predictions against the calibration's measures
(log-log; on the diagonal is a perfect fit), with its R²."""

from __future__ import annotations

from pathlib import Path

from zeenot.errors import UsageError
from zeenot.plan.profile import Profile

PANELS = (
    ("groth16", "prove_s"),
    ("groth16", "verify_s"),
    ("groth16", "setup_s"),
    ("sigma", "prove_s"),
    ("sigma", "verify_s"),
    ("sigma", "proof_bytes"),
)


def plot(profile: Profile, out: str | Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'zeenot[plot]'") from None
    if not profile.samples:
        raise UsageError("this profile keeps no calibration samples to plot")
    fig, axes = plt.subplots(2, 3, figsize=(12, 7.5))
    for ax, (backend, what) in zip(axes.flat, PANELS, strict=True):
        model = profile.models[backend][what]
        samples = [s for s in profile.samples if backend in s]
        measured = [s[backend][what] for s in samples]
        predicted = [model.predict(s["features"]) for s in samples]
        ax.loglog(measured, predicted, "o", markersize=4)
        low, high = min(measured + predicted), max(measured + predicted)
        ax.loglog([low, high], [low, high], "-", color="grey", linewidth=0.8)
        ax.set_title(f"{backend} {what} (R² {model.r2:.3f})", fontsize=10)
        ax.set_xlabel("measured")
        ax.set_ylabel("predicted")
    fig.suptitle(f"zeenot cost models: {profile.machine}", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
