"""The documentation's constraint counts are the code's (issue 28, item 7): each figure the docs
cite for a named program is recomputed here, and a change that moves one fails this test until
the docs say the new figure. Circuits are counted through the front end's golden record
(tests/python/golden/front_end.json), which test_front_end_golden.py recomputes from the code;
templates and the median are compiled here."""

from __future__ import annotations

import json
import re
from pathlib import Path

from zeenot import api, load_function

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
LANGUAGE = (ROOT / "docs" / "language.md").read_text()
GOLDEN = json.loads((Path(__file__).parent / "golden" / "front_end.json").read_text())

MEDIAN = """
from zeenot import MaxSize, Private, check, u32, zk


@zk
def median(xs: Private[MaxSize[list[u32], 31]]) -> u32:
    check(len(xs) >= 1)
    return sorted(xs)[len(xs) // 2]
"""


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _count(app: str, fn: str) -> int:
    """The constraints of `examples/APP/app.py:FN` (`programs`: a test program's FN) as
    benchmarks/middle_end.py counts them: calls inlined, a template at length 16. A circuit's
    count is the golden record's (test_front_end_golden.py recomputes it from the code); a
    template, recorded at length 2 there, is compiled here at 16."""
    key = f"examples/{app}/app.py:{fn}"
    if key not in GOLDEN:
        programs = [k for k in GOLDEN if k.startswith("tests/python/programs/")]
        key = next(k for k in programs if k.endswith(f":{fn}"))
    if "lengths" not in GOLDEN[key]:
        return int(GOLDEN[key]["constraints"])
    template = api.compile(load_function(str(ROOT / key.split(":")[0]), fn), regions=False)
    circuit = template.at(dict.fromkeys(template.unbounded, 16))
    return int(circuit.stats["constraints"])


def test_the_middle_end_table_is_the_code_s():
    """README, "Middle end": `| app: `fn` | without | with | change |`; the "with" column is
    what the compiler emits today, and the change is computed from the two columns."""
    rows = re.findall(
        r"^\| (\w+): `(\w+)` \| ([\d,]+) \| ([\d,]+) \| ([+-]\d+\.\d) % \|$", README, re.M
    )
    assert len(rows) >= 15, rows
    wrong = []
    for app, fn, before, after, change in rows:
        now = _count(app, fn)
        if _number(after) != now:
            wrong.append(f"{app}: `{fn}`: the README says {after}, the code gives {now:,}")
        pct = 100 * (_number(after) - _number(before)) / _number(before)
        if f"{pct:+.1f}" != change:
            wrong.append(f"{app}: `{fn}`: change {change} %, the columns give {pct:+.1f} %")
    assert not wrong, "\n".join(wrong)


def test_stress_study_s_count_in_the_case_studies():
    m = re.search(r"`stress_study` \(ZØ's[^)]*\).*?([\d,]+) constraints for 64 samples", README)
    assert m, "the README no longer cites stress_study's size"
    assert _number(m.group(1)) == _count("study", "stress_study")


def test_the_median_of_31(tmp_path):
    path = tmp_path / "median_app.py"
    path.write_text(MEDIAN)
    now = api.compile(load_function(str(path), "median")).stats["constraints"]
    cited = re.findall(
        r"a median of 31(?: `u32`)?(?: costs| in) ([\d,]+) constraints", README + LANGUAGE
    )
    assert len(cited) >= 2, cited
    assert {_number(c) for c in cited} == {now}, (cited, now)


MODEL_NAMES = {
    "prove": "prove_s",
    "verify": "verify_s",
    "setup": "setup_s",
    "proving key bytes": "key_bytes",
    "proof bytes": "proof_bytes",
    "peak memory": "peak_bytes",
}


def _r2_rows(text: str) -> list[tuple[str, str, str]]:
    """`(back end, model, R²)` of each fit-quality row: `| groth16 | prove | 0.993 |`, or
    `| groth16 | proof bytes | 1 (a constant) |`."""
    r2 = r"(0\.\d+|1(?:\.0+)?)(?: \([^)|]*\))?"
    row = re.compile(rf"^\| (groth16|sigma) \| ([a-z ]+) \| {r2} \|", re.M)
    return row.findall(text)


def test_the_r2_tables_are_the_shipped_profile_s():
    """Every R² the README and docs/planner.md print is the shipped profile's, rounded as
    printed (a recalibration that moves one fails here until the tables say the new figure)."""
    profile = json.loads((ROOT / "python/zeenot/plan/default_profile.json").read_text())
    planner = (ROOT / "docs" / "planner.md").read_text()
    for name, text in [("README.md", README), ("docs/planner.md", planner)]:
        rows = _r2_rows(text)
        assert len(rows) >= 9, f"{name}: the fit-quality table is missing"
        for backend, model, printed in rows:
            r2 = profile["models"][backend][MODEL_NAMES[model]]["r2"]
            decimals = len(printed.split(".")[1]) if "." in printed else 0
            assert f"{r2:.{decimals}f}" == printed, (
                f"{name}: {backend} {model} R² printed {printed}, the profile's is {r2:.4f}"
            )
