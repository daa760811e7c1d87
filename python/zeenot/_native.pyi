"""Type stubs for `zeenot._native`, the Rust core (crates/zeenot-python).

Values cross the boundary as typed decimal strings, one per scalar *leaf* (docs/ir.md): signed
integers may be negative (`"-5"`), bools are `"0"`/`"1"`, field elements are canonical in
`[0, p)`. `inputs` lists every input leaf in IR order; a public vector lists the public input
leaves, then the output leaves. Keys and proofs are arkworks canonical bytes (proof and verifying
key compressed, proving key uncompressed), decoded with full validation.

Errors: `IrError` for an invalid IR document, `DecodeError` for malformed key or proof bytes,
`UnsatisfiedError` when the program fails on the inputs (no proof exists), `ValueError` for a
wrong number of values, a value out of its type's range, or a key made for another circuit shape,
and `TypeError` for arguments of the wrong Python type. An internal error is a `ZeenotError`.
"""

from typing import Any

__version__: str

class ZeenotError(Exception):
    """Base class of the errors raised by the Rust core."""

class IrError(ZeenotError):
    """The IR document is invalid (the message names the input, instruction or output)."""

class DecodeError(ZeenotError):
    """A key or proof could not be decoded (bad length, trailing bytes, point off the curve or
    outside the prime-order subgroup, non-canonical field element)."""

class UnsatisfiedError(ZeenotError):
    """The program fails on these inputs, so no proof exists.

    The message reads like `overflow in `mul` at app.py:14:11` or
    `check failed at app.py:15:4: check(cost < 100)`; match on the attributes, not the text.
    """

    kind: str
    """`"overflow"`, `"check"`, `"division_by_zero"` or `"range"` (a `Field` cast to an integer
    type that does not contain it)."""
    op: str
    """The failing IR operation (`"mul"`, `"check"`, …)."""
    index: int
    """Index of the failing instruction in the IR body."""
    line: int | None
    """1-based source line, when the IR records it."""
    col: int | None
    """0-based source column (as Python's `ast`), when the IR records it."""
    location: str
    """`file:line:col`, as precise as the IR allows."""
    msg: str | None
    """The `check`'s message, if any."""

class LoadedProgram:
    """An IR document parsed, validated and hashed once. Every function below that takes a
    `program` accepts one (or the IR text, parsed on each call)."""

    @property
    def hash(self) -> str:
        """SHA-256 (hex) of the canonical JSON (sorted keys, no whitespace) of the document."""

def load_program(ir_json: str) -> LoadedProgram:
    """Parse and validate an IR document; raise `IrError` if it breaks any rule of docs/ir.md."""

def encode_program_binary(ir_json: str, source_sha256: str) -> bytes:
    """The binary form of an IR document (docs/ir.md, "Binary form"), recording the SHA-256
    (hex) of the JSON file it is written beside. Raises `IrError` for an invalid document or
    one the binary form cannot hold exactly."""

def load_program_binary(data: bytes) -> tuple[LoadedProgram, str, str]:
    """Read a program's binary form, every rule of docs/ir.md checked and the program hash
    recomputed from what it holds: the program, the head (the document's JSON without `body`)
    and the SHA-256 (hex) of the JSON file it was written from. Raises `IrError`."""

def stats(ir: LoadedProgram | str) -> dict[str, int]:
    """Constraint-system size: `constraints`, `public_inputs` (Groth16 instance length: public
    input leaves plus outputs), `private_inputs` (private input leaves) and `witnesses` (all
    witness variables)."""

def evaluate(ir: LoadedProgram | str, inputs: list[str]) -> list[str]:
    """Run the IR with Python semantics (the witness generator's interpreter) and return the
    output leaves. Raises `UnsatisfiedError` where a proof could not exist."""

def evaluate_partial(ir: LoadedProgram | str, inputs: list[str | None]) -> list[str | None]:
    """Evaluate as far as the known input leaves allow (`None`: not known yet, such as a
    region's result that another region computes); returns each output leaf, or `None` where it
    depends on an unknown input. Raises `UnsatisfiedError` for a failure among the known values."""

def wide_witnesses(ir: LoadedProgram | str, inputs: list[str]) -> int:
    """Groth16 witness variables wider than 64 bits on these input leaves (the planner's
    model reads it). Raises `UnsatisfiedError` as `prove` does."""

def setup(ir: LoadedProgram | str, seed: int | None = None) -> tuple[bytes, bytes]:
    """Circuit-specific Groth16 setup: `(proving_key, verifying_key)`.

    `seed` (0 ≤ seed < 2**64) makes it deterministic with ChaCha20: insecure, for tests only.
    Without it the OS random source is used.
    """

def prove(
    ir: LoadedProgram | str,
    proving_key: bytes,
    inputs: list[str],
    seed: int | None = None,
    blindings: list[str] | None = None,
) -> tuple[bytes, list[str], list[str]]:
    """Prove the program on `inputs`: `(proof, public, out_blindings)`. `public` follows the
    instance order of docs/ir.md: the public input leaves, `C.x`, `C.y` of each committed
    input's commitment, then per output its value or, when committed, `C.x`, `C.y` of its
    commitment. `blindings`: one decimal integer in `[0, l)` per committed input (input order;
    `None` when there is none), optionally followed by one per committed output (output order;
    a program split into regions chooses them, docs/ir.md "Regions"); ValueError when malformed
    or of the wrong count. `out_blindings`: the committed outputs' blindings, drawn unless given
    (decimal, output order).
    Raises `UnsatisfiedError` (with the source location) before any proving work when the
    program fails on these inputs. `seed`: as for `setup`."""

def verify(ir: LoadedProgram | str, verifying_key: bytes, public: list[str], proof: bytes) -> bool:
    """Whether `proof` is valid for the public vector. `False` for a proof that does not verify;
    `DecodeError` for malformed bytes; `ValueError` for a wrong count or out-of-range values."""

def snarkjs_export(
    ir: LoadedProgram | str, verifying_key: bytes, public: list[str], proof: bytes
) -> tuple[str, str, str]:
    """The texts of snarkjs's `verification_key.json`, `proof.json` and `public.json`, for
    `snarkjs groth16 verify` (public values become canonical field elements)."""

def snarkjs_verifying_key(verifying_key: bytes) -> str:
    """snarkjs's `verification_key.json` text for a verifying key (`DecodeError` if malformed)."""

def check_mutations(ir: LoadedProgram | str, inputs: list[str]) -> int:
    """Soundness self-test: on the satisfying assignment for `inputs`, change each variable other
    than the inputs alone (by +1 and by a random amount) and require a constraint to fail. Returns
    the number of variables checked; raises `ZeenotError` naming an under-constrained variable,
    `UnsatisfiedError` if the program fails on these inputs."""

class PreparedProvingKey:
    """A proving key decoded and validated once; reusable across proofs."""

def prepare_proving_key(proving_key: bytes, validated: bool = False) -> PreparedProvingKey:
    """Decode and validate a proving key (raises DecodeError). `validated`: these very bytes
    passed validation before (`zeenot.keycache`), so the point checks are skipped."""

def prove_prepared(
    ir: LoadedProgram | str,
    key: PreparedProvingKey,
    inputs: list[str],
    seed: int | None = None,
    blindings: list[str] | None = None,
) -> tuple[bytes, list[str], list[str], list[tuple[str, float]]]:
    """`prove` with a prepared key; also the wall time of each stage in seconds (`program`,
    `witness`, `synthesis`, `check`, `matrices`, `fft`, `msm`)."""

def instance_layout(ir: LoadedProgram | str) -> tuple[list[str], list[int]]:
    """The program's public values: each one's type (`u32`, `field`, …) and the index of each
    Pedersen commitment's `x` coordinate (its `y` follows)."""

def r1cs(ir: LoadedProgram | str) -> dict[str, Any]:
    """The program's R1CS as Groth16's setup builds it: `num_instance` (the constant one
    included), `num_witness`, `public_inputs` (instance variables 1..public_inputs), `a`, `b`,
    `c` (per constraint, `(variable, coefficient)` pairs, coefficients as decimals in [0, p)),
    `input_witnesses` and `blinding_witnesses` (indices in z = (1, instance…, witness…))."""

class Groth16Verifier:
    """A verifying key prepared once, for proofs whose public values follow a layout."""

    def __init__(self, types: list[str], commitments: list[int], verifying_key: bytes) -> None:
        """Raises DecodeError for a malformed key, ValueError for a bad layout or a key of
        another shape."""
    def verify(self, public: list[str], proof: bytes) -> bool:
        """True if the proof is valid for these public values."""
    def verify_batch(self, items: list[tuple[list[str], bytes]]) -> bool:
        """True if every (public values, proof) pair is valid: one random linear combination
        (a 2^-128 chance that an invalid batch passes)."""

def poseidon(inputs: list[str]) -> str:
    """circomlib's Poseidon hash of 1 to 16 field elements (canonical decimal strings in
    `[0, p)`); ValueError otherwise."""

def bj_check(x: str, y: str) -> bool:
    """Whether (x, y) is a Baby Jubjub point in the prime-order subgroup."""

def bj_add(x1: str, y1: str, x2: str, y2: str) -> tuple[str, str]: ...
def bj_mul(k: str, x: str, y: str) -> tuple[str, str]: ...
def bj_lincomb(
    points: list[tuple[str, str]], rows: list[list[tuple[str, int]]]
) -> list[tuple[str, str]]:
    """`Σ k·P` per row of `(k, index into points)` terms (`k` a decimal below 2^256), each point
    checked once, constant time in the scalars; at most 4,096 points and terms (ValueError)."""

def bj_base8() -> tuple[str, str]: ...
def bj_decrypt(sk: str, c1: tuple[str, str], c2: tuple[str, str], bits: int) -> int: ...
def bj_eddsa_public(seed: bytes) -> tuple[str, str]: ...
def bj_eddsa_sign(seed: bytes, msg: str) -> tuple[tuple[str, str], str]: ...
def bj_eddsa_verify(a: tuple[str, str], msg: str, r8: tuple[str, str], s: str) -> bool: ...
def bj_pack(x: str, y: str) -> bytes:
    """The 32-byte packed encoding (circomlibjs `packPoint`: `y` little-endian, the sign of `x`
    in the top bit) of a checked point (ValueError otherwise)."""

def bj_unpack(packed: bytes) -> tuple[str, str]:
    """The point of a packed encoding, checked: 32 bytes, canonical, on the curve, in the
    prime-order subgroup (ValueError otherwise)."""

def bj_pedersen_h() -> tuple[str, str]:
    """zeenot's Pedersen blinding base `H = hash_to_curve("zeenot/pedersen/v1", "H")`."""

# Sigma proofs (crates/zeenot-sigma; the language is `zeenot.sigma`, the wire format
# docs/sigma.md). `statement_json` is the JSON of `zeenot_sigma::wire`; every error is a
# `ValueError`: "malformed statement: …", "the witness does not satisfy the statement: …",
# "malformed proof: …". Work runs with the GIL released.

def sigma_prove(
    statement_json: str, witness: list[str | None], context: bytes, seed: int | None = None
) -> bytes:
    """A proof of the statement bound to `context`. `witness`: one entry per secret, the scalar
    as 64 hex digits (32 bytes little-endian, below the subgroup order), or `None` for a secret
    of an OR branch the prover cannot open. `seed` (below 2**64): deterministic, tests only."""

def sigma_verify(statement_json: str, proof: bytes, context: bytes) -> bool:
    """Whether `proof` proves the statement under `context`: `False` for a proof that does not
    verify, `ValueError` for a malformed statement or malformed proof bytes (wrong length, a
    point off the curve or outside the subgroup, a non-canonical scalar)."""

def sigma_batch_verify(items: list[tuple[str, bytes, bytes]]) -> bool:
    """Whether every `(statement_json, proof, context)` verifies, with one multi-exponentiation
    (`True` for no items). Errors as `sigma_verify`, naming the item."""

class UnsupportedError(ZeenotError):
    """The program uses an operation the chosen back end cannot prove (named, with its line)."""

def sigma_program_prove(
    ir: LoadedProgram | str, inputs: list[str], blindings: list[str], seed: int | None = None
) -> tuple[bytes, list[str], list[str]]:
    """Prove the program with the sigma back end (no keys). `blindings`: one decimal blinding
    per committed input, optionally followed by one per committed output (as `prove`). Returns
    the proof, the public values (docs/ir.md's instance order) and one blinding per committed
    output. Raises `UnsatisfiedError` or `UnsupportedError`."""

def sigma_program_verify(ir: LoadedProgram | str, public: list[str], proof: bytes) -> bool:
    """Whether a sigma-back-end proof verifies; `ValueError` for malformed values or bytes."""

def sigma_program_verify_batch(
    ir: LoadedProgram | str, items: list[tuple[list[str], bytes]]
) -> bool:
    """Verify many sigma-back-end proofs of one program with one multi-exponentiation: True if
    all verify, False if the batch fails (check each alone to find which); `ValueError` for a
    malformed member."""

def sigma_program_shape(ir: LoadedProgram | str, public: list[str | None]) -> list[tuple[str, int]]:
    """The size of the program's sigma proof counted without proving (commitments, secrets,
    equations, the compressed proof's generators and rounds, the circuit's gates, padded gates,
    rounds, constraints and constraint terms, point terms, public points); `public`:
    each input leaf's value where known (public inputs), else None (counted as private)."""

def bp_range_prove(
    values: list[int], blindings: list[str], bits: int, context: bytes, seed: int | None = None
) -> tuple[bytes, list[bytes]]:
    """An aggregated Bulletproof that each value (blinding: 64 hex digits, little-endian) lies in
    `[0, 2^bits)`, bits in {8, 16, 32, 64}, a power-of-two count; returns the proof and the
    packed commitments `v·G + γ·H`. `ValueError` for out-of-range values or bad shapes."""

def bp_range_verify(commitments: list[bytes], proof: bytes, bits: int, context: bytes) -> bool:
    """Whether the Bulletproof shows every packed commitment opens below `2^bits`."""

def bp_range_verify_batch(items: list[tuple[list[bytes], bytes, int, bytes]]) -> list[bool]:
    """Each `(packed commitments, proof, bits, context)` Bulletproof's verdict, in order (`False`
    for a false or malformed one): checked as one batch with random weights, one by one only if
    the batch fails."""

# The verifiable shuffle (crates/zeenot-crypto/src/shuffle; the API is `zeenot.shuffle`): keys
# are 32-byte packed points, rows `n·w` packed ciphertexts (`K || C`, 64 bytes) laid end to end.

def shuffle_prove(
    pk: bytes, rows: bytes, n: int, w: int, context: bytes, seed: int | None = None
) -> tuple[bytes, bytes]:
    """Shuffle and re-randomise `n` rows of `w` ciphertexts under `pk`: (the output rows laid
    end to end, the proof bound to `context`). `ValueError` for a malformed key, ciphertext or
    shape. `seed` (below 2**64): deterministic, tests only."""

def shuffle_verify(
    pk: bytes, in_rows: bytes, out_rows: bytes, n: int, w: int, proof: bytes, context: bytes
) -> bool:
    """Whether `proof` shows `out_rows` to be a re-encryption shuffle of `in_rows` under `pk`
    for `context`: `ValueError` for a malformed key or input rows, `False` for output rows or a
    proof that do not decode, have another shape or do not verify."""

def shuffle_verify_batch(
    items: list[tuple[bytes, bytes, bytes, int, int, bytes, bytes]],
) -> list[bool]:
    """Per `(pk, in_rows, out_rows, n, w, proof, context)`, what `shuffle_verify` would say; all
    checked in one batch (random 128-bit weights per proof), one by one only if it fails.
    Rows that do not decode give `False`. `ValueError` ("shuffle j: ...") for a malformed key
    or over 4096 items."""

def r1cs_density(ir: LoadedProgram | str) -> tuple[int, int]:
    """`(non-zero entries of A, B and C, variables that appear in B)` of the program's R1CS."""

# ---- Prio (crates/zeenot-python/src/prio.rs; zeenot.prio wraps these) ------------------------

class PrioRejectedError(ZeenotError):
    """Prio preparation rejected the report: its validity proof does not verify."""

class PrioHpkeError(ZeenotError):
    """HPKE: unsupported config or a ciphertext that does not open."""

class PrioVdaf:
    """A Prio3 instance of the prio crate 0.16.8 (`ValueError` for a bad description)."""

    def __init__(self, description: str, num_aggregators: int = 2) -> None: ...
    @property
    def description(self) -> str: ...
    @property
    def num_aggregators(self) -> int: ...
    def shard(
        self, measurement: bool | int | list[int], nonce: bytes
    ) -> tuple[bytes, list[bytes]]: ...
    def prepare_init(
        self, verify_key: bytes, agg_id: int, nonce: bytes, public_share: bytes, input_share: bytes
    ) -> tuple[bytes, bytes]: ...
    def prepare_shares_to_prepare_message(
        self, agg_id: int, state: bytes, prep_shares: list[bytes]
    ) -> bytes: ...
    def prepare_next(self, agg_id: int, state: bytes, prep_message: bytes) -> bytes: ...
    def aggregate(self, output_shares: list[bytes]) -> bytes: ...
    def merge(self, aggregate_shares: list[bytes]) -> bytes: ...
    def unshard(self, aggregate_shares: list[bytes], num_measurements: int) -> int | list[int]: ...
    def leader_initialized(
        self, verify_key: bytes, nonce: bytes, public_share: bytes, input_share: bytes
    ) -> tuple[bytes, bytes]: ...
    def helper_initialized(
        self,
        verify_key: bytes,
        nonce: bytes,
        public_share: bytes,
        input_share: bytes,
        inbound: bytes,
    ) -> tuple[bytes, bytes]: ...
    def leader_continued(self, state: bytes, inbound: bytes) -> bytes: ...

def prio_dap_decode(kind: str, data: bytes, query_type: str = "time_interval") -> str:
    """A DAP-09 message decoded by janus_messages 0.7.145, as JSON text (bytes as hex)."""

def prio_dap_encode(kind: str, json: str, query_type: str = "time_interval") -> bytes:
    """A DAP-09 message encoded by janus_messages 0.7.145 from its JSON text."""

def prio_dap_kinds() -> list[str]:
    """The DAP-09 message kinds `prio_dap_decode` and `prio_dap_encode` take."""

def prio_dap_media_types() -> list[tuple[str, str]]:
    """`(kind, media type)` for the DAP-09 messages that are HTTP bodies."""

def prio_report_id_checksum(report_ids: list[bytes]) -> bytes:
    """DAP-09's report ID checksum: XOR of SHA-256 of each 16-byte report ID."""

def prio_hpke_info(label: str, sender: str, recipient: str) -> bytes:
    """DAP-09's HPKE application info."""

def prio_hpke_seal(config: bytes, info: bytes, plaintext: bytes, aad: bytes) -> bytes:
    """Seal to an encoded HpkeConfig; the encoded HpkeCiphertext."""

def prio_hpke_open(
    config: bytes, private_key: bytes, info: bytes, ciphertext: bytes, aad: bytes
) -> bytes:
    """Open an encoded HpkeCiphertext (`PrioHpkeError` if it does not)."""

def prio_hpke_generate(
    config_id: int, kem_id: int = 0x0020, kdf_id: int = 0x0001, aead_id: int = 0x0001
) -> tuple[bytes, bytes]:
    """A fresh HPKE key pair: `(encoded HpkeConfig, private key)`."""

# ---- DAP-09 per request and per job (crates/zeenot-python/src/prio_shares.rs): a report that
# fails comes back as a `str` in its place.

def prio_dap_split_reports(
    reports: list[bytes],
) -> list[tuple[bytes, int, bytes, bytes, bytes, int] | str]:
    """Each encoded Report split: (report id, time, public share, the leader's and the helper's
    encoded HpkeCiphertext, the leader's config id), or why it does not decode."""

def prio_dap_open_input_shares(
    keys: list[tuple[bytes, bytes]],
    recipient: str,
    task_id: bytes,
    items: list[tuple[bytes, int, bytes, bytes]],
) -> list[bytes | str]:
    """Each (report id, time, public share, HpkeCiphertext)'s input share opened with the key
    whose config it names: the VDAF input share, or DAP's PrepareError name."""

def prio_dap_encode_init_req(inits: list[tuple[bytes, int, bytes, bytes, bytes]]) -> bytes:
    """A time-interval AggregationJobInitializeReq of (report id, time, public share, the
    helper's HpkeCiphertext, the leader's ping-pong message) (`ValueError` for a bad part)."""

def prio_dap_decode_init_req(
    data: bytes,
) -> tuple[bytes, list[tuple[bytes, int, bytes, bytes, bytes]]]:
    """(aggregation parameter, the reports' parts) of a time-interval
    AggregationJobInitializeReq (`DecodeError` if it does not decode)."""

# ---- the collective authority (zeenot.cothority.crypto; crates/zeenot-python/src/cothority.rs)
# Points are 32 packed bytes, ciphertexts 64 bytes `K ‖ C`, batches concatenated, scalars 32
# little-endian bytes. `ValueError` for malformed bytes or parameters; a proof or share that does
# not verify is False. `seed`: tests only.

def cot_deal(
    index: int, t: int, m: int, session: bytes, seed: int | None = None
) -> tuple[bytes, bytes, bytes]:
    """(commitments `t·32`, proof of knowledge 64, shares `m·32` with `f(j)` at `32·(j−1)`)."""

def cot_verify_dealing(
    index: int, t: int, m: int, session: bytes, commitments: bytes, pok: bytes
) -> bool: ...
def cot_verify_share(commitments: bytes, j: int, share: bytes) -> bool: ...
def cot_combine(
    t: int,
    m: int,
    dealings: list[tuple[int, bytes]],
    j: int | None = None,
    shares: list[bytes] | None = None,
) -> tuple[bytes, bytes, bytes | None]:
    """(collective key, verification keys `m·32`, server j's secret share or None)."""

def cot_lagrange(set: list[int], j: int) -> bytes: ...
def cot_key_switch(
    share: bytes,
    index: int,
    lagrange: bytes,
    cts: bytes,
    querier: bytes,
    context: bytes,
    seed: int | None = None,
) -> tuple[bytes, bytes, bytes]:
    """(A `n·32`, B `n·32`, proof 96)."""

def cot_verify_key_switch(
    index: int,
    a: bytes,
    b: bytes,
    proof: bytes,
    share_key: bytes,
    lagrange: bytes,
    cts: bytes,
    querier: bytes,
    context: bytes,
) -> bool: ...
def cot_combine_switches(cts: bytes, batches: list[tuple[bytes, bytes]]) -> bytes: ...
def cot_tag_secret(seed: int | None = None) -> tuple[bytes, bytes]: ...
def cot_tag_step(
    secret: bytes,
    share: bytes,
    index: int,
    lagrange: bytes,
    cts: bytes,
    context: bytes,
    seed: int | None = None,
) -> tuple[bytes, bytes]:
    """(outputs `n·64`, proof 128)."""

def cot_verify_tag_step(
    outputs: bytes,
    proof: bytes,
    secret_commitment: bytes,
    share_key: bytes,
    index: int,
    lagrange: bytes,
    inputs: bytes,
    context: bytes,
) -> bool: ...
def cot_trivial(values: list[int]) -> bytes: ...
def cot_encrypt(pk: bytes, values: list[int], seed: int | None = None) -> bytes: ...
def cot_aggregate(cts: bytes) -> bytes: ...
def cot_keygen(seed: int | None = None) -> tuple[bytes, bytes]: ...
def cot_decrypt(sk: bytes, cts: bytes, bits: int, signed: bool) -> list[int | None]:
    """Each plaintext, or None where it is outside the range."""

def cot_noise_list(epsilon: float, sensitivity: int, len: int) -> list[int]: ...
def cot_noise_delta(values: list[int], epsilon: float, sensitivity: int) -> float: ...
def cot_noise_pmf(k: int, epsilon: float, sensitivity: int) -> float: ...

# ---- Cashlib: RFC 9474 blind RSA (crates/zeenot-python/src/cash.rs; zeenot.cashlib.blind) ----
# `ValueError` for a bad key, variant or argument; `ZeenotError` for an internal failure.

BLIND_RSA_MAX_MESSAGE_BYTES: int
BLIND_RSA_VARIANTS: list[str]

class BlindRsaSecretKey:
    """An RFC 9474 secret key of one variant (RSABSSA-SHA384-{PSS,PSSZERO}-{Randomized,
    Deterministic}); 2048- to 4096-bit modulus, e = 3 or 65537."""

    @staticmethod
    def generate(variant_name: str, bits: int) -> BlindRsaSecretKey: ...
    @staticmethod
    def from_der(variant_name: str, der: bytes) -> BlindRsaSecretKey: ...
    @staticmethod
    def from_pem(variant_name: str, pem: str) -> BlindRsaSecretKey: ...
    @staticmethod
    def from_components(
        variant_name: str, n: bytes, e: bytes, d: bytes, p: bytes, q: bytes
    ) -> BlindRsaSecretKey: ...
    @property
    def variant(self) -> str: ...
    @property
    def modulus_bits(self) -> int: ...
    def to_der(self) -> bytes: ...
    def to_pem(self) -> str: ...
    def public_key(self) -> BlindRsaPublicKey: ...
    def blind_sign(self, blinded_message: bytes) -> bytes:
        """RFC 9474 `BlindSign` (the blinded message: modulus-length, below the modulus)."""

class BlindRsaPublicKey:
    """An RFC 9474 public key of one variant."""

    @staticmethod
    def from_der(variant_name: str, der: bytes) -> BlindRsaPublicKey: ...
    @staticmethod
    def from_pem(variant_name: str, pem: str) -> BlindRsaPublicKey: ...
    @staticmethod
    def from_spki(variant_name: str, spki: bytes) -> BlindRsaPublicKey: ...
    @property
    def variant(self) -> str: ...
    @property
    def modulus_bits(self) -> int: ...
    @property
    def modulus_bytes(self) -> int: ...
    def to_der(self) -> bytes: ...
    def to_pem(self) -> str: ...
    def to_spki(self) -> bytes: ...
    def blind(self, msg: bytes) -> tuple[bytes, bytes, bytes | None]:
        """RFC 9474 `Blind`: (blinded message, inv, randomizer or None)."""
    def finalize(
        self,
        blind_signature: bytes,
        blinded_message: bytes,
        inv: bytes,
        randomizer: bytes | None,
        msg: bytes,
    ) -> bytes:
        """RFC 9474 `Finalize` (checked: `ValueError` if the result does not verify)."""
    def verify(self, signature: bytes, randomizer: bytes | None, msg: bytes) -> bool:
        """RFC 9474 `Verify`: `False` for anything that does not verify."""

class KvacShowKey:
    """An issuer's `X_i` (packed, checked) with a constant-time comb each: a credential holder's
    native showing prover (`zeenot.cashlib.kvac.present_native`)."""

    def __init__(self, xs: list[bytes]) -> None: ...
    def __len__(self) -> int: ...
    def show(
        self,
        u: bytes,
        u_prime: bytes,
        attributes: list[bytes],
        hidden: list[int],
        header_tail: bytes,
        ctx_prefix: bytes,
        seed: int | None = None,
        statement: bool = False,
    ) -> tuple[list[bytes], bytes, bytes, str | None]:
        """The showing's points (`U_s, C_U', C_j…, V` as 64-byte `x ‖ y`), its sigma proof, its
        context and, with `statement`, the statement's wire JSON (`ValueError` on bad input)."""

def bj_unpack_many(packed: list[bytes]) -> list[bytes]:
    """Packed points (at most 4,096) decoded and checked together, each as 64-byte `x ‖ y`
    (`ValueError` naming the first bad one)."""

class KvacVerifyKey:
    """An issuer's secret `x0, x_i` (zeroized when dropped): the MAC check's `V` from a
    message's points, decoded once (`zeenot.cashlib.ecash`'s deposits)."""

    def __init__(self, x0: bytes, xs: list[bytes]) -> None: ...
    def open_many(
        self,
        items: list[
            tuple[
                list[bytes],
                int,
                int,
                list[tuple[int, int]],
                list[tuple[int, bytes]],
                list[bytes],
                list[tuple[bytes, int]],
            ]
        ],
    ) -> tuple[list[tuple[list[bytes], bytes, list[bytes], list[bytes]] | None], CheckedPoints]:
        """Per `(points, U's index, C_U''s index, hidden (j, index of C_j), revealed (i, m_i),
        public k, differences (packed A, index i))`: `None` for a bad point, index or `A`, else
        the points (`x ‖ y`), `V`, each `k·G`, each `A − P_i`; and all those points by their
        encoding."""

class CheckedPoints:
    """Points of the subgroup by their encoding, decoded with every check (or computed from
    such points) by `KvacVerifyKey.open_many`."""

def kvac_sigma_batch_verify(known: CheckedPoints, items: list[tuple[str, bytes, bytes]]) -> bool:
    """`sigma_batch_verify` without decoding the points `known` holds again; `False` also for a
    malformed statement or proof (check one by one with the engine then)."""

def kvac_range_verify_batch(
    known: CheckedPoints, items: list[tuple[list[bytes], bytes, int, bytes]]
) -> list[bool]:
    """`bp_range_verify_batch` without decoding the commitments `known` holds again."""
