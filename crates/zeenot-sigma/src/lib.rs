//! Sigma-protocol proofs of knowledge over Baby Jubjub (ZKPDL's proof language and ZQL's
//! back-end, on the group zeenot's commitments and ciphertexts live in).
//!
//! * [`statement`]: linear relations `P = Σ x·B` between public points and secret scalars,
//!   composed with AND and OR; a secret used twice is the same value (equality).
//! * [`proof`]: Fiat–Shamir proofs (Maurer + CDS), encoding with checked decoding, and batch
//!   verification with one multi-exponentiation.
//! * [`compressed`]: compressed proofs of AND statements (Attema–Cramer), logarithmic in
//!   the secrets and independent of the equations: what program proofs carry.
//! * [`bulletproofs`]: logarithmic-size (aggregated) range proofs on zeenot's Pedersen
//!   commitments.
//! * [`circuit`]: arithmetic-circuit proofs (Bulletproofs' multiplication gates and linear
//!   constraints) of logarithmic size, on values committed with zeenot's Pedersen commitments.
//! * [`backend`]: the compiler back end — IR programs proved with Pedersen commitments, sigma
//!   protocols and Bulletproofs, no trusted setup; committed inputs and outputs carry values
//!   between proofs and back ends.
//! * [`wire`]: the JSON form of statements and witnesses (the Python proof language's).
//!
//! The design, transcript format and the boundary's security argument: `docs/sigma.md`.
//!
//! Every point a proof or statement carries is a checked subgroup point (`zeenot_crypto::Point`
//! cannot hold anything else), and every challenge hashes the whole statement.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(clippy::unwrap_used)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod backend;
pub mod bp_tables;
pub mod bulletproofs;
pub mod circuit;
pub mod compressed;
mod error;
mod gens_cache;
pub mod proof;
pub mod statement;
pub mod wire;

pub use error::{Error, Result};
pub use proof::{batch_verify, prove, verify, Proof, SIGMA_DOMAIN};
pub use statement::{Builder, Element, Equation, Node, Secret, Statement};
