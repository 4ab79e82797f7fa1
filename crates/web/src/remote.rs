//! A table file the page fetches: [`Remote`], the bytes fetched so far, in pages, and the pages
//! a read wanted and did not find.

use std::collections::{BTreeSet, HashMap};
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use nana_tablebase::ReadAt;
use serde::Serialize;

/// Bytes of a page of a table read a range at a time: what one read that misses asks for at
/// least (an index record's page, or a block's one or two).
pub const PAGE: u64 = 256;

/// A range of a table's file to fetch: bytes `start` to `end` (exclusive).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Range {
    pub file: String,
    pub start: u64,
    pub end: u64,
}

/// A table's file as far as it has been fetched. A small table is fetched whole (one page of
/// its length); a large one by [`PAGE`]s.
#[derive(Debug)]
pub struct Remote {
    file: String,
    len: u64,
    page: u64,
    pages: Mutex<HashMap<u64, Vec<u8>>>,
    missing: Mutex<BTreeSet<u64>>,
}

impl Remote {
    /// The file `file` of `len` bytes, fetched whole when `whole`.
    pub fn new(file: String, len: u64, whole: bool) -> Remote {
        let page = if whole { len.max(1) } else { PAGE };
        Remote { file, len, page, pages: Mutex::default(), missing: Mutex::default() }
    }

    pub fn file(&self) -> &str {
        &self.file
    }

    /// Whether the file is fetched whole.
    pub fn whole(&self) -> bool {
        self.page >= self.len
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The ranges the reads since the last call wanted and did not find, adjacent pages
    /// merged; forgets them.
    pub fn take_missing(&self) -> Vec<Range> {
        let pages = std::mem::take(&mut *self.missing.lock().unwrap_or_else(PoisonError::into_inner));
        let mut out: Vec<Range> = Vec::new();
        for p in pages {
            let (start, end) = (p * self.page, ((p + 1) * self.page).min(self.len));
            match out.last_mut() {
                Some(last) if last.end == start => last.end = end,
                _ => out.push(Range { file: self.file.clone(), start, end }),
            }
        }
        out
    }

    /// Keeps the fetched bytes `data` from `offset`: every whole page they hold (a page is
    /// whole at the file's end too).
    ///
    /// # Errors
    /// Where `offset` is not at a page's start or the bytes run past the file's end.
    pub fn supply(&self, offset: u64, data: &[u8]) -> Result<(), String> {
        if !offset.is_multiple_of(self.page) || offset.saturating_add(data.len() as u64) > self.len {
            return Err(format!(
                "{}: bytes {offset}..{} are not pages of the file ({} bytes)",
                self.file,
                offset.saturating_add(data.len() as u64),
                self.len
            ));
        }
        let mut pages = self.pages.lock().unwrap_or_else(PoisonError::into_inner);
        for (i, chunk) in data.chunks(self.page as usize).enumerate() {
            let p = offset / self.page + i as u64;
            let full = (self.len - p * self.page).min(self.page);
            if chunk.len() as u64 == full {
                pages.insert(p, chunk.to_vec());
            }
        }
        Ok(())
    }
}

impl ReadAt for Remote {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let end = offset
            .checked_add(buf.len() as u64)
            .filter(|&end| end <= self.len)
            .ok_or_else(|| io::Error::new(io::ErrorKind::UnexpectedEof, "read past the end of the table"))?;
        if buf.is_empty() {
            return Ok(());
        }
        let pages = self.pages.lock().unwrap_or_else(PoisonError::into_inner);
        let mut missing = Vec::new();
        for p in offset / self.page..=(end - 1) / self.page {
            let Some(page) = pages.get(&p) else {
                missing.push(p);
                continue;
            };
            let from = offset.max(p * self.page);
            let to = end.min((p + 1) * self.page);
            let (at, within) = ((from - offset) as usize, (from - p * self.page) as usize);
            buf[at..at + (to - from) as usize].copy_from_slice(&page[within..within + (to - from) as usize]);
        }
        if missing.is_empty() {
            return Ok(());
        }
        self.missing.lock().unwrap_or_else(PoisonError::into_inner).extend(missing);
        Err(io::Error::other(format!("bytes {offset}..{end} of {} are not fetched yet", self.file)))
    }
}

/// A [`Remote`] shared between the table reading it and the site that fetches for it.
#[derive(Debug, Clone)]
pub struct Shared(pub Arc<Remote>);

impl ReadAt for Shared {
    fn len(&self) -> u64 {
        self.0.len
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.0.read_at(buf, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_finds_fetched_pages_and_names_the_missing_ones() {
        let bytes: Vec<u8> = (0..3000u32).map(|i| (i % 251) as u8).collect();
        let remote = Remote::new("t.tb".into(), 3000, false);
        let mut buf = [0u8; 100];
        assert!(remote.read_at(&mut buf, 1000).is_err());
        assert_eq!(remote.take_missing(), vec![Range { file: "t.tb".into(), start: 768, end: 1280 }]);
        assert!(remote.take_missing().is_empty());
        remote.supply(0, &bytes[..2048]).unwrap();
        remote.read_at(&mut buf, 1000).unwrap();
        assert_eq!(&buf[..], &bytes[1000..1100]);
        // The last page is short.
        assert!(remote.read_at(&mut buf, 2900).is_err());
        assert_eq!(remote.take_missing(), vec![Range { file: "t.tb".into(), start: 2816, end: 3000 }]);
        remote.supply(2816, &bytes[2816..]).unwrap();
        remote.read_at(&mut buf, 2900).unwrap();
        assert_eq!(&buf[..], &bytes[2900..]);
        assert!(remote.read_at(&mut buf, 2901).is_err());
        assert!(remote.supply(100, &bytes[..10]).is_err());
        assert!(remote.supply(2816, &bytes[..2000]).is_err());
    }
}
