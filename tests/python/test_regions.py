"""Programs in regions and their proof bundles (issue 12): a `@zk` function calling another is
proved in pieces that cross values as commitments; a bundle verifies only whole and linked."""

from __future__ import annotations

import copy
import json

import pytest

from zeenot import _native, api, bundle
from zeenot.errors import CompileError, MalformedInput, ProofRejected
from zeenot.simulate import simulate

from .programs import regions as R

SCALED = {"readings": [3, 4, 5], "hi": 10, "k": 3}
ALL_SIGMA = {"scaled": "sigma", "total": "sigma", "clamp": "sigma", "clamp#2": "sigma"}


@pytest.fixture(scope="module")
def scaled():
    return api.compile(R.scaled)


@pytest.fixture(scope="module")
def scaled_keys(scaled):
    return {n: api.setup(c, seed=k) for k, (n, c) in enumerate(scaled.circuits.items())}


def vks(keys):
    return {n: k.verifying_key for n, k in keys.items()}


def received(b: bundle.Bundle) -> bundle.Bundle:
    """What a verifier reads: the bundle through its JSON."""
    return bundle.Bundle.from_json(b.to_json())


def test_a_call_to_a_zk_function_is_a_region(scaled):
    assert isinstance(scaled, bundle.Regions)
    assert list(scaled.circuits) == ["scaled", "total", "clamp", "clamp#2"]
    assert [str(x) for x in scaled.links][:2] == [
        "scaled.total(xs) -> total.xs",
        "total.return -> scaled.total()",
    ]
    # every crossing value is committed on both sides; the program's own values are not
    main = {p["name"]: p["vis"] for p in scaled.main.program.params}
    assert main == {
        "readings": "private",
        "hi": "public",
        "k": "public",
        "total()": "committed",
        "clamp()": "committed",
        "clamp#2()": "committed",
    }
    callee = scaled.circuits["clamp"].program
    assert [p["vis"] for p in callee.params] == ["committed", "committed"]
    assert callee.returns_committed


def test_a_program_without_calls_is_one_circuit_as_before():
    circuit = api.compile(R.clamp)
    assert isinstance(circuit, api.Circuit)
    inlined = api.Circuit(api.compile_function(R.clamp))
    assert circuit.hash == inlined.hash


@pytest.mark.parametrize(
    "fn, inputs",
    [
        (R.scaled, SCALED),
        (R.scaled, {"readings": [900_000, 50, 1], "hi": 1 << 31, "k": 255}),
        (R.outer, {"xs": [100, 200, 300], "hi": 500}),
        (R.ignores, {"x": 7, "hi": 3}),
        (R.uses_tuple, {"a": 2, "b": 9}),
        (R.uses_tuple, {"a": 9, "b": 2}),
    ],
)
def test_bundle_computes_what_python_computes(fn, inputs):
    regions = api.compile(fn)
    b = bundle.prove(regions, inputs, dict.fromkeys(regions.circuits, "sigma"), seed=5)
    bundle.verify(regions, {}, received(b))
    assert b.outputs == simulate(fn, inputs)
    assert b.public_inputs == {k: v for k, v in inputs.items() if k in ("hi", "k")}


@pytest.mark.slow
@pytest.mark.parametrize("mix", ["groth16", "mixed", "mixed-other-way"])
def test_regions_cross_back_ends(scaled, scaled_keys, mix):
    names = list(scaled.circuits)
    backends = {
        n: "groth16" if mix == "groth16" or (mix == "mixed") == (k % 2 == 0) else "sigma"
        for k, n in enumerate(names)
    }
    b = bundle.prove(scaled, SCALED, backends, scaled_keys, seed=6)
    assert {n: p.backend for n, p in b.proofs.items()} == backends
    bundle.verify(scaled, vks(scaled_keys), received(b))
    assert b.outputs == simulate(R.scaled, SCALED)


def test_a_region_that_fails_has_no_bundle():
    regions = api.compile(R.ignores)
    # clamp's check (x < 1,000,000) fails although its result is unused
    with pytest.raises(_native.UnsatisfiedError, match="implausible reading"):
        bundle.prove(regions, {"x": 2_000_000, "hi": 3}, dict.fromkeys(regions.circuits, "sigma"))
    regions = api.compile(R.scaled)
    with pytest.raises(_native.UnsatisfiedError, match="len"):  # total: len(xs) >= 2
        bundle.prove(regions, {**SCALED, "readings": [1]}, ALL_SIGMA)


def test_the_programs_own_committed_values_beside_the_crossings():
    regions = api.compile(R.committed_in)
    backends = dict.fromkeys(regions.circuits, "sigma")
    b = bundle.prove(regions, {"c": 41, "hi": 40}, backends, blindings={"c": 1234}, seed=2)
    bundle.verify(regions, {}, received(b))
    assert b.opening is not None and b.opening.values == 41
    assert set(b.public_inputs) == {"c", "hi"}  # the crossing `clamp()` is not the program's
    # the committed input is the commitment to 41 with blinding 1234 that the caller holds
    solo = api.compile(R.clamp)
    assert solo is not None


# -- a bundle verifies only whole ---------------------------------------------------------------


@pytest.fixture(scope="module")
def two_runs(scaled):
    first = bundle.prove(scaled, SCALED, ALL_SIGMA, seed=7)
    second = bundle.prove(scaled, SCALED, ALL_SIGMA, seed=8)  # the same values, other blindings
    other = bundle.prove(scaled, {**SCALED, "readings": [1, 1]}, ALL_SIGMA, seed=9)
    return first, second, other


def test_a_regions_proof_from_another_run_breaks_a_link(scaled, two_runs):
    first, second, other = two_runs
    for donor in (second, other):
        for name in scaled.circuits:
            mixed = received(first)
            mixed.proofs[name] = donor.proofs[name]
            with pytest.raises(ProofRejected, match="link"):
                bundle.verify(scaled, {}, mixed)


def test_swapping_two_calls_of_one_region_is_rejected(scaled, two_runs):
    b = received(two_runs[0])
    one, two = b.proofs["clamp"], b.proofs["clamp#2"]
    b.proofs["clamp"], b.proofs["clamp#2"] = two, one
    with pytest.raises(ProofRejected):
        bundle.verify(scaled, {}, b)


def _doc(b: bundle.Bundle) -> dict:
    return json.loads(b.to_json())


def _flip(point: list[str]) -> list[str]:
    return [point[0], str(int(point[1]) + 1)]


@pytest.mark.parametrize(
    "where",
    [
        "proof bytes",
        "sent commitment",
        "received commitment",
        "result commitment",
        "public input",
        "output",
        "regions hash",
        "missing region",
        "extra region",
    ],
)
def test_tampering_with_any_part_is_rejected(scaled, two_runs, where):
    doc = _doc(two_runs[0])
    proofs = doc["proofs"]
    if where == "proof bytes":
        raw = bytearray.fromhex(proofs["total"]["proof"])
        raw[40] ^= 1
        proofs["total"]["proof"] = raw.hex()
    elif where == "sent commitment":
        sent = proofs["scaled"]["sent"]["clamp(x)"]["committed"]
        sent[0] = two_runs[1].proofs["scaled"].sent["clamp(x)"]["committed"][0]
    elif where == "received commitment":
        got = proofs["clamp"]["public_inputs"]["x"]["committed"]
        got[0] = _flip(got[0])
    elif where == "result commitment":
        proofs["total"]["outputs"]["committed"][0] = proofs["clamp"]["outputs"]["committed"][0]
    elif where == "public input":
        proofs["scaled"]["public_inputs"]["k"] = 4
    elif where == "output":
        proofs["scaled"]["outputs"] += 1
    elif where == "regions hash":
        doc["regions_hash"] = "0" * 64
    elif where == "missing region":
        del proofs["clamp#2"]
    else:
        proofs["clamp#3"] = copy.deepcopy(proofs["clamp#2"])
    try:
        tampered = bundle.Bundle.from_json(json.dumps(doc))
    except MalformedInput:
        return  # refused on reading: also a rejection
    with pytest.raises((ProofRejected, MalformedInput)):
        bundle.verify(scaled, {}, tampered)


def test_a_caller_that_lies_about_a_result_is_caught(scaled, monkeypatch):
    """A dishonest prover runs the caller on a result the callee did not compute (`total()`
    claimed 0). Each proof is valid on its own; the link between them is not."""
    honest = bundle._evaluate

    def lying(regions, inputs):
        values = honest(regions, inputs)
        main = regions.main.program
        at = bundle._input_slices(main)["total()"]
        values[regions.name][at] = ["0"]
        return values

    monkeypatch.setattr(bundle, "_evaluate", lying)
    forged = received(bundle.prove(scaled, SCALED, ALL_SIGMA, seed=10))
    for name, circuit in scaled.circuits.items():
        api.verify(circuit, None, forged.proofs[name])  # each proof alone holds
    with pytest.raises(ProofRejected, match=r"link total\.return -> scaled\.total\(\)"):
        bundle.verify(scaled, {}, forged)


def test_regions_save_and_load(scaled, tmp_path):
    scaled.save(tmp_path / "app")
    loaded = api.load(tmp_path / "app")
    assert isinstance(loaded, bundle.Regions) and loaded.hash == scaled.hash
    b = bundle.prove(loaded, SCALED, ALL_SIGMA, seed=3)
    bundle.verify(scaled, {}, received(b))
    # a manifest that no longer matches its regions' programs is refused
    manifest = tmp_path / "app" / bundle.REGIONS_FILE
    doc = json.loads(manifest.read_text())
    doc["links"] = doc["links"][1:]
    manifest.write_text(json.dumps(doc))
    with pytest.raises(MalformedInput, match="receives nothing|nowhere"):
        api.load(tmp_path / "app")


# -- what the compiler refuses ----------------------------------------------------------------


@pytest.mark.parametrize(
    "fn, code",
    [(R.conditional, "ZN216"), (R.crosses_field, "ZN406"), (R.ping, "ZN206")],
)
def test_refused_region_calls(fn, code):
    with pytest.raises(CompileError) as info:
        api.compile(fn)
    assert info.value.diagnostic.code == code
    assert info.value.diagnostic.line is not None


# -- the command line -----------------------------------------------------------------------


def test_cli_compile_setup_prove_auto_verify(tmp_path):
    from .conftest import EXAMPLES
    from .test_cli import zeenot

    d, out = tmp_path / "mp", tmp_path / "bundle.json"
    inputs = str(EXAMPLES / "split" / "monthly.json")
    done = zeenot("compile", f"{EXAMPLES / 'split' / 'app.py'}:monthly_premium", "-o", str(d))
    assert "in 2 regions" in done.stdout
    zeenot("setup", str(d))
    assert (d / "regions" / "premium" / api.KEYS_FILE).exists()
    proved = zeenot("prove", str(d), "--inputs", inputs, "--backend", "auto", "-o", str(out))
    # the planner's choice per region: the list work in groth16, the small premium in sigma
    assert "monthly_premium: backend: groth16" in proved.stderr
    assert "premium: backend: sigma" in proved.stderr
    assert json.loads(proved.stdout)["outputs"] == 3528
    assert zeenot("verify", str(d), str(out)).stdout.strip() == "valid"
    # a bundle with a region's proof from another run: exit 1, naming the broken link
    again = tmp_path / "again.json"
    zeenot("prove", str(d), "--inputs", inputs, "--backend", "auto", "-o", str(again))
    mixed = json.loads(out.read_text())
    mixed["proofs"]["premium"] = json.loads(again.read_text())["proofs"]["premium"]
    bad = tmp_path / "mixed.json"
    bad.write_text(json.dumps(mixed))
    rejected = zeenot("verify", str(d), str(bad), check=1)
    assert "link" in rejected.stderr
    listed = zeenot("verify", str(d), str(out), str(bad), check=1)
    assert f"{out}: valid" in listed.stdout and f"{bad}: invalid" in listed.stderr
    # a single proof where a bundle belongs, and the other way round: exit 2
    zeenot("verify", str(d), str(EXAMPLES / "split" / "monthly.json"), check=2)
    zeenot("check", str(d), check=2)
