"""What a calibration profile was measured on: a fingerprint of the back ends' sources.

A profile's models are only as good as the prover they timed: the GLV split made Groth16's
multi-exponentiations faster after the shipped profile was measured, and every prediction of
the planner was then off by a factor nobody saw. `zeenot calibrate` records, beside the
models, a hash of each source file that the measured costs depend on (the Rust crates that
prove, verify and compute witnesses, the Python binding, the locked versions of the packages
they build on — arkworks among them —, and the release profile that optimises them), and a
test compares the shipped profile's record with the checkout's: a back-end change without a
new calibration fails it, naming the files.

The hash reads the code, not its presentation: comments, blank space and `#[cfg(test)]` items
(unit tests inside a source file) are left out, so rewording a comment or adding a test does not
ask for a new calibration; any change to code does, even one that cannot move a cost (the test
cannot know: recalibrate, it is one command).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

# The sources whose behaviour the cost models time, relative to the repository root: every
# file of the two back ends and of the IR (its evaluator computes the witness), and the modules
# of the crypto crate and of the Python binding that proving and verifying go through (the
# protocols beside them, a shuffle, Prio, the cothority's steps, are not timed by the models;
# nor is the crate's error enum, which protocols extend with their own variants).
CRATES = ("zeenot-circuit", "zeenot-sigma", "zeenot-ir", "zeenot-crypto", "zeenot-python")
ONLY: dict[str, frozenset[str]] = {
    "zeenot-crypto": frozenset(
        {
            "lib.rs",
            "arithmetic.rs",
            "ct.rs",
            "curve.rs",
            "elgamal.rs",
            "encoding.rs",
            "generators.rs",
            "params.rs",
            "pedersen.rs",
            "poseidon.rs",
            "sqrt.rs",
            "subgroup.rs",
            "transcript.rs",
        }
    ),
    "zeenot-python": frozenset(
        {"lib.rs", "r1cs.rs", "sigma.rs", "sigma_backend.rs", "verifier.rs"}
    ),
}
LOCK = "Cargo.lock"
# Only the locked packages the timed crates build on count (the crates above and the binding's
# pyo3, with everything they depend on): a package that only a protocol beside them pulls in
# (RSA for blind signatures, janus_messages for DAP) does not change what the models time.
TIMED_ROOTS = ("zeenot-circuit", "zeenot-sigma", "zeenot-ir", "zeenot-crypto", "pyo3")
MANIFEST = "Cargo.toml"  # only its [profile.release] section: how the prover is optimised

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_CHAR = re.compile(r"'(?:\\.|[^'\\])'")
_CFG_TEST = re.compile(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{")
# bookkeeping a crate's root does for every module, timed or not: declaring it, registering a
# binding (`m.add_function(...)?;`, `prio::register(m)?;`)
_BOOKKEEPING = re.compile(
    r"(?:pub(?:\([\w:]+\))?\s+)?mod\s+\w+\s*;"
    r"|m\.add_(?:function|class)\b[^;]*;"
    r"|\b\w+::register\(m\)\?\s*;"
)


def repository_root() -> Path | None:
    """The checkout this package runs from (None when installed without its sources)."""
    root = Path(__file__).resolve().parents[3]
    return root if (root / "crates").is_dir() and (root / LOCK).is_file() else None


def _strip_comments(text: str) -> str:
    """Rust source without comments (string literals kept whole: `"//"` is not a comment)."""
    out, pos = [], 0
    for m in _STRING.finditer(text):
        out.append(_COMMENT.sub(" ", text[pos : m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_COMMENT.sub(" ", text[pos:]))
    return "".join(out)


def _drop_test_modules(text: str) -> str:
    """Without `#[cfg(test)] mod NAME { ... }` blocks (braces counted outside string and
    character literals; comments are already gone)."""
    while (m := _CFG_TEST.search(text)) is not None:
        # the same text with every literal blanked: its braces are not the block's
        def blank(lit: re.Match[str]) -> str:
            return " " * len(lit.group(0))

        code = _CHAR.sub(blank, _STRING.sub(blank, text))
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        text = text[: m.start()] + text[i:]
    return text


def normalise_rust(text: str) -> str:
    """The code of a Rust source file: no comments, no unit-test modules, no module
    declarations or binding registrations, one space per run of blank space."""
    code = _BOOKKEEPING.sub(" ", _drop_test_modules(_strip_comments(text)))
    return " ".join(code.split())


def release_profile(manifest: str) -> str:
    """The `[profile.release]` section of a Cargo manifest (its keys, normalised)."""
    lines, inside = [], False
    for line in manifest.splitlines():
        stripped = line.split("#", 1)[0].strip()
        if stripped.startswith("["):
            inside = stripped == "[profile.release]"
            continue
        if inside and stripped:
            lines.append(" ".join(stripped.split()))
    return "\n".join(lines)


def _lock_packages(text: str) -> list[dict[str, object]]:
    """The `[[package]]` entries of a Cargo.lock: name, version, checksum, dependencies."""
    packages: list[dict[str, object]] = []
    entry: dict[str, object] | None = None
    in_deps = False
    for raw in text.splitlines():
        line = raw.strip()
        if line == "[[package]]":
            entry = {"dependencies": []}
            packages.append(entry)
            in_deps = False
        elif entry is None or not line:
            continue
        elif in_deps:
            if line.startswith("]"):
                in_deps = False
            else:
                entry["dependencies"].append(line.strip('",'))  # type: ignore[union-attr]
        elif line.startswith("dependencies = ["):
            in_deps = not line.endswith("]")
        elif " = " in line:
            key, value = line.split(" = ", 1)
            entry[key] = value.strip('"')
    return packages


def locked_closure(text: str) -> str:
    """`name version checksum` of every locked package the timed crates depend on,
    transitively (a dependency is written `name` or `name version [(source)]`), sorted."""
    packages = _lock_packages(text)
    by_name: dict[str, list[dict[str, object]]] = {}
    for package in packages:
        by_name.setdefault(str(package.get("name")), []).append(package)
    stack = [p for root in TIMED_ROOTS for p in by_name.get(root, [])]
    seen: set[tuple[str, str]] = set()
    lines = []
    while stack:
        package = stack.pop()
        key = (str(package.get("name")), str(package.get("version")))
        if key in seen:
            continue
        seen.add(key)
        lines.append(f"{key[0]} {key[1]} {package.get('checksum', '')}")
        for dep in package["dependencies"]:  # type: ignore[union-attr]
            name, *rest = str(dep).split(" ")
            found = by_name.get(name, [])
            stack.extend(p for p in found if not rest or p.get("version") == rest[0])
    return "\n".join(sorted(lines))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def source_hashes(root: Path) -> dict[str, str]:
    """Per source file (relative path), the hash of its code. Test-only files (`tests.rs`,
    `tests/`, benches) are not the back end and are left out."""
    out: dict[str, str] = {}
    for crate in CRATES:
        src = root / "crates" / crate / "src"
        for path in sorted(src.rglob("*.rs")):
            rel = path.relative_to(root).as_posix()
            if path.name == "tests.rs" or "/tests/" in rel:
                continue
            if crate in ONLY and path.relative_to(src).as_posix() not in ONLY[crate]:
                continue
            out[rel] = _digest(normalise_rust(path.read_text()))
    out[LOCK] = _digest(locked_closure((root / LOCK).read_text()))
    out[f"{MANIFEST} [profile.release]"] = _digest(release_profile((root / MANIFEST).read_text()))
    return out


def fingerprint(hashes: dict[str, str]) -> str:
    """One hash of every file's."""
    return _digest("\n".join(f"{k} {v}" for k, v in sorted(hashes.items())))


def record(root: Path | None = None) -> dict[str, object] | None:
    """What a profile records about the back end it measured (None without the sources)."""
    root = root or repository_root()
    if root is None:
        return None
    hashes = source_hashes(root)
    return {"fingerprint": fingerprint(hashes), "files": hashes}


def changed(recorded: dict[str, str], current: dict[str, str]) -> list[str]:
    """The files whose code differs between a profile's record and the sources (added,
    removed or edited), sorted."""
    return sorted(k for k in recorded.keys() | current.keys() if recorded.get(k) != current.get(k))
