"""The sigma-proof language (`zeenot.sigma`): statements written with secrets, public elements,
`&` and `|` prove and verify (completeness, for hand-written statements and every ready-made
one); a wrong witness cannot prove; a proof does not verify against another point, another
equation structure or another context; every 32-byte chunk of a proof is load-bearing; malformed
bytes are `False` (Python API) or `ValueError` (`_native`), never a crash; range proofs cannot be
made for values out of range, and forged bit commitments are rejected."""

from __future__ import annotations

import json

import pytest

from zeenot import _native
from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Point, encrypt, keygen, random_scalar
from zeenot.sigma import (
    DLRep,
    Element,
    Or,
    RangeProof,
    Secret,
    WitnessError,
    batch_verify,
    pedersen_commit,
    pedersen_opening,
    plaintext_in_range,
    plaintext_in_set,
    plaintext_knowledge,
    prove,
    same_plaintext,
    verify,
)

G, H = Element.generator(), Element.blinding()
G2 = Element("G2", 1234567 * BASE8)
CTX = b"test_sigma_lang"


def flip(data: bytes, at: int, mask: int = 1) -> bytes:
    b = bytearray(data)
    b[at] ^= mask
    return bytes(b)


# -- the language --------------------------------------------------------------------------------


def test_schnorr_and_equality_of_discrete_logs():
    x, r = Secret("x"), Secret("r")
    C = Element("C", pedersen_commit(5, 77))
    Y = Element("Y", 5 * G2.point)
    stmt = DLRep(C, x * G + r * H) & DLRep(Y, x * G2)
    assert str(stmt) == "(C = x*G + r*H & Y = x*G2)"
    assert [s.name for s in stmt.secrets] == ["x", "r"]
    proof = stmt.prove({x: 5, r: 77}, context=CTX)
    assert len(proof) == stmt.proof_size == 32 * (2 + 0 + 2)
    assert stmt.verify(proof, context=CTX)
    assert verify(stmt, proof, context=CTX)
    # names work as witness keys when unique; values are taken modulo l
    assert stmt.verify(
        prove(stmt, {"x": 5 + SUBGROUP_ORDER, "r": 77 - SUBGROUP_ORDER}), context=b""
    )
    # a proof is randomised unless seeded (the seed is for tests only)
    assert stmt.prove({x: 5, r: 77}) != stmt.prove({x: 5, r: 77})
    assert stmt.prove({x: 5, r: 77}, seed=3) == stmt.prove({x: 5, r: 77}, seed=3)
    # the same x in both equations: different discrete logs cannot be proved equal
    bad = DLRep(C, x * G + r * H) & DLRep(Element("Y", 6 * G2.point), x * G2)
    with pytest.raises(WitnessError, match=r"`Y = x\*G2` does not hold"):
        bad.prove({x: 5, r: 77})


def test_or_hides_which_branch_and_element_arithmetic():
    r0, r1 = Secret("r0"), Secret("r1")
    for bit in (0, 1):
        C = Element("C", pedersen_commit(bit, 99))
        stmt = DLRep(C, r0 * H) | DLRep(C - G, r1 * H)
        assert str(stmt) == "(C = r0*H | (C - G) = r1*H)"
        assert stmt.proof_size == 32 * (2 + 1 + 2)
        # the prover opens one branch and omits the other's secret
        proof = stmt.prove({(r1 if bit else r0): 99}, context=CTX)
        assert stmt.verify(proof, context=CTX)
    C = Element("C", pedersen_commit(2, 99))
    stmt = DLRep(C, r0 * H) | DLRep(C - G, r1 * H)
    with pytest.raises(WitnessError, match="no branch of an OR holds"):
        stmt.prove({r0: 99, r1: 99})
    # derived elements: public multiples, sums, negation, and constants in expressions
    x = Secret("x")
    P = Element("P", 7 * BASE8 + 3 * H.point)
    assert DLRep(P, x * G + 3 * H).verify(DLRep(P, x * G + 3 * H).prove({x: 7}))
    assert DLRep(P - 3 * H, x * G).verify(DLRep(P - 3 * H, x * G).prove({x: 7}))
    assert DLRep(-P, x * -G + H * -3).prove({x: 7})
    # raw babyjub Points are accepted wherever an Element is
    stmt = DLRep(7 * BASE8, x * BASE8)
    assert stmt.verify(stmt.prove({x: 7}))


def test_statements_are_checked_when_written():
    x, y = Secret("x"), Secret("y")
    C = Element("C", BASE8)
    with pytest.raises(ValueError, match="'x' is used in two different OR branches"):
        DLRep(C, x * G) | DLRep(C, x * H)
    with pytest.raises(ValueError, match="'x' is used in two different OR branches"):
        DLRep(C, x * G) & (DLRep(C, x * H) | DLRep(C, y * H))
    with pytest.raises(ValueError, match="at least two"):
        Or(DLRep(C, x * G))
    with pytest.raises(TypeError, match="not linear"):
        x * y  # noqa: B018
    with pytest.raises(TypeError, match=r"x \* \(k \* G\)"):
        3 * x  # noqa: B018
    with pytest.raises(TypeError, match="needs a base"):
        DLRep(C, x)
    with pytest.raises(TypeError):
        DLRep(3, x * G)
    stmt = DLRep(C, x * G)
    with pytest.raises(ValueError, match="not a secret of this statement"):
        stmt.prove({y: 1})
    with pytest.raises(ValueError, match="no secret of this statement named 'z'"):
        stmt.prove({"z": 1})
    with pytest.raises(WitnessError, match="no value for x"):
        stmt.prove({})
    with pytest.raises(TypeError):
        stmt.prove({x: 1.5})
    with pytest.raises(TypeError, match="context must be bytes"):
        stmt.prove({x: 1}, context="text")
    # two secrets with one name: key by Secret
    x2 = Secret("x")
    both = DLRep(C, x * G) & DLRep(C, x2 * G)
    with pytest.raises(ValueError, match="2 secrets of this statement named 'x'"):
        both.prove({"x": 1})
    assert both.verify(both.prove({x: 1, x2: 1}))


def test_wire_json_is_the_rust_form():
    x, r = Secret("x"), Secret("r")
    C = Element("C", pedersen_commit(1, 2))
    a, b = Secret("a"), Secret("b")
    stmt = DLRep(C, x * G + r * H) & (DLRep(G2, a * G2) | DLRep(C, b * G))
    doc = json.loads(stmt.to_json())
    assert doc["secrets"] == ["x", "r", "a", "b"]
    assert [e["name"] for e in doc["elements"]] == ["C", "G", "H", "G2"]
    assert (
        doc["elements"][1]["point"]
        == bytes(_native.bj_pack(str(int(BASE8.x)), str(int(BASE8.y)))).hex()
    )
    assert doc["equations"][0] == {"lhs": 0, "terms": [[0, 1], [1, 2]]}
    assert doc["equations"][1] == {"lhs": 3, "terms": [[2, 3]]}
    assert doc["root"] == {"and": [{"eq": 0}, {"or": [{"eq": 1}, {"eq": 2}]}]}


# -- ready-made statements -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def key():
    return keygen()


def test_pedersen_opening_and_plaintext_knowledge(key):
    _, pk = key
    C = pedersen_commit(42, 1001)
    po = pedersen_opening(C)
    assert po.verify(po.prove(po.witness(42, 1001), context=CTX), context=CTX)
    with pytest.raises(WitnessError):
        po.prove(po.witness(43, 1001))

    r = random_scalar()
    ct = encrypt(42, pk, r)
    pt = plaintext_knowledge(ct, pk)
    proof = pt.prove(pt.witness(42, r), context=CTX)
    assert pt.verify(proof, context=CTX)
    with pytest.raises(WitnessError, match="c2"):
        pt.prove(pt.witness(41, r))
    with pytest.raises(WitnessError, match="c1"):
        pt.prove(pt.witness(42, r + 1))

    # linking: the committed value and the plaintext are one secret
    m = Secret("m")
    linked = pedersen_opening(C, value=m) & plaintext_knowledge(ct, pk, message=m)
    w = {m: 42, linked.children[0].blinding: 1001, linked.children[1].randomness: r}
    assert linked.verify(linked.prove(w, context=CTX), context=CTX)
    other = pedersen_commit(41, 1001)
    bad = pedersen_opening(other, value=m) & plaintext_knowledge(ct, pk, message=m)
    with pytest.raises(WitnessError):
        bad.prove({m: 42, bad.children[0].blinding: 1001, bad.children[1].randomness: r})


def test_same_plaintext(key):
    _, pk1 = key
    _, pk2 = keygen()
    r1, r2 = random_scalar(), random_scalar()
    ct1, ct2 = encrypt(7, pk1, r1), encrypt(7, pk2, r2)
    sp = same_plaintext(ct1, pk1, ct2, pk2)
    proof = sp.prove(sp.witness(7, r1, r2), context=CTX)
    assert sp.verify(proof, context=CTX)
    ct3 = encrypt(8, pk2, r2)
    sp_bad = same_plaintext(ct1, pk1, ct3, pk2)
    with pytest.raises(WitnessError, match="c2_2"):
        sp_bad.prove(sp_bad.witness(7, r1, r2))
    assert not sp_bad.verify(proof, context=CTX)


def test_plaintext_in_set(key):
    _, pk = key
    values = [3, 5, 8, 13]
    for m in values:
        r = random_scalar()
        ct = encrypt(m, pk, r)
        st = plaintext_in_set(ct, pk, values)
        proof = st.prove(st.witness(m, r), context=CTX)
        assert st.verify(proof, context=CTX)
        assert not plaintext_in_set(ct, pk, [3, 5, 8, 21]).verify(proof, context=CTX)
    r = random_scalar()
    ct = encrypt(4, pk, r)
    st = plaintext_in_set(ct, pk, values)
    with pytest.raises(WitnessError, match="not one of the set"):
        st.witness(4, r)
    # a prover lying about which value: the branch's equations fail
    with pytest.raises(WitnessError, match="no branch"):
        st.prove({st.randomness[0]: r})
    # duplicates collapse; a single value needs no OR
    single = plaintext_in_set(ct, pk, [4, 4])
    assert single.values == (4,)
    assert single.verify(single.prove(single.witness(4, r)))


@pytest.mark.parametrize("bits, values", [(1, [0, 1]), (8, [0, 1, 200, 255]), (32, [2**32 - 1])])
def test_plaintext_in_range_completeness(key, bits, values):
    _, pk = key
    for m in values:
        r = random_scalar()
        ct = encrypt(m, pk, r)
        rs = plaintext_in_range(ct, pk, bits)
        proof = rs.prove(m, r, context=CTX)
        assert isinstance(proof, RangeProof) and len(proof.commitments) == bits
        assert rs.verify(proof, context=CTX)
        data = proof.to_bytes()
        assert len(data) == 1 + 32 * bits + 32 * (5 * bits + 6)
        assert RangeProof.from_bytes(data) == proof
        assert rs.verify(data, context=CTX)
        assert not rs.verify(data, context=CTX + b"!")


def test_range_proof_for_out_of_range_values_cannot_be_made(key):
    _, pk = key
    bits = 4
    for m in (16, 17, -1, SUBGROUP_ORDER - 1):
        r = random_scalar()
        ct = encrypt(m, pk, r)
        rs = plaintext_in_range(ct, pk, bits)
        with pytest.raises(WitnessError, match=r"not in \[0, 2\^4\)"):
            rs.prove(m, r)
    # bypassing the front end's check: commit to the low bits of 16 (all zero) → D ≠ 16·G + s·H
    r = random_scalar()
    ct = encrypt(16, pk, r)
    rs = plaintext_in_range(ct, pk, bits)
    commitments, blindings = rs.commit(0)
    st = rs.statement(commitments)
    w = rs.witness(16, r, blindings)
    with pytest.raises(WitnessError, match=r"`D = m\*G \+ s\*H` does not hold"):
        st.prove(w)
    # a "bit" of value 2 (16 = 2·2^3): C_3 = 2·G + s·H opens to neither 0 nor 1
    commitments, blindings = rs.commit(0)
    commitments[3] = commitments[3] + 2 * BASE8
    st = rs.statement(commitments)
    w = rs.witness(0, r, blindings)
    w[rs.message] = 16
    w[rs._bit_secrets[3][1]] = blindings[3]
    with pytest.raises(WitnessError, match="no branch of an OR holds"):
        st.prove(w)
    with pytest.raises(ValueError, match="bits must be between 1 and 250"):
        plaintext_in_range(ct, pk, 251)
    with pytest.raises(ValueError):
        plaintext_in_range(ct, pk, 0)


def test_forged_bit_commitments_are_rejected(key):
    _, pk = key
    bits, m, r = 8, 77, random_scalar()
    ct = encrypt(m, pk, r)
    rs = plaintext_in_range(ct, pk, bits)
    proof = rs.prove(m, r, context=CTX)
    cs = list(proof.commitments)
    forgeries = [
        cs[:3] + [cs[3] + BASE8] + cs[4:],  # bit 3 shifted by G
        cs[1:2] + cs[:1] + cs[2:],  # two bits swapped
        cs[:-1] + [pedersen_commit(1, 5)],  # a fresh valid bit commitment
        cs[:-1],  # one bit missing
        cs + [pedersen_commit(0, 5)],  # one bit too many
    ]
    for forged in forgeries:
        assert not rs.verify(RangeProof(tuple(forged), proof.proof), context=CTX)
    # the range proof of one ciphertext does not cover another
    ct2 = encrypt(m, pk, r + 1)
    assert not plaintext_in_range(ct2, pk, bits).verify(proof, context=CTX)
    assert not plaintext_in_range(ct, pk, bits + 1).verify(proof, context=CTX)
    # bytes: every chunk matters; malformed layouts are False (from_bytes: ValueError)
    data = proof.to_bytes()
    for at in range(1, len(data), 32):
        assert not rs.verify(flip(data, at), context=CTX), at
    for bad in (b"", data[:1], data[:-1], data + b"\0", bytes([0]) + data[1:], b"\xff" + data[1:]):
        assert not rs.verify(bad, context=CTX)
    for bad in (b"", data[:40], bytes([0]) + data[1:]):
        with pytest.raises(ValueError):
            RangeProof.from_bytes(bad)


# -- soundness of the proof bytes ----------------------------------------------------------------


@pytest.fixture(scope="module")
def sample():
    """A statement with AND, OR and shared secrets, and a valid proof of it."""
    x, r, a, b = Secret("x"), Secret("r"), Secret("a"), Secret("b")
    C = Element("C", pedersen_commit(5, 77))
    Y = Element("Y", 5 * G2.point)
    D = Element("D", pedersen_commit(1, 8))
    stmt = DLRep(C, x * G + r * H) & DLRep(Y, x * G2) & (DLRep(D, a * H) | DLRep(D - G, b * H))
    proof = stmt.prove({x: 5, r: 77, b: 8}, context=CTX)
    return stmt, proof, (x, r, a, b, C, Y, D)


def test_proof_is_bound_to_the_statement_and_context(sample):
    stmt, proof, (x, r, a, b, C, Y, D) = sample
    assert stmt.verify(proof, context=CTX)
    assert not stmt.verify(proof, context=b"another context")
    assert not stmt.verify(proof)
    Y2 = Element("Y", 6 * G2.point)
    variants = [
        # another point
        DLRep(C, x * G + r * H) & DLRep(Y2, x * G2) & (DLRep(D, a * H) | DLRep(D - G, b * H)),
        DLRep(C, x * G + r * G2) & DLRep(Y, x * G2) & (DLRep(D, a * H) | DLRep(D - G, b * H)),
        # another equation structure, same size: terms swapped; equality dropped; branches swapped
        DLRep(C, r * H + x * G) & DLRep(Y, x * G2) & (DLRep(D, a * H) | DLRep(D - G, b * H)),
        DLRep(C, x * G + r * H)
        & DLRep(Y, Secret("x2") * G2)
        & (DLRep(D, a * H) | DLRep(D - G, b * H)),
        DLRep(C, x * G + r * H) & DLRep(Y, x * G2) & (DLRep(D - G, b * H) | DLRep(D, a * H)),
        # another shape: the OR turned into an AND of its branches (different proof length)
        DLRep(C, x * G + r * H) & DLRep(Y, x * G2) & DLRep(D, a * H) & DLRep(D - G, b * H),
    ]
    for v in variants:
        assert not v.verify(proof, context=CTX), str(v)
    # names are labels, not part of the statement
    renamed = (
        DLRep(Element("K", C.point), x * G + r * H)
        & DLRep(Y, x * G2)
        & (DLRep(D, a * H) | DLRep(D - G, b * H))
    )
    assert renamed.verify(proof, context=CTX)


def test_every_chunk_of_the_proof_matters(sample):
    stmt, proof, _ = sample
    assert len(proof) % 32 == 0
    for chunk in range(len(proof) // 32):
        for at, mask in ((32 * chunk, 1), (32 * chunk + 17, 0x10), (32 * chunk + 31, 0x80)):
            assert not stmt.verify(flip(proof, at, mask), context=CTX), (chunk, at)
        replaced = proof[: 32 * chunk] + bytes(32) + proof[32 * chunk + 32 :]
        assert not stmt.verify(replaced, context=CTX), chunk


def test_truncated_or_extended_bytes(sample):
    """The Python API answers `False` for bytes of the wrong length; `_native.sigma_verify`
    raises `ValueError("malformed proof: expected N bytes, got M")`."""
    stmt, proof, _ = sample
    for bad in (b"", proof[:32], proof[:-1], proof[:-32], proof + b"\0", proof + bytes(32)):
        assert stmt.verify(bad, context=CTX) is False
        with pytest.raises(ValueError, match="malformed proof: expected"):
            _native.sigma_verify(stmt.to_json(), bad, CTX)
    with pytest.raises(TypeError):
        stmt.verify("not bytes", context=CTX)


def test_batch_verification(sample, key):
    stmt, proof, _ = sample
    _, pk = key
    r = random_scalar()
    ct = encrypt(9, pk, r)
    rs = plaintext_in_range(ct, pk, 4)
    rp = rs.prove(9, r, context=b"range")
    po = pedersen_opening(pedersen_commit(1, 2))
    pp = po.prove(po.witness(1, 2))
    good = [(stmt, proof, CTX), (rs, rp, b"range"), (po, pp, b""), (rs, rp.to_bytes(), b"range")]
    assert batch_verify(good)
    assert batch_verify([])
    assert not batch_verify(good + [(stmt, proof, b"other")])
    assert not batch_verify(good + [(stmt, flip(proof, 0), CTX)])
    assert not batch_verify(good + [(stmt, proof[:-1], CTX)])
    assert not batch_verify(good + [(rs, b"\x04junk", b"range")])
    assert not batch_verify([(po, proof, b"")])


# -- the native layer ----------------------------------------------------------------------------


def test_native_errors_are_value_errors_never_crashes(sample):
    stmt, proof, _ = sample
    doc = json.loads(stmt.to_json())
    assert _native.sigma_verify(stmt.to_json(), proof, CTX) is True
    assert _native.sigma_verify(stmt.to_json(), proof, b"") is False
    assert _native.sigma_batch_verify([(stmt.to_json(), proof, CTX)]) is True

    def bad_statement(mutate, match):
        d = json.loads(json.dumps(doc))
        mutate(d)
        with pytest.raises(ValueError, match=match):
            _native.sigma_verify(json.dumps(d), proof, CTX)
        with pytest.raises(ValueError, match=match):
            _native.sigma_prove(json.dumps(d), [None] * len(d["secrets"]), CTX)

    bad_point = bytes(32).hex()  # y = 0: not a point of the subgroup
    bad_statement(lambda d: d["elements"][1].update(point=bad_point), r"element 1 \(\"G\"\)")
    bad_statement(lambda d: d["elements"][0].update(point="00"), "64 hex")
    bad_statement(lambda d: d["equations"][0].update(lhs=99), "element 99")
    bad_statement(lambda d: d.update(root={"and": [{"eq": 0}]}), "not in the tree")
    bad_statement(lambda d: d.update(extra=1), "unknown field")
    with pytest.raises(ValueError, match="invalid statement JSON"):
        _native.sigma_verify("{", proof, CTX)
    deep = '{"secrets":[],"elements":[],"equations":[],"root":' + '{"and":[' * 5000
    with pytest.raises(ValueError, match="invalid statement JSON"):
        _native.sigma_verify(deep, proof, CTX)

    # witnesses: wrong count, non-canonical, not hex; a false one
    n = len(doc["secrets"])
    with pytest.raises(ValueError, match="witness entries"):
        _native.sigma_prove(stmt.to_json(), [None] * (n - 1), CTX)
    with pytest.raises(ValueError, match="canonical scalar"):
        _native.sigma_prove(stmt.to_json(), ["ff" * 32] + [None] * (n - 1), CTX)
    with pytest.raises(ValueError, match="canonical scalar"):
        _native.sigma_prove(stmt.to_json(), ["zz"] + [None] * (n - 1), CTX)
    with pytest.raises(ValueError, match="does not satisfy"):
        _native.sigma_prove(stmt.to_json(), [None] * n, CTX)
    with pytest.raises(ValueError, match="item 1"):
        _native.sigma_batch_verify([(stmt.to_json(), proof, CTX), (stmt.to_json(), b"", CTX)])

    # arbitrary bytes of the right length: False or ValueError, nothing else
    import random

    rnd = random.Random(5)
    for _ in range(50):
        junk = rnd.randbytes(len(proof))
        try:
            assert _native.sigma_verify(stmt.to_json(), junk, CTX) is False
        except ValueError as e:
            assert str(e).startswith("malformed proof")


def test_packed_points():
    for p in (BASE8, -BASE8, Point.identity(), H.point, 12345 * BASE8):
        xy = (str(int(p.x)), str(int(p.y)))
        packed = bytes(_native.bj_pack(*xy))
        assert len(packed) == 32
        assert _native.bj_unpack(packed) == xy
    with pytest.raises(ValueError, match="subgroup"):
        _native.bj_unpack(bytes(31))
    with pytest.raises(ValueError):
        _native.bj_unpack(b"\xff" * 32)
    with pytest.raises(ValueError):
        _native.bj_pack("0", "2")
