"""The binary form of the IR (docs/ir.md, "Binary form"): `compile` writes it beside the JSON;
`Circuit.load` reads it instead of parsing JSON while it names that JSON file's hash; every rule
of the IR is checked on load and the program hash recomputed, so a stale, damaged or crafted
binary form is never taken for the program."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from pathlib import Path

import pytest

from zeenot import _native, api, cli
from zeenot.api import IR_BINARY_FILE, IR_FILE
from zeenot.ir import Program

from .conftest import EXAMPLES, read_json

PAYD = f"{EXAMPLES / 'payd' / 'app.py'}:weekly_premium"

EXAMPLE_FUNCTIONS = {
    "payd": "weekly_premium",
    "fitbit": "steps_donation",
    "study": "vitals_summary",
    "loyalty": "discount",
    "cnids": "header_alert",
    "metering": "bill",
    "snp_mean": "aggregate",
}


@pytest.fixture(scope="module")
def payd_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("payd_bin")
    assert cli.main(["compile", PAYD, "-o", str(d)]) == 0
    return d


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_compile_writes_the_binary_form(payd_dir):
    text = (payd_dir / IR_FILE).read_bytes()
    data = (payd_dir / IR_BINARY_FILE).read_bytes()
    assert len(data) < len(text) / 3
    native, head, source = _native.load_program_binary(data)
    assert source == _sha256(text)
    assert native.hash == _native.load_program(text.decode()).hash
    doc = json.loads(text)
    del doc["body"]
    assert json.loads(head) == doc


def test_load_reads_the_binary_form_and_the_body_only_when_asked(payd_dir):
    text = (payd_dir / IR_FILE).read_text()
    from_json = api.Circuit(Program.from_json(text))
    circuit = api.Circuit.load(payd_dir)
    assert "body" not in circuit.program.ir  # the head only: no JSON parsed
    assert circuit.hash == from_json.hash
    assert circuit.stats == from_json.stats
    keys = api.setup(circuit, seed=1)
    assert keys.verifying_key == api.setup(from_json, seed=1).verifying_key
    inputs = read_json(EXAMPLES / "payd" / "inputs.json")
    proof = api.prove(circuit, keys, inputs, seed=2)
    assert proof.proof == api.prove(from_json, keys, inputs, seed=2).proof
    api.verify(from_json, keys.verifying_key, proof)
    assert circuit.program.body == from_json.program.body  # read from the JSON on demand
    assert circuit.ir_json == from_json.ir_json


def _damaged(data: bytes) -> list[bytes]:
    rng = random.Random(7)
    flipped = []
    for at in rng.sample(range(len(data)), 40):
        b = bytearray(data)
        b[at] ^= 1 << rng.randrange(8)
        flipped.append(bytes(b))
    return [b"", data[:100], data[:-1], data + b"\0", bytes(rng.randbytes(len(data))), *flipped]


def test_a_stale_or_damaged_binary_form_leaves_the_json_to_serve(payd_dir, tmp_path):
    text = (payd_dir / IR_FILE).read_text()
    expected = _native.load_program(text).hash
    data = (payd_dir / IR_BINARY_FILE).read_bytes()
    d = tmp_path / "c"
    shutil.copytree(payd_dir, d)
    for bad in _damaged(data):
        (d / IR_BINARY_FILE).write_bytes(bad)
        circuit = api.Circuit.load(d)
        assert circuit.hash == expected
    # the JSON edited after compile: the binary form names the old file, so the JSON serves
    (d / IR_BINARY_FILE).write_bytes(data)
    doc = json.loads(text)
    doc["name"] = "edited"
    (d / IR_FILE).write_text(json.dumps(doc))
    circuit = api.Circuit.load(d)
    assert circuit.program.ir["name"] == "edited"
    assert circuit.hash == _native.load_program(json.dumps(doc)).hash != expected


def test_crafted_binary_forms_are_rejected_with_an_error(payd_dir):
    data = (payd_dir / IR_BINARY_FILE).read_bytes()
    for bad in _damaged(data):
        try:
            native, _, _ = _native.load_program_binary(bad)
        except _native.IrError as exc:
            assert str(exc)  # the rule it breaks, or what is malformed
        else:  # only the recorded source hash (bytes 48..80) may change and still decode
            assert native.hash == _native.load_program_binary(data)[0].hash
    wrong = bytearray(data)
    wrong[16] ^= 1  # the program hash it records
    with pytest.raises(_native.IrError, match="not the hash of what it holds"):
        _native.load_program_binary(bytes(wrong))


def test_a_document_the_binary_form_cannot_hold_exactly_is_kept_as_json_only(payd_dir):
    doc = json.loads((payd_dir / IR_FILE).read_text())
    doc["body"][0]["note"] = "a key the IR ignores"
    text = json.dumps(doc)
    _native.load_program(text)  # a valid document
    with pytest.raises(_native.IrError, match="no binary form"):
        _native.encode_program_binary(text, "00" * 32)


@pytest.mark.parametrize("example", sorted(EXAMPLE_FUNCTIONS))
def test_every_example_round_trips(example, tmp_path):
    circuit = api.compile(f"{EXAMPLES / example / 'app.py'}:{EXAMPLE_FUNCTIONS[example]}")
    circuit.save(tmp_path)
    loaded = api.Circuit.load(tmp_path)
    assert "body" not in loaded.program.ir
    assert loaded.hash == circuit.hash
    assert loaded.stats == circuit.stats
    assert loaded.layout == circuit.layout
    assert loaded.program.ir == {k: v for k, v in circuit.program.ir.items() if k != "body"}
