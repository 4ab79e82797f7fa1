//! Validating reader: [`validate_bytes`] for any buffer, [`Tablebase`] for a
//! memory-mapped file or an owned buffer.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::{Expected, Header, TablebaseError, HEADER_SIZE};

/// Validates a complete tablebase file held in memory and returns its header.
///
/// Performs every check [`Tablebase::open`] performs: the header checks of
/// [`Header::decode`], then the exact file length (header plus
/// `entries × entry_width` bytes, nothing more), then the payload CRC-32.
///
/// # Errors
///
/// The first failed check, as the matching [`TablebaseError`] variant. Never
/// panics, whatever the input.
pub fn validate_bytes(bytes: &[u8]) -> Result<Header, TablebaseError> {
    let (header, payload_crc) = Header::decode(bytes)?;

    let len = bytes.len() as u64;
    // An entry count so large that the length overflows can never be
    // satisfied; report it as truncation against the largest length.
    let expected =
        header.payload_len().and_then(|payload| payload.checked_add(HEADER_SIZE as u64)).unwrap_or(u64::MAX);
    if len < expected {
        return Err(TablebaseError::Truncated { len, expected });
    }
    if len > expected {
        return Err(TablebaseError::TrailingBytes { len, expected });
    }

    let actual = crc32fast::hash(payload_of(bytes));
    if actual != payload_crc {
        return Err(TablebaseError::PayloadChecksum { expected: payload_crc, actual });
    }
    Ok(header)
}

/// The bytes after the header (empty if there are none).
fn payload_of(bytes: &[u8]) -> &[u8] {
    bytes.get(HEADER_SIZE..).unwrap_or_default()
}

/// The bytes of a validated table: memory-mapped from a file, or handed
/// over by the caller.
#[derive(Debug)]
enum Bytes {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Bytes {
    fn all(&self) -> &[u8] {
        match self {
            Self::Mapped(map) => map,
            Self::Owned(bytes) => bytes,
        }
    }
}

/// An open, validated tablebase: memory-mapped from a file
/// ([`Tablebase::open`]) or held in memory ([`Tablebase::from_bytes`], for
/// a server or WebAssembly that has the bytes but no file).
///
/// Construction validates the whole table (see [`validate_bytes`]), so
/// [`Tablebase::payload`] is always exactly `entries × entry_width` bytes
/// whose checksum matched. Whether the table is the one the caller wants is
/// a separate question: use [`Tablebase::open_expecting`] or
/// [`Tablebase::check_expected`] before trusting any entry.
#[derive(Debug)]
pub struct Tablebase {
    path: Option<PathBuf>,
    header: Header,
    bytes: Bytes,
}

impl Tablebase {
    /// Opens, memory-maps and validates the file at `path`.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::Io`] if the file cannot be opened or mapped, and
    /// any error of [`validate_bytes`]. An empty file is reported as
    /// [`TablebaseError::Truncated`] (it is not mapped: empty mappings fail
    /// on some platforms).
    pub fn open(path: &Path) -> Result<Self, TablebaseError> {
        let io_error = |source: io::Error| TablebaseError::Io { path: path.to_path_buf(), source };
        let file = File::open(path).map_err(io_error)?;
        let len = file.metadata().map_err(io_error)?.len();
        if len == 0 {
            return Err(TablebaseError::Truncated { len, expected: HEADER_SIZE as u64 });
        }
        let map = map_read_only(&file).map_err(io_error)?;
        Self::validated(Bytes::Mapped(map), Some(path.to_path_buf()))
    }

    /// Validates a complete tablebase file held in memory and keeps it.
    ///
    /// # Errors
    ///
    /// Any error of [`validate_bytes`].
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, TablebaseError> {
        Self::validated(Bytes::Owned(bytes), None)
    }

    /// The one constructor behind both sources, so that they are validated
    /// by the same code.
    fn validated(bytes: Bytes, path: Option<PathBuf>) -> Result<Self, TablebaseError> {
        let header = validate_bytes(bytes.all())?;
        Ok(Self { path, header, bytes })
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

    /// Checks that this table is for the expected game, rules, index
    /// layout, entry encoding and size (see [`Header::check_expected`]).
    ///
    /// # Errors
    ///
    /// [`TablebaseError::WrongGame`], [`TablebaseError::WrongRules`],
    /// [`TablebaseError::WrongLayout`], [`TablebaseError::WrongEncoding`] or
    /// [`TablebaseError::WrongSize`].
    pub fn check_expected(&self, expected: &Expected<'_>) -> Result<(), TablebaseError> {
        self.header.check_expected(expected)
    }

    /// The validated header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The entry array: exactly `entries × entry_width` bytes.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        payload_of(self.bytes.all())
    }

    /// The path the table was opened from (`None` for
    /// [`Tablebase::from_bytes`]).
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}
/// Maps the whole of `file` read-only.
#[allow(unsafe_code)]
fn map_read_only(file: &File) -> io::Result<Mmap> {
    // Safety: `Mmap::map` is unsafe because the mapped bytes alias the file,
    // and the returned slice would change (or, if the file were truncated,
    // fault) should another process modify the file in place while it is
    // mapped. Tablebase files are never modified in place: `write` builds a
    // new file and renames it over the old path, which leaves an existing
    // mapping on the old, unchanged file. The mapping is read-only, and its
    // contents are fully validated (length and both CRCs) before use.
    unsafe { Mmap::map(file) }
}
