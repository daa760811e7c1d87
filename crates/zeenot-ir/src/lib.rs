//! zeenot's intermediate representation, shared by both back ends (`docs/ir.md`).
//!
//! * [`ir`] parses and validates programs (never trusts them) and hashes them;
//! * [`binary`] is their compact form, read without JSON parsing under the same rules;
//! * [`eval`] gives them their meaning (Python semantics) and finds failures with locations;
//! * [`babyjub`] is the native Baby Jubjub arithmetic the point instructions mean.
//!
//! The Groth16 back end (`zeenot-circuit`) lowers a [`Program`] to R1CS, the sigma back end
//! (`zeenot-sigma`) to sigma-protocol statements; each runs [`eval`] first, so both agree on
//! which inputs have a proof.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod babyjub;
pub mod binary;
pub mod eval;
pub mod ir;

pub use eval::{FailureKind, RunError, Unsatisfied};
pub use ir::{IrError, Program, Ty, Value};
