"""A calibration profile: the fitted models of one machine, saved as JSON.

`zeenot plan` uses `$ZEENOT_PROFILE`, else the profile `zeenot calibrate` wrote for this user
(`~/.cache/zeenot/profile.json`), else the one measured on the reference machine that ships with
the package (`default_profile.json`: the 2-core development machine)."""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zeenot.errors import MalformedInput
from zeenot.files import read_json
from zeenot.plan.models import FORMS, Model

PROFILE_FORMAT = 1
DEFAULT = Path(__file__).with_name("default_profile.json")


def user_profile_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "zeenot" / "profile.json"


@dataclass
class Profile:
    models: dict[str, dict[str, Model]]
    machine: str = ""
    measured_at: str = field(default_factory=lambda: dt.datetime.now(dt.timezone.utc).isoformat())
    samples: list[dict[str, Any]] = field(default_factory=list)
    # the back end the samples were measured on (`zeenot.plan.fingerprint.record`): None when
    # calibrated without the sources at hand (an installed package)
    backend: dict[str, Any] | None = None

    def to_json(self) -> str:
        return json.dumps(
            {
                "zeenot_profile": PROFILE_FORMAT,
                "machine": self.machine,
                "measured_at": self.measured_at,
                "models": {
                    b: {w: m.to_json() for w, m in ms.items()} for b, ms in self.models.items()
                },
                "backend": self.backend,
                "samples": self.samples,
            },
            indent=1,
        )

    @classmethod
    def from_json(cls, doc: Any, where: str) -> Profile:
        try:
            if doc.get("zeenot_profile") != PROFILE_FORMAT:
                raise ValueError("not a zeenot profile")
            models = {
                b: {w: Model.from_json(doc["models"][b][w]) for w in forms}
                for b, forms in FORMS.items()
            }
            for b, forms in FORMS.items():
                for w, names in forms.items():
                    m = models[b][w]
                    if m.features != names or len(m.coefficients) != len(names):
                        raise ValueError(
                            f"its {b} {w} model has other features than this zeenot's: "
                            "run `zeenot calibrate` again"
                        )
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise MalformedInput(f"{where}: not a zeenot calibration profile ({exc})") from None
        backend = doc.get("backend")
        if backend is not None and not (
            isinstance(backend, dict)
            and isinstance(backend.get("fingerprint"), str)
            and isinstance(backend.get("files"), dict)
        ):
            raise MalformedInput(f"{where}: its `backend` record is not a fingerprint")
        return cls(
            models,
            doc.get("machine", ""),
            doc.get("measured_at", ""),
            doc.get("samples", []),
            backend,
        )

    @classmethod
    def load(cls, path: str | Path | None = None) -> Profile:
        if path is None:
            env = os.environ.get("ZEENOT_PROFILE")
            candidates = [Path(env)] if env else [user_profile_path(), DEFAULT]
            path = next(p for p in candidates if p.exists() or p == candidates[-1])
        return cls.from_json(read_json(path, "the profile"), str(path))
