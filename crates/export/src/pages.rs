//! A bounded cache of decoded pages of a compressed table file, for the export's lookups.
//!
//! A row needs the values of the positions its moves lead to, scattered over the index; the
//! export reads every position of the table so, in index order. A page is a span of
//! consecutive blocks, decoded at once the first time one of its entries is read; each thread
//! keeps its own pages (no lock, no atomic operation on a lookup) and drops its least recently
//! used one when it holds its share of the budget. The memory is the budget, whatever the
//! table: the table's entries are never all decoded.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use nana_probe::table::ReadEntries;
use nana_tablebase::{Tablebase, TablebaseError};
use thread_local::ThreadLocal;

/// Entries a page holds at least: whole blocks, as many as make 262,144 entries (64 of
/// Dobutsu's blocks of 4,096, 8 of Nana's of 32,768), or one larger block.
const PAGE_ENTRIES: u64 = 1 << 18;

/// Blocks per page for blocks of `block_entries`.
fn page_blocks(block_entries: u64) -> u64 {
    (PAGE_ENTRIES / block_entries.max(1)).max(1)
}

/// The default budget of an export's decoded pages, in bytes (`nana export --cache`).
pub const DEFAULT_BUDGET: u64 = 256 << 20;

/// Decoded pages of a compressed table file, each thread's up to its share of a budget. They
/// are read through [`Paged`], which names the file, so that a caller that exports a table in
/// pieces (the Python package's record batches) keeps them beside the table from one piece to
/// the next.
#[derive(Debug)]
pub struct Pages {
    width: usize,
    entries: u64,
    /// Entries of a page (the last may hold fewer).
    page_entries: u64,
    /// Blocks per page ([`page_blocks`]).
    page_blocks: u64,
    blocks: u64,
    /// Pages a thread keeps.
    per_thread: usize,
    threads: ThreadLocal<RefCell<ThreadPages>>,
}

/// What a [`Pages`] did: lookups, and how many of them decoded a page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageStats {
    pub lookups: u64,
    pub decoded: u64,
}

#[derive(Debug, Default)]
struct ThreadPages {
    /// Page number -> its entries and when it was last read (in lookups of this thread).
    pages: HashMap<u64, (Vec<u8>, u64), BuildHasherDefault<PageHasher>>,
    stats: PageStats,
}

/// A page number's hash: the number times an odd constant (the map's keys are small
/// integers, where SipHash's resistance to chosen keys buys nothing).
#[derive(Debug, Default)]
struct PageHasher(u64);

impl Hasher for PageHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl Pages {
    /// Pages of `file`'s blocks within `budget` bytes shared by `threads` threads (each keeps
    /// at least one page); `None` for a plain file, whose entries need no decoding.
    pub fn new(file: &Tablebase, budget: u64, threads: usize) -> Option<Pages> {
        let (block_entries, blocks) = file.block_entries()?;
        let width = file.header().entry_width as usize;
        let page_blocks = page_blocks(block_entries);
        let page_entries = block_entries * page_blocks;
        let page_bytes = page_entries * width as u64;
        let per_thread = (budget / page_bytes / threads.max(1) as u64).max(1) as usize;
        let entries = file.header().entries;
        Some(Pages {
            width,
            entries,
            page_entries,
            page_blocks,
            blocks,
            per_thread,
            threads: ThreadLocal::new(),
        })
    }

    /// The pages read from `file`, the file they were made for.
    ///
    /// # Panics
    /// Where `file` has other entries or blocks than the file the pages were made for.
    pub fn of<'a>(&'a self, file: &'a Tablebase) -> Paged<'a> {
        let (block_entries, blocks) = file.block_entries().expect("a compressed file");
        assert_eq!(
            (file.header().entries, block_entries * page_blocks(block_entries), blocks),
            (self.entries, self.page_entries, self.blocks),
            "pages of another file"
        );
        Paged { pages: self, file }
    }

    /// The lookups so far, and how many decoded a page, over every thread.
    pub fn stats(&mut self) -> PageStats {
        self.threads.iter_mut().fold(PageStats::default(), |sum, t| {
            let s = t.get_mut().stats;
            PageStats { lookups: sum.lookups + s.lookups, decoded: sum.decoded + s.decoded }
        })
    }

    /// The most bytes of decoded pages the threads hold together: each thread's share of the
    /// budget, a whole number of pages.
    pub fn bound(&self, threads: usize) -> u64 {
        self.per_thread as u64 * self.page_entries * self.width as u64 * threads as u64
    }
}

/// A file's entries read through its [`Pages`].
#[derive(Debug, Clone, Copy)]
pub struct Paged<'a> {
    pages: &'a Pages,
    file: &'a Tablebase,
}

impl ReadEntries for Paged<'_> {
    fn entry(&self, index: u64) -> Result<Option<u16>, TablebaseError> {
        let (file, pages) = (self.file, self.pages);
        if index >= pages.entries {
            return Ok(None);
        }
        let (page, within) = (index / pages.page_entries, (index % pages.page_entries) as usize);
        let mut t = pages.threads.get_or_default().borrow_mut();
        let t = &mut *t;
        t.stats.lookups += 1;
        let now = t.stats.lookups;
        if !t.pages.contains_key(&page) {
            // The least recently read page makes room: its memory is reused for this one.
            let mut bytes = if t.pages.len() >= pages.per_thread {
                let oldest = *t.pages.iter().min_by_key(|(_, (_, read))| *read).expect("a page").0;
                t.pages.remove(&oldest).expect("a page").0
            } else {
                Vec::new()
            };
            let first = page * pages.page_blocks;
            let blocks = first..(first + pages.page_blocks).min(pages.blocks);
            if let Some(Err(e)) = file.decode_blocks(blocks, &mut bytes) {
                return Err(e);
            }
            t.stats.decoded += 1;
            t.pages.insert(page, (bytes, now));
        }
        let (bytes, read) = t.pages.get_mut(&page).expect("the page was just decoded");
        *read = now;
        let at = within * pages.width;
        Ok(Some(match pages.width {
            1 => u16::from(bytes[at]),
            _ => u16::from_le_bytes([bytes[at], bytes[at + 1]]),
        }))
    }
}
