//! Atomic writer.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::blocks::{self, Codec, Shape};
use crate::{Header, Layout, Storage, TablebaseError, HEADER_SIZE};

/// Distinguishes temporary files of concurrent writes within one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes a tablebase file atomically, its entries in the default layout
/// ([`Layout::DEFAULT`], compressed blocks): [`write_with`].
///
/// # Errors
///
/// Those of [`write_with`].
pub fn write(path: &Path, header: &Header, entries: &[u8]) -> Result<(), TablebaseError> {
    write_with(path, header, entries, Layout::DEFAULT)
}

/// Writes a tablebase file atomically, its entry array `entries` stored in
/// `layout`.
///
/// The payload is made from the entries alone, one block after another, so
/// the file's bytes depend on nothing but the header, the entries and the
/// layout. Where the header says that unused entries are don't-care
/// ([`Header::dont_care`]), each block's unused entries are stored filled
/// with the value of the used entry before them in the block (see
/// `docs/FORMAT.md`); the payload's histogram counts the entries as given. Where the header's
/// encoding stores every win as one value ([`Encoding::folds_wins`](crate::Encoding::folds_wins)),
/// `entries` are [`DtmPlies`](crate::Encoding::DtmPlies) values, wins with their distances, and
/// each win is stored as [`WIN_AS_ONE`](crate::WIN_AS_ONE) (the histogram keeps the distances).
/// The header (with the payload's length and checksums filled in) and the payload are written
/// to a temporary file `<name>.tmp-<pid>-<n>` in the target's directory,
/// flushed to disk, and renamed over `path`; the directory is then synced
/// (on Unix). Readers therefore see either the old file or the complete new
/// one, never a partial file. The parent directory is created if missing.
/// On error the temporary file is removed and `path` is left as it was.
///
/// A writer killed before it could clean up (`SIGKILL`, a power cut) leaves
/// its temporary file behind. Before writing, the temporary files of this
/// file name whose process is no longer running are removed; those of
/// running processes, including other writes of this one, are left alone.
///
/// # Errors
///
/// * [`TablebaseError::FieldTooLong`], [`TablebaseError::InvalidText`] or
///   [`TablebaseError::BadEntryWidth`] if the header cannot be encoded;
/// * [`TablebaseError::BadLayout`] if a block of `layout` would be empty or
///   larger than [`MAX_BLOCK_BYTES`](crate::MAX_BLOCK_BYTES), or if the
///   header says that unused entries are don't-care for a plain layout;
/// * [`TablebaseError::PayloadLength`] if `entries.len()` is not
///   `header.entries × header.entry_width`;
/// * [`TablebaseError::Io`] if any file-system operation fails.
///
/// All but the last are detected before anything is created on disk.
pub fn write_with(
    path: &Path,
    header: &Header,
    entries: &[u8],
    layout: Layout,
) -> Result<(), TablebaseError> {
    header.check_fields()?;
    let len = entries.len() as u64;
    let expected = header.payload_len();
    if expected != Some(len) {
        return Err(TablebaseError::PayloadLength { len, expected: expected.unwrap_or(u64::MAX) });
    }
    match layout {
        Layout::Plain if header.dont_care => {
            Err(TablebaseError::BadLayout("a plain payload cannot have don't-care entries"))
        }
        Layout::Plain => {
            let folded;
            let entries = if header.encoding.folds_wins() {
                let mut copy = entries.to_vec();
                blocks::fold_wins(&mut copy, header.entry_width as usize);
                folded = copy;
                &folded[..]
            } else {
                entries
            };
            let crc = crc32fast::hash(entries);
            let storage = Storage {
                layout,
                payload_len: len,
                payload_crc: crc,
                entries_crc: crc,
                histogram_records: 0,
            };
            write_parts(path, &header.encode_with(&storage)?, &[entries])
        }
        Layout::Lz4Blocks { .. } | Layout::ZstdBlocks { .. } => {
            let copy = |first: u64, out: &mut [u8]| {
                let start = first as usize;
                out.copy_from_slice(&entries[start..start + out.len()]);
            };
            write_from(path, header, layout, &copy)
        }
    }
}

/// Writes a tablebase file atomically as [`write_with`] does, its entry array produced a piece
/// at a time by `fill`: `fill(first, out)` writes the array's bytes from byte `first` on into
/// `out` (a whole number of entries). In compressed blocks, no more of the array than a block
/// per thread is held at once; a plain payload is assembled whole.
///
/// # Errors
///
/// Those of [`write_with`], but for the payload's length, which `fill` cannot get wrong.
pub fn write_from(
    path: &Path,
    header: &Header,
    layout: Layout,
    fill: &(dyn Fn(u64, &mut [u8]) + Sync),
) -> Result<(), TablebaseError> {
    header.check_fields()?;
    let total =
        header.payload_len().ok_or(TablebaseError::BadLayout("the entry array's length overflows"))?;
    match Codec::of(layout) {
        None => {
            let len = usize::try_from(total)
                .map_err(|_| TablebaseError::PayloadLength { len: total, expected: total })?;
            let mut entries = vec![0u8; len];
            fill(0, &mut entries);
            write_with(path, header, &entries, layout)
        }
        Some((codec, block_entries)) => {
            let shape = Shape::new(header.entries, header.entry_width, block_entries, codec)?;
            let block_of = |k: u64, out: &mut [u8]| fill(k * shape.block_bytes, out);
            // Nothing but the fields, checked above, can make the header fail to encode.
            let index_len =
                shape.index_len().ok_or(TablebaseError::BadLayout("the block index's length overflows"))?;
            write_atomically(path, |file| {
                // The blocks go to the file as they are compressed, after room for the header
                // and the index, which are written last, once known.
                file.seek(SeekFrom::Start(HEADER_SIZE as u64 + index_len))?;
                let mut out = io::BufWriter::with_capacity(1 << 20, &mut *file);
                let fold = header.encoding.folds_wins();
                let c = blocks::compress_blocks(&shape, header.dont_care, fold, &block_of, &mut |group| {
                    out.write_all(group)
                })?;
                out.write_all(&c.histogram)?;
                out.flush()?;
                drop(out);
                // The header's payload checksum is of the index and the histogram (every block
                // has its own checksum in the index). The entries' checksum is of the entries as
                // stored: don't-care entries as filled.
                let mut payload_crc = crc32fast::Hasher::new();
                payload_crc.update(&c.index);
                payload_crc.update(&c.histogram);
                let storage = Storage {
                    layout,
                    payload_len: c.payload_len(),
                    payload_crc: payload_crc.finalize(),
                    entries_crc: c.stored_crc,
                    histogram_records: c.histogram_records,
                };
                let header_bytes = header.encode_with(&storage).map_err(io::Error::other)?;
                file.seek(SeekFrom::Start(0))?;
                file.write_all(&header_bytes)?;
                file.write_all(&c.index)
            })
        }
    }
}

/// Writes a header and its payload, given in parts, atomically to `path`.
fn write_parts(path: &Path, header_bytes: &[u8], payload: &[&[u8]]) -> Result<(), TablebaseError> {
    write_atomically(path, |file| {
        file.write_all(header_bytes)?;
        payload.iter().try_for_each(|part| file.write_all(part))
    })
}

/// Writes a file atomically to `path`: `write` writes a temporary file in the same directory,
/// which is flushed to disk, closed and renamed over `path`. On error the temporary file is
/// removed and `path` is left as it was.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), TablebaseError> {
    let file_name = path.file_name().ok_or_else(|| TablebaseError::Io {
        path: path.to_path_buf(),
        source: io::Error::new(io::ErrorKind::InvalidInput, "the path has no file name"),
    })?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(|source| TablebaseError::Io { path: dir.to_path_buf(), source })?;
    remove_stale_temp_files(dir, file_name);

    let mut temp_name = OsString::from(file_name);
    temp_name.push(format!(".tmp-{}-{}", process::id(), TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)));
    let temp_path = dir.join(temp_name);
    let temp_error = |source: io::Error| TablebaseError::Io { path: temp_path.clone(), source };

    // `create_new` never clobbers an existing file; the guard is set up only
    // once the file is ours, so it never removes someone else's file.
    let mut file = OpenOptions::new().write(true).create_new(true).open(&temp_path).map_err(temp_error)?;
    let guard = RemoveOnDrop(Some(temp_path.clone()));
    write(&mut file).and_then(|()| file.sync_all()).map_err(temp_error)?;
    // Closed before the rename: the rename renames a closed file.
    drop(file);

    fs::rename(&temp_path, path).map_err(|source| TablebaseError::Io { path: path.to_path_buf(), source })?;
    guard.disarm();

    sync_dir(dir).map_err(|source| TablebaseError::Io { path: dir.to_path_buf(), source })
}

/// Removes, as far as it can, the temporary files `<file_name>.tmp-<pid>-<n>`
/// in `dir` that a process no longer running left behind: a writer killed
/// before it could remove its own. Where this system cannot tell whether a
/// process runs (no `/proc`), nothing is removed. Best effort: a file that
/// cannot be listed or removed is left, and the write goes on.
fn remove_stale_temp_files(dir: &Path, file_name: &OsStr) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let Some(prefix) = file_name.to_str().map(|name| format!("{name}.tmp-")) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(&prefix)).and_then(temp_pid) else {
            continue;
        };
        if process_running(pid) == Some(false) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The process id of a temporary name's tail `<pid>-<n>`, both decimal.
fn temp_pid(tail: &str) -> Option<u32> {
    let (pid, n) = tail.split_once('-')?;
    let decimal = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if decimal(pid) && decimal(n) {
        pid.parse().ok()
    } else {
        None
    }
}

/// Whether the process `pid` is running, where the system says (Linux's
/// `/proc`); `None` where it cannot tell.
fn process_running(pid: u32) -> Option<bool> {
    let proc = Path::new("/proc");
    if pid == process::id() {
        Some(true)
    } else if proc.join("self").exists() {
        Some(proc.join(pid.to_string()).exists())
    } else {
        None
    }
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
    File::open(dir)?.sync_all()
}

/// Directories cannot be opened and synced portably outside Unix; the rename
/// itself is still atomic.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}
