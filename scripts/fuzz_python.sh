#!/usr/bin/env bash
# Fuzz the Python layer's readers of strangers' files (fuzz/python/fuzz_files.py) with atheris:
# each target for SECONDS (default 10), or for RUNS executions with `--runs RUNS`, FUZZ_JOBS
# targets at a time. Prints each target's executions; exits non-zero on a finding (the input is
# kept in fuzz/artifacts/).
#   ./scripts/fuzz_python.sh 10             # CI: a short bounded run of every target
#   ./scripts/fuzz_python.sh --runs 1000000 # the documented long run
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || ./scripts/bootstrap.sh
.venv/bin/python -c "import atheris" 2>/dev/null ||
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-fuzz.txt
limit="-max_total_time=${1:-10}"
if [ "${1:-}" = "--runs" ]; then limit="-runs=$2"; fi
mkdir -p fuzz/artifacts
# FUZZ_JOBS targets at a time (default: the number of CPUs; each atheris run is one process on
# one core, and every target still gets its SECONDS or RUNS).
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
targets=(proof_groth16 proof_sigma proof_template inputs ir keys)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
running=0
for target in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
  (
    rc=0
    .venv/bin/python fuzz/python/fuzz_files.py "$target" "$limit" \
      -artifact_prefix=fuzz/artifacts/"$target"- >"$logs/$target.log" 2>&1 || rc=$?
    echo "$rc" >"$logs/$target.rc"
  ) &
  running=$((running + 1))
done
wait
for target in "${targets[@]}"; do
  log="$logs/$target.log"
  if [ "$(cat "$logs/$target.rc" 2>/dev/null || echo 1)" != 0 ]; then
    tail -n 40 "$log"
    echo "fuzz_python: $target: FINDING (input in fuzz/artifacts/)" >&2
    exit 1
  fi
  runs=$(grep -Eo '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -n 1)
  echo "fuzz_python: $target: ${runs:-?}, 0 findings"
done
