#!/usr/bin/env bash
# The test suite: formatting and lints, Rust tests (release-optimised dependencies), Python
# tests (slow ones included). CI (.ci/run) runs it, then short bounded fuzzing of every target
# (scripts/fuzz.sh, scripts/fuzz_python.sh: a sanitizer build of its own) and the Janus interop
# build, as the heavy interop builds after the tests. Run from anywhere; installs
# what is missing first, including the Debian packages the tests need (scripts/system_deps.sh;
# the demo needs none).
#
# Time (README, Quick start): pytest runs on TEST_JOBS + 1 workers (pytest-xdist; TEST_JOBS
# defaults to the CPUs; PYTEST_JOBS overrides) after the Rust checks; clippy's lints are
# compiled with the test build. TEST_SERIAL=0 runs pytest
# in the background while the Rust checks run instead (no faster on 2 cores, where both are
# CPU-bound). Each phase's wall time is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}"
# Every crate of a fresh checkout is built once: incremental compilation's bookkeeping only pays
# when the same tree is rebuilt after an edit (CARGO_INCREMENTAL=1 keeps it).
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

timings=()
phase_start=$SECONDS
phase_name=""
phase() {  # phase NAME: ends the running phase (recording its wall time) and starts NAME
  if [ -n "$phase_name" ]; then
    timings+=("$(printf '%-22s %5ss' "$phase_name" $((SECONDS - phase_start)))")
  fi
  phase_name="$1"
  phase_start=$SECONDS
  [ -z "$1" ] || echo "== $1"
}

phase bootstrap
./scripts/bootstrap.sh
./scripts/system_deps.sh  # PostgreSQL and Chromium: only the runtime's and dashboard's tests

phase "cargo fmt, ruff"
cargo fmt --all -- --check
.venv/bin/python scripts/build_time_packages.py --check  # Cargo.toml names every proc macro
.venv/bin/ruff check python tests examples benchmarks fuzz/python scripts
.venv/bin/ruff format --check python tests examples benchmarks fuzz/python scripts

# pytest-xdist: JOBS + 1 worker processes, each test file on one worker (its module-scoped
# fixtures, compiled circuits and keys, built once); every test is parallel-safe (free ports,
# its own temporary files and databases). One worker more than CPUs: the end-to-end tests wait
# on servers, peers' deadlines and subprocesses, and the extra worker fills those waits (2 CPUs:
# 590 s on 2 workers, 521 s on 3, the CPUs 97 % busy).
PYTEST_JOBS="${PYTEST_JOBS:-$((JOBS + 1))}"
pytest_cmd=(.venv/bin/python -m pytest -q -n "$PYTEST_JOBS" --dist loadfile)
pytest_out="$(mktemp -d)"
pytest_pid=""
cleanup() {
  if [ -n "$pytest_pid" ] && [ -s "$pytest_out/pgid" ]; then
    kill -- -"$(cat "$pytest_out/pgid")" 2>/dev/null || true
  fi
  rm -rf "$pytest_out"
}
trap cleanup EXIT
if [ "${TEST_SERIAL:-1}" != 1 ]; then
  echo "== pytest (in the background, ${PYTEST_JOBS} workers: its output follows the Rust checks)"
  # its own process group, so that a failing Rust check stops it too (cleanup)
  setsid -w bash -c 'echo $$ >"$0/pgid"; start=$SECONDS; "$@" >"$0/log" 2>&1; rc=$?
    echo $((SECONDS - start)) >"$0/secs"; echo "$rc" >"$0/rc"' "$pytest_out" "${pytest_cmd[@]}" &
  pytest_pid=$!
fi

# Clippy's lints in the test build itself: clippy-driver compiles the workspace's crates (what
# `cargo clippy` does, with `-- -D warnings` passed the way it passes them), so the dependencies
# are compiled once for both instead of checked for the lints and built again for the tests.
# The first command builds every target `cargo clippy --all-targets` lints (the benchmarks and
# the extension module's library included), the second builds the doctests and runs the tests.
clippy_driver="$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver || true)"
if [ -z "$clippy_driver" ]; then
  echo "error: clippy-driver not found: rustup component add clippy" >&2
  exit 2
fi
with_clippy=(env RUSTC_WORKSPACE_WRAPPER="$clippy_driver"
  CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__")
phase "cargo clippy + build"
"${with_clippy[@]}" cargo build --workspace --all-targets -q
phase "cargo test"
"${with_clippy[@]}" cargo test --workspace -q
phase "pytest"
if [ -n "$pytest_pid" ]; then
  wait "$pytest_pid" || true
  pytest_pid=""
  cat "$pytest_out/log"
  rc="$(cat "$pytest_out/rc" 2>/dev/null || echo 1)"
  timings+=("$(printf '%-22s %5ss' "(pytest's own run)" "$(cat "$pytest_out/secs" 2>/dev/null)")")
else
  rc=0
  "${pytest_cmd[@]}" || rc=$?
fi
phase ""
echo "== wall time per phase (${SECONDS}s in all, ${JOBS} jobs)"
printf '%s\n' "${timings[@]}"
exit "$rc"
