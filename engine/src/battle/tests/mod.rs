//! Battle tests (scripted RNG: every roll consumed).
