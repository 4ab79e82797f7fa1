//! The successors the forward pass kept, turned around into predecessors.

use crate::par::prelude::*;

/// Entries per bucket of the reversal: a bucket's counts (4 bytes an entry) stay in cache.
pub(super) const BUCKET_BITS: u32 = 16;

/// Edges per segment of a bucket's edges ([`Dealt`]): 8 KiB.
const SEGMENT: usize = 1 << 10;

/// The edges one share of the forward pass kept, dealt out by bucket of their target, each
/// bucket's in segments of [`SEGMENT`] edges: a full segment is set aside and a new one begun,
/// so an edge is written once (a growing vector would copy it again at each reallocation, into
/// new pages), and the segments' memory, freed after the reversal, is the allocator's to hand
/// out again (to the next solve's segments).
pub(super) struct Dealt {
    /// Each bucket's segment being filled.
    filling: Vec<Vec<u64>>,
    /// Each bucket's full segments.
    full: Vec<Vec<Vec<u64>>>,
}

impl Dealt {
    pub(super) fn new(buckets: usize) -> Dealt {
        Dealt { filling: vec![Vec::new(); buckets], full: vec![Vec::new(); buckets] }
    }

    /// Keeps the edge `p -> q`.
    #[inline(always)]
    pub(super) fn push(&mut self, p: usize, q: u64) {
        let b = (q >> BUCKET_BITS) as usize;
        let segment = &mut self.filling[b];
        if segment.len() == segment.capacity() {
            self.begin_segment(b);
        }
        self.filling[b].push(Reversed::edge(p, q));
    }

    /// Sets bucket `b`'s full segment aside and begins another.
    #[cold]
    #[inline(never)]
    fn begin_segment(&mut self, b: usize) {
        let full = std::mem::replace(&mut self.filling[b], Vec::with_capacity(SEGMENT));
        if !full.is_empty() {
            self.full[b].push(full);
        }
    }

    /// Each bucket's segments.
    fn into_buckets(self) -> impl Iterator<Item = Vec<Vec<u64>>> {
        self.full.into_iter().zip(self.filling).map(|(mut full, filling)| {
            full.push(filling);
            full
        })
    }
}

/// The predecessors of every entry, turned around from the successors the forward pass kept:
/// those of `q` are `preds[first[q]..first[q + 1]]`, an entry as often as it reported `q`.
pub(super) struct Reversed {
    pub first: Vec<u32>,
    pub preds: Vec<u32>,
}

impl Reversed {
    /// An edge `p -> q` as the reversal keeps it in `q`'s bucket: `p` above `q`'s place.
    #[inline]
    fn edge(p: usize, q: u64) -> u64 {
        (p as u64) << BUCKET_BITS | (q & ((1 << BUCKET_BITS) - 1))
    }

    /// Turns the forward pass's edges around, bucket by bucket of targets (the forward pass
    /// dealt them out): each bucket is sorted by target by counting, its counts in cache. The
    /// predecessors of an entry come in no particular order. `None` when there are too many
    /// edges for 32-bit offsets (the solver then asks the game).
    pub(super) fn new(n: usize, shares: Vec<Dealt>) -> Option<Reversed> {
        let buckets = n.div_ceil(1 << BUCKET_BITS);
        // Each bucket's segments, from every share.
        let mut by_bucket: Vec<Vec<Vec<u64>>> = (0..buckets).map(|_| Vec::new()).collect();
        for share in shares {
            for (all, segments) in by_bucket.iter_mut().zip(share.into_buckets()) {
                all.extend(segments);
            }
        }
        let mut bucket_start = Vec::with_capacity(buckets + 1);
        let mut total = 0usize;
        for shares in &by_bucket {
            bucket_start.push(total);
            total += shares.iter().map(Vec::len).sum::<usize>();
        }
        bucket_start.push(total);
        let total = u32::try_from(total).ok()?;
        // Each bucket sorted by target: its own slices of `first` and `preds`.
        let mut first = vec![0u32; n + 1];
        first[n] = total;
        let mut preds = vec![0u32; total as usize];
        let mut slices = Vec::with_capacity(buckets);
        let mut rest = preds.as_mut_slice();
        for b in 0..buckets {
            let (slice, tail) = rest.split_at_mut(bucket_start[b + 1] - bucket_start[b]);
            slices.push(slice);
            rest = tail;
        }
        let place = |e: u64| (e & ((1 << BUCKET_BITS) - 1)) as usize;
        first[..n].par_chunks_mut(1 << BUCKET_BITS).zip(slices).zip(by_bucket).enumerate().for_each(
            |(b, ((first, preds), shares))| {
                let mut count = vec![0u32; first.len() + 1];
                shares.iter().flatten().for_each(|&e| count[place(e) + 1] += 1);
                for k in 1..count.len() {
                    count[k] += count[k - 1];
                }
                for (f, &c) in first.iter_mut().zip(&count) {
                    *f = bucket_start[b] as u32 + c;
                }
                for &e in shares.iter().flatten() {
                    let q = place(e);
                    preds[count[q] as usize] = (e >> BUCKET_BITS) as u32;
                    count[q] += 1;
                }
            },
        );
        Some(Reversed { first, preds })
    }

    /// The predecessors of `q`.
    #[inline]
    pub(super) fn of(&self, q: u32) -> &[u32] {
        let q = q as usize;
        &self.preds[self.first[q] as usize..self.first[q + 1] as usize]
    }
}
