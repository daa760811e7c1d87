#!/usr/bin/env bash
# Installs everything zeenot needs into the repository: a Python virtual environment with the
# pinned tools, the Rust extension `zeenot._native` (release build) and the pinned npm packages
# (snarkjs, circomlibjs) used for interoperability checks. No system packages: the Debian
# packages only the tests need (PostgreSQL, Chromium) are scripts/system_deps.sh's, which
# scripts/test.sh runs. Idempotent; safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null; then
  echo "error: cargo (Rust) is required: https://rustup.rs" >&2
  exit 2
fi
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
# maturin installs the package's dependencies through pip, which lists each one already there:
# keep its other lines (errors included; the pipeline fails when maturin does)
VIRTUAL_ENV="$PWD/.venv" .venv/bin/maturin develop --release -q 2>&1 |
  { grep -v '^Requirement already satisfied' || true; }
if [ -f package-lock.json ] && command -v npm >/dev/null; then
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
    npm ci --silent --no-audit --no-fund
  fi
elif [ ! -d node_modules ]; then
  echo "note: npm not found: the snarkjs and solc checks are skipped (install Node.js/npm)" >&2
fi
