#!/usr/bin/env bash
# Interoperability with Divvi Up's Janus: `janus_client` 0.7.145 uploads reports to zeenot's
# DAP-09 leader and helper (`zeenot prio serve`), `janus_collector` 0.7.145 collects, and each
# result must equal the plain computation over the same measurements:
#   Prio3Sum (32 bits, 200 reports), Prio3Count (60), Prio3Histogram (4 buckets, 80),
#   Prio3SumVec (8 bits x 5, 40).
# Builds the harness (interop/janus, a standalone Cargo project) unless JANUS_INTEROP_NO_BUILD=1.
# Needs a Python with zeenot importable ($PYTHON, default .venv/bin/python or python3).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-$([ -x .venv/bin/python ] && echo .venv/bin/python || echo python3)}
BIN=$ROOT/interop/janus/target/release
if [ "${JANUS_INTEROP_NO_BUILD:-0}" != 1 ]; then
  (cd interop/janus && cargo build --release --locked --quiet)
fi
for b in upload collect; do
  [ -x "$BIN/$b" ] || { echo "missing $BIN/$b: build interop/janus first" >&2; exit 2; }
done

WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

read -r LPORT HPORT < <("$PY" -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))')
LEADER=http://127.0.0.1:$LPORT/
HELPER=http://127.0.0.1:$HPORT/
TP=3600
NOW=$(date +%s)
START=$((NOW / TP * TP))

zeenot() { "$PY" -m zeenot.cli "$@"; }

# name | VDAF (the task file's JSON) | reports | the measurements' generator
CASES=(
  'sum|{"type": "Prio3Sum", "bits": 32}|200|str(rng.randrange(2**32))'
  'count|{"type": "Prio3Count"}|60|str(rng.randrange(2))'
  'histogram|{"type": "Prio3Histogram", "length": 4, "chunk_length": 2}|80|str(rng.randrange(4))'
  'sumvec|{"type": "Prio3SumVec", "bits": 8, "length": 5, "chunk_length": 3}|40|",".join(str(rng.randrange(256)) for _ in range(5))'
)
TASK_ARGS=()
for case in "${CASES[@]}"; do
  IFS='|' read -r name vdaf n gen <<<"$case"
  zeenot prio task new --leader "$LEADER" --helper "$HELPER" --vdaf "$vdaf" \
    --time-precision "$TP" --min-batch-size 10 \
    -o "$WORK/$name.task.json" --credential "$WORK/$name.collector.json" >/dev/null
  "$PY" -c "
import random
rng = random.Random('$name')
print('\n'.join($gen for _ in range($n)))" >"$WORK/$name.txt"
  TASK_ARGS+=(--task "$WORK/$name.task.json")
done

# "$PY" itself in the background (not the function: $! would be a subshell, and killing it
# left the server running)
"$PY" -m zeenot.cli prio serve --role helper "${TASK_ARGS[@]}" --db "$WORK/helper.db" --port "$HPORT" \
  >"$WORK/helper.log" 2>&1 &
PIDS+=($!)
"$PY" -m zeenot.cli prio serve --role leader "${TASK_ARGS[@]}" --db "$WORK/leader.db" --port "$LPORT" \
  >"$WORK/leader.log" 2>&1 &
PIDS+=($!)
for url in "$LEADER" "$HELPER"; do
  for _ in $(seq 300); do
    curl -fsS "${url}health" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fsS "${url}health" >/dev/null || { cat "$WORK"/*.log >&2; exit 1; }
done

fail=0
for case in "${CASES[@]}"; do
  IFS='|' read -r name vdaf n gen <<<"$case"
  task_id=$("$PY" -c "import json; print(json.load(open('$WORK/$name.task.json'))['task_id'])")
  "$BIN/upload" --leader "$LEADER" --helper "$HELPER" --task-id "$task_id" --vdaf "$vdaf" \
    --time-precision "$TP" --time "$NOW" --measurements "$WORK/$name.txt" >"$WORK/$name.upload"
  "$BIN/collect" --leader "$LEADER" --task-id "$task_id" --vdaf "$vdaf" \
    --credential "$WORK/$name.collector.json" --batch-start "$START" --batch-duration "$TP" \
    --timeout 120 >"$WORK/$name.result"
  if ! "$PY" - "$name" "$vdaf" "$WORK/$name.txt" "$WORK/$name.result" <<'EOF'
import json, sys
name, vdaf, measurements, result = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
lines = [l for l in open(measurements).read().split("\n") if l]
got = json.load(open(result))
if vdaf["type"] in ("Prio3Sum", "Prio3Count"):
    want = sum(int(l) for l in lines)
elif vdaf["type"] == "Prio3Histogram":
    want = [sum(1 for l in lines if int(l) == b) for b in range(vdaf["length"])]
else:
    vecs = [[int(x) for x in l.split(",")] for l in lines]
    want = [sum(col) for col in zip(*vecs)]
ok = got["aggregate_result"] == want and got["report_count"] == len(lines)
print(f"{name:9} {vdaf['type']:15} reports {got['report_count']:4}  result {got['aggregate_result']}"
      f"  {'== plain' if ok else '!= plain ' + str(want)}")
sys.exit(0 if ok else 1)
EOF
  then fail=1; fi
done
if [ "$fail" != 0 ]; then
  echo "--- leader log"; tail -50 "$WORK/leader.log"; echo "--- helper log"; tail -50 "$WORK/helper.log"
  exit 1
fi
echo "janus_client -> zeenot leader/helper -> janus_collector: every result equals the plain one"
