"""Programs in regions and their proof bundles (docs/ir.md "Regions").

A `@zk` function that calls another `@zk` function compiles to `Regions`: one circuit per
region and the links between them (lang/regions.py). Each region is proved by its own back end;
the proofs together are a `Bundle`. A link says that a region's committed output (a call's
argument, or a callee's result) *is* another region's committed input: verifying a bundle
verifies every proof and that both ends of every link are the same commitments. Commitments
hide the values and bind them; the prover draws each link's blindings afresh, so a region's
proof taken from another run breaks its links.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from zeenot import _native
from zeenot.artifacts import BACKENDS, REGIONS_FILE, Circuit, Proof, _seed
from zeenot.babyjub import SUBGROUP_ORDER
from zeenot.errors import MalformedInput, ProofRejected, UsageError
from zeenot.files import make_dir, parse_json, read_json, read_text, write_atomic
from zeenot.ir import Program, check_params, leaves, to_json_value
from zeenot.ir import _flatten as flatten_value
from zeenot.ir import _unflatten as unflatten
from zeenot.proofs import _prove_leaves
from zeenot.proofs import verify as verify_proof
from zeenot.verifier import Verifier, check_program

REGIONS_DIR = "regions"
REGIONS_FORMAT = 1
BUNDLE_FORMAT = 1


@dataclass(frozen=True)
class Link:
    """`src`'s committed output `output` (`return`, or a send such as `premium(total_km)`) is
    `dst`'s committed parameter `param` (kind `from`); or `src`'s own parameter `output` given
    as it is to `dst` as its parameter `param` (`pass`: public, both proofs show the same value;
    private, a value only `dst` uses, such as encryption randomness); or `src`'s public return
    value, one that cannot cross as a commitment (a ciphertext), shown by both proofs (`show`)."""

    src: str
    output: str
    dst: str
    param: str
    kind: str = "from"

    def __str__(self) -> str:
        arrow = {"from": "->", "pass": "=>", "show": "=>"}[self.kind]
        return f"{self.src}.{self.output} {arrow} {self.dst}.{self.param}"

    def to_json(self) -> dict[str, Any]:
        return {self.kind: [self.src, self.output], "to": [self.dst, self.param]}

    @classmethod
    def from_json(cls, doc: Any) -> Link:
        kinds = [k for k in ("from", "pass", "show") if k in doc]
        if len(kinds) != 1 or set(doc) != {kinds[0], "to"}:
            raise ValueError(f"bad link {doc!r}")
        src = doc[kinds[0]]
        return cls(src[0], src[1], doc["to"][0], doc["to"][1], kinds[0])


@dataclass
class Regions:
    """A program compiled in regions: `circuits` by region name (the program's own first)."""

    name: str
    circuits: dict[str, Any]  # region name -> api.Circuit
    links: list[Link]

    @property
    def main(self) -> Any:
        return self.circuits[self.name]

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> Regions:
        """From the compiler's application document (programs inline)."""

        circuits = {r["name"]: Circuit(Program(r["program"])) for r in doc["regions"]}
        links = [Link.from_json(x) for x in doc["links"]]
        return cls._checked(doc["name"], circuits, links)

    @classmethod
    def _checked(cls, name: str, circuits: dict[str, Any], links: list[Link]) -> Regions:
        """Every link joins a committed output and a committed parameter of the same type;
        every argument and result crosses exactly once; the program's own region comes first."""
        if next(iter(circuits), None) != name:
            raise MalformedInput(f"regions: the first region must be the program `{name}`")
        targets: set[tuple[str, str]] = set()
        sources: set[tuple[str, str]] = set()
        for link in links:
            if link.src not in circuits or link.dst not in circuits:
                raise MalformedInput(f"regions: link {link} names an unknown region")
            dst = {p["name"]: p for p in circuits[link.dst].program.params}.get(link.param)
            if link.kind == "pass":
                src = {p["name"]: p for p in circuits[link.src].program.params}.get(link.output)
                if src is None or dst is None or not src["vis"] == dst["vis"] != "committed":
                    raise MalformedInput(f"regions: link {link} does not pass a parameter on")
                if leaves("", src["ty"]) != leaves("", dst["ty"]):
                    raise MalformedInput(f"regions: link {link} passes a value of another type")
            elif link.kind == "show":
                program = circuits[link.src].program
                ok = link.output == "return" and not program.returns_committed
                if not ok or dst is None or dst["vis"] != "public":
                    raise MalformedInput(f"regions: link {link} does not show a public result")
                if leaves("", program.returns) != leaves("", dst["ty"]):
                    raise MalformedInput(f"regions: link {link} joins values of different types")
            else:
                out_ty = _output_type(circuits[link.src].program, link.output)
                if out_ty is None or dst is None or dst["vis"] != "committed":
                    raise MalformedInput(f"regions: link {link} does not join committed values")
                if leaves("", out_ty) != leaves("", dst["ty"]):
                    raise MalformedInput(f"regions: link {link} joins values of different types")
                if (link.src, link.output) in sources:
                    raise MalformedInput(f"regions: link {link} crosses a value twice")
                sources.add((link.src, link.output))
            if (link.dst, link.param) in targets:
                raise MalformedInput(f"regions: link {link} gives `{link.param}` twice")
            targets.add((link.dst, link.param))
        for region, circuit in circuits.items():
            program = circuit.program
            for send in program.sends:
                if (region, send["name"]) not in sources:
                    raise MalformedInput(f"regions: `{region}` sends `{send['name']}` nowhere")
            if region == name:
                continue
            for p in program.params:
                if (region, p["name"]) not in targets:
                    raise MalformedInput(f"regions: `{region}.{p['name']}` receives nothing")
            shown = any(x.kind == "show" and x.src == region for x in links)
            if program.returns is not None and (region, "return") not in sources and not shown:
                raise MalformedInput(f"regions: `{region}` returns to no one")
        return cls(name, circuits, links)

    # -- files ---------------------------------------------------------------------------------

    def manifest(self) -> dict[str, Any]:
        """`regions.json`: the regions (by program hash) and the links."""
        return {
            "zeenot_regions": REGIONS_FORMAT,
            "name": self.name,
            "regions": [{"name": n, "program_hash": c.hash} for n, c in self.circuits.items()],
            "links": [link.to_json() for link in self.links],
        }

    @cached_property
    def hash(self) -> str:
        """SHA-256 of the canonical manifest: names every region's program and every link, so a
        bundle made for other regions or links is refused."""
        text = json.dumps(self.manifest(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "regions_hash": self.hash,
            "regions": [c.summary() for c in self.circuits.values()],
            "links": [str(link) for link in self.links],
        }

    def save(self, directory: str | Path) -> Path:
        out = make_dir(directory)
        for name, circuit in self.circuits.items():
            circuit.save(region_dir(out, name))
        write_atomic(out / REGIONS_FILE, json.dumps(self.manifest(), indent=2) + "\n", secret=False)
        return out

    @classmethod
    def load(cls, directory: str | Path) -> Regions:
        directory = Path(directory)
        doc = read_json(directory / REGIONS_FILE, "the regions")
        try:
            if doc.get("zeenot_regions") != REGIONS_FORMAT:
                raise ValueError(f"expected `zeenot_regions: {REGIONS_FORMAT}`")
            circuits: dict[str, Any] = {}
            for r in doc["regions"]:
                if not _safe_name(r["name"]):
                    raise ValueError(f"bad region name {r['name']!r}")
                circuit = Circuit.load(region_dir(directory, r["name"]))
                if circuit.hash != r["program_hash"]:
                    raise ValueError(f"region `{r['name']}` is not the program the manifest names")
                circuits[r["name"]] = circuit
            links = [Link.from_json(x) for x in doc["links"]]
            name = doc["name"]
        except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
            where = directory / REGIONS_FILE
            raise MalformedInput(f"`{where}` is not a regions manifest: {exc}") from None
        return cls._checked(name, circuits, links)


def region_dir(directory: str | Path, name: str) -> Path:
    return Path(directory) / REGIONS_DIR / name


def _safe_name(name: Any) -> bool:
    return isinstance(name, str) and name.replace("_", "a").replace("#", "0").isalnum()


def _output_type(program: Program, output: str) -> Any:
    """The type of a committed output (`return` of a committed return, or a send), or None."""
    if output == "return":
        return program.returns if program.returns_committed else None
    return next((s["ty"] for s in program.sends if s["name"] == output), None)


def _output_slices(program: Program) -> dict[str, slice]:
    """Where each committed output sits among the output leaves."""
    n_ret = program.n_return_leaves
    out = {"return": slice(0, n_ret)}
    pos = n_ret
    for s in program.sends:
        n = len(leaves("", s["ty"]))
        out[s["name"]] = slice(pos, pos + n)
        pos += n
    return out


def _input_slices(program: Program) -> dict[str, slice]:
    """Where each parameter's leaves sit among the input leaves."""
    out, pos = {}, 0
    for p in program.params:
        n = len(leaves("", p["ty"]))
        out[p["name"]] = slice(pos, pos + n)
        pos += n
    return out


# -- bundles -----------------------------------------------------------------------------------


@dataclass
class Bundle:
    """One proof per region of a program in regions, for one run."""

    program: str
    regions_hash: str
    proofs: dict[str, Any]  # region name -> api.Proof
    opening: Any = field(default=None, repr=False, compare=False)  # the program's own

    @property
    def public_inputs(self) -> dict[str, Any]:
        main = self.proofs[self.program]
        linked = {k for k in main.public_inputs if k.endswith("()")}
        return {k: v for k, v in main.public_inputs.items() if k not in linked}

    @property
    def outputs(self) -> Any:
        return self.proofs[self.program].outputs

    def to_json(self) -> str:
        return json.dumps(
            {
                "zeenot_bundle": BUNDLE_FORMAT,
                "program": self.program,
                "regions_hash": self.regions_hash,
                "proofs": {n: json.loads(p.to_json()) for n, p in self.proofs.items()},
            },
            indent=2,
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Bundle:
        doc = parse_json(text, "the bundle")
        if not isinstance(doc, dict) or doc.get("zeenot_bundle") != BUNDLE_FORMAT:
            raise MalformedInput(f"not a zeenot bundle (expected `zeenot_bundle: {BUNDLE_FORMAT}`)")
        if set(doc) != {"zeenot_bundle", "program", "regions_hash", "proofs"}:
            raise MalformedInput(
                "bundle: expected exactly `zeenot_bundle`, `program`, `regions_hash`, `proofs`"
            )
        proofs = doc["proofs"]
        if not (isinstance(doc["program"], str) and isinstance(doc["regions_hash"], str)):
            raise MalformedInput("bundle: `program` and `regions_hash` are strings")
        if not isinstance(proofs, dict):
            raise MalformedInput("bundle: `proofs` maps region names to proofs")
        parsed = {}
        for name, proof in proofs.items():
            try:
                parsed[name] = Proof.from_json(json.dumps(proof))
            except MalformedInput as exc:
                raise MalformedInput(f"bundle: region `{name}`: {exc}") from None
        return cls(doc["program"], doc["regions_hash"], parsed)


def _evaluate(regions: Regions, inputs: dict[str, Any]) -> dict[str, list[str]]:
    """Every region's input leaves: the program's own from `inputs`, the others computed by
    running the regions as far as what is known allows (a caller computes a call's arguments
    before it needs its result) and passing values along the links, until all are known."""
    main = regions.main.program
    linked = {link.param for link in regions.links if link.dst == regions.name}
    own = [p for p in main.params if p["name"] not in linked]
    try:
        values = check_params(own, inputs, public_only=False)
    except ValueError as exc:
        raise MalformedInput(str(exc)) from None
    known: dict[str, list[str | None]] = {
        n: [None] * len(c.program.ir["inputs"]) for n, c in regions.circuits.items()
    }
    params_at = {n: _input_slices(c.program) for n, c in regions.circuits.items()}
    outputs_at = {n: _output_slices(c.program) for n, c in regions.circuits.items()}
    for p, v in zip(own, values, strict=True):
        known[regions.name][params_at[regions.name][p["name"]]] = flatten_value(p["ty"], v)
    done: set[str] = set()
    while len(done) < len(known):
        progress = False
        for name, circuit in regions.circuits.items():
            if name in done:
                continue
            outputs = _native.evaluate_partial(circuit.native, known[name])
            for link in regions.links:
                if link.src != name:
                    continue
                if link.kind == "pass":
                    value = known[name][params_at[name][link.output]]
                else:
                    value = outputs[outputs_at[name][link.output]]
                at = params_at[link.dst][link.param]
                if None not in value and None in known[link.dst][at]:
                    known[link.dst][at] = value
                    progress = True
            if None not in known[name]:
                done.add(name)
                progress = True
        if not progress:  # a zeenot bug: the compiler orders a call's arguments before its use
            raise RuntimeError("internal error: the regions' values depend on each other")
    return {n: [v for v in leaves_ if v is not None] for n, leaves_ in known.items()}


def prove(
    regions: Regions,
    inputs: dict[str, Any],
    backends: Mapping[str, str],
    keys: Mapping[str, Any] | None = None,
    *,
    blindings: dict[str, Any] | None = None,
    seed: int | None = None,
) -> Bundle:
    """Prove every region, `backends[region]` choosing `groth16` (its `keys[region]` needed) or
    `sigma`. `blindings`: for the program's own `Committed` parameters, as `api.prove`.
    Raises `UnsatisfiedError` when no proof exists (a region fails on the values it gets)."""

    if set(backends) != set(regions.circuits) or not set(backends.values()) <= set(BACKENDS):
        raise UsageError(f"backends: one of {BACKENDS} for each of {list(regions.circuits)}")
    keys = keys or {}
    for name, backend in backends.items():
        if backend == "groth16" and name not in keys:
            raise UsageError(f"region `{name}` is proved with groth16 but has no keys")
    seed = _seed(seed)
    rng = random.Random(seed) if seed is not None else None

    def blinding() -> int:
        return rng.randrange(SUBGROUP_ORDER) if rng else secrets.randbelow(SUBGROUP_ORDER)

    values = _evaluate(regions, inputs)
    # each crossing value's blinding (one commitment, whatever its leaves), chosen before any
    # proof so that both ends commit alike
    crossing: dict[tuple[str, str], int] = {}
    for link in regions.links:
        if link.kind == "from":
            crossing[(link.src, link.output)] = crossing[(link.dst, link.param)] = blinding()

    def blinds_in(name: str, program: Program) -> list[str]:
        given = dict(blindings or {}) if name == regions.name else {}
        for p in program.committed_params():
            if (name, p["name"]) in crossing:
                given[p["name"]] = crossing[(name, p["name"])]
        try:
            return program.blinding_values(given)
        except ValueError as exc:
            raise MalformedInput(str(exc)) from None

    proofs: dict[str, Any] = {}
    opening = None
    for name, circuit in regions.circuits.items():
        program = circuit.program
        blinds_out: list[str] = []
        if program.returns_committed:
            blinds_out.append(str(crossing.get((name, "return"), blinding())))
        for s in program.sends:
            blinds_out.append(str(crossing[(name, s["name"])]))
        leaves_in = values[name]
        sub_seed = None if rng is None else rng.getrandbits(64)
        proofs[name] = _prove_leaves(
            circuit,
            backends[name],
            keys.get(name),
            leaves_in,
            blinds_in(name, program) + blinds_out,
            sub_seed,
            _public_values(program, leaves_in),
        )
        if name == regions.name:
            opening = proofs[name].opening
    return Bundle(regions.name, regions.hash, proofs, opening)


def _public_values(program: Program, leaves_in: list[str]) -> dict[str, Any]:
    """A region's public parameters as JSON values, from its input leaves (a callee's public
    inputs are its caller's, passed on)."""
    at = _input_slices(program)
    return {
        p["name"]: to_json_value(unflatten(p["ty"], leaves_in[at[p["name"]]], [0]))
        for p in program.params
        if p["vis"] == "public"
    }


def verify(regions: Regions, verifying_keys: Mapping[str, bytes | None], bundle: Bundle) -> None:
    """Return normally if every region's proof is valid and every link holds; raise
    `ProofRejected` (naming the region or link) otherwise. `verifying_keys[region]`: the
    region's Groth16 verifying key (needed only for a region proved with groth16)."""
    BundleVerifier(regions, verifying_keys).verify(bundle)


class BundleVerifier:
    """Verifies bundles of one program in regions, each region's Groth16 verifying key prepared
    once (a server verifying many bundles)."""

    def __init__(self, regions: Regions, verifying_keys: Mapping[str, bytes | None]):
        self.regions = regions
        self.groth16 = {
            name: Verifier.of(regions.circuits[name], vk)
            for name, vk in verifying_keys.items()
            if vk is not None and name in regions.circuits
        }

    def verify(self, bundle: Bundle) -> None:
        """As `verify`."""

        regions = self.regions
        if not isinstance(bundle, Bundle):
            raise UsageError(f"verify takes a `Bundle`, not {type(bundle).__name__}")
        if bundle.program != regions.name or bundle.regions_hash != regions.hash:
            raise ProofRejected(
                f"the bundle is for other regions (`{bundle.program}`, regions hash "
                f"{bundle.regions_hash[:16]}…), not these"
            )
        if set(bundle.proofs) != set(regions.circuits):
            missing = sorted(set(regions.circuits) - set(bundle.proofs))
            extra = sorted(set(bundle.proofs) - set(regions.circuits))
            raise ProofRejected(f"the bundle's regions differ: missing {missing}, unknown {extra}")
        for name, circuit in regions.circuits.items():
            proof = bundle.proofs[name]
            try:
                if proof.backend == "groth16" and name in self.groth16:
                    check_program(circuit.program.ir["name"], circuit.hash, proof)
                    self.groth16[name].verify(proof)
                else:
                    verify_proof(circuit, None, proof)
            except (ProofRejected, MalformedInput) as exc:
                raise type(exc)(f"region `{name}`: {exc}") from None
        self._links(bundle)

    def _links(self, bundle: Bundle) -> None:
        regions = self.regions
        for link in regions.links:
            src, dst = bundle.proofs[link.src], bundle.proofs[link.dst]
            if link.kind != "from":  # public values both proofs show (a private pass: dst's alone)
                there = src.outputs if link.kind == "show" else src.public_inputs.get(link.output)
                if there != dst.public_inputs.get(link.param):
                    raise ProofRejected(f"link {link}: the two proofs show different values")
                continue
            sent = src.outputs if link.output == "return" else (src.sent or {}).get(link.output)
            received = dst.public_inputs.get(link.param)
            if sent != received:
                raise ProofRejected(
                    f"link {link}: the commitments differ (a region's proof from another run, or "
                    "altered)"
                )


def read_bundle(path: str | Path) -> Bundle:
    try:
        return Bundle.from_json(read_text(path, "bundle"))
    except MalformedInput as exc:
        raise MalformedInput(f"`{path}`: {exc}") from None
