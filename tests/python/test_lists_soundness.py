"""Soundness of list circuits: padding can hold anything and never changes a result; a length
beyond the bound, a wrong length, real elements hidden in the padding and a wrong lookup result
are all rejected; every internal witness of the list gadgets is pinned (mutation check)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from zeenot import _native, api, load_function

SOURCE = """
from zeenot import MaxSize, Private, Public, check, u8, u32, u64, zk

TABLE = (u32(10), u32(20), u32(30), u32(40))


@zk
def main(xs: Private[MaxSize[list[u32], 5]], i: Private[u8], k: Public[u32]
         ) -> tuple[u64, u32, u32, u32, MaxSize[list[u32], 5], u32, u32]:
    total = sum((u64(x) for x in xs), u64(0))
    big = u32(len([x for x in xs if x > k]))
    top = max(xs, default=u32(0))
    doubled = [x * 2 for x in xs]
    picked = xs[i] if i < len(xs) else u32(0)
    return total, big, top, u32(len(xs)), doubled, picked, TABLE[i % 4]
"""


@pytest.fixture(scope="module")
def circuit(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("lists")) / "app.py"
    path.write_text(SOURCE)
    return api.compile(load_function(str(path), "main"))


@pytest.fixture(scope="module")
def keys(circuit):
    return api.setup(circuit, seed=7)


INPUTS = {"xs": [3, 9, 4], "i": 1, "k": 3}
EXPECTED = [16, 2, 9, 3, [6, 18, 8], 9, 20]


def _leaves(circuit, inputs):
    return circuit.program.flatten_inputs(inputs)


def _slot(circuit, name):
    return circuit.program.leaf_names().index(name)


def _run(circuit, leaves):
    out = _native.evaluate(circuit.ir_json, leaves)
    return circuit.program.outputs_to_json(circuit.program.unflatten_outputs(out))


def test_honest_run_and_pinned_witnesses(circuit):
    leaves = _leaves(circuit, INPUTS)
    assert _run(circuit, leaves) == EXPECTED
    assert _native.check_mutations(circuit.ir_json, leaves) > 0


@pytest.mark.parametrize("junk", ["1", "4294967295", "77"])
def test_padding_values_never_reach_a_result(circuit, junk):
    leaves = _leaves(circuit, INPUTS)
    for slot in (3, 4):  # beyond the length 3
        leaves[_slot(circuit, f"xs[{slot}]")] = junk
    assert _run(circuit, leaves) == EXPECTED
    _native.check_mutations(circuit.ir_json, leaves)


def test_elements_hidden_in_padding_prove_a_different_statement(circuit, keys):
    # claim length 2 but leave the third element in place: it is padding now
    leaves = _leaves(circuit, INPUTS)
    leaves[_slot(circuit, "xs.len")] = "2"
    assert _run(circuit, leaves) == [12, 1, 9, 2, [6, 18], 9, 20]
    proof, public, _ = _native.prove(circuit.ir_json, keys.proving_key, leaves, 3)
    honest = api.public_vector(circuit.program, api.prove(circuit, keys, INPUTS, seed=4))
    assert _native.verify(circuit.ir_json, keys.verifying_key, public, proof)
    assert not _native.verify(circuit.ir_json, keys.verifying_key, honest, proof)


def test_length_beyond_the_bound_has_no_witness(circuit):
    leaves = _leaves(circuit, {"xs": [1, 2, 3, 4, 5], "i": 0, "k": 0})
    leaves[_slot(circuit, "xs.len")] = "6"
    with pytest.raises(_native.UnsatisfiedError, match="len"):
        _native.evaluate(circuit.ir_json, leaves)


@pytest.mark.parametrize(
    "output, wrong",
    [(3, 4), (3, 2), (5, 5), (6, 3), (6, 4)],  # len(xs); a lookup; the constant-table lookup
    ids=["length+1", "length-1", "picked", "table", "table+other-row"],
)
def test_wrong_length_or_lookup_result_is_rejected(circuit, keys, output, wrong):
    proof = api.prove(circuit, keys, INPUTS, seed=5)
    api.verify(circuit, keys.verifying_key, proof)
    outputs = list(proof.outputs)
    outputs[output] = wrong if output != 6 else (30 if wrong == 3 else 40)
    tampered = dataclasses.replace(proof, outputs=outputs)
    with pytest.raises(api.ProofRejected):
        api.verify(circuit, keys.verifying_key, tampered)


def test_wrong_returned_list_is_rejected(circuit, keys):
    proof = api.prove(circuit, keys, INPUTS, seed=6)
    for bad in ([6, 18], [6, 18, 8, 0], [18, 6, 8]):
        outputs = list(proof.outputs)
        outputs[4] = bad
        tampered = dataclasses.replace(proof, outputs=outputs)
        with pytest.raises(api.ProofRejected):
            api.verify(circuit, keys.verifying_key, tampered)


def test_out_of_range_private_index_has_no_witness(circuit):
    # xs[i] is guarded by `i < len(xs)`; TABLE[i % 4] is always in range: both succeed
    assert _run(circuit, _leaves(circuit, {**INPUTS, "i": 200}))[5] == 0
