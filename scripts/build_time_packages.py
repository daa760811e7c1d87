#!/usr/bin/env python3
"""The packages that only run at build time (proc macros, build scripts' dependencies).

    python3 scripts/build_time_packages.py           # print the table for Cargo.toml
    python3 scripts/build_time_packages.py --check   # exit 1 when Cargo.toml's table differs

`[profile.dev.package."*"]` optimises every dependency, and cargo gives that glob precedence over
`build-override`, so without a table naming them the proc macros and their parsers (syn,
derive_more, educe, pyo3's macros...) were compiled at opt-level 3 too: about 320 of the test
build's 1,120 CPU-seconds, for code that only expands macros. Packages a runtime crate also uses
(under another version) keep opt-level 3.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = "[profile.dev.package]"


def build_time_only() -> list[str]:
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked", "-q"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    packages = {p["id"]: p for p in meta["packages"]}
    deps = {n["id"]: n["deps"] for n in meta["resolve"]["nodes"]}

    def proc_macro(pid: str) -> bool:
        return any("proc-macro" in t["kind"] for t in packages[pid]["targets"])

    runtime: set[str] = set()
    todo = list(meta["workspace_members"])
    while todo:  # what the workspace links: normal and dev dependencies, not macros or build deps
        for dep in deps[todo.pop()]:
            if all(k["kind"] == "build" for k in dep["dep_kinds"]) or proc_macro(dep["pkg"]):
                continue
            if dep["pkg"] not in runtime:
                runtime.add(dep["pkg"])
                todo.append(dep["pkg"])
    linked = {packages[p]["name"] for p in runtime} | {
        packages[p]["name"] for p in meta["workspace_members"]
    }
    return sorted({packages[p]["name"] for p in deps} - linked)


def table(names: list[str]) -> str:
    return "\n".join([TABLE] + [f"{n} = {{ opt-level = 0 }}" for n in names]) + "\n"


def main() -> int:
    names = build_time_only()
    if sys.argv[1:] != ["--check"]:
        print(table(names), end="")
        return 0
    manifest = (ROOT / "Cargo.toml").read_text()
    found = re.search(r"^\[profile\.dev\.package\]\n((?:[^\[\n].*\n)*)", manifest, re.M)
    entries = found.group(1) if found else ""
    have = sorted(re.findall(r"^([\w-]+) = \{ opt-level = 0 \}$", entries, re.M))
    if have != names:
        print(
            "Cargo.toml's [profile.dev.package] table is stale: "
            f"missing {sorted(set(names) - set(have))}, extra {sorted(set(have) - set(names))}; "
            "regenerate it with `python3 scripts/build_time_packages.py`",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
