#!/usr/bin/env bash
# The whole test suite: formatting and lints, Rust tests (release-optimised dependencies),
# Python tests (slow ones included). Run from anywhere; installs what is missing first,
# including the Debian packages the tests need (scripts/system_deps.sh; the demo needs none).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
./scripts/system_deps.sh  # PostgreSQL and Chromium: only the runtime's and dashboard's tests

echo "== cargo fmt / clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -q -- -D warnings
echo "== cargo test"
cargo test --workspace -q
echo "== fuzzing (short bounded runs; the long runs and their figures: README, Hardening)"
./scripts/fuzz.sh 10
./scripts/fuzz_python.sh 5
echo "== ruff"
.venv/bin/ruff check python tests examples benchmarks fuzz/python
.venv/bin/ruff format --check python tests examples benchmarks fuzz/python
echo "== pytest"
.venv/bin/python -m pytest -q
