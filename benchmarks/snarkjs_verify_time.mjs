// Times snarkjs's Groth16 verifier on an exported proof, inside one Node process (so process
// start-up and module loading are not counted). Prints the median milliseconds over REPS runs.
// Usage: node benchmarks/snarkjs_verify_time.mjs DIR REPS
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as snarkjs from "snarkjs";

const [dir, repsArg] = process.argv.slice(2);
const reps = Number(repsArg ?? 5);
const load = (f) => JSON.parse(readFileSync(join(dir, f), "utf8"));
const vk = load("verification_key.json");
const pub = load("public.json");
const proof = load("proof.json");
const logger = { debug() {}, info() {}, warn() {}, error: console.error };

await snarkjs.groth16.verify(vk, pub, proof, logger); // warm-up: builds the curve's wasm
const times = [];
for (let i = 0; i < reps; i++) {
  const t = performance.now();
  const ok = await snarkjs.groth16.verify(vk, pub, proof, logger);
  times.push(performance.now() - t);
  if (!ok) { console.error("snarkjs rejected the proof"); process.exit(1); }
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)].toFixed(3));
process.exit(0);
