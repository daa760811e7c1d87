"""The `zeenot` command.

Data goes to stdout; `error:` and `hint:` lines go to stderr. Exit codes:

* 0 — success (`verify`: the proof is valid);
* 1 — the statement is false: a proof that does not verify, or a program that fails on its
  inputs (a `check`, an overflow, a division by zero) so that no proof exists;
* 2 — unusable input: a malformed program, file, key, proof or input value, or bad usage;
* 3 — an internal error: a zeenot bug, never a user's mistake (`ZEENOT_DEBUG=1` shows where);
* 130 — interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from zeenot import _native, api, bundle, progress
from zeenot.certified import cli as certified_cli
from zeenot.checker import cli as checker_cli
from zeenot.cothority import cli as cothority_cli
from zeenot.errors import CompileError, Failure, ZeenotError
from zeenot.files import check_output_dir, check_output_file, read_json, read_text, write_atomic
from zeenot.plan import cli as plan_cli
from zeenot.prio import dap_cli as prio_cli
from zeenot.runtime import cli as runtime_cli
from zeenot.simulate import simulate
from zeenot.timing import Stages
from zeenot.verifier import Verifier

EXIT_OK, EXIT_FALSE, EXIT_BAD_INPUT = 0, 1, 2


class _Usage(ZeenotError):
    pass


def _read_inputs(path: str) -> dict[str, Any]:
    value = read_json(path, "inputs")
    if not isinstance(value, dict):
        raise api.MalformedInput(f"inputs `{path}` must be a JSON object keyed by parameter name")
    return value


def _read_blindings(path: str | None) -> dict[str, Any] | None:
    """`{param: blinding}` for the program's own `Committed` parameters, a blinding as a
    number or a decimal string (what `--opening` writes); the prover checks each
    (`Program.blinding_values`)."""
    if path is None:
        return None
    value = read_json(path, "blindings")
    if not isinstance(value, dict):
        raise api.MalformedInput(f"blindings `{path}` must be a JSON object keyed by parameter")
    return {
        name: int(r) if isinstance(r, str) and r.isascii() and r.isdigit() else r
        for name, r in value.items()
    }


def _write_opening(path: str | None, opening: api.Opening | None) -> None:
    """The prover's opening of a `Committed` return (`{"value", "blinding"}`): secret, and the
    file is the prover's alone (mode 0600)."""
    if path is None or opening is None:
        return
    doc = {"value": opening.values, "blinding": str(opening.blindings[0])}
    write_atomic(path, json.dumps(doc) + "\n", secret=True)


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2))


_QUIET = [False]


def _info(message: str, end: str = "\n") -> None:
    """A line for the user on stderr (what was chosen, where it went); not with `--quiet`."""
    if not _QUIET[0]:
        print(message, end=end, file=sys.stderr, flush=True)


def cmd_simulate(args: argparse.Namespace) -> int:
    fn = api.load_target(args.target)
    inputs = _read_inputs(args.inputs)
    try:
        outputs = simulate(fn, inputs)
    except ValueError as exc:
        raise api.MalformedInput(str(exc)) from None
    _print_json(outputs)
    return EXIT_OK


def cmd_compile(args: argparse.Namespace) -> int:
    check_output_dir(args.output)
    circuit = api.compile(args.target, max_instructions=args.max_instructions)
    circuit.save(args.output)
    if isinstance(circuit, bundle.Regions):
        if args.json:
            summary = circuit.summary()
            for region in summary["regions"]:
                region["predicted"] = _predicted(circuit.circuits[region["name"]])
            _print_json(summary)
        else:
            sizes = ", ".join(
                f"{n} ({c.stats['constraints']} constraints)" for n, c in circuit.circuits.items()
            )
            print(
                f"compiled `{circuit.name}` in {len(circuit.circuits)} regions: {sizes}; "
                f"{len(circuit.links)} values cross as commitments -> {args.output}"
            )
        return EXIT_OK
    if isinstance(circuit, api.Template):
        lists = ", ".join(circuit.unbounded)
        if args.json:
            _print_json({"name": circuit.name, "template": True, "unbounded": circuit.unbounded})
        else:
            print(
                f"compiled `{circuit.name}` as a template: its lists ({lists}) have no maximum "
                f"size, so it is proved with `--backend sigma` at each input's length -> "
                f"{args.output}"
            )
        return EXIT_OK
    if args.json:
        _print_json({**circuit.summary(), "predicted": _predicted(circuit)})
    else:
        s = circuit.stats
        print(
            f"compiled `{circuit.program.ir['name']}`: {s['constraints']} constraints, "
            f"{s['public_inputs']} public inputs, {s['private_inputs']} private inputs "
            f"-> {args.output}"
        )
    return EXIT_OK


def _predicted(circuit: api.Circuit) -> dict[str, Any]:
    """The planner's predicted costs per back end that can prove the program (docs/planner.md;
    without inputs, so upper bounds where they matter)."""
    from zeenot.plan import Profile, Region, predict

    allowed = [b for b, why in Region("", circuit).backends().items() if why is None]
    costs = predict(Profile.load(), circuit)
    return {b: costs[b].to_json() for b in allowed}


def cmd_setup(args: argparse.Namespace) -> int:
    circuit = api.load(args.dir)
    if isinstance(circuit, bundle.Regions):  # one setup per region, keys in its directory
        for name, region in circuit.circuits.items():
            _setup_one(bundle.region_dir(args.dir, name), region, args.force)
        return EXIT_OK
    return _setup_one(args.dir, circuit, args.force)


def _setup_one(directory: str | Path, circuit: api.Circuit | api.Template, force: bool) -> int:
    if not force and (Path(directory) / api.KEYS_FILE).exists():
        keys_there = api.Keys.load(directory, proving=False)
        raise api.MalformedInput(
            f"`{directory}` already has keys (verifying key sha256 "
            f"{keys_there.verifying_key_hash}); proofs made with them would no longer verify. "
            "Use `zeenot setup --force` to replace them"
        )
    with progress.step("setup", _expected(circuit, "groth16", "setup_s")):
        keys = api.setup(circuit)
    keys.save(directory, overwrite=force)
    print(f"keys written to {directory} (verifying key sha256 {keys.verifying_key_hash})")
    return EXIT_OK


def _expected(circuit: api.Circuit | api.Template, backend: str, measure: str) -> float | None:
    """The planner's prediction of a step's seconds, for the progress bar: costed only when
    the bar is drawn (a terminal), and None where the models cannot say."""
    if not progress.enabled() or not isinstance(circuit, api.Circuit):
        return None
    from zeenot.plan import Profile, predict

    try:
        return float(getattr(predict(Profile.load(), circuit)[backend], measure))
    except (ZeenotError, KeyError):
        return None


def _auto_backend(directory: str | Path, circuit: api.Circuit | api.Template, inputs: Any) -> str:
    """`--backend auto`: the planner's choice for this one region. Keys already in DIR make
    Groth16's setup a sunk cost; without them only the sigma back end can prove here."""
    if isinstance(circuit, api.Template):
        backend, why = "sigma", "lists without MaxSize: no fixed circuit for groth16"
    elif not (Path(directory) / api.KEYS_FILE).exists():
        backend, why = "sigma", f"no keys in {directory} (`zeenot setup` them for groth16)"
    else:
        from zeenot.plan import Profile, Region, Weights, plan

        # `zeenot plan`'s own computation with its default weights, so that both print the
        # same choice and the same "× cheaper" figure for a region (issue 28)
        region = Region(circuit.program.ir["name"], circuit, inputs=inputs)
        choice = plan([region], Profile.load(), Weights()).choices[0]
        backend, why = choice.backend, choice.why()
    _info(f"backend: {backend} ({why})")
    return backend


def cmd_prove(args: argparse.Namespace) -> int:
    check_output_file(args.output)  # before proving, which may take minutes
    stages = Stages()
    with stages.stage("load"):
        circuit = api.load(args.dir)
        inputs = _read_inputs(args.inputs)
        blindings = _read_blindings(args.blindings)
    if args.opening is not None:
        check_output_file(args.opening)
        main = circuit.main if isinstance(circuit, bundle.Regions) else circuit
        program = getattr(main, "program", None)  # a template's is made at the inputs' lengths
        if program is not None and not program.returns_committed:
            raise api.UsageError("--opening: the program does not return a Committed value")
    if isinstance(circuit, bundle.Regions):
        return _prove_regions(args, circuit, inputs, blindings, stages)
    backend = args.backend
    if backend == "auto":
        with stages.stage("plan"):
            backend = _auto_backend(args.dir, circuit, inputs)
    if backend == "sigma":
        with (
            stages.stage("prove (sigma)"),
            progress.step("proving (sigma)", _expected(circuit, "sigma", "prove_s")),
        ):
            proof = api.prove_sigma(circuit, inputs, blindings=blindings)
    elif isinstance(circuit, api.Template):
        raise circuit.needs_bounds()
    else:
        with stages.stage("load keys"):
            keys = api.Keys.load(args.dir)
        with stages.stage("proving key"):
            keys = keys.for_proving()  # the encoded key's bytes let go before proving
        with progress.step("proving (groth16)", _expected(circuit, "groth16", "prove_s")):
            proof = api.prove(circuit, keys, inputs, blindings=blindings, stages=stages)
    with stages.stage("write"):
        write_atomic(args.output, proof.to_json() + "\n", secret=False)
        _write_opening(args.opening, proof.opening)
    if args.profile:
        print(stages.table(), file=sys.stderr)
    _print_json({"public_inputs": proof.public_inputs, "outputs": proof.outputs})
    return EXIT_OK


def _prove_regions(
    args: argparse.Namespace,
    regions: bundle.Regions,
    inputs: Any,
    blindings: dict[str, Any] | None,
    stages: Stages,
) -> int:
    """A program in regions: one proof per region (each with `--backend`, or the planner's
    choice per region for `auto`), written as one bundle."""
    backends: dict[str, str] = {}
    keys: dict[str, api.Keys] = {}
    for name, circuit in regions.circuits.items():
        where = bundle.region_dir(args.dir, name)
        backend = args.backend
        if backend == "auto":
            _info(f"{name}: ", end="")
            with stages.stage(f"plan: {name}"):
                backend = _auto_backend(where, circuit, inputs if name == regions.name else None)
        if backend == "groth16":
            with stages.stage(f"load keys: {name}"):
                keys[name] = api.Keys.load(where).for_proving()
        backends[name] = backend
    with (
        progress.step("proving the regions", None),
        stages.stage(
            f"prove {len(backends)} regions ({', '.join(sorted(set(backends.values())))})"
        ),
    ):
        proved = bundle.prove(regions, inputs, backends, keys, blindings=blindings)
    with stages.stage("write"):
        write_atomic(args.output, proved.to_json() + "\n", secret=False)
        _write_opening(args.opening, proved.opening)
    if args.profile:
        print(stages.table(), file=sys.stderr)
    _print_json({"public_inputs": proved.public_inputs, "outputs": proved.outputs})
    return EXIT_OK


def _verify_bundles(args: argparse.Namespace) -> list[tuple[str, ZeenotError | None]]:
    """Each bundle's outcome (every region's keys prepared once)."""
    regions = bundle.Regions.load(args.dir)
    keys: dict[str, bytes | None] = {}
    for name in regions.circuits:
        where = bundle.region_dir(args.dir, name)
        if (where / api.KEYS_FILE).exists():
            keys[name] = api.Keys.load(where, proving=False).verifying_key
    verifier = bundle.BundleVerifier(regions, keys)
    outcomes: list[tuple[str, ZeenotError | None]] = []
    for path in args.proof:
        try:
            verifier.verify(bundle.read_bundle(path))
            outcomes.append((path, None))
        except ZeenotError as exc:
            outcomes.append((path, exc))
    return outcomes


def _load_proof(path: str) -> api.Proof:
    try:
        return api.Proof.from_json(read_text(path, "proof"))
    except api.MalformedInput as exc:
        raise api.MalformedInput(f"`{path}`: {exc}") from None


def cmd_verify(args: argparse.Namespace) -> int:
    """One proof: `valid`, or `invalid: reason` and exit 1. Several: a line per proof
    (`PATH: valid` on stdout, `PATH: invalid: …` or `PATH: error: …` on stderr) and the worst
    exit code; groth16 proofs of a circuit are checked as one batch. A program in regions
    takes bundles (zeenot.bundle)."""
    if (Path(args.dir) / bundle.REGIONS_FILE).exists():
        return _report(_verify_bundles(args))
    outcomes: dict[str, ZeenotError | None] = {}
    proofs: dict[str, api.Proof] = {}
    for path in args.proof:
        try:
            proofs[path] = _load_proof(path)
        except ZeenotError as exc:
            outcomes[path] = exc
    outcomes.update(zip(proofs, _verify_all(args, list(proofs.values())), strict=True))
    return _report([(path, outcomes[path]) for path in args.proof])


def _report(outcomes: list[tuple[str, ZeenotError | None]]) -> int:
    """Print what `verify` found: one proof's outcome raised (its exit code), or a line each."""
    if len(outcomes) == 1:
        outcome = outcomes[0][1]
        if outcome is not None:
            raise outcome
        print("valid")
        return EXIT_OK
    code = EXIT_OK
    for path, outcome in outcomes:
        if outcome is None:
            print(f"{path}: valid")
        elif isinstance(outcome, api.ProofRejected):
            print(f"{path}: invalid: {outcome}", file=sys.stderr)
            code = max(code, EXIT_FALSE)
        else:
            print(f"{path}: error: {outcome}", file=sys.stderr)
            code = EXIT_BAD_INPUT
    return code


def _verify_all(args: argparse.Namespace, proofs: list[api.Proof]) -> list[ZeenotError | None]:
    """Why each proof is not valid (`ProofRejected`, `MalformedInput`), or None. Groth16
    proofs of a circuit go through its `Verifier` (no IR, one batch), sigma proofs of a circuit
    through `api.verify_sigma_batch` (one batch); a template's proofs through `api.verify`."""
    outcomes: list[ZeenotError | None] = [None] * len(proofs)
    groth16 = [k for k, p in enumerate(proofs) if p.backend == "groth16"]
    is_template = (Path(args.dir) / api.TEMPLATE_FILE).exists()
    if groth16 and not is_template:
        batch = Verifier.load(args.dir).verify_batch([proofs[k] for k in groth16])
        for k, outcome in zip(groth16, batch, strict=True):
            outcomes[k] = outcome
    rest = [k for k in range(len(proofs)) if is_template or k not in groth16]
    if rest and not is_template:  # sigma proofs of a circuit: one batch too
        circuit = api.Circuit.load(args.dir)
        checked = api.verify_sigma_batch(circuit, [proofs[k] for k in rest])
        for k, outcome in zip(rest, checked, strict=True):
            outcomes[k] = outcome
    elif rest:
        limits = {"max_instructions": args.max_instructions, "max_gates": args.max_gates}
        checked = _verify_template_apart(args.dir, [proofs[k] for k in rest], limits)
        for k, outcome in zip(rest, checked, strict=True):
            outcomes[k] = outcome
    return outcomes


# A template's source is Python that loading runs (docs/threat-model.md): whatever it does, even
# `os._exit(0)`, ends a process of its own. This one reads the child's answer and exits 0 only
# on an explicit, complete "valid" for every proof; a child that ends any other way is an error.
_CHILD_RESULT = "zeenot-template-verify-result:"


def _verify_template_apart(
    directory: str, proofs: list[api.Proof], limits: dict[str, int]
) -> list[ZeenotError | None]:
    import subprocess

    request = {"dir": str(directory), "limits": limits, "proofs": [p.to_json() for p in proofs]}
    package = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package, os.environ.get("PYTHONPATH", "")])}
    child = subprocess.run(
        [sys.executable, "-c", "from zeenot.cli import _template_child; _template_child()"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    answer = None
    for text in reversed(child.stdout.splitlines()):
        if text.startswith(_CHILD_RESULT):
            answer = json.loads(text[len(_CHILD_RESULT) :])
            break
    if child.returncode != 0 or not isinstance(answer, dict):
        last = child.stderr.strip().splitlines()[-1:] or ["nothing on stderr"]
        raise api.MalformedInput(
            f"verifying `{directory}` ended before it answered (exit status "
            f"{child.returncode}; {last[0][:200]}): the template's source ends the process "
            "when it is loaded or compiled, so no proof was checked"
        )
    if "error" in answer:  # the template could not be loaded: one error, as for a circuit
        raise _ERRORS.get(answer["error"][0], api.MalformedInput)(answer["error"][1])
    outcomes = answer["outcomes"]
    if len(outcomes) != len(proofs):
        raise api.MalformedInput(f"verifying `{directory}`: an incomplete answer")
    return [None if o is None else _ERRORS[o[0]](o[1]) for o in outcomes]


_ERRORS: dict[str, type[ZeenotError]] = {
    "rejected": api.ProofRejected,
    "malformed": api.MalformedInput,
}


def _template_child() -> None:
    """The child of `_verify_template_apart`: load the template, verify each proof, answer
    on one line of stdout (outcomes, or the error that stopped loading)."""
    request = json.loads(sys.stdin.read())
    try:
        template = api.load(request["dir"])
        outcomes: list[list[str] | None] = []
        for text in request["proofs"]:
            try:
                proof = api.Proof.from_json(text)
                api.verify(template, None, proof, **request["limits"])
                outcomes.append(None)
            except api.ProofRejected as exc:
                outcomes.append(["rejected", str(exc)])
            except api.MalformedInput as exc:
                outcomes.append(["malformed", str(exc)])
        answer: dict[str, Any] = {"outcomes": outcomes}
    except CompileError as exc:
        answer = {"error": ["malformed", exc.render()]}
    except (ZeenotError, _native.ZeenotError) as exc:
        answer = {"error": ["malformed", str(exc)]}
    sys.stdout.write("\n" + _CHILD_RESULT + json.dumps(answer) + "\n")
    sys.stdout.flush()


EXPORT_FORMATS = ("snarkjs", "solidity", "calldata")


def cmd_export(args: argparse.Namespace) -> int:
    if args.format not in EXPORT_FORMATS:
        raise _Usage(
            f"unknown export format `{args.format}` (supported: {', '.join(EXPORT_FORMATS)})"
        )
    if args.format != "calldata" and args.output is None:
        raise _Usage(f"`export {args.format}` needs -o OUT")
    if args.format == "solidity":
        if args.proof is not None:
            raise _Usage("`export solidity DIR -o Verifier.sol` takes no proof (see `calldata`)")
        check_output_file(args.output)
        circuit = api.Circuit.load(args.dir)
        keys = api.Keys.load(args.dir, proving=False)
        write_atomic(args.output, api.solidity_verifier(circuit, keys.verifying_key), secret=False)
        print(f"wrote {args.output} (contract ZeenotVerifier, {len(circuit.layout[0])} inputs)")
        return EXIT_OK
    if args.proof is None:
        raise _Usage(f"`export {args.format}` needs a proof: DIR PROOF.json")
    proof = _load_proof(args.proof)
    if args.format == "calldata":
        if proof.backend != "groth16":
            raise _Usage(f"contracts verify Groth16 proofs only; this is a {proof.backend} proof")
        circuit = api.Circuit.load(args.dir)
        keys = api.Keys.load(args.dir, proving=False)
        text = json.dumps(api.solidity_calldata(circuit, keys.verifying_key, proof)) + "\n"
        if args.output in (None, "-"):
            print(text, end="")
        else:
            write_atomic(args.output, text, secret=False)
        return EXIT_OK
    if proof.backend != "groth16":
        raise _Usage(f"snarkjs verifies Groth16 proofs only; this is a {proof.backend} proof")
    circuit = api.Circuit.load(args.dir)
    keys = api.Keys.load(args.dir, proving=False)
    out = api.export_snarkjs(circuit, keys.verifying_key, proof, args.output)
    print(f"wrote {out}/verification_key.json, proof.json, public.json")
    return EXIT_OK


def _positive_int(text: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return int(text)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="zeenot", description="Compile typed Python to zero-knowledge proofs."
    )
    p.add_argument("--version", action="version", version=f"zeenot {_native.__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("simulate", help="run a @zk function as plain Python")
    s.add_argument("target", metavar="APP.py:FN")
    s.add_argument("--inputs", required=True, metavar="IN.json")
    s.set_defaults(run=cmd_simulate)

    s = sub.add_parser("compile", help="compile a @zk function to IR and an R1CS circuit")
    s.add_argument("target", metavar="APP.py:FN")
    s.add_argument("-o", "--output", required=True, metavar="DIR")
    s.add_argument("--json", action="store_true", help="print statistics as JSON")
    s.add_argument(
        "--max-instructions",
        type=_positive_int,
        metavar="N",
        help="the most IR instructions the unrolled program may have (default 200,000; "
        "e.g. examples/activity/certified.py:distance needs 5,000,000)",
    )
    s.set_defaults(run=cmd_compile)

    s = sub.add_parser("setup", help="generate Groth16 proving and verifying keys")
    s.add_argument("dir", metavar="DIR")
    s.add_argument(
        "--force",
        action="store_true",
        help="replace existing keys (proofs made with them will no longer verify)",
    )
    s.set_defaults(run=cmd_setup)

    s = sub.add_parser("prove", help="prove the program on private inputs")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--inputs", required=True, metavar="IN.json")
    s.add_argument(
        "--backend",
        choices=(*api.BACKENDS, "auto"),
        default="groth16",
        help="groth16 (needs `zeenot setup`; tiny proofs), sigma (no setup; proofs linear "
        "in the data) or auto (the planner's choice: docs/planner.md)",
    )
    s.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="PROOF.json",
        help="the proof (a bundle, one proof per region, for a program in regions)",
    )
    s.add_argument(
        "--profile",
        action="store_true",
        help="print the time of each stage (loading, witness, synthesis, FFT, MSM) on stderr",
    )
    s.add_argument(
        "--blindings",
        metavar="BL.json",
        help="the blindings of the program's own Committed parameters: {param: integer}",
    )
    s.add_argument(
        "--opening",
        metavar="OPENING.json",
        help="write the opening of a Committed return ({value, blinding}; secret: mode 0600), "
        "to pass on to the next proof",
    )
    s.set_defaults(run=cmd_prove)

    s = sub.add_parser("verify", help="verify proofs; exit 0 if all are valid, 1 if not")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("proof", metavar="PROOF.json", nargs="+")
    s.add_argument(
        "--max-instructions",
        type=_positive_int,
        default=api.DEFAULT_MAX_INSTRUCTIONS,
        metavar="N",
        help="for a template (lists without MaxSize): the most IR instructions this verifier "
        "compiles at the lengths a proof names before rejecting it "
        f"(default {api.DEFAULT_MAX_INSTRUCTIONS:,})",
    )
    s.add_argument(
        "--max-gates",
        type=_positive_int,
        default=api.DEFAULT_MAX_GATES,
        metavar="N",
        help="for a template: the most padded gates of the sigma circuit proof this verifier "
        f"checks at a proof's lengths (default {api.DEFAULT_MAX_GATES:,})",
    )
    s.set_defaults(run=cmd_verify)

    checker_cli.add_parser(sub)
    runtime_cli.add_parsers(sub)
    cothority_cli.add_parser(sub)
    plan_cli.add_parsers(sub)
    prio_cli.add_parsers(sub)
    certified_cli.add_parsers(sub)

    s = sub.add_parser("export", help="export a verifier contract, or a proof for another verifier")
    s.add_argument(
        "format",
        metavar="FORMAT",
        help="`snarkjs` (DIR PROOF -o OUT_DIR), `solidity` (DIR -o Verifier.sol: a Groth16 "
        "verifier contract), `calldata` (DIR PROOF [-o FILE]: the contract's verifyProof "
        "arguments as JSON)",
    )
    s.add_argument("dir", metavar="DIR")
    s.add_argument("proof", metavar="PROOF.json", nargs="?")
    s.add_argument("-o", "--output", metavar="OUT")
    s.set_defaults(run=cmd_export)
    for verb in QUIET_VERBS:
        sub.choices[verb].add_argument(
            "-q",
            "--quiet",
            action="store_true",
            help="print nothing but errors (no results, summaries or progress): the exit code "
            "says how it went",
        )
    return p


# The verbs that print results or summaries; `--quiet` silences them (errors still print).
QUIET_VERBS = ("compile", "setup", "prove", "verify", "plan", "run")


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a process ended by Ctrl-C


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # anywhere, even while reporting another error: one line
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if getattr(args, "quiet", False):
        _QUIET[0] = True
        os.environ["ZEENOT_PROGRESS"] = "0"
        with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
            return _run(args)
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.run(args))
    except CompileError as exc:
        print(exc.render() if hasattr(exc, "render") else f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except api.ProofRejected as exc:
        print(f"invalid: {exc}", file=sys.stderr)
        return EXIT_FALSE
    except Failure as exc:
        print(f"error: the program fails on these inputs: {exc}", file=sys.stderr)
        return EXIT_FALSE
    except _native.UnsatisfiedError as exc:
        print(f"error: no proof exists for these inputs: {exc}", file=sys.stderr)
        return EXIT_FALSE
    except _native.UnsupportedError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print("hint: prove this program with `--backend groth16`", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ZeenotError, _native.ZeenotError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # a bug in zeenot: say so plainly, traceback on request
        if os.environ.get("ZEENOT_DEBUG"):
            raise
        print(f"error: internal error ({type(exc).__name__}: {exc})", file=sys.stderr)
        print(
            "hint: this is a zeenot bug; rerun with ZEENOT_DEBUG=1 for a traceback", file=sys.stderr
        )
        return 3


if __name__ == "__main__":
    sys.exit(main())
