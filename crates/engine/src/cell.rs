//! A cell of the solver's arrays ([`Cell`]): one atomic integer, read and written with relaxed
//! loads and stores. Its own module, below both the value codes (`value.rs`, whose codes name
//! their cell type) and the solve (`solve/`, which keeps its arrays in cells).

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, Ordering};

/// A cell of the solver's arrays: entries (`u8`, `u16`) and counters (`u8`, `u32`), atomic so
/// that threads may share the arrays; each pass writes a cell from one task only.
pub(crate) trait Cell: Send + Sync {
    type Raw: Copy + Eq;
    fn new(raw: Self::Raw) -> Self;
    fn get(&self) -> Self::Raw;
    fn set(&self, raw: Self::Raw);
    /// Takes one from a counter, as the cell's only writer (a plain load and store); whether that
    /// was the last one.
    fn count_down(&self) -> bool;
}

macro_rules! cell {
    ($($atomic:ty => $raw:ty),*) => {$(
        impl Cell for $atomic {
            type Raw = $raw;
            #[inline]
            fn new(raw: $raw) -> Self {
                <$atomic>::new(raw)
            }
            #[inline]
            fn get(&self) -> $raw {
                self.load(Ordering::Relaxed)
            }
            #[inline]
            fn set(&self, raw: $raw) {
                self.store(raw, Ordering::Relaxed)
            }
            #[inline]
            fn count_down(&self) -> bool {
                let left = self.get() - 1;
                self.set(left);
                left == 0
            }
        }
    )*};
}

cell!(AtomicU8 => u8, AtomicU16 => u16, AtomicU32 => u32);
