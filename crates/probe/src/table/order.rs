//! The order in which a game's table files store their entries.

use nana_engine::par::prelude::*;

/// Where a game's table files store each index entry: in the index's own order
/// ([`FileOrder::INDEX`]), or in another that compresses better (Nana's: `docs/INDEX.md`, "File
/// order"), the same for every table of the game's index layout (the header's layout version).
/// A bijection of the entries: each index entry has one place in the file, each place one entry.
#[derive(Clone, Copy)]
pub struct FileOrder {
    /// `None` for the index's order.
    maps: Option<Maps>,
}

#[derive(Clone, Copy)]
struct Maps {
    /// The place of an index entry.
    place: fn(u64) -> u64,
    /// The entries at places `first, first + 1, ...`, as many as its slice holds.
    entries_at: fn(u64, &mut [u64]),
    /// Each aligned run of this many places holds the entries of the same run of the index.
    run: u64,
}

/// Entries a batch of places walked at once.
const BATCH: usize = 4096;

impl FileOrder {
    /// The index's own order: entry `i` at place `i`.
    pub const INDEX: FileOrder = FileOrder { maps: None };

    /// The order that stores index entry `i` at `place(i)`, whose inverse `entries_at(first,
    /// out)` gives the entries at the places `first, first + 1, ...` (walked in order, which
    /// is cheaper than one by one), and which maps each aligned run of `run` places onto the
    /// same run of index entries (the whole index if it is the size).
    pub const fn new(place: fn(u64) -> u64, entries_at: fn(u64, &mut [u64]), run: u64) -> FileOrder {
        FileOrder { maps: Some(Maps { place, entries_at, run }) }
    }

    /// Whether it is the index's own order.
    pub fn is_index(&self) -> bool {
        self.maps.is_none()
    }

    /// Where the file stores index entry `index`.
    #[inline]
    pub fn place(&self, index: u64) -> u64 {
        self.maps.map_or(index, |m| (m.place)(index))
    }

    /// The index entry the file stores at `place`.
    pub fn entry_at(&self, place: u64) -> u64 {
        let mut one = [place];
        if let Some(m) = self.maps {
            (m.entries_at)(place, &mut one);
        }
        one[0]
    }

    /// A file's entries of `width` bytes (in its order) in the index's order.
    pub fn to_index_order(&self, stored: Vec<u8>, width: usize) -> Vec<u8> {
        let Some(m) = self.maps else { return stored };
        let mut entries = vec![0; stored.len()];
        let run = m.run.max(1) as usize * width;
        entries.par_chunks_mut(run).zip(stored.par_chunks(run)).enumerate().for_each(|(k, (to, from))| {
            // Run `k`'s places hold its own entries: each is written here alone.
            let base = (k * run / width) as u64;
            let mut batch = [0u64; BATCH];
            for (b, from) in from.chunks(BATCH * width).enumerate() {
                let batch = &mut batch[..from.len() / width];
                (m.entries_at)(base + (b * BATCH) as u64, batch);
                if width == 1 {
                    // As in `fill_places`: no call to copy one byte.
                    batch.iter().zip(from).for_each(|(&i, &entry)| to[(i - base) as usize] = entry);
                    continue;
                }
                for (&i, entry) in batch.iter().zip(from.chunks_exact(width)) {
                    let at = (i - base) as usize * width;
                    to[at..at + width].copy_from_slice(entry);
                }
            }
        });
        entries
    }

    /// Entries of `width` bytes in the index's order put in the file's, as a writer of the
    /// whole array stores them.
    pub fn to_file_order(&self, entries: Vec<u8>, width: usize) -> Vec<u8> {
        if self.is_index() {
            return entries;
        }
        let mut stored = vec![0; entries.len()];
        stored.par_chunks_mut(BATCH * width).enumerate().for_each(|(k, out)| {
            self.fill_places(&entries, width, (k * BATCH) as u64, out);
        });
        stored
    }

    /// Fills `out` with the entries of `width` bytes that a file stores from place `first` on,
    /// from `entries` in the index's order.
    pub fn fill_places(&self, entries: &[u8], width: usize, first: u64, out: &mut [u8]) {
        let mut batch = [0u64; BATCH];
        for (b, out) in out.chunks_mut(BATCH * width).enumerate() {
            let batch = &mut batch[..out.len() / width];
            match self.maps {
                Some(m) => (m.entries_at)(first + (b * BATCH) as u64, batch),
                None => batch.iter_mut().zip(first + (b * BATCH) as u64..).for_each(|(i, p)| *i = p),
            }
            if width == 1 {
                // One byte an entry (every table but the widest): a load and a store, where a
                // copy of a slice of unknown width is a call.
                batch.iter().zip(out.iter_mut()).for_each(|(&i, entry)| *entry = entries[i as usize]);
                continue;
            }
            for (&i, entry) in batch.iter().zip(out.chunks_exact_mut(width)) {
                let at = i as usize * width;
                entry.copy_from_slice(&entries[at..at + width]);
            }
        }
    }
}

impl std::fmt::Debug for FileOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.is_index() { "FileOrder::INDEX" } else { "FileOrder(the game's own)" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Swaps the entries of each pair (0 and 1, 2 and 3, ...): its own inverse.
    fn swap(i: u64) -> u64 {
        i ^ 1
    }

    fn swapped(first: u64, out: &mut [u64]) {
        out.iter_mut().zip(first..).for_each(|(i, p)| *i = swap(p));
    }

    #[test]
    fn entries_go_to_their_places_and_back() {
        let order = FileOrder::new(swap, swapped, 6);
        let entries: Vec<u8> = (0..20_000u32).flat_map(|i| (i as u16).to_le_bytes()).collect();
        let mut stored = vec![0; entries.len()];
        order.fill_places(&entries, 2, 0, &mut stored[..6]);
        order.fill_places(&entries, 2, 3, &mut stored[6..]);
        assert_eq!(&stored[..8], &[1, 0, 0, 0, 3, 0, 2, 0]);
        assert_eq!(order.to_file_order(entries.clone(), 2), stored);
        assert_eq!(order.to_index_order(stored, 2), entries);
        assert_eq!(FileOrder::INDEX.to_index_order(entries.clone(), 2), entries);
        assert_eq!((order.place(6), order.entry_at(7), FileOrder::INDEX.place(6)), (7, 6, 6));
    }

    /// The same with entries of one byte, which are moved without a copy of a slice.
    #[test]
    fn one_byte_entries_go_to_their_places_and_back() {
        let order = FileOrder::new(swap, swapped, 6);
        let entries: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        let mut stored = vec![0; entries.len()];
        order.fill_places(&entries, 1, 0, &mut stored[..3]);
        order.fill_places(&entries, 1, 3, &mut stored[3..]);
        assert_eq!(&stored[..6], &[1, 0, 3, 2, 5, 4]);
        assert_eq!(order.to_file_order(entries.clone(), 1), stored);
        assert_eq!(order.to_index_order(stored, 1), entries);
    }
}
