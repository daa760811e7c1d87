"""Keyed-verification anonymous credentials (zeenot.cashlib.kvac): blind issuance, selective
disclosure, predicates, and a corpus of forged, altered and replayed messages, all rejected."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from zeenot.babyjub import BASE8, SUBGROUP_ORDER, random_scalar
from zeenot.cashlib.kvac import (
    Credential,
    CredentialError,
    CredentialVerifier,
    IssuanceRequest,
    IssuanceResponse,
    IssuerKey,
    Policy,
    Presentation,
    finish_issuance,
    issue,
    present,
    request_credential,
    verify_presentation,
)
from zeenot.sigma import WitnessError, pedersen_commit

N = 10
ATTRS = [1000 + i for i in range(N)]
HIDDEN = [1, 2, 3, 4]
REVEAL1 = Policy(reveal=frozenset({0}))


@pytest.fixture(scope="module")
def key() -> IssuerKey:
    return IssuerKey.generate(N)


@pytest.fixture(scope="module")
def cred(key: IssuerKey) -> Credential:
    req, state = request_credential(key.params, ATTRS, HIDDEN, context=b"session")
    # the messages cross as bytes
    resp = issue(key, IssuanceRequest.from_bytes(req.to_bytes()), context=b"session")
    return finish_issuance(state, IssuanceResponse.from_bytes(resp.to_bytes()))


def test_blind_issuance_gives_the_mac_on_the_hidden_attributes(key, cred):
    assert cred.attributes == tuple(ATTRS)
    assert cred.u_prime == key.mac(ATTRS, cred.u)
    assert "1000" not in repr(cred) and "x0" not in repr(key)


def test_the_issuer_sees_hidden_attributes_only_encrypted(key):
    req, _ = request_credential(key.params, ATTRS, HIDDEN)
    assert sorted(i for i, _ in req.revealed) == [i for i in range(N) if i not in HIDDEN]
    assert [i for i, _, _ in req.hidden] == HIDDEN
    wire = req.to_bytes()
    for i in HIDDEN:  # neither the value nor m·G appears in what the issuer receives
        assert ATTRS[i].to_bytes(32, "little") not in wire
        assert bytes.fromhex(_packed(ATTRS[i] * BASE8)) not in wire


def _packed(p) -> str:
    from zeenot.cashlib.group import pack

    return pack(p).hex()


def test_present_and_verify_10_attributes_1_revealed(key, cred):
    pres = present(key.params, cred, REVEAL1, verifier_id=b"shop", nonce=b"n1")
    assert pres.revealed == ((0, ATTRS[0]),)
    assert verify_presentation(key, pres.to_bytes(), REVEAL1, verifier_id=b"shop", nonce=b"n1")


def test_issuance_messages_tampered_are_rejected(key):
    req, state = request_credential(key.params, ATTRS, HIDDEN, context=b"s")
    changed = IssuanceRequest(req.key, ((0, 7),) + req.revealed[1:], req.hidden, req.proof)
    with pytest.raises(CredentialError):
        issue(key, changed, context=b"s")
    with pytest.raises(CredentialError):
        issue(key, req, context=b"another session")
    with pytest.raises(CredentialError):  # an attribute left out
        issue(key, IssuanceRequest(req.key, req.revealed[1:], req.hidden, req.proof), context=b"s")
    resp = issue(key, req, context=b"s")
    bad = IssuanceResponse(resp.u, resp.c1, resp.c2 + BASE8, resp.proof)
    with pytest.raises(CredentialError):
        finish_issuance(state, bad)
    other = IssuerKey.generate(N)  # an issuer that is not the one whose parameters we hold
    with pytest.raises(CredentialError):
        finish_issuance(state, issue(other, _rebind(other, req), context=b"s"))
    # a response to another request of the same user is not accepted for this one
    req2, _ = request_credential(key.params, ATTRS, HIDDEN, context=b"s")
    with pytest.raises(CredentialError):
        finish_issuance(state, issue(key, req2, context=b"s"))
    assert finish_issuance(state, resp).u_prime == key.mac(ATTRS, resp.u)


def _rebind(other: IssuerKey, req: IssuanceRequest) -> IssuanceRequest:
    """The same attributes asked of `other` (so that it accepts and answers)."""
    return request_credential(other.params, ATTRS, HIDDEN, context=b"s")[0]


def test_a_bound_attribute_must_be_the_log_of_the_key(key):
    u = random_scalar()
    attrs = [u, *ATTRS[1:]]
    req, _ = request_credential(key.params, attrs, [0, 1], bound={0: u * BASE8})
    issue(key, req, bound={0: u * BASE8})
    with pytest.raises(CredentialError):
        issue(key, req, bound={0: (u + 1) * BASE8})
    with pytest.raises(WitnessError):
        request_credential(key.params, attrs, [0, 1], bound={0: (u + 1) * BASE8})


def test_forged_altered_and_replayed_presentations_are_rejected(key, cred):
    """The corpus: every case must be rejected (100 %)."""
    params = key.params
    verifier = CredentialVerifier(key, b"shop")
    nonce = verifier.challenge()
    good = present(params, cred, REVEAL1, verifier_id=b"shop", nonce=nonce)
    wire = good.to_bytes()
    cases: dict[str, tuple[bytes, Policy, bytes, bytes]] = {}
    # altered: one bit flipped at positions spread over every field
    for pos in sorted({*range(0, len(wire), max(1, len(wire) // 40)), len(wire) - 1}):
        flipped = bytearray(wire)
        flipped[pos] ^= 1 << (pos % 8)
        cases[f"bit flip at {pos}"] = (bytes(flipped), REVEAL1, b"shop", nonce)
    cases["truncated"] = (wire[:-1], REVEAL1, b"shop", nonce)
    cases["extended"] = (wire + b"\0", REVEAL1, b"shop", nonce)
    changed = Presentation(
        good.u, good.cu, good.commitments, ((0, ATTRS[0] + 1),), good.ranges, good.proof
    )
    cases["revealed attribute changed"] = (changed.to_bytes(), REVEAL1, b"shop", nonce)
    cases["another verifier"] = (wire, REVEAL1, b"bank", nonce)
    cases["another nonce"] = (wire, REVEAL1, b"shop", b"other")
    cases["another policy"] = (wire, Policy(reveal=frozenset({0, 5})), b"shop", nonce)
    cases["nothing revealed asked"] = (wire, Policy(), b"shop", nonce)
    # forged credentials: no MAC, a MAC of another issuer, a MAC on other attributes
    other = IssuerKey.generate(N)
    u = random_scalar() * BASE8
    forged = {
        "random MAC": Credential(u, random_scalar() * BASE8, tuple(ATTRS)),
        "another issuer's MAC": Credential(u, other.mac(ATTRS, u), tuple(ATTRS)),
        "attributes swapped": Credential(cred.u, cred.u_prime, (ATTRS[0], 5, *ATTRS[2:])),
        "identity U": Credential(0 * BASE8, 0 * BASE8, tuple(ATTRS)),
    }
    for name, f in forged.items():
        p = present(params, f, REVEAL1, verifier_id=b"shop", nonce=nonce)
        cases[name] = (p.to_bytes(), REVEAL1, b"shop", nonce)
    other_cred = finish_issuance(
        *_issued(other, ATTRS),
    )
    p = present(other.params, other_cred, REVEAL1, verifier_id=b"shop", nonce=nonce)
    cases["a valid credential of another issuer"] = (p.to_bytes(), REVEAL1, b"shop", nonce)
    accepted = [
        name
        for name, (data, policy, vid, n) in cases.items()
        if verify_presentation(key, data, policy, verifier_id=vid, nonce=n)
    ]
    assert accepted == []
    assert len(cases) > 45
    # the good one passes once through the verifier, and its replay is rejected
    assert verifier.verify(wire, REVEAL1, nonce)
    assert not verifier.verify(wire, REVEAL1, nonce)
    assert not verifier.verify(wire, REVEAL1, b"never issued")


def _issued(k: IssuerKey, attrs: list[int]):
    req, state = request_credential(k.params, attrs, HIDDEN)
    return state, issue(k, req)


def test_range_predicate(key, cred):
    params = key.params
    policy = Policy(reveal=frozenset({0}), ranges=((3, 1000, 1004), (4, 0, 1 << 64)))
    pres = present(params, cred, policy, verifier_id=b"v", nonce=b"n")
    assert verify_presentation(key, pres, policy, verifier_id=b"v", nonce=b"n")
    # the edges: lo and hi − 1 are in, hi is out
    edge = Policy(ranges=((3, ATTRS[3], ATTRS[3] + 1),))
    assert verify_presentation(
        key,
        present(params, cred, edge, verifier_id=b"v", nonce=b"n"),
        edge,
        verifier_id=b"v",
        nonce=b"n",
    )
    for lo, hi in ((ATTRS[3] + 1, ATTRS[3] + 50), (0, ATTRS[3]), (0, 2)):
        with pytest.raises(WitnessError):  # a false predicate has no proof
            present(params, cred, Policy(ranges=((3, lo, hi),)), verifier_id=b"v", nonce=b"n")
    # a proof of a wider range does not pass for a narrower one
    wide = Policy(ranges=((3, 0, 1 << 20),))
    narrow = Policy(ranges=((3, 0, 1000),))
    p = present(params, cred, wide, verifier_id=b"v", nonce=b"n")
    assert not verify_presentation(key, p, narrow, verifier_id=b"v", nonce=b"n")
    # nor a range proof moved from another presentation
    q = present(params, cred, wide, verifier_id=b"v", nonce=b"n")
    mixed = Presentation(p.u, p.cu, p.commitments, p.revealed, q.ranges, p.proof)
    assert not verify_presentation(key, mixed, wide, verifier_id=b"v", nonce=b"n")


def test_equality_with_a_commitment_of_another_proof(key, cred):
    rho = random_scalar()
    c = pedersen_commit(ATTRS[5], rho)
    policy = Policy(equal=((5, c),))
    pres = present(key.params, cred, policy, verifier_id=b"v", nonce=b"n", openings=[rho])
    assert verify_presentation(key, pres, policy, verifier_id=b"v", nonce=b"n")
    other = Policy(equal=((5, pedersen_commit(ATTRS[5], rho + 1)),))
    assert not verify_presentation(key, pres, other, verifier_id=b"v", nonce=b"n")
    wrong = pedersen_commit(ATTRS[5] + 1, rho)
    with pytest.raises(WitnessError):
        present(
            key.params,
            cred,
            Policy(equal=((5, wrong),)),
            verifier_id=b"v",
            nonce=b"n",
            openings=[rho],
        )


def _scripted(values: list[int]) -> Iterator[int]:
    yield from values
    while True:
        yield random_scalar()


def test_blind_issuance_is_unlinkable_to_the_showing(key):
    """Two users obtain credentials on the same attributes; the issuer keeps everything it saw
    (including its own randomness `b`). For any showing by A, B produces the very same bytes
    with the randomness `a_B = a_A·b_A/b_B` (a bijection of the non-zero scalars), so a showing
    has the same probability under either issuance: the issuer's view is independent of who
    shows. And nothing the issuer saw reappears in the showing."""
    params = key.params
    views = {}
    creds = {}
    bs = {"A": random_scalar(), "B": random_scalar()}
    for user in ("A", "B"):
        req, state = request_credential(params, ATTRS, HIDDEN)
        draws = _scripted([bs[user]])
        resp = issue(key, req, rand=lambda d=draws: next(d))
        assert resp.u == bs[user] * BASE8
        views[user] = [req.key, resp.u, resp.c1, resp.c2]
        views[user] += [p for _, c1, c2 in req.hidden for p in (c1, c2)]
        creds[user] = finish_issuance(state, resp)

    a_a = random_scalar()
    rest = [random_scalar() for _ in range(1 + N)]  # r and the z_j
    a_b = a_a * bs["A"] * pow(bs["B"], -1, SUBGROUP_ORDER) % SUBGROUP_ORDER

    def show(user: str, a: int):
        draws = _scripted([a, *rest])
        return present(
            params,
            creds[user],
            REVEAL1,
            verifier_id=b"v",
            nonce=b"n",
            rand=lambda: next(draws),
            seed=7,
        )

    shown_a, shown_b = show("A", a_a), show("B", a_b)
    assert shown_a.to_bytes() == shown_b.to_bytes()
    assert verify_presentation(key, shown_a, REVEAL1, verifier_id=b"v", nonce=b"n")

    def fresh(pres: Presentation) -> bool:
        seen = {p for v in views.values() for q in v for p in (q, -q)}
        shown = [pres.u, pres.cu, *(c for _, c in pres.commitments)]
        return not any(p in seen for p in shown)

    assert fresh(present(params, creds["A"], REVEAL1, verifier_id=b"v", nonce=b"n"))
    # the detector is not vacuous: a showing that skipped re-randomisation (a = 1) is caught
    draws = _scripted([1])
    lazy = present(
        params, creds["A"], REVEAL1, verifier_id=b"v", nonce=b"n", rand=lambda: next(draws)
    )
    assert not fresh(lazy)
    # and two showings of one credential share no point either
    p1 = present(params, creds["A"], REVEAL1, verifier_id=b"v", nonce=b"n")
    p2 = present(params, creds["A"], REVEAL1, verifier_id=b"v", nonce=b"n")
    assert not {p1.u, p1.cu, *(c for _, c in p1.commitments)} & {
        p2.u,
        p2.cu,
        *(c for _, c in p2.commitments),
    }


def test_malformed_inputs_are_clear_errors(key):
    with pytest.raises(ValueError):
        request_credential(key.params, ATTRS[:-1], HIDDEN)
    with pytest.raises(ValueError):
        request_credential(key.params, [*ATTRS[:-1], SUBGROUP_ORDER], HIDDEN)
    with pytest.raises(ValueError):
        Policy(ranges=((0, 5, 5),)).check(N)
    with pytest.raises(ValueError):
        Policy(reveal=frozenset({0}), ranges=((0, 0, 5),)).check(N)
    with pytest.raises(CredentialError):
        IssuanceRequest.from_bytes(b"\x00" * 10)
    with pytest.raises(CredentialError):
        Presentation.from_bytes(b"\xff" * 64)
    assert not verify_presentation(key, b"", REVEAL1, verifier_id=b"v", nonce=b"n")


def test_the_python_point_helpers_agree_with_the_native_ones():
    from zeenot import _native, sigma
    from zeenot.cashlib.group import add, lincomb, pack, sub

    points = [random_scalar() * BASE8 for _ in range(20)] + [0 * BASE8, -BASE8]
    for p, q in zip(points, points[1:] + points[:1], strict=True):
        native = bytes(_native.bj_pack(*p._xy()))
        assert pack(p) == native and sigma._packed(p) == native.hex()
        assert add(p, q) == p + q and sub(p, q) == p - q and add(p, -p) == 0 * BASE8
    k = random_scalar()
    assert lincomb((k, points[0]), (3, points[1])) == k * points[0] + 3 * points[1]


def test_issuer_offsets_on_hidden_attributes(key):
    req, state = request_credential(key.params, ATTRS, HIDDEN, context=b"o")
    resp = issue(key, req, context=b"o", offsets={2: 5, 3: SUBGROUP_ORDER - 1})
    wire = IssuanceResponse.from_bytes(resp.to_bytes())
    assert wire == resp
    cred = finish_issuance(state, wire, offsets_allowed=[2, 3])
    expect = list(ATTRS)
    expect[2] += 5
    expect[3] -= 1
    assert cred.attributes == tuple(expect) and cred.u_prime == key.mac(expect, cred.u)
    with pytest.raises(CredentialError):  # the user did not agree to offsets
        finish_issuance(state, resp)
    with pytest.raises(CredentialError):  # an offset changed in transit
        finish_issuance(
            state,
            IssuanceResponse(resp.u, resp.c1, resp.c2, resp.proof, ((2, 6), (3, 0))),
            offsets_allowed=[2, 3],
        )
    with pytest.raises(CredentialError):  # only hidden attributes are offset
        issue(key, req, context=b"o", offsets={0: 1})


# ---------------------------------------------------------------------------------------------
# The native showing (`present_native`): the same statement, proofs the ordinary verifier takes


POLICIES = [
    REVEAL1,
    Policy(),
    Policy(reveal=frozenset({0, 3, 9})),
    Policy(reveal=frozenset(range(1, N))),
    Policy(reveal=frozenset(range(N))),
]


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: f"reveal{sorted(p.reveal)}")
def test_native_showing_proves_the_python_statement(key, cred, policy):
    import json

    from zeenot.cashlib.kvac import _show_statement, present_native, verifier_v

    assert key.params.show_key is not None, "the native module lacks KvacShowKey"
    out = present_native(key.params, cred, policy, verifier_id=b"shop", nonce=b"n", statement=True)
    assert out is not None
    pres, native_json = out
    assert verify_presentation(key, pres.to_bytes(), policy, verifier_id=b"shop", nonce=b"n")
    # the statement the native prover hashed is the one the proof language writes
    python = _show_statement(key.params, pres, verifier_v(key, pres), policy).statement
    assert json.loads(native_json) == json.loads(python.to_json())
    assert python.verify(pres.proof, context=show_context_of(key, pres, policy))
    # a fresh showing is fresh; a seeded one repeats (tests only)
    again = present_native(key.params, cred, policy, verifier_id=b"shop", nonce=b"n")
    assert again is not None and again[0].to_bytes() != pres.to_bytes()
    seeded = [
        present_native(key.params, cred, policy, verifier_id=b"shop", nonce=b"n", seed=7)
        for _ in range(2)
    ]
    assert seeded[0] is not None and seeded[1] is not None
    assert seeded[0][0].to_bytes() == seeded[1][0].to_bytes()


def show_context_of(key: IssuerKey, pres: Presentation, policy: Policy) -> bytes:
    from zeenot.cashlib.kvac import show_context

    return show_context(key.params, pres, policy, b"shop", b"n")


def test_native_showing_of_a_wrong_credential_is_rejected(key, cred):
    """The holder cannot check its MAC; a showing of a credential whose MAC does not match
    its attributes has no proof the verifier accepts (a wrong witness), and the native path
    refuses malformed input with a clear error."""
    from zeenot.cashlib.kvac import present_native

    u = random_scalar() * BASE8
    wrong = {
        "attribute changed": Credential(cred.u, cred.u_prime, (ATTRS[0], 5, *ATTRS[2:])),
        "revealed attribute changed": Credential(cred.u, cred.u_prime, (7, *ATTRS[1:])),
        "random MAC": Credential(u, random_scalar() * BASE8, tuple(ATTRS)),
        "MAC of another U": Credential(u, cred.u_prime, tuple(ATTRS)),
        "another issuer's MAC": Credential(u, IssuerKey.generate(N).mac(ATTRS, u), tuple(ATTRS)),
    }
    for name, c in wrong.items():
        for policy in POLICIES:
            out = present_native(key.params, c, policy, verifier_id=b"shop", nonce=b"n")
            assert out is not None, name
            assert not verify_presentation(
                key, out[0].to_bytes(), policy, verifier_id=b"shop", nonce=b"n"
            ), (name, policy)
    # the right credential under another issuer's parameters
    other = IssuerKey.generate(N)
    out = present_native(other.params, cred, REVEAL1, verifier_id=b"shop", nonce=b"n")
    assert out is not None
    assert not verify_presentation(
        other, out[0].to_bytes(), REVEAL1, verifier_id=b"shop", nonce=b"n"
    )
    with pytest.raises(ValueError):
        present_native(
            key.params,
            Credential(cred.u, cred.u_prime, (1, 2)),
            REVEAL1,
            verifier_id=b"shop",
            nonce=b"n",
        )
    with pytest.raises(ValueError):
        present_native(
            key.params, cred, Policy(reveal=frozenset({N})), verifier_id=b"s", nonce=b"n"
        )
    # ranges and equalities take the Python path
    ranged = Policy(ranges=((1, 0, 2000),))
    assert present_native(key.params, cred, ranged, verifier_id=b"s", nonce=b"n") is None


def test_native_show_key_refuses_bad_input(key, cred):
    from zeenot import _native
    from zeenot.cashlib.group import pack

    with pytest.raises(ValueError):
        _native.KvacShowKey([])
    with pytest.raises(ValueError):
        _native.KvacShowKey([b"\x01" * 32])  # not a point of the subgroup
    sk = key.params.show_key
    ms = [m.to_bytes(32, "little") for m in ATTRS]
    u, up = pack(cred.u), pack(cred.u_prime)
    for args in [
        (u, up, ms[:-1], [1], b"", b""),  # too few attributes
        (u, up, ms, [2, 1], b"", b""),  # hidden not increasing
        (u, up, ms, [N], b"", b""),  # hidden out of range
        (u, up, [b"\xff" * 32] * N, [1], b"", b""),  # a non-canonical scalar
        (u, b"\x01" * 32, ms, [1], b"", b""),  # U' not a point
        (pack(0 * BASE8), up, ms, [1], b"", b""),  # U the identity
        (u, up, ms, [1], b"\0" * (1 << 17), b""),  # an oversized tail
    ]:
        with pytest.raises(ValueError):
            sk.show(*args)
