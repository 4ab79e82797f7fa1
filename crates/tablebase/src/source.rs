//! Where a table's bytes come from: [`ReadAt`], the one small trait every
//! reader of a table goes through when it does not hold the file's bytes as
//! one slice (shakmaty-syzygy's `RandomAccessFile` is the model).
//!
//! A table file ([`Tablebase::open`](crate::Tablebase::open), with positioned reads) and
//! any other source (a web page that fetches byte ranges over HTTP, through
//! [`Tablebase::from_reader`](crate::Tablebase::from_reader)) implement it, and a compressed
//! table is read from it a range at a time: the header and the histogram when it is opened
//! (a file's whole block index too), then, for each entry read whose block is not cached, the
//! block's bytes (and a reader's the block's index records). Bytes in memory implement it too;
//! [`Tablebase::from_bytes`](crate::Tablebase::from_bytes) reads them as the slice they are.

use std::fmt;
use std::io;

/// Random access to the bytes of a table file.
pub trait ReadAt: Send + Sync + fmt::Debug {
    /// The file's length in bytes.
    fn len(&self) -> u64;

    /// Whether the file is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fills `buf` with the file's bytes from `offset`.
    ///
    /// # Errors
    ///
    /// Where the bytes cannot be read: past the end
    /// ([`io::ErrorKind::UnexpectedEof`]), or whatever the source meets (a
    /// source that fetches its bytes says here which it does not have yet).
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
}

/// Reads `buf.len()` bytes of `bytes` from `offset`.
pub(crate) fn read_slice(bytes: &[u8], buf: &mut [u8], offset: u64) -> io::Result<()> {
    let eof = || io::Error::new(io::ErrorKind::UnexpectedEof, "read past the end of the table");
    let start = usize::try_from(offset).map_err(|_| eof())?;
    let end = start.checked_add(buf.len()).ok_or_else(eof)?;
    buf.copy_from_slice(bytes.get(start..end).ok_or_else(eof)?);
    Ok(())
}

impl ReadAt for Vec<u8> {
    fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        read_slice(self, buf, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_in_memory_read_in_bounds_only() {
        let bytes = vec![1u8, 2, 3, 4];
        let mut buf = [0u8; 2];
        bytes.read_at(&mut buf, 2).unwrap();
        assert_eq!(buf, [3, 4]);
        assert_eq!(bytes.read_at(&mut buf, 3).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(bytes.read_at(&mut buf, u64::MAX).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(ReadAt::len(&bytes), 4);
    }

    /// A table of 3 blocks and a short one, with values that do not repeat much.
    fn table_bytes() -> (Vec<u8>, Vec<u8>) {
        use crate::{Counts, Encoding, Header};
        let entries: Vec<u8> = (0..3 * 4096 + 100u32).map(|i| ((i * 7919) % 251) as u8).collect();
        let header = Header {
            game: "demo".to_owned(),
            rule_set: "standard".to_owned(),
            rule_set_id: 0,
            options: String::new(),
            option_bits: 0,
            layout_version: 1,
            entries: entries.len() as u64,
            entry_width: 1,
            encoding: Encoding::DtmPlies,
            counts: Counts { wins: 0, losses: 0, draws: entries.len() as u64, illegal: 0 },
            max_dtm: 0,
            dont_care: false,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.tb");
        crate::write(&path, &header, &entries).unwrap();
        (std::fs::read(&path).unwrap(), entries)
    }

    #[test]
    fn a_table_read_a_range_at_a_time_reads_as_in_memory() {
        let (bytes, entries) = table_bytes();
        let in_memory = crate::Tablebase::from_bytes(bytes.clone()).unwrap();
        let read = crate::Tablebase::from_reader(Box::new(bytes), "demo.tb").unwrap();
        assert_eq!(read.header(), in_memory.header());
        assert_eq!(read.histogram(), in_memory.histogram());
        for i in (0..entries.len() as u64).step_by(97).chain([entries.len() as u64 - 1]) {
            assert_eq!(read.entry(i).unwrap(), Some(u16::from(entries[i as usize])), "entry {i}");
        }
        assert_eq!(read.entry(entries.len() as u64).unwrap(), None);
        assert_eq!(&read.entries().unwrap()[..], &entries[..]);
        read.check_blocks().unwrap();
    }

    #[test]
    fn a_damaged_block_read_a_range_at_a_time_is_named() {
        let (mut bytes, _) = table_bytes();
        // The first byte of block 1's stored bytes: after the header, the 4 records and block 0.
        let header = crate::HEADER_SIZE;
        let end0 = u64::from_le_bytes(bytes[header..header + 8].try_into().unwrap()) as usize;
        bytes[header + 4 * 12 + end0] ^= 0x55;
        let read = crate::Tablebase::from_reader(Box::new(bytes), "demo.tb").unwrap();
        assert!(read.entry(0).unwrap().is_some());
        let error = read.entry(4096).unwrap_err();
        assert!(matches!(error, crate::TablebaseError::BlockChecksum { block: 1, .. }), "{error}");
        assert!(read.check_blocks().is_err());
    }

    /// A source that has no bytes to give: its error is the read's.
    #[derive(Debug)]
    struct Offline(u64);

    impl ReadAt for Offline {
        fn len(&self) -> u64 {
            self.0
        }
        fn read_at(&self, _: &mut [u8], _: u64) -> io::Result<()> {
            Err(io::Error::other("not fetched yet"))
        }
    }

    #[test]
    fn a_failed_read_is_an_io_error_naming_the_table() {
        let error = crate::Tablebase::from_reader(Box::new(Offline(1000)), "demo.tb").unwrap_err();
        assert_eq!(error.to_string(), "I/O error on demo.tb: not fetched yet");
    }
}
