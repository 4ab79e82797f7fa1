//! The successors the forward pass kept, turned around into predecessors.

use super::backward::prefetch;
use crate::par::prelude::*;

/// Entries per bucket of the reversal: a bucket's counts (4 bytes an entry) stay in cache.
pub(super) const BUCKET_BITS: u32 = 16;

/// Words per segment of a bucket's edges ([`Dealt`]): 8 KiB.
const SEGMENT: usize = 1 << 11;

/// The place of an edge's target in its bucket: its low [`BUCKET_BITS`] bits.
const PLACE: u32 = (1 << BUCKET_BITS) - 1;

/// The step of an edge's source that no edge word holds: the word stands for an escape, its
/// source in the word after it.
const ESCAPE: u32 = u32::MAX >> BUCKET_BITS;

/// The edges one share of the forward pass kept, dealt out by bucket of their target, each
/// bucket's in segments of [`SEGMENT`] words: a full segment is set aside and a new one begun,
/// so an edge is written once (a growing vector would copy it again at each reallocation, into
/// new pages), and the segments' memory, freed after the reversal, is the allocator's to hand
/// out again (to the next solve's segments).
///
/// An edge `p -> q` takes one word: `q`'s place in its bucket, and above it the step from the
/// source of the edge before in the segment (from 0 for the first) to `p`. A share's sources
/// come in order, and the steps between those of one bucket are short (Nana's: a few hundred
/// entries); a step below [`ESCAPE`] fits. Any other (a source before the last, a long step)
/// is an escape: [`ESCAPE`] above the place, then `p` in a word of its own. Four bytes an edge
/// where `p` and `q`'s place side by side take eight: half the pages to fault in and walk back.
pub(super) struct Dealt {
    /// Each bucket's segment being filled.
    filling: Vec<Filling>,
    /// Each bucket's full segments.
    full: Vec<Vec<Vec<u32>>>,
}

/// A bucket's segment being filled, and the source of its last edge.
#[derive(Clone, Default)]
struct Filling {
    words: Vec<u32>,
    last: u32,
}

impl Dealt {
    pub(super) fn new(buckets: usize) -> Dealt {
        Dealt { filling: vec![Filling::default(); buckets], full: vec![Vec::new(); buckets] }
    }

    /// Keeps the edge `p -> q` (both below 2^32, [`super::MAX_SIZE`]).
    #[inline(always)]
    pub(super) fn push(&mut self, p: usize, q: u64) {
        let b = (q >> BUCKET_BITS) as usize;
        let place = q as u32 & PLACE;
        let filling = &mut self.filling[b];
        let step = (p as u32).wrapping_sub(filling.last);
        if step < ESCAPE && filling.words.len() < filling.words.capacity() {
            filling.words.push(step << BUCKET_BITS | place);
            filling.last = p as u32;
        } else {
            self.escape(b, p as u32, place);
        }
    }

    /// Keeps the edge from `p` to `place` in bucket `b` as an escape, in a new segment if
    /// the one being filled has no room for both words; a new segment's first edge may step
    /// from 0.
    #[cold]
    #[inline(never)]
    fn escape(&mut self, b: usize, p: u32, place: u32) {
        let filling = &mut self.filling[b];
        if filling.words.capacity() - filling.words.len() < 2 {
            let full = std::mem::replace(&mut filling.words, Vec::with_capacity(SEGMENT));
            if !full.is_empty() {
                self.full[b].push(full);
            }
            if p < ESCAPE {
                filling.words.push(p << BUCKET_BITS | place);
                filling.last = p;
                return;
            }
        }
        filling.words.extend([ESCAPE << BUCKET_BITS | place, p]);
        filling.last = p;
    }

    /// Each bucket's segments.
    fn into_buckets(self) -> impl Iterator<Item = Vec<Vec<u32>>> {
        self.full.into_iter().zip(self.filling).map(|(mut full, filling)| {
            full.push(filling.words);
            full
        })
    }
}

/// Calls `f` with the source and the target's place of each edge of `segment`, in order.
#[inline(always)]
fn each_edge(segment: &[u32], mut f: impl FnMut(u32, usize)) {
    let mut last = 0u32;
    let mut words = segment.iter();
    while let Some(&word) = words.next() {
        let step = word >> BUCKET_BITS;
        last =
            if step == ESCAPE { *words.next().expect("an escape's source follows it") } else { last + step };
        f(last, (word & PLACE) as usize);
    }
}

/// The predecessors of every entry, turned around from the successors the forward pass kept,
/// an entry as often as it reported its successor; by bucket of targets, each bucket's arrays
/// allocated apart (small enough for the allocator to hand out again what an earlier solve or
/// the forward pass's segments freed, where one array of every edge would be fresh pages).
pub(super) struct Reversed {
    buckets: Vec<Bucket>,
}

/// The predecessors of a bucket's targets: those of the target at place `k` are
/// `preds[first[k]..first[k + 1]]`.
struct Bucket {
    first: Vec<u32>,
    preds: Vec<u32>,
}

impl Reversed {
    /// Turns the forward pass's edges around, bucket by bucket of targets (the forward pass
    /// dealt them out): each bucket is sorted by target by counting, its counts in cache. The
    /// predecessors of an entry come in no particular order. `None` when a bucket has too many
    /// edges for 32-bit offsets (the solver then asks the game).
    pub(super) fn new(n: usize, shares: Vec<Dealt>) -> Option<Reversed> {
        let buckets = n.div_ceil(1 << BUCKET_BITS);
        // Each bucket's segments, from every share.
        let mut by_bucket: Vec<Vec<Vec<u32>>> = (0..buckets).map(|_| Vec::new()).collect();
        for share in shares {
            for (all, segments) in by_bucket.iter_mut().zip(share.into_buckets()) {
                all.extend(segments);
            }
        }
        let buckets: Option<Vec<Bucket>> = by_bucket
            .into_par_iter()
            .enumerate()
            .map(|(b, segments)| {
                let targets = (n - (b << BUCKET_BITS)).min(1 << BUCKET_BITS);
                // Each edge is a word, an escape two: the words bound the edges.
                let words = segments.iter().map(Vec::len).sum::<usize>();
                u32::try_from(words).ok()?;
                // `first[k + 2]` counts the edges into place `k`; summed up, `first[k + 1]`
                // is where place `k`'s predecessors start, the cursor each edge into it
                // advances, so that `first[k + 1]` ends where place `k + 1`'s start.
                let mut first = vec![0u32; targets + 2];
                segments.iter().for_each(|s| each_edge(s, |_, place| first[place + 2] += 1));
                for k in 2..first.len() {
                    first[k] += first[k - 1];
                }
                let edges = first[targets + 1] as usize;
                // Every place of `preds` is written once below, so it is not zeroed first.
                let mut preds: Vec<u32> = Vec::with_capacity(edges);
                let slots = &mut preds.spare_capacity_mut()[..edges];
                for segment in &segments {
                    each_edge(segment, |p, place| {
                        let cursor = &mut first[place + 1];
                        slots[*cursor as usize].write(p);
                        *cursor += 1;
                    });
                }
                // The cursors end where the next place's predecessors start: place `k`'s at
                // `first[k + 1]`, the last one's at `edges`, every slot written.
                assert_eq!(first[targets], edges as u32, "a bucket's edges counted as placed");
                // Safety: each of the `edges` slots was written once: the counts summed to
                // `edges`, and each cursor wrote its place's count of slots from where the
                // place before's ended (checked above for the last).
                unsafe { preds.set_len(edges) };
                first.pop();
                Some(Bucket { first, preds })
            })
            .collect();
        Some(Reversed { buckets: buckets? })
    }

    /// Asks the cache for the offsets of `q`'s predecessors.
    #[inline]
    pub(super) fn prefetch_offsets(&self, q: u32) {
        let b = &self.buckets[(q >> BUCKET_BITS) as usize];
        prefetch(&b.first[q as usize & ((1 << BUCKET_BITS) - 1)]);
    }

    /// Asks the cache for `q`'s predecessors (its offsets read).
    #[inline]
    pub(super) fn prefetch_preds(&self, q: u32) {
        let b = &self.buckets[(q >> BUCKET_BITS) as usize];
        prefetch(b.preds.as_ptr().wrapping_add(b.first[q as usize & ((1 << BUCKET_BITS) - 1)] as usize));
    }

    /// The predecessors of `q`.
    #[inline]
    pub(super) fn of(&self, q: u32) -> &[u32] {
        let b = &self.buckets[(q >> BUCKET_BITS) as usize];
        let k = q as usize & ((1 << BUCKET_BITS) - 1);
        &b.preds[b.first[k] as usize..b.first[k + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every edge, dealt by two shares over several buckets (the last one partial, one empty)
    /// and into more than one segment, comes back as its target's predecessor as often as it
    /// was dealt: against the edges listed and sorted. One share's sources come in order, in
    /// short steps, now and then a long one or one back (escapes); the other's at random.
    #[test]
    fn the_reversal_lists_each_edge_at_its_target() {
        let n: usize = 3 << BUCKET_BITS | 123;
        let mut shares = [Dealt::new(n.div_ceil(1 << BUCKET_BITS)), Dealt::new(n.div_ceil(1 << BUCKET_BITS))];
        let mut edges = Vec::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for k in 0..8 * SEGMENT {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let p = match k % 2 {
                0 if k % 500 == 0 => (k * 37 + ESCAPE as usize) % n,
                0 => k * 37 % n,
                _ => (x >> 40) as usize % n,
            };
            // No edge into the second bucket; many into one target of the first.
            let mut q = if k % 3 == 0 { 17 } else { (x % n as u64) as usize };
            if q >> BUCKET_BITS == 1 {
                q += 1 << BUCKET_BITS;
            }
            shares[k % 2].push(p, q as u64);
            edges.push((q as u32, p as u32));
        }
        let reversed = Reversed::new(n, shares.into()).expect("few edges");
        let mut listed: Vec<(u32, u32)> =
            (0..n as u32).flat_map(|q| reversed.of(q).iter().map(move |&p| (q, p))).collect();
        listed.sort_unstable();
        edges.sort_unstable();
        assert_eq!(listed, edges);
    }
}
