//! Tables in files (the `files` feature): [`Tablebase::open`], which reads a file with
//! positioned reads through [`ReadAt`], never through a memory map. The static site's
//! WebAssembly module is built without it: it has no files, and reads its tables from bytes it
//! fetches ([`Tablebase::from_reader`]).
//!
//! Not a memory map: a mapped file that another process truncates makes the next read of a page
//! past its new end kill the reader with `SIGBUS`, and no check can tell before. A positioned
//! read past the end is an error ([`TablebaseError::Read`]), which the reader reports.

use std::fs::File;
use std::io;
use std::path::Path;

use crate::{Expected, ReadAt, Tablebase, TablebaseError};

impl Tablebase {
    /// Opens and validates the file at `path`, with the checks of
    /// [`Tablebase::from_bytes`]: the header checks of [`Header::decode`](crate::Header::decode),
    /// then the exact file length (header plus the payload length the header states, nothing
    /// more), then the payload's checksum. The file is read with positioned reads, never
    /// memory-mapped, and what is kept in memory depends on the layout:
    ///
    /// * [`Layout::Plain`](crate::Layout::Plain): the whole file is read here and kept, its
    ///   payload checked against its CRC-32: every entry is then a read from memory
    ///   ([`Tablebase::payload`]), and nothing that happens to the file later changes an
    ///   answer. A plain table takes its whole size in memory.
    /// * compressed blocks (layouts 2 and 3): the block index and the histogram are read here,
    ///   checked against their CRC-32, then the histogram's counts and every block's bounds,
    ///   and kept (12 bytes a block, 10 a histogram record). A block's stored bytes are read
    ///   from the file when an entry in it is read and not in this thread's cache, and checked
    ///   against the block's CRC-32 before they are decoded.
    ///
    /// The file's handle is kept open: a table written over the same path later
    /// ([`write`](fn@crate::write) renames a new file over it) leaves this one reading the file
    /// it opened. A file truncated or rewritten in place after it was opened is an error when a
    /// block is read past its new end ([`TablebaseError::Read`]), a block rewritten in place a
    /// checksum error, never a value.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::Io`] if the file cannot be opened or read, and the first failed
    /// check, as the matching [`TablebaseError`] variant. An empty file is reported as
    /// [`TablebaseError::Truncated`].
    pub fn open(path: &Path) -> Result<Self, TablebaseError> {
        let io_error = |source: io::Error| TablebaseError::Io { path: path.to_path_buf(), source };
        let file = File::open(path).map_err(io_error)?;
        let len = file.metadata().map_err(io_error)?.len();
        let source = TableFile::new(file, len);
        Self::from_source(Box::new(source), path.to_path_buf(), true)
    }

    /// Opens the file at `path` like [`Tablebase::open`] and checks that it
    /// is the expected table with [`Tablebase::check_expected`].
    ///
    /// # Errors
    ///
    /// Any error of [`Tablebase::open`] or [`Tablebase::check_expected`].
    pub fn open_expecting(path: &Path, expected: &Expected<'_>) -> Result<Self, TablebaseError> {
        let table = Self::open(path)?;
        table.check_expected(expected)?;
        Ok(table)
    }
}

/// An open table file and its length when it was opened, read with positioned reads: any
/// number of threads read it at once, none moves a cursor another one reads from.
#[derive(Debug)]
struct TableFile {
    file: File,
    len: u64,
    /// Where the platform has no positioned read, a read seeks then reads, one at a time.
    #[cfg(not(any(unix, windows)))]
    lock: std::sync::Mutex<()>,
}

impl TableFile {
    fn new(file: File, len: u64) -> TableFile {
        TableFile {
            file,
            len,
            #[cfg(not(any(unix, windows)))]
            lock: std::sync::Mutex::new(()),
        }
    }

    /// The error of a read past the file's end: it has shrunk since it was opened.
    fn shrunk(&self) -> io::Error {
        let message = match self.file.metadata() {
            Ok(now) => format!("the file has {} bytes now, {} when it was opened", now.len(), self.len),
            Err(_) => format!("the file is shorter than the {} bytes it had when it was opened", self.len),
        };
        io::Error::new(io::ErrorKind::UnexpectedEof, message)
    }

    /// Fills `buf` from `offset`: `pread` until it is full.
    #[cfg(unix)]
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, offset)
    }

    /// Fills `buf` from `offset`: `ReadFile` at an offset until it is full (it moves the file's
    /// cursor, which no read here uses).
    #[cfg(windows)]
    fn read_exact_at(&self, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
        use std::os::windows::fs::FileExt;
        while !buf.is_empty() {
            match self.file.seek_read(buf, offset) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    buf = &mut buf[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Fills `buf` from `offset`: a seek and a read, under a lock.
    #[cfg(not(any(unix, windows)))]
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        use std::io::{Read, Seek, SeekFrom};
        let _one_at_a_time = self.lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut file = &self.file;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(buf)
    }
}

impl ReadAt for TableFile {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.read_exact_at(buf, offset).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                self.shrunk()
            } else {
                e
            }
        })
    }
}
