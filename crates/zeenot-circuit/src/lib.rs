//! zeenot IR → R1CS → Groth16.
