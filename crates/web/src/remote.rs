//! A table file the page fetches: [`Remote`], the byte ranges fetched so far, and the ranges
//! reads wanted and did not find.

use std::collections::BTreeMap;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use nana_tablebase::ReadAt;
use serde::Serialize;

use crate::WebError;

/// Wanted ranges this close (in bytes) are fetched as one: a request saved is worth more than
/// the bytes between them (the index records of nearby blocks, nearby blocks).
pub const MERGE_GAP: u64 = 256;

/// A range of a table's file to fetch: bytes `start` to `end` (exclusive).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Range {
    pub file: String,
    pub start: u64,
    pub end: u64,
}

/// A table's file as far as it has been fetched. A small table is fetched whole (one range of
/// its length); a large one by the ranges its reads want: exactly the bytes of an index record
/// or of a block, nearby ranges merged ([`MERGE_GAP`]).
#[derive(Debug)]
pub struct Remote {
    file: String,
    len: u64,
    whole: bool,
    /// The bytes fetched, by their start: disjoint ranges, none adjacent to another.
    fetched: Mutex<BTreeMap<u64, Vec<u8>>>,
    /// The ranges reads wanted since the last [`Remote::take_missing`]: (start, end).
    missing: Mutex<Vec<(u64, u64)>>,
}

impl Remote {
    /// The file `file` of `len` bytes, fetched whole when `whole`.
    pub fn new(file: String, len: u64, whole: bool) -> Remote {
        Remote { file, len, whole, fetched: Mutex::default(), missing: Mutex::default() }
    }

    pub fn file(&self) -> &str {
        &self.file
    }

    /// Whether the file is fetched whole.
    pub fn whole(&self) -> bool {
        self.whole
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether bytes `start..end` have been fetched.
    pub fn has(&self, start: u64, end: u64) -> bool {
        let fetched = self.fetched.lock().unwrap_or_else(PoisonError::into_inner);
        covering(&fetched, start, end).is_some()
    }

    /// Asks for bytes `start..end` (cut at the file's end) with the next ranges wanted, unless
    /// they are fetched already: bytes a read will want once it knows it wants them.
    pub fn want(&self, start: u64, end: u64) {
        let end = end.min(self.len);
        if start < end && !self.has(start, end) {
            self.missing.lock().unwrap_or_else(PoisonError::into_inner).push(self.span(start, end));
        }
    }

    /// Whether reads since the last [`Remote::take_missing`] wanted bytes not fetched yet.
    pub fn wanting(&self) -> bool {
        !self.missing.lock().unwrap_or_else(PoisonError::into_inner).is_empty()
    }

    /// The range to fetch for bytes `start..end`: the whole file for a file fetched whole.
    fn span(&self, start: u64, end: u64) -> (u64, u64) {
        if self.whole {
            (0, self.len)
        } else {
            (start, end)
        }
    }

    /// The ranges the reads since the last call wanted and did not find, in order, those that
    /// overlap or lie within [`MERGE_GAP`] of each other merged; forgets them.
    pub fn take_missing(&self) -> Vec<Range> {
        let mut wanted = std::mem::take(&mut *self.missing.lock().unwrap_or_else(PoisonError::into_inner));
        wanted.sort_unstable();
        let mut out: Vec<Range> = Vec::new();
        for (start, end) in wanted {
            match out.last_mut() {
                Some(last) if start <= last.end.saturating_add(MERGE_GAP) => last.end = last.end.max(end),
                _ => out.push(Range { file: self.file.clone(), start, end }),
            }
        }
        out
    }

    /// Keeps the fetched bytes `data` from `offset`, merged with the bytes fetched before that
    /// they overlap or touch.
    ///
    /// # Errors
    /// Where the bytes run past the file's end.
    pub fn supply(&self, offset: u64, data: &[u8]) -> Result<(), WebError> {
        let end = offset.saturating_add(data.len() as u64);
        if end > self.len {
            return Err(WebError::PastEnd { file: self.file.clone(), start: offset, end, len: self.len });
        }
        if data.is_empty() {
            return Ok(());
        }
        let mut fetched = self.fetched.lock().unwrap_or_else(PoisonError::into_inner);
        // Every range fetched before that overlaps or touches offset..end joins the new one.
        let joined: Vec<u64> = fetched
            .range(..=end)
            .rev()
            .take_while(|(&s, bytes)| s + bytes.len() as u64 >= offset)
            .map(|(&s, _)| s)
            .collect();
        let old: Vec<(u64, Vec<u8>)> =
            joined.iter().map(|s| (*s, fetched.remove(s).expect("a range just found"))).collect();
        let start = old.iter().map(|(s, _)| *s).fold(offset, u64::min);
        let stop = old.iter().map(|(s, b)| s + b.len() as u64).fold(end, u64::max);
        let mut bytes = vec![0u8; (stop - start) as usize];
        for (s, b) in &old {
            bytes[(s - start) as usize..][..b.len()].copy_from_slice(b);
        }
        bytes[(offset - start) as usize..][..data.len()].copy_from_slice(data);
        fetched.insert(start, bytes);
        Ok(())
    }
}

/// The fetched range that holds bytes `start..end`, as (its start, its bytes).
fn covering(fetched: &BTreeMap<u64, Vec<u8>>, start: u64, end: u64) -> Option<(u64, &[u8])> {
    let (&s, bytes) = fetched.range(..=start).next_back()?;
    (s + bytes.len() as u64 >= end).then_some((s, bytes.as_slice()))
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
        {
            let fetched = self.fetched.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some((s, bytes)) = covering(&fetched, offset, end) {
                buf.copy_from_slice(&bytes[(offset - s) as usize..(end - s) as usize]);
                return Ok(());
            }
        }
        self.missing.lock().unwrap_or_else(PoisonError::into_inner).push(self.span(offset, end));
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

    fn range(start: u64, end: u64) -> Range {
        Range { file: "t.tb".into(), start, end }
    }

    #[test]
    fn a_read_finds_fetched_bytes_and_names_the_missing_ones() {
        let bytes: Vec<u8> = (0..3000u32).map(|i| (i % 251) as u8).collect();
        let remote = Remote::new("t.tb".into(), 3000, false);
        let mut buf = [0u8; 100];
        assert!(remote.read_at(&mut buf, 1000).is_err());
        assert_eq!(remote.take_missing(), vec![range(1000, 1100)]);
        assert!(remote.take_missing().is_empty());
        remote.supply(1000, &bytes[1000..1100]).unwrap();
        remote.read_at(&mut buf, 1000).unwrap();
        assert_eq!(&buf[..], &bytes[1000..1100]);
        assert!(remote.read_at(&mut buf, 1001).is_err());
        assert_eq!(remote.take_missing(), vec![range(1001, 1101)]);
        // Overlapping and touching ranges join the ranges fetched before.
        remote.supply(1050, &bytes[1050..1200]).unwrap();
        remote.supply(900, &bytes[900..1000]).unwrap();
        remote.supply(2900, &bytes[2900..]).unwrap();
        remote.supply(1150, &bytes[1150..1300]).unwrap();
        let mut wide = [0u8; 400];
        remote.read_at(&mut wide, 900).unwrap();
        assert_eq!(&wide[..], &bytes[900..1300]);
        remote.read_at(&mut buf, 2900).unwrap();
        assert_eq!(&buf[..], &bytes[2900..]);
        // A range that covers several fetched ones.
        remote.supply(0, &bytes).unwrap();
        let mut all = vec![0u8; 3000];
        remote.read_at(&mut all, 0).unwrap();
        assert_eq!(all, bytes);
        let past = remote.supply(2990, &bytes[..20]).unwrap_err();
        assert_eq!(past.to_string(), "t.tb: bytes 2990..3010 run past the file's end (3000 bytes)");
    }

    #[test]
    fn nearby_wanted_ranges_are_fetched_as_one() {
        let remote = Remote::new("t.tb".into(), 100_000, false);
        let mut buf = [0u8; 12];
        for offset in [5000, 100, 5000 + 12 + MERGE_GAP, 90_000, 112] {
            assert!(remote.read_at(&mut buf, offset).is_err());
        }
        assert_eq!(
            remote.take_missing(),
            vec![range(100, 124), range(5000, 5024 + MERGE_GAP), range(90_000, 90_012)]
        );
        remote.want(99_990, 200_000);
        assert_eq!(remote.take_missing(), vec![range(99_990, 100_000)]);
    }

    #[test]
    fn a_file_fetched_whole_wants_all_of_it() {
        let remote = Remote::new("t.tb".into(), 3000, true);
        let mut buf = [0u8; 10];
        assert!(remote.read_at(&mut buf, 100).is_err());
        assert!(remote.read_at(&mut buf, 2000).is_err());
        assert_eq!(remote.take_missing(), vec![range(0, 3000)]);
        remote.supply(0, &[7u8; 3000]).unwrap();
        remote.read_at(&mut buf, 2990).unwrap();
        assert_eq!(buf, [7u8; 10]);
    }
}
