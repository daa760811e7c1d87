"""A stale profile is noticed (issue 28): the shipped profile records the back end it was
measured on (zeenot.plan.fingerprint: a hash of the code of the back ends, the IR, the crypto
and binding modules proving goes through, the lock file and the release profile), and a
back-end change without a new calibration fails here, naming the files. The fingerprint reads
code, not comments or unit tests; a code change anywhere it reads, or in how the prover is
optimised, is noticed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from zeenot.errors import MalformedInput
from zeenot.plan import fingerprint
from zeenot.plan.calibrate import refit
from zeenot.plan.profile import DEFAULT, Profile

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_profile_was_measured_on_this_back_end():
    """Fails after a change to the back end until the profile is measured again:

    zeenot calibrate --reps 7 -o python/zeenot/plan/default_profile.json
    """
    profile = Profile.load(DEFAULT)
    assert profile.backend is not None, "the shipped profile records no back end: recalibrate"
    current = fingerprint.source_hashes(ROOT)
    stale = fingerprint.changed(profile.backend["files"], current)
    assert not stale, (
        "the back end changed since the shipped profile was measured "
        f"({profile.measured_at[:10]}): {', '.join(stale)}; measure it again with "
        "`zeenot calibrate --reps 7 -o python/zeenot/plan/default_profile.json`"
    )
    assert profile.backend["fingerprint"] == fingerprint.fingerprint(current)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the sources the fingerprint reads."""
    for crate in fingerprint.CRATES:
        shutil.copytree(ROOT / "crates" / crate / "src", tmp_path / "crates" / crate / "src")
    for name in (fingerprint.LOCK, fingerprint.MANIFEST):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_a_change_to_the_code_is_noticed_and_one_to_comments_is_not(tree: Path):
    before = fingerprint.source_hashes(tree)
    msm = tree / "crates" / "zeenot-circuit" / "src" / "msm.rs"
    text = msm.read_text()
    # comments, blank space and unit tests are not the back end
    msm.write_text(
        "// a reworded comment\n/* and a block one */\n"
        + text.replace("\n", "\n\n", 3)
        + "\n#[cfg(test)]\nmod more_tests {\n    #[test]\n    fn t() { assert!(true); }\n}\n"
    )
    assert fingerprint.source_hashes(tree) == before
    # a string that looks like a comment is code
    msm.write_text(text + '\nconst S: &str = "// not a comment";\n')
    assert fingerprint.changed(before, fingerprint.source_hashes(tree)) == [
        "crates/zeenot-circuit/src/msm.rs"
    ]
    # any change to code, however small
    msm.write_text(text.replace("const SMALL:", "const SMALL_:", 1))
    assert fingerprint.changed(before, fingerprint.source_hashes(tree)) == [
        "crates/zeenot-circuit/src/msm.rs"
    ]
    msm.write_text(text)
    # a new source file, a dependency's version, how the release build is optimised
    (tree / "crates" / "zeenot-sigma" / "src" / "new.rs").write_text("pub fn f() {}\n")
    lock = tree / fingerprint.LOCK
    lock.write_text(lock.read_text().replace('name = "ark-ec"', 'name = "ark-ec "', 1))
    manifest = tree / fingerprint.MANIFEST
    manifest.write_text(manifest.read_text().replace('lto = "thin"', 'lto = "fat"'))
    assert fingerprint.changed(before, fingerprint.source_hashes(tree)) == [
        "Cargo.lock",
        "Cargo.toml [profile.release]",
        "crates/zeenot-sigma/src/new.rs",
    ]


def test_a_protocol_beside_the_back_ends_is_not_the_back_end(tree: Path):
    """A new module of the crypto crate (a shuffle, Prio) and its binding, declared and
    registered, leave the fingerprint alone; a change to what proving uses does not."""
    before = fingerprint.source_hashes(tree)
    crypto = tree / "crates" / "zeenot-crypto" / "src"
    (crypto / "mixnet.rs").write_text("pub fn mix() -> u8 { 7 }\n")
    lib = crypto / "lib.rs"
    lib.write_text(lib.read_text() + "\npub mod mixnet;\n")
    binding = tree / "crates" / "zeenot-python" / "src"
    (binding / "mixnet.rs").write_text("pub fn register() {}\n")
    py = binding / "lib.rs"
    text = py.read_text()
    assert "m.add_function(" in text
    py.write_text(
        "mod mixnet;\n"
        + text.replace(
            "m.add_function(",
            "m.add_function(wrap_pyfunction!(mixnet::mix, m)?)?;\n    m.add_function(",
            1,
        )
    )
    assert fingerprint.source_hashes(tree) == before
    curve = crypto / "curve.rs"
    curve.write_text(curve.read_text() + "\npub fn slower() {}\n")
    assert fingerprint.changed(before, fingerprint.source_hashes(tree)) == [
        "crates/zeenot-crypto/src/curve.rs"
    ]


def test_other_profiles_of_the_manifest_are_not_the_back_end(tree: Path):
    before = fingerprint.source_hashes(tree)
    manifest = tree / fingerprint.MANIFEST
    manifest.write_text(manifest.read_text() + "\n[profile.test]\ndebug = false\n")
    assert fingerprint.source_hashes(tree) == before


def test_a_profile_keeps_its_record_and_refuses_a_malformed_one(tmp_path: Path):
    profile = Profile.load(DEFAULT)
    path = tmp_path / "p.json"
    path.write_text(profile.to_json())
    assert Profile.load(path).backend == profile.backend
    # fitting the samples again keeps the back end they were measured on
    assert refit(path).backend == profile.backend
    doc = json.loads(path.read_text())
    doc["backend"] = {"fingerprint": 7}
    path.write_text(json.dumps(doc))
    with pytest.raises(MalformedInput, match="backend"):
        Profile.load(path)


def test_only_the_locked_packages_the_back_ends_build_on_count(tree: Path):
    """A package only a protocol pulls in (added to Cargo.lock, depended on by none of the
    timed crates) leaves the fingerprint alone; another checksum of arkworks does not."""
    before = fingerprint.source_hashes(tree)
    lock = tree / fingerprint.LOCK
    text = lock.read_text()
    lock.write_text(
        text + '\n[[package]]\nname = "rsa-only"\nversion = "9.9.9"\n'
        'source = "registry+https://github.com/rust-lang/crates.io-index"\n'
        'checksum = "00"\ndependencies = [\n "ark-ff",\n]\n'
    )
    assert fingerprint.source_hashes(tree) == before
    start = text.index('name = "ark-ff"')
    at = text.index("checksum = ", start)
    lock.write_text(text[:at] + 'checksum = "11' + text[at + len('checksum = "') :])
    assert fingerprint.changed(before, fingerprint.source_hashes(tree)) == ["Cargo.lock"]
    closure = fingerprint.locked_closure(text)
    assert "ark-ff " in closure and "prio " not in closure and "pyo3 " in closure
