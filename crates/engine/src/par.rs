//! The parallel iterators of the solver, and of the games' own passes over their index: rayon's
//! with the `parallel` feature (a default one), else stand-ins of the same names that run on the
//! calling thread. The code is the same either way: `use nana_engine::par::prelude::*`, then
//! `into_par_iter`, `par_iter`, `par_chunks_mut` as with rayon.
//!
//! Without the feature (the static site's WebAssembly module, `crates/web`, which has no
//! threads) the crate does not depend on rayon at all.

#[cfg(feature = "parallel")]
pub use rayon::current_num_threads;

/// rayon's prelude.
#[cfg(feature = "parallel")]
pub mod prelude {
    pub use rayon::prelude::*;
}

#[cfg(not(feature = "parallel"))]
mod sequential;
#[cfg(not(feature = "parallel"))]
pub use sequential::{current_num_threads, prelude, Iter};
