#!/usr/bin/env node
// Generates the circomlibjs interoperability vectors that `crates/zeenot-crypto` tests read
// (tests/vectors/circomlibjs/*.json). Run from the repository root after `npm ci`:
//
//     node scripts/gen_circomlibjs_vectors.mjs
//
// The output is deterministic: "random" values come from SHA-256 in counter mode over a fixed
// label, so re-running it with the pinned circomlibjs (package-lock.json) reproduces the files
// byte for byte. Negatives are named bad_* and each says why it must be rejected; the script
// asserts that circomlibjs itself rejects the ones circomlibjs can judge.

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

import { buildBabyjub, buildEddsa, buildPoseidon, buildPoseidonReference, buildPoseidonOpt } from "circomlibjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "tests", "vectors", "circomlibjs");
const circomlibjsVersion = JSON.parse(
    readFileSync(join(root, "node_modules", "circomlibjs", "package.json"), "utf8"),
).version;

// Deterministic byte stream.
let counter = 0;
function detBytes(label, n) {
    const out = Buffer.alloc(n);
    let off = 0;
    while (off < n) {
        const h = createHash("sha256").update(`zeenot/vectors/${label}/${counter++}`).digest();
        h.copy(out, off, 0, Math.min(32, n - off));
        off += 32;
    }
    return out;
}
const bytesToBigLE = (b) => BigInt("0x" + (Buffer.from(b).reverse().toString("hex") || "0"));
const bigToLE32 = (v) => {
    const hex = v.toString(16).padStart(64, "0");
    return Buffer.from(hex, "hex").reverse();
};
const hex = (b) => Buffer.from(b).toString("hex");

const babyJub = await buildBabyjub();
const F = babyJub.F;
const p = babyJub.p;
const l = babyJub.subOrder;
const dec = (e) => F.toObject(e).toString();
const pt = (P) => ({ x: dec(P[0]), y: dec(P[1]) });

function write(name, obj) {
    mkdirSync(outDir, { recursive: true });
    const body = {
        source: `circomlibjs@${circomlibjsVersion}`,
        generator: "scripts/gen_circomlibjs_vectors.mjs",
        ...obj,
    };
    writeFileSync(join(outDir, name), JSON.stringify(body, null, 2) + "\n");
}

// ---------------------------------------------------------------- Baby Jubjub
{
    const scalars = [0n, 1n, 2n, 3n, 7n, 8n, 16n, 255n, 65535n, 65536n, (1n << 32n) - 1n, 1n << 64n, l - 1n, l - 2n];
    for (let i = 0; i < 6; i++) scalars.push(bytesToBigLE(detBytes("babyjub-scalar", 32)) % l);
    const multiples = scalars.map((k) => {
        const P = babyJub.mulPointEscalar(babyJub.Base8, k);
        const packed = babyJub.packPoint(P);
        if (k !== 0n) {
            const U = babyJub.unpackPoint(Uint8Array.from(packed));
            assert.ok(U && F.eq(U[0], P[0]) && F.eq(U[1], P[1]), "pack/unpack round trip");
            assert.ok(babyJub.inSubgroup(P));
        }
        return { k: k.toString(), ...pt(P), packed: hex(packed) };
    });

    // Sums, to test the group law against circomlibjs addPoint.
    const sums = [];
    for (let i = 0; i < 4; i++) {
        const a = bytesToBigLE(detBytes("babyjub-add", 32)) % l;
        const b = bytesToBigLE(detBytes("babyjub-add", 32)) % l;
        const A = babyJub.mulPointEscalar(babyJub.Base8, a);
        const B = babyJub.mulPointEscalar(babyJub.Base8, b);
        const S = babyJub.addPoint(A, B);
        sums.push({ a: hex(babyJub.packPoint(A)), b: hex(babyJub.packPoint(B)), sum: hex(babyJub.packPoint(S)) });
    }

    // Negatives.
    const bad = [];
    const reject = (name, bytes, reason, circomlibjsRejects) => {
        if (circomlibjsRejects) {
            assert.equal(babyJub.unpackPoint(Uint8Array.from(bytes)), null, `circomlibjs accepts ${name}`);
        }
        bad.push({ name, packed: hex(bytes), reason });
    };
    // Off curve: the first y ≥ 2 whose x² is a non-square.
    for (let y = 2n; ; y++) {
        const b = bigToLE32(y);
        if (babyJub.unpackPoint(Uint8Array.from(b)) === null) {
            reject("bad_off_curve", b, "NotOnCurve", true);
            break;
        }
    }
    {
        // Another off-curve y, large, with the sign bit set.
        for (let i = 0; ; i++) {
            const y = bytesToBigLE(detBytes("off-curve", 32)) % p;
            const b = bigToLE32(y);
            b[31] |= 0x80;
            if (babyJub.unpackPoint(Uint8Array.from(b)) === null) {
                reject("bad_off_curve_signed", b, "NotOnCurve", true);
                break;
            }
        }
    }
    // Non-canonical y: Base8.y + p (fits in 255 bits, so the sign bit stays free), and y = p.
    {
        const y = F.toObject(babyJub.Base8[1]) + p;
        assert.ok(y < 1n << 255n);
        reject("bad_non_canonical_y_plus_p", bigToLE32(y), "NonCanonical", false);
        reject("bad_non_canonical_y_eq_p", bigToLE32(p), "NonCanonical", false);
        reject("bad_non_canonical_all_ones", Buffer.alloc(32, 0xff), "NonCanonical", true);
    }
    // Small order: (0, -1) of order 2; an order-8 point l·Generator and its packed form;
    // the order-4 points (±1/√a, 0) encode as y = 0.
    {
        reject("bad_small_order_2", bigToLE32(p - 1n), "NotInSubgroup", true);
        const T8 = babyJub.mulPointEscalar(babyJub.Generator, l);
        assert.ok(!F.isZero(T8[0]));
        assert.ok(!babyJub.inSubgroup(T8));
        const b8 = babyJub.packPoint(T8);
        reject("bad_small_order_8", b8, "NotInSubgroup", false);
        const T4 = babyJub.mulPointEscalar(T8, 2n);
        reject("bad_small_order_4", babyJub.packPoint(T4), "NotInSubgroup", false);
        // Full-order point: the circomlib Generator (order 8·l).
        reject("bad_not_in_subgroup_generator", babyJub.packPoint(babyJub.Generator), "NotInSubgroup", false);
        // A subgroup point plus a small-order point.
        const M = babyJub.addPoint(babyJub.Base8, T8);
        assert.ok(!babyJub.inSubgroup(M));
        reject("bad_not_in_subgroup_mixed", babyJub.packPoint(M), "NotInSubgroup", false);
    }
    // x = 0 with the sign bit set: the identity (0, 1) and (0, −1).
    {
        const id = bigToLE32(1n);
        id[31] |= 0x80;
        reject("bad_sign_bit_x_zero_identity", id, "NonCanonicalSign", true);
        const m1 = bigToLE32(p - 1n);
        m1[31] |= 0x80;
        reject("bad_sign_bit_x_zero_order_2", m1, "NonCanonicalSign", true);
    }

    write("babyjub.json", {
        description: "Baby Jubjub (circomlib model a=168700, d=168696) generator multiples, packed encodings, sums and bad encodings",
        p: p.toString(),
        l: l.toString(),
        a: dec(babyJub.A),
        d: dec(babyJub.D),
        base8: pt(babyJub.Base8),
        generator: pt(babyJub.Generator),
        base8_multiples: multiples,
        sums,
        identity_packed: hex(babyJub.packPoint([F.e(0), F.e(1)])),
        bad_points: bad,
    });
}

// ---------------------------------------------------------------- Poseidon
{
    const ref = await buildPoseidonReference();
    const opt = await buildPoseidonOpt();
    const wasm = await buildPoseidon();
    const cases = [];
    for (let n = 1; n <= 16; n++) {
        const seq = Array.from({ length: n }, (_, i) => BigInt(i + 1));
        const rnd = Array.from({ length: n }, () => bytesToBigLE(detBytes("poseidon-input", 32)) % p);
        const zeros = Array.from({ length: n }, () => 0n);
        for (const inputs of [seq, rnd, zeros]) {
            const h = ref(inputs);
            assert.ok(F.eq(h, opt(inputs)) && F.eq(h, wasm(inputs)), "poseidon implementations agree");
            cases.push({ inputs: inputs.map(String), output: dec(h) });
        }
    }
    // Non-zero initial state (circomlib PoseidonEx initialState).
    const withState = [];
    for (const n of [1, 2, 5]) {
        const inputs = Array.from({ length: n }, () => bytesToBigLE(detBytes("poseidon-state", 32)) % p);
        const init = bytesToBigLE(detBytes("poseidon-state", 32)) % p;
        withState.push({ inputs: inputs.map(String), init_state: init.toString(), output: dec(ref(inputs, init)) });
    }
    // A digest of all constants per width: SHA-256 over every round constant, then every MDS
    // entry row by row, each as 32 bytes big-endian.
    const constants = JSON.parse(
        readFileSync(join(root, "node_modules", "circomlibjs", "src", "poseidon_constants.json"), "utf8"),
    );
    const digests = constants.C.map((C, i) => {
        const h = createHash("sha256");
        for (const c of C) h.update(Buffer.from(BigInt(c).toString(16).padStart(64, "0"), "hex"));
        for (const row of constants.M[i]) {
            for (const m of row) h.update(Buffer.from(BigInt(m).toString(16).padStart(64, "0"), "hex"));
        }
        return {
            t: i + 2,
            round_constants: C.length,
            first_round_constant: BigInt(C[0]).toString(),
            mds_00: BigInt(constants.M[i][0][0]).toString(),
            sha256: h.digest("hex"),
        };
    });
    write("poseidon.json", {
        description: "circomlib Poseidon (t = n+1, R_F = 8, x^5) hashes for n = 1..16, with initial states, and digests of circomlibjs' constants",
        hashes: cases,
        with_init_state: withState,
        constants_digests: digests,
    });
}

// ---------------------------------------------------------------- EdDSA-Poseidon
{
    const eddsa = await buildEddsa();
    const { createRequire } = await import("node:module");
    const require = createRequire(join(root, "node_modules", "circomlibjs", "package.json"));
    const createBlakeHash = require("blake-hash");

    const keys = [Buffer.from("0001020304050607080900010203040506070809000102030405060708090001", "hex")];
    for (let i = 0; i < 3; i++) keys.push(detBytes("eddsa-key", 32));
    const vectors = [];
    const bad = [];
    keys.forEach((prv, ki) => {
        const A = eddsa.prv2pub(prv);
        const msgs = [0n, 1234567890n, p - 1n, bytesToBigLE(detBytes("eddsa-msg", 32)) % p];
        for (const m of msgs) {
            const msg = F.e(m);
            const sig = eddsa.signPoseidon(prv, msg);
            assert.ok(eddsa.verifyPoseidon(msg, sig, A));
            const packed = eddsa.packSignature(sig);
            vectors.push({
                private_key: hex(prv),
                blake512: hex(createBlakeHash("blake512").update(Buffer.from(prv)).digest()),
                public_key: { ...pt(A), packed: hex(babyJub.packPoint(A)) },
                msg: m.toString(),
                signature: { r8: pt(sig.R8), s: sig.S.toString(), packed: hex(packed) },
            });
        }
        if (ki === 0) {
            const msg = F.e(msgs[1]);
            const sig = eddsa.signPoseidon(prv, msg);
            const packed = Buffer.from(eddsa.packSignature(sig));
            const Ap = hex(babyJub.packPoint(A));
            const push = (name, msgv, sigBytes, pk, expect) => {
                bad.push({ name, msg: msgv.toString(), public_key: pk, signature: hex(sigBytes), expect });
            };
            // Wrong message.
            assert.ok(!eddsa.verifyPoseidon(F.e(msgs[1] + 1n), sig, A));
            push("bad_wrong_message", msgs[1] + 1n, packed, Ap, "InvalidSignature");
            // S + 1.
            const s1 = { R8: sig.R8, S: sig.S + 1n };
            assert.ok(!eddsa.verifyPoseidon(msg, s1, A));
            push("bad_s_plus_one", msgs[1], eddsa.packSignature(s1), Ap, "InvalidSignature");
            // S + l (non-canonical S: rejected by the S < l check).
            const sl = { R8: sig.R8, S: sig.S + l };
            assert.ok(!eddsa.verifyPoseidon(msg, sl, A));
            push("bad_s_not_reduced", msgs[1], eddsa.packSignature(sl), Ap, "NonCanonical");
            // R8 replaced by another subgroup point.
            const r2 = { R8: babyJub.addPoint(sig.R8, babyJub.Base8), S: sig.S };
            assert.ok(!eddsa.verifyPoseidon(msg, r2, A));
            push("bad_r8_changed", msgs[1], eddsa.packSignature(r2), Ap, "InvalidSignature");
            // R8 plus a small-order point: circomlibjs *accepts* it (cofactored check and no
            // subgroup test); zeenot rejects R8 outside the subgroup.
            const T8 = babyJub.mulPointEscalar(babyJub.Generator, l);
            const r3 = { R8: babyJub.addPoint(sig.R8, T8), S: sig.S };
            push("bad_r8_small_order_component", msgs[1], eddsa.packSignature(r3), Ap, "NotInSubgroup");
            // Other key.
            const A2 = eddsa.prv2pub(keys[1]);
            assert.ok(!eddsa.verifyPoseidon(msg, sig, A2));
            push("bad_wrong_public_key", msgs[1], packed, hex(babyJub.packPoint(A2)), "InvalidSignature");
            // Flip one bit in each byte position of the packed signature, a few of them.
            for (const i of [0, 13, 31, 32, 45, 62]) {
                const t = Buffer.from(packed);
                t[i] ^= 0x04;
                push(`bad_bit_flip_byte_${i}`, msgs[1], t, Ap, "any");
            }
        }
    });
    write("eddsa_poseidon.json", {
        description: "circomlibjs eddsa.prv2pub / signPoseidon / packSignature vectors and tampered signatures",
        vectors,
        bad_signatures: bad,
    });
}

console.log(`wrote ${outDir} from circomlibjs@${circomlibjsVersion}`);
