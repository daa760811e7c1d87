"""Lists without `MaxSize`: a `Template` proved by the sigma back end at the inputs' lengths.

The proof records the lengths (public); the verifier specialises the same source at them and
checks the program hash. Outputs match `simulate` and the bounded (`MaxSize`) version of the
same program; lengths, outputs and sources that do not match the proof are rejected.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from zeenot import _native, api
from zeenot.errors import CompileError
from zeenot.simulate import simulate

from .conftest import EXAMPLES, example_data
from .test_cli import zeenot

FITBIT = EXAMPLES / "fitbit" / "app.py"
ANY = f"{FITBIT}:donation_any_length"
BOUNDED = f"{FITBIT}:steps_donation"

PROGRAMS = """
from zeenot import Committed, MaxSize, Private, Public, check, u32, u64, zk


@zk
def total(days: Private[list[u32]]) -> Committed[u32]:
    return u32(sum(days))


@zk
def premium(total_km: Committed[u32], rate: Public[u32]) -> u64:
    return u64(total_km) * u64(rate)


@zk
def dot(xs: Private[list[u32]], ws: Public[list[u32]]) -> u64:
    check(len(xs) == len(ws), "one weight per value")
    total = u64(0)
    for i in range(len(xs)):  # len(xs) is a compile-time constant once specialised
        total = total + u64(xs[i]) * u64(ws[i])
    return total


@zk
def doubled(xs: Private[list[u32]], k: Public[u32]) -> list[u64]:
    return [u64(x) * u64(k) for x in xs]


@zk
def over(xs: Private[list[u32]], ys: Private[list[u32]], t: Public[u32]) -> u32:
    return u32(len([1 for x, y in zip(xs, ys, strict=True) if x + y > t]))


@zk
def rows(xss: Private[list[MaxSize[list[u32], 3]]]) -> u32:
    return u32(sum(sum(xs) for xs in xss))


@zk
def nested(xss: Private[list[list[u32]]]) -> u32:
    return u32(len(xss))


@zk
def in_tuple(p: Private[tuple[list[u32], u32]]) -> u32:
    return p[1]


@zk
def loose_return(xs: Private[MaxSize[list[u32], 4]]) -> list[u32]:
    return [x for x in xs]
"""


def _fitbit_inputs(n: int, seed: int = 3) -> dict:
    return example_data("fitbit").generate(n, seed)


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("unbounded") / "programs.py"
    path.write_text(PROGRAMS)
    return path


@pytest.fixture(scope="module")
def donation() -> api.Template:
    template = api.compile(ANY)
    assert isinstance(template, api.Template)
    assert template.unbounded == ("trace",)
    return template


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_fitbit_any_length_matches_simulate_and_the_bounded_program(donation, n):
    inputs = _fitbit_inputs(n)
    proof = api.prove_sigma(donation, inputs, seed=n)
    assert proof.lengths == {"trace": n}
    assert proof.outputs == simulate(api.load_target(ANY), inputs)
    assert proof.outputs == simulate(api.load_target(BOUNDED), inputs)
    api.verify(donation, None, proof)
    # the proof file round trip keeps the lengths
    api.verify(donation, None, api.Proof.from_json(proof.to_json()))


def test_specialised_program_has_exactly_the_elements(donation):
    circuit = donation.at({"trace": 3})
    names = circuit.program.leaf_names()
    assert "trace[2].t" in names and "trace[3].t" not in names
    assert circuit.program.params[0]["ty"].exact
    with pytest.raises(api.MalformedInput, match="exactly 3"):
        api.prove_sigma(circuit, _fitbit_inputs(2))


def test_lengths_outputs_and_programs_that_do_not_match_are_rejected(donation):
    proof = api.prove_sigma(donation, _fitbit_inputs(3), seed=1)
    for n in (2, 4):  # another length is another program
        with pytest.raises(api.ProofRejected, match="not this circuit"):
            api.verify(donation, None, replace(proof, lengths={"trace": n}))
    with pytest.raises(api.ProofRejected):
        api.verify(
            donation, None, replace(proof, outputs=[proof.outputs[0] + 1, *proof.outputs[1:]])
        )
    with pytest.raises(api.ProofRejected, match="record"):
        api.verify(donation, None, replace(proof, lengths=None))
    with pytest.raises(api.MalformedInput, match="0..65536"):
        api.verify(donation, None, replace(proof, lengths={"trace": api.MAX_LIST_LENGTH + 1}))
    with pytest.raises(api.MalformedInput, match="needs the length of exactly"):
        api.verify(donation, None, replace(proof, lengths={"trace": 3, "other": 1}))
    with pytest.raises(api.MalformedInput, match="integers"):
        api.Proof.from_json(json.dumps({**json.loads(proof.to_json()), "lengths": {"trace": "3"}}))
    bounded = api.compile(BOUNDED)
    with pytest.raises(api.ProofRejected):
        api.verify(bounded, None, proof)


def test_groth16_needs_bounds(donation):
    with pytest.raises(api.BackendMismatch, match="MaxSize"):
        api.setup(donation)


def test_len_is_a_constant_and_lists_of_different_lengths(programs):
    dot = api.compile(f"{programs}:dot")
    assert isinstance(dot, api.Template) and dot.unbounded == ("xs", "ws")
    inputs = {"xs": [3, 4, 5], "ws": [10, 100, 1000]}
    proof = api.prove_sigma(dot, inputs, seed=1)
    assert proof.outputs == 5430 and proof.lengths == {"xs": 3, "ws": 3}
    assert proof.public_inputs["ws"] == [10, 100, 1000]
    api.verify(dot, None, proof)
    with pytest.raises(_native.UnsatisfiedError, match="one weight per value"):
        api.prove_sigma(dot, {"xs": [3, 4], "ws": [1]})


def test_any_length_total_crosses_into_groth16(programs):
    """A month of any length summed by the sigma back end, the committed total consumed by a
    Groth16 proof: the boundary works for templates too."""
    total = api.compile(f"{programs}:total")
    first = api.prove_sigma(total, {"days": [12, 0, 31, 7, 5]}, seed=6)
    api.verify(total, None, api.Proof.from_json(first.to_json()))
    assert first.opening is not None and first.opening.values == 55
    premium = api.compile(f"{programs}:premium")
    keys = api.setup(premium, seed=6)
    second = api.prove(
        premium,
        keys,
        {"total_km": first.opening.values, "rate": 3},
        blindings={"total_km": first.opening.blindings},
    )
    api.verify(premium, keys.verifying_key, second)
    api.check_link(first, second, "total_km")
    assert second.outputs == 165


def test_unbounded_list_of_bounded_lists(programs):
    rows = api.compile(f"{programs}:rows")
    proof = api.prove_sigma(rows, {"xss": [[1, 2], [], [3, 4, 5]]}, seed=4)
    assert proof.outputs == 15 and proof.lengths == {"xss": 3}
    api.verify(rows, None, proof)


def test_unbounded_list_returned_and_zip(programs):
    doubled = api.compile(f"{programs}:doubled")
    proof = api.prove_sigma(doubled, {"xs": [1, 2, 3, 4, 5], "k": 7}, seed=2)
    assert proof.outputs == [7, 14, 21, 28, 35]
    api.verify(doubled, None, proof)
    empty = api.prove_sigma(doubled, {"xs": [], "k": 7}, seed=2)
    assert empty.outputs == []
    api.verify(doubled, None, empty)
    over = api.compile(f"{programs}:over")
    proof = api.prove_sigma(over, {"xs": [1, 9, 4], "ys": [1, 2, 8], "t": 10}, seed=3)
    assert proof.outputs == 2
    api.verify(over, None, proof)
    with pytest.raises(_native.UnsatisfiedError):  # zip(strict=True) of lists 3 and 2 long
        api.prove_sigma(over, {"xs": [1, 9, 4], "ys": [1, 2], "t": 10})


@pytest.mark.parametrize(
    ("fn", "text"),
    [
        ("nested", "only a parameter that is itself a list"),
        ("in_tuple", "only a parameter that is itself a list"),
        ("loose_return", "has no maximum size"),
    ],
)
def test_unbounded_lists_elsewhere_are_compile_errors(programs, fn, text):
    with pytest.raises(CompileError) as info:
        api.compile(f"{programs}:{fn}")
    diag = info.value.diagnostic
    assert diag.code == "ZN402" and text in diag.message + (diag.hint or "")
    assert diag.line is not None


def test_cli_compile_prove_verify(tmp_path):
    d = tmp_path / "fitbit_any"
    out = zeenot("compile", ANY, "-o", str(d))
    assert "template" in out.stdout and (d / "template.json").exists()
    with pytest.raises(api.MalformedInput, match="holds a template"):
        api.Circuit.load(d)
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps(_fitbit_inputs(4)))
    zeenot("setup", str(d), check=2)
    refused = zeenot("prove", str(d), "--inputs", str(inputs), "-o", str(tmp_path / "g"), check=2)
    assert "MaxSize" in refused.stderr
    proof = tmp_path / "proof.json"
    zeenot("prove", str(d), "--inputs", str(inputs), "--backend", "sigma", "-o", str(proof))
    assert json.loads(proof.read_text())["lengths"] == {"trace": 4}
    assert zeenot("verify", str(d), str(proof)).stdout.strip() == "valid"
    # the verifier's copy of the directory elsewhere, and the API on the original source
    elsewhere = tmp_path / "verifier" / "copy"
    shutil.copytree(d, elsewhere)
    assert zeenot("verify", str(elsewhere), str(proof)).stdout.strip() == "valid"
    api.verify(api.compile(ANY), None, api.Proof.from_json(proof.read_text()))
    # another length in the proof file: the verifier compiles another program
    doc = json.loads(proof.read_text())
    doc["lengths"] = {"trace": 5}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    zeenot("verify", str(d), str(bad), check=1)
    # a template.json that is not an object is a clear error, not a crash
    broken = tmp_path / "broken"
    shutil.copytree(d, broken)
    (broken / "template.json").write_text("[1]")
    assert "not a zeenot template" in zeenot("verify", str(broken), str(proof), check=2).stderr
    # a changed source in the directory is refused before anything runs
    edited = tmp_path / "edited"
    shutil.copytree(d, edited)
    src = edited / "app.py"
    src.write_text(src.read_text().replace("MAX_CADENCE = 4", "MAX_CADENCE = 40"))
    assert "does not match" in zeenot("verify", str(edited), str(proof), check=2).stderr
