"""Baby Jubjub points and ElGamal ciphertexts as zeenot values: the run-time types (checked
points, homomorphic sums, encryption round trips) and their compiled meaning (complete addition,
in-circuit subgroup checks of private points, homomorphic sums over lists)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from zeenot import CompileError, Field, _native, api, load_function, simulate
from zeenot.babyjub import (
    BASE8,
    SUBGROUP_ORDER,
    Ciphertext,
    Point,
    decrypt,
    encrypt,
    keygen,
    random_scalar,
    rerandomize,
)
from zeenot.errors import Failure
from zeenot.ir import to_json_value
from zeenot.types import P

SOURCE = """
from zeenot import MaxSize, Private, Public, check, u32, zk
from zeenot.babyjub import BASE8, Ciphertext, Point


@zk
def aggregate(cts: Public[MaxSize[list[Ciphertext], 6]]) -> tuple[Ciphertext, u32]:
    return sum(cts), u32(len(cts))


@zk
def split(a: Private[Point], b: Private[Point], c: Public[Point]) -> bool:
    return a + b == c and a != BASE8
"""

SMALL_ORDER = (0, P - 1)  # (0, -1): order 2, on the curve


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("bj")) / "app.py"
    path.write_text(SOURCE)
    return str(path)


def test_points_are_checked_and_add_like_the_group():
    assert 3 * BASE8 + 4 * BASE8 == 7 * BASE8
    assert (SUBGROUP_ORDER + 5) * BASE8 == 5 * BASE8
    assert -(2 * BASE8) + 2 * BASE8 == Point.identity()
    assert Field(9) * BASE8 == 9 * BASE8
    assert sum([BASE8, BASE8, BASE8]) == 3 * BASE8
    with pytest.raises(ValueError, match="prime-order subgroup"):
        Point(Field(1), Field(2))  # off the curve
    with pytest.raises(ValueError, match="prime-order subgroup"):
        Point(Field(SMALL_ORDER[0]), Field(SMALL_ORDER[1]))
    with pytest.raises(TypeError):
        Point(1.5, 2)  # type: ignore[arg-type]


def test_exponential_elgamal_round_trip_and_homomorphism():
    sk, pk = keygen()
    c = encrypt(20, pk, random_scalar()) + encrypt(22, pk, random_scalar())
    assert decrypt(sk, c) == 42
    assert decrypt(sk, 3 * c) == 126
    r = rerandomize(c, pk, random_scalar())
    assert r != c and decrypt(sk, r) == 42
    assert decrypt(sk, sum([encrypt(m, pk, random_scalar()) for m in (1, 2, 3)])) == 6


def test_homomorphic_sum_proves_and_binds(app):
    sk, pk = keygen()
    msgs = [0, 2, 1, 2, 2]
    inputs = {"cts": [to_json_value(encrypt(m, pk, random_scalar())) for m in msgs]}
    fn = load_function(app, "aggregate")
    expected = simulate(fn, inputs)
    circuit = api.compile(fn)
    leaves = circuit.program.flatten_inputs(inputs)
    _native.check_mutations(circuit.ir_json, leaves)
    keys = api.setup(circuit, seed=1)
    proof = api.prove(circuit, keys, inputs, seed=2)
    assert proof.outputs == expected and proof.outputs[1] == len(msgs)
    api.verify(circuit, keys.verifying_key, proof)
    total = proof.outputs[0]
    agg = Ciphertext(Point(**total["c1"]), Point(**total["c2"]))
    assert decrypt(sk, agg) == sum(msgs)
    # another aggregate (one more encryption of 1 added) is rejected
    other = agg + encrypt(1, pk, random_scalar())
    bad = dataclasses.replace(proof, outputs=[to_json_value(other), len(msgs)])
    with pytest.raises(api.ProofRejected):
        api.verify(circuit, keys.verifying_key, bad)


def test_invalid_points_are_rejected_before_any_work(app):
    fn = load_function(app, "split")
    good = {"a": to_json_value(3 * BASE8), "b": to_json_value(4 * BASE8)}
    assert simulate(fn, {**good, "c": to_json_value(7 * BASE8)}) is True
    for bad in ({"x": 1, "y": 2}, {"x": SMALL_ORDER[0], "y": SMALL_ORDER[1]}):
        with pytest.raises(ValueError, match="`c`: not a Baby Jubjub point"):
            simulate(fn, {**good, "c": bad})


def test_private_points_are_checked_in_the_circuit(app):
    circuit = api.compile(load_function(app, "split"))
    ok = {
        "a": to_json_value(3 * BASE8),
        "b": to_json_value(4 * BASE8),
        "c": to_json_value(7 * BASE8),
    }
    leaves = circuit.program.flatten_inputs(ok)
    assert _native.evaluate(circuit.ir_json, leaves) == ["1"]
    _native.check_mutations(circuit.ir_json, leaves)
    names = circuit.program.leaf_names()
    # a malicious prover bypasses the JSON checks: a small-order or off-curve private point
    # has no witness
    for x, y in (SMALL_ORDER, (1, 2), (0, 0)):
        raw = list(leaves)
        raw[names.index("a.x")], raw[names.index("a.y")] = str(x), str(y)
        with pytest.raises(_native.UnsatisfiedError):
            _native.evaluate(circuit.ir_json, raw)
    # a point plus a small-order point: on the curve, outside the subgroup
    tx, ty = _native.bj_add(*[str(v) for v in (3 * BASE8).__dict__.values()], "0", "1")
    mixed = _twist(int(tx), int(ty))
    raw = list(leaves)
    raw[names.index("a.x")], raw[names.index("a.y")] = str(mixed[0]), str(mixed[1])
    with pytest.raises(_native.UnsatisfiedError):
        _native.evaluate(circuit.ir_json, raw)


def _twist(x: int, y: int) -> tuple[int, int]:
    """`(x, y) + (0, −1)`: the point's sum with the order-2 point is `(−x, −y)`."""
    return (-x) % P, (-y) % P


ENCRYPT_SOURCE = """
from zeenot import Field, MaxSize, Private, Public, check, u8, u32, zk
from zeenot.babyjub import BASE8, Ciphertext, Point, encrypt, encrypts_in_range, rerandomize


@zk
def ballot(vote: Private[u8], r: Private[Field], pk: Public[Point], ct: Public[Ciphertext]) -> bool:
    check(encrypts_in_range(ct, pk, vote, r, u8(0), u8(1)), "not a ballot for 0 or 1")
    return True


@zk
def encrypts(m: Private[u32], r: Private[Field], pk: Public[Point], ct: Public[Ciphertext]) -> bool:
    check(m <= 2, "a count is 0, 1 or 2")
    check(encrypt(m, pk, r) == ct, "ct does not encrypt m")
    return True


@zk
def scale(
    k: Private[u8], c: Public[Ciphertext], r: Private[Field], pk: Public[Point]
) -> Ciphertext:
    return rerandomize(k * c + c * 2, pk, r)


@zk
def encrypts_nonzero(
    m: Private[u32], r: Private[Field], pk: Public[Point], ct: Public[Ciphertext]
) -> bool:
    check(r != 0, "the randomness is zero")  # r read beyond the encryption: canonical bits
    check(encrypt(m, pk, r) == ct, "ct does not encrypt m")
    return True


@zk
def keys(sk: Private[Field]) -> Point:
    return sk * BASE8 + -1 * BASE8


@zk
def decrypts(sk: Private[Field], ct: Public[Ciphertext], m: Public[u32]) -> bool:
    # the key holder's proof of a decryption: c2 - sk*c1 is m*B8
    return ct.c2 - sk * ct.c1 == m * BASE8


@zk
def differences(
    a: Public[Ciphertext], b: Public[Ciphertext], p: Public[Point]
) -> tuple[Ciphertext, Ciphertext, Point, Point]:
    return a - b, -a, -p, p - p
"""


@pytest.fixture(scope="module")
def enc_app(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("enc")) / "app.py"
    path.write_text(ENCRYPT_SOURCE)
    return str(path)


def test_proof_of_correct_encryption(enc_app):
    sk, pk = keygen()
    r = random_scalar()
    ct = encrypt(2, pk, r)
    inputs = {"m": 2, "r": str(r), "pk": to_json_value(pk), "ct": to_json_value(ct)}
    fn = load_function(enc_app, "encrypts")
    assert simulate(fn, inputs) is True
    circuit = api.compile(fn)
    _native.check_mutations(circuit.ir_json, circuit.program.flatten_inputs(inputs))
    keys = api.setup(circuit, seed=1)
    proof = api.prove(circuit, keys, inputs, seed=2)
    api.verify(circuit, keys.verifying_key, proof)
    # a ciphertext of another count, or a count out of range, has no proof
    for bad in ({"m": 1}, {"ct": to_json_value(encrypt(1, pk, r))}, {"m": 7}):
        with pytest.raises(_native.UnsatisfiedError):
            api.prove(circuit, keys, {**inputs, **bad})
    assert circuit.stats["constraints"] < 5000


def test_scalar_only_randomness_costs_what_the_gadget_costs(enc_app):
    """A private `Field` read only as a scalar enters as 251 bits (the gadget's randomness)
    instead of a canonical decomposition; read anywhere else, it keeps the canonical one. Both
    prove, verify, reject another ciphertext and pass the mutation check."""
    sk, pk = keygen()
    r = (
        random_scalar() + 5 * SUBGROUP_ORDER
    )  # not reduced: the circuit reduces it (x·P = (x mod l)·P)
    ct = encrypt(2, pk, r % SUBGROUP_ORDER)
    inputs = {"m": 2, "r": str(r), "pk": to_json_value(pk), "ct": to_json_value(ct)}
    counts = {}
    for name in ("encrypts", "encrypts_nonzero"):
        circuit = api.compile(load_function(enc_app, name))
        counts[name] = circuit.stats["constraints"]
        _native.check_mutations(circuit.ir_json, circuit.program.flatten_inputs(inputs))
        keys = api.setup(circuit, seed=5)
        api.verify(circuit, keys.verifying_key, api.prove(circuit, keys, inputs, seed=6))
        with pytest.raises(_native.UnsatisfiedError):
            api.prove(
                circuit,
                keys,
                {**inputs, "ct": to_json_value(encrypt(2, pk, r % SUBGROUP_ORDER + 1))},
            )
    # the gadget's 2,241 (pk an input), the identity case the language defines for a variable
    # pk (43), m <= 2 and the equality with ct (48)
    assert counts["encrypts"] <= 2_241 + 100, counts
    assert counts["encrypts_nonzero"] > counts["encrypts"] + 380, counts


def test_point_negation_and_subtraction(enc_app):
    """`-p`, `p - q`, `-c` and `c - d` (issue 13): an in-circuit decryption proof holds for
    the plaintext and for no other; differences match simulate and the group."""
    sk, pk = keygen()
    ct = encrypt(7, pk, random_scalar())
    fn = load_function(enc_app, "decrypts")
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=3)
    for m in (7, 8):
        inputs = {"sk": str(sk), "ct": to_json_value(ct), "m": m}
        want = simulate(fn, inputs)
        assert want is (m == 7)
        proof = api.prove(circuit, keys, inputs, seed=4)
        assert proof.outputs is want
        api.verify(circuit, keys.verifying_key, proof)
    other = encrypt(3, pk, random_scalar())
    diff_fn = load_function(enc_app, "differences")
    inputs = {"a": to_json_value(ct), "b": to_json_value(other), "p": to_json_value(pk)}
    expected = simulate(diff_fn, inputs)
    diff = api.compile(diff_fn)
    out = _native.evaluate(diff.ir_json, diff.program.flatten_inputs(inputs))
    got = diff.program.outputs_to_json(diff.program.unflatten_outputs(out))
    assert list(got) == list(expected)
    group = [ct - other, -ct, -pk, pk - pk]  # the runtime's group operations
    assert list(expected) == [to_json_value(v) for v in group]
    assert decrypt(sk, ct - other) == 4 and decrypt(sk, -ct + ct) == 0
    assert -pk + pk == Point.identity() and pk - pk == Point.identity()


def test_scalar_multiplication_and_rerandomization_match_simulate(enc_app):
    sk, pk = keygen()
    c = encrypt(5, pk, random_scalar())
    r = random_scalar()
    for k in (0, 1, 3, 255):
        inputs = {"k": k, "c": to_json_value(c), "r": str(r), "pk": to_json_value(pk)}
        fn = load_function(enc_app, "scale")
        expected = simulate(fn, inputs)
        circuit = api.compile(fn)
        out = _native.evaluate(circuit.ir_json, circuit.program.flatten_inputs(inputs))
        got = circuit.program.outputs_to_json(circuit.program.unflatten_outputs(out))
        assert got == expected
        back = Ciphertext(Point(**got["c1"]), Point(**got["c2"]))
        assert decrypt(sk, back) == 5 * (k + 2)
    keys_fn = load_function(enc_app, "keys")
    circuit = api.compile(keys_fn)
    for s in (0, 1, 12345, P - 1, SUBGROUP_ORDER + 3):
        inputs = {"sk": str(s)}
        out = _native.evaluate(circuit.ir_json, circuit.program.flatten_inputs(inputs))
        assert circuit.program.outputs_to_json(circuit.program.unflatten_outputs(out)) == (
            simulate(keys_fn, inputs)
        )
        _native.check_mutations(circuit.ir_json, circuit.program.flatten_inputs(inputs))


@pytest.mark.parametrize(
    "body, message",
    [
        ("return keygen()", "`keygen` is not supported in @zk"),
        ("return i8(3) * pk", "unsigned integer or a Field"),
        ("return Point(Field(0), Field(1))", "cannot be built from coordinates"),
    ],
)
def test_unsupported_operations_say_so(tmp_path, body, message):
    path = tmp_path / "bad.py"
    path.write_text(
        "from zeenot import Field, Private, i8, u32, zk\n"
        "from zeenot.babyjub import Point, keygen\n\n\n"
        f"@zk\ndef main(pk: Private[Point]):\n    {body}\n"
    )
    with pytest.raises(CompileError, match=message):
        api.compile(load_function(str(path), "main"))


def test_snp_mean_example_end_to_end():
    root = Path(__file__).resolve().parents[2] / "examples" / "snp_mean"
    generate = _example_module(root / "data.py").generate
    run = _example_module(root / "run.py")
    app_for = run.app_for
    # the committed variant: private ciphertexts bound to their public Poseidon digest
    fn, inputs, sk, counts = run.statement(3, 5, committed=True)
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=1)
    proof = api.prove(circuit, keys, inputs, seed=2)
    api.verify(circuit, keys.verifying_key, proof)
    assert proof.outputs == simulate(fn, inputs) and proof.outputs[1] == 3
    with pytest.raises(_native.UnsatisfiedError, match="not the published ciphertexts"):
        api.prove(circuit, keys, {**inputs, "published": str(int(inputs["published"]) + 1)})
    inputs, sk, counts = generate(12, seed=3)
    fn = load_function(app_for(16), "aggregate")
    total, n = simulate(fn, inputs)
    assert n == 12
    assert decrypt(sk, Ciphertext(Point(**total["c1"]), Point(**total["c2"]))) == sum(counts)
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=1)
    proof = api.prove(circuit, keys, inputs, seed=2)
    api.verify(circuit, keys.verifying_key, proof)
    assert proof.outputs == [total, n]


def test_eddsa_runtime_sign_verify():
    from zeenot.babyjub import Signature, eddsa_keygen, eddsa_sign, eddsa_verify

    seed, pk = eddsa_keygen()
    sig = eddsa_sign(seed, 77)
    assert eddsa_verify(pk, 77, sig)
    assert not eddsa_verify(pk, 78, sig)
    assert not eddsa_verify(pk, 77, Signature(sig.r8, sig.s + 1))
    assert not eddsa_verify(pk, 77, Signature(sig.r8, sig.s + SUBGROUP_ORDER))
    assert not eddsa_verify(2 * pk, 77, sig)


def test_metering_example_signed_readings():
    import json

    root = Path(__file__).resolve().parents[2] / "examples" / "metering"
    generate = _example_module(root / "data.py").generate
    inputs = generate(3)
    assert inputs == {
        **json.loads((root / "inputs.json").read_text()),
        "readings": inputs["readings"],
    }
    source = (root / "app.py").read_text().replace("MAX_READINGS = 12", "MAX_READINGS = 4")
    path = Path(__import__("tempfile").mkdtemp()) / "app.py"
    path.write_text(source)
    fn = load_function(str(path), "bill")
    expected = simulate(fn, inputs)
    kwh = [r["kwh"] for r in inputs["readings"]]
    assert expected == sum(min(k, 100) * 18 + max(k - 100, 0) * 31 for k in kwh)
    circuit = api.compile(fn)
    _native.check_mutations(circuit.ir_json, circuit.program.flatten_inputs(inputs))
    keys = api.setup(circuit, seed=1)
    proof = api.prove(circuit, keys, inputs, seed=2)
    assert proof.outputs == expected
    api.verify(circuit, keys.verifying_key, proof)
    # a changed reading, swapped periods, or another meter's key: no proof
    r = inputs["readings"]
    for bad in (
        {"readings": [{**r[0], "kwh": r[0]["kwh"] + 1}, *r[1:]]},
        {"readings": [r[1], r[0], *r[2:]]},
        {"meter": to_json_value(2 * BASE8)},
    ):
        with pytest.raises(_native.UnsatisfiedError, match="not signed by the meter"):
            api.prove(circuit, keys, {**inputs, **bad})


def test_signature_check_only_inside_check(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text(
        "from zeenot import Field, Private, Public, zk\n"
        "from zeenot.babyjub import Point, Signature, eddsa_verify\n\n\n"
        "@zk\ndef main(pk: Public[Point], m: Private[Field], s: Private[Signature]) -> bool:\n"
        "    return eddsa_verify(pk, m, s)\n"
    )
    with pytest.raises(CompileError, match="signature check"):
        api.compile(load_function(str(path), "main"))


def _example_module(path: Path):
    """Import an example's helper module by path (examples have same-named `data.py` files)."""
    import importlib.util
    import sys

    name = f"_example_{path.parent.name}_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    sys.path.insert(0, str(path.parent))  # run.py imports its sibling data.py
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def test_a_ballot_encrypts_0_or_1(enc_app):
    """`encrypts_in_range`: the published ciphertext holds a vote of 0 or 1, or no proof."""
    sk, pk = keygen()
    fn = load_function(enc_app, "ballot")
    circuit = api.compile(fn)
    keys = api.setup(circuit, seed=3)
    for vote in (0, 1):
        r = random_scalar()
        inputs = {"vote": vote, "r": str(r), "pk": to_json_value(pk)}
        inputs["ct"] = to_json_value(encrypt(vote, pk, r))
        assert simulate(fn, inputs) is True
        proof = api.prove(circuit, keys, inputs)
        api.verify(circuit, keys.verifying_key, proof)
        assert decrypt(sk, encrypt(vote, pk, r), bits=8) == vote
    r = random_scalar()
    two = {"vote": 2, "r": str(r), "pk": to_json_value(pk), "ct": to_json_value(encrypt(2, pk, r))}
    other = {**two, "vote": 1}  # claims 1, but the ciphertext holds 2
    for bad in (two, other):
        with pytest.raises(Failure):
            simulate(fn, bad)
        with pytest.raises(_native.UnsatisfiedError):
            api.prove(circuit, keys, bad)
