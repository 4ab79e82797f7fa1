//! The self-check's switch: whether a game's fast paths compare each answer with the plain way
//! of finding it as they run (a retro-move's rank against the position ranked afresh, a move's
//! shortcut against the rules played out, and so on).
//!
//! Those comparisons double a solve, so they are not debug assertions: they run when [`enable`]
//! has been called, which `nana verify --self-check` does before it solves (docs/TESTING.md).
//! Off, each costs one relaxed load and a branch that is never taken. The crates whose code
//! the solves run (the engine and the games) write their assertions of the hot paths'
//! invariants with [`cross_assert!`](crate::cross_assert) and
//! [`cross_assert_eq!`](crate::cross_assert_eq) for the same reason, and are built without
//! debug assertions in the tests' profile (the workspace's `Cargo.toml`). A game writes a
//! comparison as
//!
//! ```
//! # fn fast(x: u64) -> u64 { x + 1 }
//! # fn plain(x: u64) -> u64 { x + 1 }
//! # let x = 1;
//! let answer = fast(x);
//! if nana_engine::cross_check::on() {
//!     assert_eq!(answer, plain(x), "the fast path of {x}");
//! }
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

/// On in the engine's own unit tests, whose games are small.
static ON: AtomicBool = AtomicBool::new(cfg!(test));

/// Turns the fast paths' cross-checks on (or off) for the whole process, from then on.
pub fn enable(on: bool) {
    ON.store(on, Ordering::Relaxed);
}

/// Whether the fast paths compare their answers with the plain way's.
#[inline(always)]
pub fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// `assert!` while the cross-checks are [`on`]; otherwise one relaxed load and a branch.
#[macro_export]
macro_rules! cross_assert {
    ($($arg:tt)+) => {
        if $crate::cross_check::on() {
            assert!($($arg)+);
        }
    };
}

/// `assert_eq!` while the cross-checks are [`on`]; otherwise one relaxed load and a branch.
#[macro_export]
macro_rules! cross_assert_eq {
    ($($arg:tt)+) => {
        if $crate::cross_check::on() {
            assert_eq!($($arg)+);
        }
    };
}
