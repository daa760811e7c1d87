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
    # the computed argument crosses committed; the caller's own public `hi`, passed as it is,
    # is the callee's public input too (both proofs show it: the verifier compares them)
    assert [p["vis"] for p in callee.params] == ["committed", "public"]
    assert "scaled.hi => clamp.hi" in [str(x) for x in scaled.links]
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
    [
        (R.conditional, "ZN216"),
        (R.crosses_field, "ZN406"),
        (R.uses_hidden_hash, "ZN406"),
        (R.ping, "ZN206"),
    ],
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


# -- values that pass on as they are, and results shown ---------------------------------------


@pytest.fixture(scope="module")
def bonus():
    from zeenot import babyjub

    sk, pk = babyjub.keygen()
    inputs = {
        "sales": [1000, 2500, 40000],
        "r": str(babyjub.random_scalar()),
        "authority": {"x": str(int(pk.x)), "y": str(int(pk.y))},
    }
    return api.compile(R.encrypted_bonus), inputs, sk


def decrypt(sk, ct):
    from zeenot import babyjub

    point = lambda d: babyjub.Point(int(d["x"]), int(d["y"]))  # noqa: E731
    return babyjub.decrypt(sk, babyjub.Ciphertext(point(ct["c1"]), point(ct["c2"])))


def test_an_encryption_region_on_the_sigma_back_end(bonus):
    regions, inputs, sk = bonus
    kinds = {str(x) for x in regions.links}
    assert kinds == {
        "encrypted_bonus.encrypt_total(total) -> encrypt_total.total",  # committed
        "encrypted_bonus.r => encrypt_total.r",  # private, used only by the callee
        "encrypted_bonus.authority => encrypt_total.authority",  # public, shown by both
        "encrypt_total.return => encrypted_bonus.encrypt_total()",  # a ciphertext, shown
    }
    keys = {"encrypted_bonus": api.setup(regions.circuits["encrypted_bonus"], seed=3)}
    backends = {"encrypted_bonus": "groth16", "encrypt_total": "sigma"}
    b = received(bundle.prove(regions, inputs, backends, keys, seed=4))
    bundle.verify(regions, vks(keys), b)
    assert b.outputs == simulate(R.encrypted_bonus, inputs)
    assert decrypt(sk, b.outputs) == (1000 + 2500 + 40000) * 3 // 100
    assert set(b.public_inputs) == {"authority"}


@pytest.mark.parametrize("lie", ["authority", "ciphertext"])
def test_regions_that_show_different_public_values_are_rejected(bonus, monkeypatch, lie):
    """A dishonest prover gives the encryption region another key (so the authority could not
    decrypt), or the caller another ciphertext than the one the encryption region made: each
    proof holds alone; the bundle does not."""
    from zeenot import babyjub

    regions, inputs, _ = bonus
    _, other = babyjub.keygen()
    honest = bundle._evaluate

    def lying(regions, inputs):
        values = honest(regions, inputs)
        if lie == "authority":
            at = bundle._input_slices(regions.circuits["encrypt_total"].program)["authority"]
            values["encrypt_total"][at] = [str(int(other.x)), str(int(other.y))]
        else:
            at = bundle._input_slices(regions.main.program)["encrypt_total()"]
            ct = babyjub.encrypt(0, other, 5)
            values[regions.name][at] = [str(int(v)) for p in (ct.c1, ct.c2) for v in (p.x, p.y)]
        return values

    monkeypatch.setattr(bundle, "_evaluate", lying)
    forged = received(bundle.prove(regions, inputs, dict.fromkeys(regions.circuits, "sigma")))
    for name, circuit in regions.circuits.items():
        api.verify(circuit, None, forged.proofs[name])
    with pytest.raises(ProofRejected, match="show different values"):
        bundle.verify(regions, {}, forged)


def test_a_private_value_passed_on_may_not_be_used_by_the_caller_too():
    with pytest.raises(CompileError) as info:
        api.compile(R.uses_randomness_twice)
    assert info.value.diagnostic.code == "ZN406" and "one region only" in str(info.value)


@pytest.mark.slow
def test_the_survey_scores_decrypt_to_what_python_computes():
    """examples/survey: 64 responses checked and scored (Groth16), the 8 scores encrypted (the
    sigma back end); the authority decrypts each scale's score."""
    from zeenot import babyjub

    from .conftest import EXAMPLES, read_json

    target = f"{EXAMPLES / 'survey' / 'app.py'}:scored"
    regions = api.compile(target)
    inputs = read_json(EXAMPLES / "survey" / "inputs.json")
    sk, pk = babyjub.keygen()
    inputs["authority"] = {"x": str(int(pk.x)), "y": str(int(pk.y))}
    keys = {"scored": api.setup(regions.circuits["scored"], seed=5)}
    b = received(
        bundle.prove(regions, inputs, {"scored": "groth16", "encrypt_scores": "sigma"}, keys)
    )
    bundle.verify(regions, vks(keys), b)
    assert b.outputs == simulate(api.load_target(target), inputs)
    responses = inputs["responses"]
    assert [decrypt(sk, ct) for ct in b.outputs] == [
        sum(responses[8 * k : 8 * k + 8]) for k in range(8)
    ]


@pytest.mark.parametrize(
    "backends",
    [
        {"uses_tuple": "groth16", "record_sum": "groth16"},
        {"uses_tuple": "groth16", "record_sum": "sigma"},
        {"uses_tuple": "sigma", "record_sum": "groth16"},
    ],
)
def test_a_tuple_crosses_as_one_vector_commitment(backends):
    """A crossing tuple (argument or result) is one Pedersen vector commitment: its leaves are
    `joint` in the IR, the bundle holds one point for it, and that point binds every leaf."""
    regions = api.compile(R.uses_tuple)
    caller, callee = regions.circuits["uses_tuple"], regions.circuits["record_sum"]
    assert [i.get("joint", False) for i in callee.program.ir["inputs"]] == [False, True]
    assert [o.get("joint", False) for o in callee.program.ir["outputs"]] == [False, True]
    assert [i.get("joint", False) for i in caller.program.ir["inputs"]][-2:] == [False, True]
    keys = {
        n: api.setup(c, seed=3) for n, c in regions.circuits.items() if backends[n] == "groth16"
    }
    b = bundle.prove(regions, {"a": 2, "b": 9}, backends, keys, seed=4)
    bundle.verify(regions, vks(keys), received(b))
    assert b.outputs == 11
    sent = b.proofs["uses_tuple"].sent["record_sum(pair)"]
    assert len(sent["committed"]) == 1  # one point for both leaves
    assert b.proofs["record_sum"].public_inputs["pair"] == sent
    assert len(b.proofs["record_sum"].outputs["committed"]) == 1
    # another run's commitment to the same tuple (other blinding) breaks the link
    other = bundle.prove(regions, {"a": 2, "b": 9}, backends, keys, seed=5)
    for name in ("uses_tuple", "record_sum"):
        mixed = copy.deepcopy(b)
        mixed.proofs[name] = other.proofs[name]
        with pytest.raises(ProofRejected, match="commitments differ"):
            bundle.verify(regions, vks(keys), received(mixed))
    # the same values in the other order are another tuple: the callee's proof rejects it
    swapped = bundle.prove(regions, {"a": 9, "b": 2}, backends, keys, seed=4)
    forged = copy.deepcopy(b)
    forged.proofs["record_sum"] = swapped.proofs["record_sum"]
    with pytest.raises(ProofRejected):
        bundle.verify(regions, vks(keys), received(forged))


def test_cli_passes_a_committed_value_from_one_proof_to_the_next(tmp_path):
    """`zeenot prove --opening` keeps a Committed return's opening (the prover's alone, mode
    0600); `--blindings` gives it to the next proof, whose public input is then the very
    commitment the first proof published (examples/split by hand, on both back ends)."""
    import os
    import stat

    from .conftest import EXAMPLES
    from .test_cli import zeenot

    app = EXAMPLES / "split" / "app.py"
    km, prem = tmp_path / "km", tmp_path / "premium"
    zeenot("compile", f"{app}:monthly_km", "-o", str(km))
    zeenot("compile", f"{app}:premium", "-o", str(prem))
    zeenot("setup", str(km))
    opening, first = tmp_path / "opening.json", tmp_path / "km.json"
    inputs = str(EXAMPLES / "split" / "inputs.json")
    zeenot("prove", str(km), "--inputs", inputs, "-o", str(first), "--opening", str(opening))
    assert stat.S_IMODE(os.stat(opening).st_mode) == 0o600
    kept = json.loads(opening.read_text())
    assert kept["value"] == sum(json.loads(open(inputs).read())["daily_km"])
    (tmp_path / "in.json").write_text(
        json.dumps({"total_km": kept["value"], "cents_per_km": 7, "cap_cents": 10_000})
    )
    (tmp_path / "bl.json").write_text(json.dumps({"total_km": kept["blinding"]}))
    second = tmp_path / "premium.json"
    zeenot(
        "prove", str(prem), "--backend", "sigma", "--inputs", str(tmp_path / "in.json"),
        "--blindings", str(tmp_path / "bl.json"), "-o", str(second),
    )  # fmt: skip
    sent = json.loads(first.read_text())["outputs"]
    assert json.loads(second.read_text())["public_inputs"]["total_km"] == sent
    assert zeenot("verify", str(prem), str(second)).stdout.strip() == "valid"
    # malformed blindings and an opening of a program without a Committed return: exit 2
    (tmp_path / "bad.json").write_text(json.dumps({"total_km": -1}))
    bad = zeenot(
        "prove", str(prem), "--backend", "sigma", "--inputs", str(tmp_path / "in.json"),
        "--blindings", str(tmp_path / "bad.json"), "-o", str(second), check=2,
    )  # fmt: skip
    assert "[0, l)" in bad.stderr
    none = zeenot(
        "prove", str(prem), "--backend", "sigma", "--inputs", str(tmp_path / "in.json"),
        "--blindings", str(tmp_path / "bl.json"), "-o", str(second),
        "--opening", str(tmp_path / "o2.json"), check=2,
    )  # fmt: skip
    assert "does not return a Committed value" in none.stderr
