//! The explorer's tests, in one binary so that Nana's two rule sets are solved once for all
//! of them, and Dobutsu's tables made once (and kept in `CARGO_TARGET_TMPDIR`): the API and its
//! errors for both games, a fuzz of requests, a load test on loopback and the page in a headless
//! browser.

mod api;
mod browser;
mod common;
mod dobutsu;
mod fuzz;
mod load;
