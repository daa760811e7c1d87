//! Baby Jubjub cryptography for zeenot.
