//! Shared fixtures for the criterion benches in `benches/benches/`.
