"""zeenot's AFEs on Prio3 (zeenot.prio.afe): each statistic from reports run through the
aggregators' ping-pong preparation and decoded, checked against the statistic computed in the
clear; a tampered input share is rejected; bad descriptions, measurements and sums are clean
errors. (Invalid *encodings* with a valid-looking proof are the Rust tests'
crates/zeenot-prio/tests/afe.rs: they need a tampering prover.)"""

from __future__ import annotations

import os
import random
import statistics
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from zeenot.errors import UsageError
from zeenot.prio import ReportRejected, Vdaf
from zeenot.prio.afe import MeanVariance, Regression, decode

VK = bytes(range(16))


def _run(vdaf: Vdaf, measurements: list[Any]) -> list[int]:
    leader, helper = [], []
    for m in measurements:
        nonce = os.urandom(16)
        public, (l_in, h_in) = vdaf.shard(m, nonce)
        state, msg = vdaf.leader_initialized(VK, nonce, public, l_in)
        h_out, reply = vdaf.helper_initialized(VK, nonce, public, h_in, msg)
        leader.append(vdaf.leader_continued(state, reply))
        helper.append(h_out)
    sums = vdaf.unshard([vdaf.aggregate(leader), vdaf.aggregate(helper)], len(measurements))
    assert isinstance(sums, list)
    return sums


def test_mean_variance() -> None:
    xs = [12, 7, 65535, 0, 300, 300]
    vdaf = Vdaf.from_description({"type": "AfeMeanVariance", "bits": 16})
    assert vdaf.is_afe
    stat = vdaf.decode(_run(vdaf, xs), len(xs))
    assert isinstance(stat, MeanVariance)
    assert stat.mean == Fraction(sum(xs), len(xs))
    assert stat.variance == statistics.pvariance([Fraction(x) for x in xs])
    assert stat.std == pytest.approx(statistics.pstdev(xs))


@pytest.mark.parametrize(
    ("kind", "bits", "want"),
    [
        ("AfeOr", [0, 0, 0], False),
        ("AfeOr", [0, 1, 0], True),
        ("AfeOr", [True, True], True),
        ("AfeAnd", [1, 1, 1], True),
        ("AfeAnd", [1, 0, 1], False),
    ],
)
def test_or_and(kind: str, bits: list[int], want: bool) -> None:
    vdaf = Vdaf.from_description({"type": kind})
    assert vdaf.decode(_run(vdaf, bits), len(bits)) is want


@pytest.mark.parametrize("xs", [[3, 0, 5], [0, 0], [7], [7, 7, 1]])
def test_max_min(xs: list[int]) -> None:
    for kind, want in (("AfeMax", max(xs)), ("AfeMin", min(xs))):
        vdaf = Vdaf.from_description({"type": kind, "domain": 8})
        assert vdaf.decode(_run(vdaf, xs), len(xs)) == want, kind


def test_set_union_and_intersection() -> None:
    sets = [{0, 2, 5}, {2, 5, 6}, {2, 3, 5}]
    bits = [[int(e in s) for e in range(8)] for s in sets]
    for kind, want in (
        ("AfeSetUnion", sorted(set.union(*sets))),
        ("AfeSetIntersection", sorted(set.intersection(*sets))),
    ):
        vdaf = Vdaf.from_description({"type": kind, "universe": 8})
        assert vdaf.decode(_run(vdaf, bits), len(bits)) == want, kind


def test_linear_regression_one_feature_exact_line() -> None:
    pts = [[x, 3 * x + 4] for x in (0, 1, 5, 9)]
    vdaf = Vdaf.from_description({"type": "AfeLinearRegression", "features": 1, "bits": 8})
    stat = vdaf.decode(_run(vdaf, pts), len(pts))
    assert isinstance(stat, Regression)
    assert stat.coefficients == (4, 3)
    assert stat.r_squared == 1


def test_linear_regression_two_features_matches_least_squares() -> None:
    pts = [[1, 2, 7], [3, 0, 9], [5, 5, 30], [2, 7, 25], [4, 1, 12]]
    vdaf = Vdaf.from_description({"type": "AfeLinearRegression", "features": 2, "bits": 6})
    stat = vdaf.decode(_run(vdaf, pts), len(pts))
    assert isinstance(stat, Regression)
    # The residual of a least-squares fit is orthogonal to every column (1, x1, x2).
    c0, c1, c2 = stat.coefficients
    resid = [y - (c0 + c1 * a + c2 * b) for a, b, y in pts]
    assert sum(resid) == 0
    assert sum(r * a for r, (a, _, _) in zip(resid, pts, strict=True)) == 0
    assert sum(r * b for r, (_, b, _) in zip(resid, pts, strict=True)) == 0
    assert stat.r_squared is not None and 0 < stat.r_squared <= 1


def test_linear_regression_four_features_matches_least_squares() -> None:
    rnd = random.Random(4)
    pts = []
    for _ in range(12):
        xs = [rnd.randrange(1 << 10) for _ in range(4)]
        pts.append([*xs, 7 + 2 * xs[0] + 3 * xs[1] + xs[3] + rnd.randrange(50)])
    vdaf = Vdaf.from_description({"type": "AfeLinearRegression", "features": 4, "bits": 16})
    stat = vdaf.decode(_run(vdaf, pts), len(pts))
    assert isinstance(stat, Regression) and len(stat.coefficients) == 5
    # The residual of a least-squares fit is orthogonal to every column (1, x1..x4).
    resid = [
        p[4]
        - stat.coefficients[0]
        - sum(c * x for c, x in zip(stat.coefficients[1:], p[:4], strict=True))
        for p in pts
    ]
    assert sum(resid) == 0
    for k in range(4):
        assert sum(r * p[k] for r, p in zip(resid, pts, strict=True)) == 0
    assert stat.r_squared is not None and 0.9 < stat.r_squared <= 1


def test_tampered_share_is_rejected() -> None:
    vdaf = Vdaf.from_description({"type": "AfeMeanVariance", "bits": 8})
    nonce = os.urandom(16)
    public, (l_in, h_in) = vdaf.shard(9, nonce)
    bad = bytearray(h_in)
    bad[0] ^= 1
    state, msg = vdaf.leader_initialized(VK, nonce, public, l_in)
    with pytest.raises(ReportRejected):
        vdaf.helper_initialized(VK, nonce, public, bytes(bad), msg)


@pytest.mark.parametrize(
    ("desc", "measurement"),
    [
        ({"type": "AfeMeanVariance", "bits": 8}, 256),
        ({"type": "AfeMeanVariance", "bits": 8}, -1),
        ({"type": "AfeOr"}, 2),
        ({"type": "AfeMax", "domain": 4}, 4),
        ({"type": "AfeSetUnion", "universe": 3}, [1, 2, 0]),
        ({"type": "AfeSetUnion", "universe": 3}, [1, 0]),
        ({"type": "AfeLinearRegression", "features": 2, "bits": 4}, [1, 2]),
        ({"type": "AfeLinearRegression", "features": 1, "bits": 4}, "xy"),
    ],
)
def test_bad_measurements(desc: dict[str, Any], measurement: Any) -> None:
    with pytest.raises(UsageError):
        Vdaf.from_description(desc).shard(measurement, bytes(16))


@pytest.mark.parametrize(
    "desc",
    [
        {"type": "AfeMeanVariance", "bits": 33},
        {"type": "AfeOr", "bits": 1},
        {"type": "AfeMin", "domain": 1},
        {"type": "AfeLinearRegression", "features": 9, "bits": 8},
        {"type": "AfeLinearRegression", "features": 0, "bits": 8},
    ],
)
def test_bad_descriptions(desc: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        Vdaf.from_description(desc)


def test_decode_errors() -> None:
    with pytest.raises(UsageError):
        decode({"type": "Prio3Sum", "bits": 8}, [1], 1)
    with pytest.raises(UsageError):
        decode({"type": "AfeMeanVariance", "bits": 8}, [1], 1)
    with pytest.raises(UsageError):
        decode({"type": "AfeMeanVariance", "bits": 8}, [1, 1], 0)
    # A constant feature has no unique fit.
    with pytest.raises(UsageError, match="singular"):
        decode({"type": "AfeLinearRegression", "features": 1, "bits": 4}, [6, 3, 12, 9, 3], 3)
    vdaf = Vdaf.from_description({"type": "AfeOr"})
    with pytest.raises(UsageError):
        vdaf.decode(5, 1)


def test_afe_task_through_zeenot_dap(tmp_path: Path) -> None:
    """An AFE task through zeenot's own DAP leader and helper (`zeenot prio serve`): uploaded
    with the Python client, collected, decoded. (Janus does not know the private ids.)"""
    from zeenot.prio.dap_client import Client, Collector
    from zeenot.prio.tasks import Task

    from .prio_servers import aggregators, new_task

    desc = {"type": "AfeMeanVariance", "bits": 16}
    path, credential, lport, hport = new_task(tmp_path, desc, min_batch_size=5)
    xs = [5, 60000, 12, 12, 999, 0]
    with aggregators(tmp_path, path, lport, hport, job_size=4):
        task = Task.load(path)
        client = Client(task.task_id, task.leader, task.helper, task.vdaf, task.time_precision)
        collector = Collector(task.task_id, task.leader, task.vdaf, credential)
        at = int(time.time()) // 3600 * 3600
        for x in xs:
            assert client.upload(x, at) == 201
        got = collector.collect(at, 3600, timeout=90)
    assert got.report_count == len(xs)
    stat = Vdaf.from_description(desc).decode(got.result, got.report_count)
    assert isinstance(stat, MeanVariance)
    assert stat.variance == statistics.pvariance([Fraction(x) for x in xs])
