"""Regression tests for the hardening issue (11), items 2-8: each reproduces a defect found by
an adversarial review (a forged file accepted, an exit 3 on a user's mistake, a crash) and
checks the fix. The CLI runs in process (`cli.main`) so that exit codes and messages are read
directly."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from zeenot import api, cli
from zeenot.errors import ZeenotError
from zeenot.simulate import simulate

from .conftest import EXAMPLES

PAYD = f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium"
PAYD_INPUTS = EXAMPLES / "payd" / "inputs.json"
FITBIT_ANY = f"{EXAMPLES / 'fitbit' / 'app.py'}:donation_any_length"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


@pytest.fixture(scope="module")
def payd_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("payd")
    assert cli.main(["compile", PAYD, "-o", str(d)]) == 0
    circuit = api.load(d)
    api.setup(circuit, seed=1).save(d)
    proof = api.prove(circuit, api.Keys.load(d), json.loads(PAYD_INPUTS.read_text()), seed=2)
    (d / "proof.json").write_text(proof.to_json())
    return d


@pytest.fixture(scope="module")
def fitbit_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("fitbit_any")
    assert cli.main(["compile", FITBIT_ANY, "-o", str(d)]) == 0
    inputs = json.loads((EXAMPLES / "fitbit" / "inputs.json").read_text())
    inputs["trace"] = inputs["trace"][:4]
    proof = api.prove_sigma(api.load(d), inputs, seed=3)
    (d / "proof.json").write_text(proof.to_json())
    return d


def edited(src: Path, dst: Path, edit) -> Path:
    doc = json.loads(src.read_text())
    edit(doc)
    dst.write_text(json.dumps(doc))
    return dst


# -- 2. one accepted form per proof file ---------------------------------------------------------


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d["public_inputs"].update(km=[9, 9]), "`km` is private"),
        (lambda d: d["public_inputs"].update(speed=3), "unexpected"),
        (lambda d: d.update(comment="hello"), "unknown field `comment`"),
        (lambda d: d.update(lengths={}), "lengths"),
        (lambda d: d["public_inputs"].pop("cap_cents"), "missing"),
    ],
)
def test_proof_file_with_unproved_data_is_rejected(payd_dir, tmp_path, capsys, edit, message):
    bad = edited(payd_dir / "proof.json", tmp_path / "bad.json", edit)
    code, out, err = run(capsys, "verify", str(payd_dir), str(bad))
    assert code == 2 and out == "" and message in err, err


def test_proof_for_a_differently_named_program_is_rejected(payd_dir, tmp_path, capsys):
    bad = edited(payd_dir / "proof.json", tmp_path / "bad.json", lambda d: d.update(program="x"))
    code, out, err = run(capsys, "verify", str(payd_dir), str(bad))
    assert code == 1 and "program `x`" in err


# -- 3. a template's proof cannot make the verifier compile without bound ------------------------


def test_forged_template_lengths_are_rejected_before_compiling(fitbit_dir, tmp_path, capsys):
    bad = edited(
        fitbit_dir / "proof.json",
        tmp_path / "bad.json",
        lambda d: d.update(lengths={"trace": 5000}),
    )
    code, _, err = run(capsys, "verify", str(fitbit_dir), str(bad))
    assert (
        code == 1 and "lengths" in err and "trace: 5000" in err and "--max-instructions" in err
    ), err
    assert "reduce loop bounds" not in err
    # refused on the size predicted from lengths 1 and 2 ("about N instructions"), not by the
    # compiler stopping at the limit: nothing was compiled at 5,000 (not a timing, which a
    # loaded machine would make flaky; the time is benchmarks/forged_templates.py's)
    assert "(about " in err, err


def test_template_work_limit_is_the_verifiers(fitbit_dir, capsys):
    proof = fitbit_dir / "proof.json"
    assert run(capsys, "verify", str(fitbit_dir), str(proof))[0] == 0
    code, _, err = run(capsys, "verify", str(fitbit_dir), str(proof), "--max-instructions", "20")
    assert code == 1 and "trace: 4" in err
    template = api.load(fitbit_dir)
    with pytest.raises(api.ProofRejected, match="over|limit"):
        api.verify(template, None, api.Proof.from_json(proof.read_text()), max_instructions=20)


def test_template_gate_limit_is_the_verifiers(fitbit_dir, capsys):
    """The sigma circuit proof's size is the sender's to choose through the lengths: past the
    verifier's gate limit the proof is refused before any generator is derived."""
    proof = fitbit_dir / "proof.json"
    code, _, err = run(capsys, "verify", str(fitbit_dir), str(proof), "--max-gates", "1024")
    assert code == 1 and "gates" in err and "--max-gates" in err, err
    template = api.load(fitbit_dir)
    with pytest.raises(api.ProofRejected, match="gates"):
        api.verify(template, None, api.Proof.from_json(proof.read_text()), max_gates=1024)
    api.verify(template, None, api.Proof.from_json(proof.read_text()))  # the default admits it
    with pytest.raises(api.UsageError, match="max_gates"):
        api.verify(template, None, api.Proof.from_json(proof.read_text()), max_gates=0)


def test_superlinear_template_stops_at_the_limit(tmp_path):
    src = tmp_path / "pairs.py"
    src.write_text(
        "from zeenot import zk, Private, u32, u64\n\n@zk\n"
        "def pairs(xs: Private[list[u32]]) -> u64:\n"
        "    t = u64(0)\n"
        "    for a in xs:\n"
        "        for b in xs:\n"
        "            t += u64(a) * u64(b)\n"
        "    return t\n"
    )
    template = api.compile(f"{src}:pairs")
    proof = api.prove_sigma(template, {"xs": [1, 2]}, seed=1)
    forged = api.Proof.from_json(proof.to_json().replace('"xs": 2', '"xs": 400'))
    with pytest.raises(api.ProofRejected, match="xs: 400") as info:
        api.verify(template, None, forged)
    # quadratic: the prediction from lengths 1 and 2 underestimates it, so the compiler is
    # what stops it, at the limit (no "about N" figure), not after unrolling 160,000 steps
    assert "(about " not in str(info.value)


# -- 4. canonical decimals only ------------------------------------------------------------------

FIELD_APP = """\
from zeenot import zk, Public, Private, Field, u32

@zk
def f(x: Public[Field], y: Private[u32]) -> Field:
    return x + Field(y)
"""


@pytest.mark.parametrize("spelling", [" 5", "5 ", "+5", "05", "5_0", "\u0665", "-5", "", "0x5"])
def test_non_canonical_field_strings_are_rejected(tmp_path, capsys, spelling):
    src = tmp_path / "app.py"
    src.write_text(FIELD_APP)
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"x": spelling, "y": 1}))
    code, _, err = run(capsys, "simulate", f"{src}:f", "--inputs", str(inputs))
    assert code == 2 and "canonical decimal" in err, err
    circuit = api.compile(f"{src}:f")
    with pytest.raises(api.MalformedInput, match="canonical decimal"):
        api.prove_sigma(circuit, {"x": spelling, "y": 1})


def test_canonical_field_strings_are_accepted_and_proofs_keep_them(tmp_path):
    src = tmp_path / "app.py"
    src.write_text(FIELD_APP)
    circuit = api.compile(f"{src}:f")
    keys = api.setup(circuit, seed=1)
    proof = api.prove(circuit, keys, {"x": "5", "y": 1}, seed=1)
    api.verify(circuit, keys.verifying_key, proof)
    assert proof.public_inputs == {"x": 5}  # written as outputs are: one spelling
    doc = json.loads(proof.to_json())
    # a proof file has one form: a Field is a JSON integer there, never a string, canonical
    # decimal or not (inputs files may use either)
    for spelling in ("5", "05", "+5", "5_0", " 5"):
        doc["public_inputs"]["x"] = spelling
        with pytest.raises(api.MalformedInput, match="`x`: a Field in a proof file is a JSON"):
            api.verify(circuit, keys.verifying_key, api.Proof.from_json(json.dumps(doc)))
    doc["public_inputs"]["x"] = 5
    doc["outputs"] = str(proof.outputs)
    with pytest.raises(api.MalformedInput, match="`outputs`: a Field in a proof file"):
        api.verify(circuit, keys.verifying_key, api.Proof.from_json(json.dumps(doc)))


def test_field_spelling_in_proof_files_reaches_into_structures(tmp_path, capsys):
    """A Field nested in a record or a tuple (a point's coordinates) is an integer too."""
    src = tmp_path / "app.py"
    src.write_text(
        "from zeenot import zk, Public, Private, Field, u32\n"
        "from zeenot.babyjub import Point\n\n@zk\n"
        "def f(p: Public[Point], xs: Public[tuple[Field, Field]], y: Private[Field]) -> Field:\n"
        "    return p.x + xs[1] + y\n"
    )
    d = tmp_path / "c"
    assert cli.main(["compile", f"{src}:f", "-o", str(d)]) == 0
    from zeenot.babyjub import BASE8

    point = {"x": str(BASE8.x), "y": str(BASE8.y)}  # inputs may spell Fields as strings
    circuit = api.load(d)
    keys = api.setup(circuit, seed=1)
    keys.save(d)
    proof = api.prove(circuit, keys, {"p": point, "xs": ["1", 2], "y": 3}, seed=1)
    assert proof.public_inputs["p"] == {"x": BASE8.x, "y": BASE8.y}
    assert proof.public_inputs["xs"] == [1, 2]
    (d / "proof.json").write_text(proof.to_json())
    assert run(capsys, "verify", str(d), str(d / "proof.json"))[0] == 0
    for edit, name in [
        (lambda doc: doc["public_inputs"]["p"].update(y=str(BASE8.y)), "`p.y`"),
        (lambda doc: doc["public_inputs"]["xs"].__setitem__(0, "1"), "`xs[0]`"),
    ]:
        bad = edited(d / "proof.json", tmp_path / "bad.json", edit)
        code, out, err = run(capsys, "verify", str(d), str(bad))
        assert code == 2 and out == "" and name in err and "JSON integer" in err, err


def test_non_ascii_digits_in_commitments_are_rejected(tmp_path):
    from zeenot.ir import Program

    prog = Program(
        {
            "signature": {
                "params": [{"name": "v", "ty": "u32", "vis": "committed"}],
                "returns": None,
            }
        }
    )
    with pytest.raises(ValueError, match="decimal"):
        prog.commitments_from_json("v", {"committed": [["\u0661", "2"]]})


# -- 5. SystemExit in a loaded source ------------------------------------------------------------


def test_system_exit_in_a_loaded_source_is_contained(tmp_path, capsys):
    src = tmp_path / "app.py"
    src.write_text("import sys\nsys.exit(0)\n")
    code, _, err = run(capsys, "compile", f"{src}:f", "-o", str(tmp_path / "out"))
    assert code == 2 and "app.py:2" in err and "SystemExit" in err, err
    assert not (tmp_path / "out").exists()


def test_system_exit_in_a_template_source_cannot_pass_for_valid(fitbit_dir, tmp_path, capsys):
    d = tmp_path / "forged"
    shutil.copytree(fitbit_dir, d)
    source = d / "app.py"
    source.write_text("import sys\nsys.exit(0)\n" + source.read_text())
    meta = json.loads((d / "template.json").read_text())
    meta["source_sha256"] = api._sha256(source.read_bytes())
    (d / "template.json").write_text(json.dumps(meta))
    code, out, err = run(capsys, "verify", str(d), str(d / "proof.json"))
    assert code == 2 and "valid" not in out and "SystemExit" in err


@pytest.mark.parametrize(
    "ending",
    [
        "import os\nos._exit(0)\n",
        "import os\nprint('valid')\nos._exit(0)\n",
        "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
    ],
)
def test_a_process_exit_in_a_template_source_is_not_valid(fitbit_dir, tmp_path, capsys, ending):
    """`os._exit(0)` skips every handler: the template is loaded in a process of its own, and
    `zeenot verify` exits 0 only on that process's explicit answer that the proof is valid."""
    d = tmp_path / "forged"
    shutil.copytree(fitbit_dir, d)
    source = d / "app.py"
    source.write_text(ending + source.read_text())
    meta = json.loads((d / "template.json").read_text())
    meta["source_sha256"] = api._sha256(source.read_bytes())
    (d / "template.json").write_text(json.dumps(meta))
    code, out, err = run(capsys, "verify", str(d), str(d / "proof.json"))
    assert code == 2 and out == "" and "no proof was checked" in err, err
    code, out, err = run(capsys, "verify", str(d), str(d / "proof.json"), str(d / "proof.json"))
    assert code == 2 and "valid" not in out, (out, err)


def test_template_verification_answers_from_its_process(fitbit_dir, tmp_path, capsys):
    """Valid, invalid and malformed proofs of a template come back from the child as they
    were: exit 0, 1 and 2, a line each."""
    good = fitbit_dir / "proof.json"
    bad = edited(good, tmp_path / "bad.json", lambda d: d.update(outputs=[1, 2, False]))
    ugly = edited(good, tmp_path / "ugly.json", lambda d: d.update(proof="00"))
    assert run(capsys, "verify", str(fitbit_dir), str(good)) == (0, "valid\n", "")
    code, _, err = run(capsys, "verify", str(fitbit_dir), str(bad))
    assert code == 1 and err.startswith("invalid: "), err
    code, out, err = run(capsys, "verify", str(fitbit_dir), str(good), str(bad), str(ugly))
    assert code == 2 and out == f"{good}: valid\n", (out, err)
    assert f"{bad}: invalid: " in err and f"{ugly}: error: " in err, err


def test_system_exit_in_a_zk_function_is_contained_in_simulate(tmp_path, capsys):
    src = tmp_path / "app.py"
    src.write_text(
        "import sys\nfrom zeenot import zk, Private, u32\n\n@zk\n"
        "def f(x: Private[u32]) -> u32:\n    sys.exit(0)\n    return x\n"
    )
    inputs = tmp_path / "in.json"
    inputs.write_text('{"x": 1}')
    code, _, err = run(capsys, "simulate", f"{src}:f", "--inputs", str(inputs))
    assert code == 2 and "app.py:6" in err, err


# -- 6. user mistakes are exit 2 with the file or value named ------------------------------------


def test_deeply_nested_json_is_malformed(payd_dir, tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    code, _, err = run(capsys, "prove", str(payd_dir), "--inputs", str(deep), "-o", "x.json")
    assert code == 2 and "deep.json" in err and "nested" in err, err
    code, _, err = run(capsys, "verify", str(payd_dir), str(deep))
    assert code == 2 and "deep.json" in err and "nested" in err, err
    code, _, err = run(capsys, "simulate", PAYD, "--inputs", str(deep))
    assert code == 2 and "nested" in err


def test_non_utf8_files_are_malformed(payd_dir, tmp_path, capsys):
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"a": "\xe9"}')
    code, _, err = run(capsys, "simulate", PAYD, "--inputs", str(bad))
    assert code == 2 and "latin1.json" in err and "UTF-8" in err, err
    code, _, err = run(capsys, "verify", str(payd_dir), str(bad))
    assert code == 2 and "latin1.json" in err and "UTF-8" in err, err
    d = tmp_path / "ir"
    shutil.copytree(payd_dir, d)
    (d / "program.ir.json").write_bytes(b"\xff\xfe")
    code, _, err = run(capsys, "prove", str(d), "--inputs", str(PAYD_INPUTS), "-o", "p.json")
    assert code == 2 and "program.ir.json" in err and "UTF-8" in err, err
    (d / "verifier.json").write_bytes(b"\xff\xfe")
    code, _, err = run(capsys, "verify", str(d), str(d / "proof.json"))
    assert code == 2 and "verifier.json" in err and "UTF-8" in err, err


def test_prove_output_path_is_checked_before_proving(payd_dir, tmp_path, capsys):
    missing = tmp_path / "no" / "such" / "proof.json"
    code, _, err = run(
        capsys, "prove", str(payd_dir), "--inputs", str(PAYD_INPUTS), "-o", str(missing)
    )
    assert code == 2 and "no such directory" in err, err
    code, _, err = run(
        capsys, "prove", str(payd_dir), "--inputs", str(PAYD_INPUTS), "-o", str(tmp_path)
    )
    assert code == 2 and "is a directory" in err, err


def test_compile_and_export_outputs_under_a_file(payd_dir, tmp_path, capsys):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    code, _, err = run(capsys, "compile", PAYD, "-o", str(a_file))
    assert code == 2 and "not a directory" in err, err
    proof = str(payd_dir / "proof.json")
    code, _, err = run(capsys, "export", "snarkjs", str(payd_dir), proof, "-o", str(a_file / "x"))
    assert code == 2 and "not a directory" in err, err


def test_keys_of_another_circuit_with_matching_keys_json(payd_dir, tmp_path, capsys):
    other = tmp_path / "other"
    src = tmp_path / "app.py"
    src.write_text(
        "from zeenot import zk, Private, Public, u32\n\n@zk\n"
        "def g(x: Private[u32], y: Public[u32]) -> u32:\n    return x + y\n"
    )
    assert cli.main(["compile", f"{src}:g", "-o", str(other)]) == 0
    for name in ("proving.key", "verifying.key", "keys.json"):
        shutil.copy(payd_dir / name, other / name)
    meta = json.loads((other / "keys.json").read_text())
    meta["program_hash"] = api.load(other).hash  # a keys.json that claims to match
    (other / "keys.json").write_text(json.dumps(meta))
    inputs = tmp_path / "in.json"
    inputs.write_text('{"x": 1, "y": 2}')
    code, _, err = run(capsys, "prove", str(other), "--inputs", str(inputs), "-o", "p.json")
    assert code == 2 and "key" in err, err
    capsys.readouterr()


@pytest.mark.parametrize(
    "body, code_in_message",
    [("return x / 2", "ZN"), ("return u32(x <= y)", "ZN"), ("return x + y", "ZN")],
)
def test_simulate_type_errors_are_diagnostics(tmp_path, capsys, body, code_in_message):
    src = tmp_path / "app.py"
    src.write_text(
        "from zeenot import zk, Private, u32, u64\n\n@zk\n"
        f"def f(x: Private[u32], y: Private[u64]) -> u32:\n    {body}\n"
    )
    inputs = tmp_path / "in.json"
    inputs.write_text('{"x": 4, "y": 5}')
    code, _, err = run(capsys, "simulate", f"{src}:f", "--inputs", str(inputs))
    assert code == 2 and code_in_message in err and "app.py:5" in err, err


# -- 7. setup keeps earlier keys unless told, and writes atomically ------------------------------


def test_setup_refuses_to_replace_keys(payd_dir, tmp_path, capsys):
    d = tmp_path / "c"
    shutil.copytree(payd_dir, d)
    before = (d / "verifying.key").read_bytes()
    code, _, err = run(capsys, "setup", str(d))
    assert code == 2 and "--force" in err
    assert (d / "verifying.key").read_bytes() == before
    assert run(capsys, "verify", str(d), str(d / "proof.json"))[0] == 0
    code, _, _ = run(capsys, "setup", str(d), "--force")
    assert code == 0 and (d / "verifying.key").read_bytes() != before
    assert sorted(p.name for p in d.iterdir() if p.name.startswith(".")) == []


def test_key_writes_are_atomic(payd_dir, tmp_path, monkeypatch):
    """A write that fails half-way leaves the previous file whole."""
    from zeenot import files

    target = tmp_path / "k"
    target.write_bytes(b"old")

    def boom(fd, data):
        os.write(fd, data[:1])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "_write_all", boom)
    with pytest.raises(api.MalformedInput, match="No space left"):
        files.write_atomic(target, b"new contents", secret=False)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["k"]


# -- 8. API misuse raises zeenot's errors --------------------------------------------------------


def _misuse_cases(payd):
    circuit, keys, inputs = payd
    proof = api.prove(circuit, keys, inputs, seed=1)
    return [
        lambda: api.prove(circuit, None, inputs),
        lambda: api.prove(circuit, keys, inputs, seed=-1),
        lambda: api.prove(circuit, keys, inputs, seed=2**64),
        lambda: api.prove(circuit, keys, inputs, seed="1"),
        lambda: api.prove(circuit, keys, None),
        lambda: api.prove(circuit, keys, inputs, blindings=[1]),
        lambda: api.prove("circuit", keys, inputs),
        lambda: api.prove_sigma(circuit, inputs, seed=-1),
        lambda: api.prove_sigma(None, inputs),
        lambda: api.setup(circuit, seed=-1),
        lambda: api.setup(None),
        lambda: api.compile(123),
        lambda: api.compile(lambda x: x),
        lambda: api.compile(print),
        lambda: api.compile("no_such_file.py:f"),
        lambda: api.load(123),
        lambda: api.load(None),
        lambda: api.verify(circuit, "not bytes", proof),
        lambda: api.verify(circuit, keys.verifying_key, "not a proof"),
        lambda: api.verify(None, keys.verifying_key, proof),
        lambda: api.verify(circuit, keys.verifying_key, proof, max_instructions=-1),
        lambda: api.check_link(1, proof, "x"),
        lambda: api.check_link(proof, proof, 3),
        lambda: api.export_snarkjs(circuit, None, proof, "/tmp/x"),
        lambda: api.export_snarkjs(circuit, keys.verifying_key, proof, 5),
        lambda: api.Proof.from_json(123),
        lambda: api.Proof.from_json(b"\xff"),
        lambda: api.Keys.load(123),
        lambda: keys.save(123),
        lambda: api.Circuit.load(None),
        lambda: simulate(123, {}),
        lambda: simulate(circuit, {}),
    ]


def test_api_misuse_raises_zeenot_errors(payd):
    for i, case in enumerate(_misuse_cases(payd)):
        with pytest.raises(ZeenotError) as info:
            case()
        assert str(info.value), i


MISUSE_SOURCE = """\
import functools
from zeenot import zk, Private, u32

SPREAD = (
    lambda x:
    x + 1
)

@zk
def good(x: Private[u32]) -> u32:
    return x

class Callable:
    def __call__(self, x: Private[u32]) -> u32:
        return x

PARTIAL = functools.partial(good)
"""


def _more_misuse_cases(payd, module, template):
    """The cases that raised bare TypeError, ValueError, AttributeError or SyntaxError before
    (the sweep of every public function with wrong argument types)."""
    circuit, keys, inputs = payd
    proof = api.prove(circuit, keys, inputs, seed=1)
    weekly = api.load_target(PAYD)
    not_paths = [None, 5, b"x", {}, [], proof, print]
    return [
        # a lambda cut out of an expression could not be parsed alone: SyntaxError
        lambda: api.compile(module.SPREAD),
        lambda: api.compile_function(module.SPREAD),
        # callables that are not functions: AttributeError on `__name__`
        lambda: api.compile(module.PARTIAL),
        lambda: api.compile(module.Callable()),
        lambda: simulate(module.PARTIAL, {"x": 1}),
        lambda: simulate(module.Callable(), {"x": 1}),
        lambda: simulate(module.Callable, {"x": 1}),
        # inputs that are not an object: ValueError
        *[lambda v=v: simulate(weekly, v) for v in (None, 5, "x", [], {})],
        # paths and names of the wrong type: TypeError, AttributeError, ValueError
        *[lambda v=v: api.load_target(v) for v in not_paths],
        *[lambda v=v: api.load_function(v, "f") for v in not_paths],
        lambda: api.load_function(str(EXAMPLES / "payd" / "app.py"), None),
        lambda: api.load("a\0b"),
        lambda: api.Circuit.load("a\0b"),
        # batches and keys of the wrong type: TypeError
        *[lambda v=v: api.verify_sigma_batch(circuit, v) for v in (None, 5, proof, {})],
        *[lambda v=v: api.solidity_calldata(circuit, v, proof) for v in (None, 5, "vk", proof)],
        lambda: api.export_snarkjs(circuit, "vk", proof, "/nonexistent/x"),
        lambda: api.prove(circuit, keys, inputs, stages=5),
        lambda: api.compile_function(weekly, 5),
        lambda: api.compile_function(weekly, max_instructions="x"),
        lambda: api.compile(weekly, regions="yes"),
        lambda: template.at({"trace": 2}, max_instructions="x"),
    ]


def test_api_misuse_sweep_raises_zeenot_errors(payd, tmp_path):
    from zeenot.lang import load_module

    src = tmp_path / "misuse.py"
    src.write_text(MISUSE_SOURCE)
    module = load_module(str(src))
    template = api.compile(FITBIT_ANY)
    cases = _misuse_cases(payd) + _more_misuse_cases(payd, module, template)
    assert len(cases) >= 58
    for i, case in enumerate(cases):
        try:
            case()
        except ZeenotError as exc:
            assert str(exc), i
        except BaseException as exc:  # noqa: BLE001 - the point of the test
            pytest.fail(f"case {i}: bare {type(exc).__name__}: {exc}")
        else:
            pytest.fail(f"case {i}: no error")


def test_simulate_input_errors_are_zeenot_errors_and_value_errors():
    """`simulate`'s callers have caught ValueError for bad inputs: InputError is both."""
    from zeenot.errors import InputError

    with pytest.raises(InputError, match="JSON object") as info:
        simulate(api.load_target(PAYD), [])
    assert isinstance(info.value, ValueError) and isinstance(info.value, api.MalformedInput)


# -- leftovers: Ctrl-C is one line and exit 130, in every command --------------------------------


def _argv_for(parser, name: str) -> list[str]:
    """A command line that parses for subcommand `name` (dummy values for what it requires)."""
    import argparse

    def fill(p) -> list[str]:
        out: list[str] = []
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                first = next(iter(action.choices))
                return out + [first, *fill(action.choices[first])]
            value = "1" if action.type in (int, float) else "x"  # what parses as its type
            value = next(iter(action.choices)) if action.choices else value
            if not action.option_strings and action.nargs != "?":
                out.append(value)
            elif action.required:
                out += [action.option_strings[0], value]
        return out

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [name, *fill(sub.choices[name])]


def _commands() -> list[str]:
    import argparse

    parser = cli._parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


@pytest.mark.parametrize("command", _commands())
def test_interrupt_is_one_line_and_exit_130(command, monkeypatch, capsys):
    real = cli._parser

    def interrupted(args):
        raise KeyboardInterrupt

    def parser():
        p = real()
        parse = p.parse_args

        def parse_and_interrupt(argv=None):
            ns = parse(argv)
            ns.run = interrupted
            return ns

        p.parse_args = parse_and_interrupt
        return p

    argv = _argv_for(real(), command)
    monkeypatch.setattr(cli, "_parser", parser)
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 130 and out == "" and err == "interrupted\n", (argv, err)


def test_interrupt_while_reporting_an_error(monkeypatch, capsys):
    """Ctrl-C that lands while an error is being printed still ends as one line, 130."""

    def failing(args):
        raise api.MalformedInput("bad")

    calls = []
    real_print = print

    def print_then_interrupt(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            raise KeyboardInterrupt
        real_print(*args, **kwargs)

    monkeypatch.setattr(cli, "cmd_simulate", failing)
    monkeypatch.setattr("builtins.print", print_then_interrupt)
    parser = cli._parser()
    monkeypatch.setattr(cli, "_parser", lambda: parser)
    for action in parser._actions:
        if getattr(action, "choices", None) and "simulate" in action.choices:
            action.choices["simulate"].set_defaults(run=failing)
    code = cli.main(["simulate", "x.py:f", "--inputs", "in.json"])
    _, err = capsys.readouterr()
    assert code == 130 and err == "interrupted\n", err


def test_sigint_ends_a_real_process_with_130(tmp_path):
    """A real Ctrl-C (SIGINT) during a long command: `interrupted`, exit 130, no traceback."""
    import signal
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(Path(api.__file__).parents[1])}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from zeenot.cli import main; print('ready', flush=True); sys.exit(main())",
            "calibrate",
            "--quick",
            "-o",
            str(tmp_path / "profile.json"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    # into the measurements (the command runs for minutes): its first progress line, not a
    # fixed delay, which a loaded machine can spend still importing
    assert proc.stderr is not None and proc.stderr.readline()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        # Once (CI, 2026-11-27, a loaded machine) the first SIGINT was lost and calibrate went
        # on measuring; not reproduced in 77 tries at random moments, idle or loaded. A user
        # presses Ctrl-C again: so does the test, and the outcome must be the same. Where the
        # signal was lost is open.
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (proc.returncode, err[-2000:])
    assert ("\n" + err).endswith("\ninterrupted\n") and "Traceback" not in err, err[-2000:]
    assert not (tmp_path / "profile.json").exists()
