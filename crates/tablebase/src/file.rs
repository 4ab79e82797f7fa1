//! Tables in files (the `files` feature): [`Tablebase::open`], memory-mapped where there is a
//! memory map. The static site's WebAssembly module is built without it: it has no files, and
//! reads its tables from bytes it fetches ([`Tablebase::from_reader`]).

use std::fs::File;
use std::io;
use std::path::Path;

use crate::reader::Bytes;
use crate::{Expected, Tablebase, TablebaseError, HEADER_SIZE};

/// A file's bytes: memory-mapped where there is a memory map.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Mapped = memmap2::Mmap;

/// A file's bytes: read whole in WebAssembly, which has no memory map (where the platform has
/// files at all).
#[cfg(target_arch = "wasm32")]
pub(crate) type Mapped = Vec<u8>;

impl Tablebase {
    /// Opens, memory-maps and validates the file at `path`: the header checks
    /// of [`Header::decode`](crate::Header::decode), then the exact file length (header plus the
    /// payload length the header states, nothing more), then the payload's
    /// checksum: of the whole payload for [`Layout::Plain`](crate::Layout::Plain); for
    /// compressed blocks (layouts 2 and 3), of the block index and the histogram,
    /// then the histogram's counts and every block's bounds. A compressed table's
    /// blocks are checked against their own CRC-32 when they are read, not
    /// here: opening reads the header, the index and the histogram only.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::Io`] if the file cannot be opened or mapped, and
    /// the first failed check, as the matching [`TablebaseError`] variant.
    /// An empty file is reported as [`TablebaseError::Truncated`] (it is not
    /// mapped: empty mappings fail on some platforms).
    pub fn open(path: &Path) -> Result<Self, TablebaseError> {
        let io_error = |source: io::Error| TablebaseError::Io { path: path.to_path_buf(), source };
        let file = File::open(path).map_err(io_error)?;
        let len = file.metadata().map_err(io_error)?.len();
        if len == 0 {
            return Err(TablebaseError::Truncated { len, expected: HEADER_SIZE as u64 });
        }
        let bytes = Bytes::Mapped(map_read_only(&file, len).map_err(io_error)?);
        Self::validated(bytes, Some(path.to_path_buf()))
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

/// Maps the whole of `file` (`_len` bytes) read-only.
#[cfg(not(target_arch = "wasm32"))]
#[allow(unsafe_code)]
fn map_read_only(file: &File, _len: u64) -> io::Result<Mapped> {
    // Safety: `Mmap::map` is unsafe because the mapped bytes alias the file,
    // and the returned slice would change (or, if the file were truncated,
    // fault) should another process modify the file in place while it is
    // mapped. Tablebase files are never modified in place: `write` builds a
    // new file and renames it over the old path, which leaves an existing
    // mapping on the old, unchanged file. The mapping is read-only, and its
    // contents are validated before use: length, header and payload CRCs on
    // open, and a compressed table's blocks against their own CRC-32 each
    // time one is read; every access is bounds-checked.
    unsafe { memmap2::Mmap::map(file) }
}

/// Reads the whole of `file` (`len` bytes): no memory map in WebAssembly.
#[cfg(target_arch = "wasm32")]
fn map_read_only(file: &File, len: u64) -> io::Result<Mapped> {
    let mut all = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    io::Read::read_to_end(&mut &*file, &mut all)?;
    Ok(all)
}

#[cfg(not(target_arch = "wasm32"))]
impl crate::ReadAt for memmap2::Mmap {
    fn len(&self) -> u64 {
        (**self).len() as u64
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        crate::source::read_slice(self, buf, offset)
    }
}
