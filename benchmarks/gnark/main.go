// Baseline for benchmarks/vs_gnark.py: gnark's Groth16 over BN254 on the statement zeenot
// proves there, a chain of squarings x_{i+1} = x_i² whose last value is public.
//
//	go run . -n 65536 -reps 3     (GOMAXPROCS=1 for one thread)
//
// Prints one JSON object: constraints, and the median setup, prove and verify times in seconds.
// Prove starts from the compiled constraint system and the assignment (gnark's solver computes
// the intermediate values inside groth16.Prove, as zeenot's prover evaluates the program).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/logger"
)

// Chain squares X n times and asserts the result equals the public Y.
type Chain struct {
	X frontend.Variable
	Y frontend.Variable `gnark:",public"`
	n int
}

// Define writes the constraints: one per squaring, one for the public result.
func (c *Chain) Define(api frontend.API) error {
	acc := c.X
	for i := 0; i < c.n; i++ {
		acc = api.Mul(acc, acc)
	}
	api.AssertIsEqual(acc, c.Y)
	return nil
}

func median(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

func timed(reps int, f func() error) (float64, error) {
	var ts []float64
	for i := 0; i < reps; i++ {
		t0 := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		ts = append(ts, time.Since(t0).Seconds())
	}
	return median(ts), nil
}

func run(n, reps int, x int64) (map[string]any, error) {
	field := ecc.BN254.ScalarField()
	ccs, err := frontend.Compile(field, r1cs.NewBuilder, &Chain{n: n})
	if err != nil {
		return nil, err
	}
	// y = x^(2^n) mod r
	y := big.NewInt(x)
	for i := 0; i < n; i++ {
		y.Mul(y, y).Mod(y, field)
	}
	w, err := frontend.NewWitness(&Chain{X: x, Y: y, n: n}, field)
	if err != nil {
		return nil, err
	}
	public, err := w.Public()
	if err != nil {
		return nil, err
	}
	var pk groth16.ProvingKey
	var vk groth16.VerifyingKey
	setup, err := timed(1, func() (e error) { pk, vk, e = groth16.Setup(ccs); return })
	if err != nil {
		return nil, err
	}
	var proof groth16.Proof
	prove, err := timed(reps, func() (e error) { proof, e = groth16.Prove(ccs, pk, w); return })
	if err != nil {
		return nil, err
	}
	verify, err := timed(reps, func() error { return groth16.Verify(proof, vk, public) })
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"n": n, "constraints": ccs.GetNbConstraints(), "threads": runtime.GOMAXPROCS(0),
		"setup_s": setup, "prove_s": prove, "verify_s": verify,
	}, nil
}

func main() {
	n := flag.Int("n", 1<<12, "squarings")
	reps := flag.Int("reps", 3, "timed proofs (median)")
	x := flag.Int64("x", 3, "the private start value")
	flag.Parse()
	logger.Disable()
	out, err := run(*n, *reps, *x)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gnark chain:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(1)
	}
}
