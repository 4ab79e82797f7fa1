//! rayon's parallel iterators as far as the workspace uses them, run on the calling thread.
//!
//! [`Iter`] is an iterator whose own methods are those of rayon's `ParallelIterator` where they
//! differ from [`Iterator`]'s (`fold` and `reduce` with an identity, `try_fold`, `map_init`,
//! `for_each_init`, `try_for_each_init`, `find_first`, `with_min_len`); the rest (`for_each`,
//! `count`, `sum`, `max`, `collect`) are [`Iterator`]'s, which mean the same. Each method gives
//! what rayon's gives on a pool of one thread.

/// The threads the parallel passes run on: the calling one.
pub fn current_num_threads() -> usize {
    1
}

/// What `use rayon::prelude::*` brings, for the methods the workspace calls.
pub mod prelude {
    pub use super::{IntoParallelIterator, IntoParallelRefIterator, ParallelSlice, ParallelSliceMut};
}

/// An iterator with the methods of rayon's parallel iterators, run on the calling thread.
#[derive(Debug, Clone)]
#[must_use = "an iterator does nothing unless consumed"]
pub struct Iter<I>(I);

impl<I: Iterator> Iterator for Iter<I> {
    type Item = I::Item;

    #[inline]
    fn next(&mut self) -> Option<I::Item> {
        self.0.next()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<I: Iterator> Iter<I> {
    /// The pieces a thread takes (rayon's hint; one thread takes them all).
    pub fn with_min_len(self, _min: usize) -> Self {
        self
    }

    pub fn map<R, F: FnMut(I::Item) -> R>(self, f: F) -> Iter<std::iter::Map<I, F>> {
        Iter(self.0.map(f))
    }

    pub fn filter<P: FnMut(&I::Item) -> bool>(self, predicate: P) -> Iter<std::iter::Filter<I, P>> {
        Iter(self.0.filter(predicate))
    }

    pub fn enumerate(self) -> Iter<std::iter::Enumerate<I>> {
        Iter(self.0.enumerate())
    }

    pub fn zip<Z: IntoIterator>(self, other: Z) -> Iter<std::iter::Zip<I, Z::IntoIter>> {
        Iter(self.0.zip(other))
    }

    /// The items folded into one accumulator, started by `identity` (rayon: one a piece).
    pub fn fold<T, ID, F>(self, identity: ID, f: F) -> Iter<std::iter::Once<T>>
    where
        ID: Fn() -> T,
        F: FnMut(T, I::Item) -> T,
    {
        Iter(std::iter::once(self.0.fold(identity(), f)))
    }

    /// [`Iter::fold`] that stops at the first error.
    pub fn try_fold<T, E, ID, F>(self, identity: ID, f: F) -> Iter<std::iter::Once<Result<T, E>>>
    where
        ID: Fn() -> T,
        F: FnMut(T, I::Item) -> Result<T, E>,
    {
        let mut items = self.0;
        Iter(std::iter::once(items.try_fold(identity(), f)))
    }

    /// The items combined by `op`, `identity()` for none.
    pub fn reduce<ID, OP>(self, identity: ID, op: OP) -> I::Item
    where
        ID: Fn() -> I::Item,
        OP: FnMut(I::Item, I::Item) -> I::Item,
    {
        self.0.fold(identity(), op)
    }

    /// `f` with a value made by `init` (rayon: one a piece), to reuse across items.
    pub fn map_init<S, R, INIT, F>(self, init: INIT, mut f: F) -> Iter<impl Iterator<Item = R>>
    where
        INIT: Fn() -> S,
        F: FnMut(&mut S, I::Item) -> R,
    {
        let mut state = init();
        Iter(self.0.map(move |item| f(&mut state, item)))
    }

    /// `f` on each item with a value made by `init` (rayon: one a piece), to reuse across items.
    pub fn for_each_init<S, INIT, F>(self, init: INIT, mut f: F)
    where
        INIT: Fn() -> S,
        F: FnMut(&mut S, I::Item),
    {
        let mut state = init();
        self.0.for_each(|item| f(&mut state, item))
    }

    /// `f` on each item with a value made by `init`, up to the first error.
    pub fn try_for_each_init<S, E, INIT, F>(self, init: INIT, mut f: F) -> Result<(), E>
    where
        INIT: Fn() -> S,
        F: FnMut(&mut S, I::Item) -> Result<(), E>,
    {
        let mut state = init();
        let mut items = self.0;
        items.try_for_each(|item| f(&mut state, item))
    }

    /// The first item that `predicate` accepts.
    pub fn find_first<P: FnMut(&I::Item) -> bool>(self, predicate: P) -> Option<I::Item> {
        let mut items = self.0;
        items.find(predicate)
    }
}

/// `into_par_iter`: anything iterable (ranges, vectors).
pub trait IntoParallelIterator: IntoIterator + Sized {
    fn into_par_iter(self) -> Iter<Self::IntoIter> {
        Iter(self.into_iter())
    }
}

impl<T: IntoIterator> IntoParallelIterator for T {}

/// `par_iter`: a slice's items by reference.
pub trait IntoParallelRefIterator<T> {
    fn par_iter(&self) -> Iter<std::slice::Iter<'_, T>>;
}

impl<T> IntoParallelRefIterator<T> for [T] {
    fn par_iter(&self) -> Iter<std::slice::Iter<'_, T>> {
        Iter(self.iter())
    }
}

/// `par_chunks`: a slice in chunks.
pub trait ParallelSlice<T> {
    fn par_chunks(&self, size: usize) -> Iter<std::slice::Chunks<'_, T>>;
}

impl<T> ParallelSlice<T> for [T] {
    fn par_chunks(&self, size: usize) -> Iter<std::slice::Chunks<'_, T>> {
        Iter(self.chunks(size))
    }
}

/// `par_chunks_mut`: a slice in chunks to write.
pub trait ParallelSliceMut<T> {
    fn par_chunks_mut(&mut self, size: usize) -> Iter<std::slice::ChunksMut<'_, T>>;
}

impl<T> ParallelSliceMut<T> for [T] {
    fn par_chunks_mut(&mut self, size: usize) -> Iter<std::slice::ChunksMut<'_, T>> {
        Iter(self.chunks_mut(size))
    }
}

#[cfg(test)]
mod tests {
    use super::prelude::*;

    /// The methods give what rayon's give.
    #[test]
    fn as_rayon_on_one_thread() {
        let sum = (0..10u64).into_par_iter().with_min_len(4).map(|i| i * 2).reduce(|| 0, |a, b| a + b);
        assert_eq!(sum, 90);
        let folded: Vec<u64> = [1u64, 2, 3].par_iter().fold(|| 10, |a, &b| a + b).collect();
        assert_eq!(folded, [16]);
        let tried: Result<Vec<u64>, u64> =
            (0..5u64).into_par_iter().try_fold(|| 0, |a, b| if b < 9 { Ok(a + b) } else { Err(b) }).collect();
        assert_eq!(tried, Ok(vec![10]));
        let mut data = [0u8; 7];
        data.par_chunks_mut(3).enumerate().for_each(|(c, chunk)| chunk.fill(c as u8));
        assert_eq!(data, [0, 0, 0, 1, 1, 1, 2]);
        assert_eq!(data.par_chunks(3).count(), 3);
        let lens: Vec<usize> = (0..3)
            .into_par_iter()
            .map_init(Vec::new, |v: &mut Vec<u8>, _| {
                v.push(0);
                v.len()
            })
            .collect();
        assert_eq!(lens, [1, 2, 3]);
        assert_eq!(
            (0..3).into_par_iter().try_for_each_init(|| (), |_, i| if i < 2 { Ok(()) } else { Err(i) }),
            Err(2)
        );
        assert_eq!((0..9).into_par_iter().find_first(|&i| i * i > 10), Some(4));
        assert_eq!(data.par_iter().zip(vec![1u8; 7]).filter(|(a, _)| **a == 1).count(), 3);
    }
}
