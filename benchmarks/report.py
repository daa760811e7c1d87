"""What every benchmark's Markdown report ends with: where it came from, and where it goes."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path


def provenance() -> str:
    """`Measured DATE with \\`COMMAND\\``: the command that reproduces the figures."""
    script = Path(sys.argv[0]).resolve().relative_to(Path(__file__).resolve().parents[1])
    command = " ".join([".venv/bin/python", str(script), *sys.argv[1:]])
    return f"Measured {datetime.date.today()} with `{command}`"


def publish(lines: list[str], output: Path | None) -> None:
    """Print the report; write it to `output` only when asked (-o)."""
    text = "\n".join(lines) + "\n"
    print(text)
    if output:
        output.write_text(text)
