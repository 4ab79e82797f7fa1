//! Atomic writer.

use std::ffi::OsString;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::{Header, TablebaseError};

/// Distinguishes temporary files of concurrent writes within one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes a tablebase file atomically.
///
/// The header (with the payload's CRC-32 filled in) and `payload` are written
/// to a temporary file `<name>.tmp-<pid>-<n>` in the target's directory,
/// flushed to disk, and renamed over `path`; the directory is then synced
/// (on Unix). Readers therefore see either the old file or the complete new
/// one, never a partial file. The parent directory is created if missing.
/// On error the temporary file is removed and `path` is left as it was.
///
/// # Errors
///
/// * [`TablebaseError::FieldTooLong`], [`TablebaseError::InvalidText`] or
///   [`TablebaseError::BadEntryWidth`] if the header cannot be encoded;
/// * [`TablebaseError::PayloadLength`] if `payload.len()` is not
///   `header.entries × header.entry_width`;
/// * [`TablebaseError::Io`] if any file-system operation fails.
///
/// The first two are detected before anything is created on disk.
pub fn write(path: &Path, header: &Header, payload: &[u8]) -> Result<(), TablebaseError> {
    header.check_fields()?;
    let len = payload.len() as u64;
    let expected = header.payload_len();
    if expected != Some(len) {
        return Err(TablebaseError::PayloadLength { len, expected: expected.unwrap_or(u64::MAX) });
    }
    let header_bytes = header.encode(crc32fast::hash(payload))?;

    let file_name = path.file_name().ok_or_else(|| TablebaseError::Io {
        path: path.to_path_buf(),
        source: io::Error::new(io::ErrorKind::InvalidInput, "the path has no file name"),
    })?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(|source| TablebaseError::Io { path: dir.to_path_buf(), source })?;

    let mut temp_name = OsString::from(file_name);
    temp_name.push(format!(".tmp-{}-{}", process::id(), TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)));
    let temp_path = dir.join(temp_name);
    let temp_error = |source: io::Error| TablebaseError::Io { path: temp_path.clone(), source };

    // `create_new` never clobbers an existing file; the guard is set up only
    // once the file is ours, so it never removes someone else's file.
    let mut file = OpenOptions::new().write(true).create_new(true).open(&temp_path).map_err(temp_error)?;
    let guard = RemoveOnDrop(Some(temp_path.clone()));

    file.write_all(&header_bytes)
        .and_then(|()| file.write_all(payload))
        .and_then(|()| file.sync_all())
        .map_err(temp_error)?;
    drop(file);

    fs::rename(&temp_path, path).map_err(|source| TablebaseError::Io { path: path.to_path_buf(), source })?;
    guard.disarm();

    sync_dir(dir).map_err(|source| TablebaseError::Io { path: dir.to_path_buf(), source })
}

/// Removes the temporary file when dropped, unless disarmed after the rename.
#[derive(Debug)]
struct RemoveOnDrop(Option<PathBuf>);

impl RemoveOnDrop {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            // Best effort: the original error is what the caller needs.
            let _ = fs::remove_file(path);
        }
    }
}

/// Makes the rename durable by syncing the directory that holds the entry.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    fs::File::open(dir)?.sync_all()
}

/// Directories cannot be opened and synced portably outside Unix; the rename
/// itself is still atomic.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}
