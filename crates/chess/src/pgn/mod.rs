//! PGN (placeholder until the PGN module lands).
