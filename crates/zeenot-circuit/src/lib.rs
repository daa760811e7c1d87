//! zeenot's groth16 back end: IR v1 (`docs/ir.md`) → R1CS → Groth16 over BN254.
//!
//! * [`ir`] and [`eval`] are the IR crate's (`zeenot-ir`, shared with the sigma back end),
//!   re-exported: programs parsed and validated, and their meaning;
//! * [`gadgets`] and [`synth`] lower them to constraints, with every witness determined by the
//!   inputs, checked by [`soundness`];
//! * [`groth16`] sets up, proves and verifies (its setup and prover computing from the
//!   constraints' evaluations at `τ` and at the assignment, `setup` and `prover`, with
//!   [`msm`]'s multi-scalar multiplications); [`verifier`] verifies (one proof or a batch) from
//!   the verifying key and the layout of the public values only; [`snarkjs`] exports for snarkjs.
//!   The key and proof types that `setup`, `prover` and [`verifier`] share are in `keys`, below
//!   them; [`groth16`] sits above all of them and re-exports the types.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod gadgets;
mod glv;
pub mod groth16;
mod keys;
pub mod msm;
mod prover;
pub mod r1cs;
mod setup;
pub mod snarkjs;
pub mod soundness;
pub mod synth;
pub mod verifier;

pub use zeenot_ir::{binary, eval, ir};
pub use zeenot_ir::{FailureKind, IrError, Program, Ty, Unsatisfied, Value};

impl From<zeenot_ir::RunError> for Error {
    fn from(e: zeenot_ir::RunError) -> Self {
        match e {
            zeenot_ir::RunError::Input(m) => Error::Input(m),
            zeenot_ir::RunError::Unsatisfied(u) => Error::Unsatisfied(u),
        }
    }
}

impl Error {
    /// arkworks' synthesis error in the back end's words.
    pub(crate) fn synthesis(e: ark_relations::r1cs::SynthesisError) -> Error {
        match e {
            ark_relations::r1cs::SynthesisError::Unsatisfiable => {
                Error::Synthesis("the program fails on every input (a constant check or overflow)".into())
            }
            other => Error::Synthesis(other.to_string()),
        }
    }
}

/// Errors of the groth16 back end.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The IR document is invalid.
    #[error(transparent)]
    Ir(#[from] IrError),
    /// An input or public value is malformed, out of range, or of the wrong count.
    #[error("{0}")]
    Input(String),
    /// The program fails on these inputs: no proof exists.
    #[error(transparent)]
    Unsatisfied(#[from] Unsatisfied),
    /// A key or proof could not be decoded.
    #[error("{0}")]
    Decode(String),
    /// A key does not fit the program.
    #[error("{0}")]
    Key(String),
    /// Constraint synthesis failed.
    #[error("{0}")]
    Synthesis(String),
}
