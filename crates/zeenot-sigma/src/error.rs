//! The crate's error type.

/// Everything that can go wrong building, proving or verifying a statement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The statement is malformed (a dangling index, an equation used twice or not at all, a
    /// secret shared across OR branches, a size over the limits).
    #[error("malformed statement: {0}")]
    Statement(String),
    /// The witness does not satisfy the statement (no branch of an OR holds, an equation
    /// fails, a secret is missing).
    #[error("the witness does not satisfy the statement: {0}")]
    Witness(String),
    /// The proof does not verify.
    #[error("proof verification failed")]
    InvalidProof,
    /// The proof's encoding is malformed (wrong length, a point off the curve or outside the
    /// subgroup, a non-canonical scalar).
    #[error("malformed proof: {0}")]
    Encoding(String),
    /// A value is out of the range a range proof covers, or the range itself is unsupported.
    #[error("range: {0}")]
    Range(String),
    /// The program uses something this back end cannot prove (with where and why).
    #[error("{0}")]
    Unsupported(String),
    /// An input or public value is malformed, out of range, or of the wrong count.
    #[error("{0}")]
    Input(String),
    /// The program fails on these inputs (a check, an overflow…), so no proof exists; with the
    /// source location.
    #[error("{0}")]
    Unsatisfied(zeenot_ir::Unsatisfied),
}

impl From<zeenot_crypto::Error> for Error {
    fn from(e: zeenot_crypto::Error) -> Self {
        Error::Encoding(e.to_string())
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;
