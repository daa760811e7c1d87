#!/usr/bin/env bash
# Installs everything and runs the pay-as-you-drive demo end to end:
# simulate → compile → setup → prove → verify, then a tampered proof is rejected and the proof is
# checked again by the independent snarkjs verifier, exported as an EVM verifier contract
# (compiled by solc), and proved again with the sigma back end (no setup). Then the same for a
# list program, ZØ's loyalty card (a private purchase history driving the retailer's
# automaton), and a list of any length (FitBit's step trace without a MaxSize, proved by the
# sigma back end at its actual length). Last, payd as an application:
# `zeenot serve` (the insurer) and `zeenot run` (the car) as two processes over HTTP.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh

zeenot() { .venv/bin/zeenot "$@"; }
APP=examples/payd/app.py:weekly_premium
IN=examples/payd/inputs.json
OUT=out/payd
rm -rf "$OUT"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
step "simulate: plain Python semantics"
zeenot simulate "$APP" --inputs "$IN"
step "compile"
zeenot compile "$APP" -o "$OUT" --json
step "check: the circuit's outputs are functions of its inputs (not under-constrained)"
zeenot check "$OUT"
step "setup (Groth16 over BN254)"
zeenot setup "$OUT"
step "prove (the driver, on the private log)"
zeenot prove "$OUT" --inputs "$IN" -o "$OUT/proof.json"
step "verify (the insurer)"
zeenot verify "$OUT" "$OUT/proof.json"
step "a lowered premium is rejected"
.venv/bin/python - "$OUT/proof.json" "$OUT/tampered.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["outputs"][0] -= 100
json.dump(doc, open(sys.argv[2], "w"))
PY
if zeenot verify "$OUT" "$OUT/tampered.json"; then
  echo "BUG: tampered proof accepted" >&2; exit 1
fi
if [ -x node_modules/.bin/snarkjs ]; then
  step "the same proof, checked by snarkjs"
  zeenot export snarkjs "$OUT" "$OUT/proof.json" -o "$OUT/snarkjs"
  node_modules/.bin/snarkjs groth16 verify "$OUT/snarkjs/verification_key.json" \
    "$OUT/snarkjs/public.json" "$OUT/snarkjs/proof.json"
else
  step "skipped: the snarkjs check (node_modules/.bin/snarkjs is absent: install Node.js/npm, rerun)"
fi
if [ -x node_modules/.bin/solcjs ]; then
  step "a verifier contract for the EVM, compiled by solc, and the proof's calldata"
  zeenot export solidity "$OUT" -o "$OUT/Verifier.sol"
  (cd "$OUT" && ../../node_modules/.bin/solcjs --bin --optimize -o solc Verifier.sol >/dev/null)
  echo "compiled: $(ls "$OUT"/solc/*.bin | head -1) ($(($(wc -c < "$(ls "$OUT"/solc/*.bin | head -1)") / 2)) bytes)"
  zeenot export calldata "$OUT" "$OUT/proof.json" -o "$OUT/calldata.json"
  echo "verifyProof arguments: $OUT/calldata.json (tests/python/test_solidity.py runs them on py-evm)"
else
  step "skipped: the EVM verifier contract (node_modules/.bin/solcjs is absent: install Node.js/npm, rerun)"
fi
step "the same program with the sigma back end: no setup, no keys"
zeenot prove "$OUT" --inputs "$IN" -o "$OUT/sigma.json" --backend sigma
zeenot verify "$OUT" "$OUT/sigma.json"
LAPP=examples/loyalty/app.py:discount
LIN=examples/loyalty/inputs.json
LOUT=out/loyalty
rm -rf "$LOUT"
step "lists: the loyalty card (private history of up to 64 purchases)"
zeenot simulate "$LAPP" --inputs "$LIN"
zeenot compile "$LAPP" -o "$LOUT" --json
zeenot setup "$LOUT"
zeenot prove "$LOUT" --inputs "$LIN" -o "$LOUT/proof.json"
zeenot verify "$LOUT" "$LOUT/proof.json"
FAPP=examples/fitbit/app.py:donation_any_length
FIN=examples/fitbit/inputs.json
FOUT=out/fitbit_any
rm -rf "$FOUT"
step "a list of any length: a step trace without MaxSize, proved at its length (sigma)"
zeenot compile "$FAPP" -o "$FOUT"
zeenot prove "$FOUT" --inputs "$FIN" -o "$FOUT/proof.json" --backend sigma
zeenot verify "$FOUT" "$FOUT/proof.json"
BAPP=examples/survey/app.py:scored
BIN=examples/survey/inputs.json
BOUT=out/survey
rm -rf "$BOUT"
step "regions: survey responses checked and scored (groth16), the scores encrypted (sigma)"
zeenot compile "$BAPP" -o "$BOUT"
zeenot setup "$BOUT"
zeenot plan "$BAPP" --inputs "$BIN"
# the outputs (eight ciphertexts: sixty lines of 77-digit numbers) not shown, a summary instead;
# each region's choice is still said on stderr, with `zeenot plan`'s figure
zeenot prove "$BOUT" --inputs "$BIN" --backend auto -o "$BOUT/bundle.json" >/dev/null
.venv/bin/python - "$BOUT/bundle.json" <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
regions = ", ".join(f"{n} ({p['backend']})" for n, p in doc["proofs"].items())
print(f"bundle: {sys.argv[1]} ({os.path.getsize(sys.argv[1]):,} bytes), one proof per region: "
      f"{regions}")
PY
zeenot verify "$BOUT" "$BOUT/bundle.json"
step "an application: the insurer's server and the car's client as two processes"
rm -f out/payd.db* out/payd-*.key out/payd-operator.token
PORT=${ZEENOT_DEMO_PORT:-8765}
zeenot keys new --name insurer --out out/payd-insurer.key >/dev/null     # the server's identity
zeenot keys token --out out/payd-operator.token                          # the operator's token
.venv/bin/zeenot serve examples/payd/app.py --db out/payd.db --port "$PORT" \
  --identity out/payd-insurer.key --operator-token-file out/payd-operator.token --no-access-log &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  .venv/bin/python -c "import httpx; httpx.get('http://127.0.0.1:$PORT/api/health').raise_for_status()" \
    2>/dev/null && break
  sleep 0.2
done
step "the car makes its key; the insurer registers its public half (payd: one run per car per week)"
zeenot keys new --name car-1042 --out out/payd-car.key > out/payd-car.pub.json
zeenot clients add payd --server http://127.0.0.1:$PORT \
  --operator-token-file out/payd-operator.token --client out/payd-car.pub.json
zeenot run examples/payd/app.py --server http://127.0.0.1:$PORT --inputs examples/payd/log.json \
  --client-key out/payd-car.key
step "a second run of the same car this week is refused (409)"
if zeenot run examples/payd/app.py --server http://127.0.0.1:$PORT \
  --inputs examples/payd/log.json --client-key out/payd-car.key; then
  echo "BUG: a second run of the week accepted" >&2; exit 1
fi
step "the server's record of verified runs (an operator's read)"
.venv/bin/python -c "import httpx, json; t = open('out/payd-operator.token').read().strip(); print(json.dumps(httpx.get('http://127.0.0.1:$PORT/api/apps/payd/submissions', headers={'authorization': 'Bearer ' + t}).json(), indent=2))"
kill $SERVER
step "done"
