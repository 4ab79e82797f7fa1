//! End-to-end tests of the `nana` binary.
//!
//! Every rule set the tests need is solved once per test binary into a temporary directory (the
//! shared fixture in [`common`], both solves running side by side); the tests point `--tablebase` at
//! those files and run the binary in a fresh empty directory, so the default `tablebase/` folder
//! of the working tree is never picked up by accident. Only the in-memory-fallback test runs
//! without a table.
//!
//! Known results checked here: under the current rules the start is a draw; under the original
//! rules Black wins, the game ending on ply 31 (DTM 31 plies).

mod batch;
mod common;
mod dobutsu;
mod moves;
mod play;
mod program;
mod query;
mod serve;
mod solve;
mod stats;
mod tables;
mod verify;
