//! The byte counts the module and the page's script (`nana-web.js`) both go by: which tables
//! are fetched whole, and what opening a table read by range reads, which the script fetches
//! while the module compiles. A file without dependencies: the site builder (`cargo xtask
//! site`) compiles it too and writes the numbers into the site's `tables.json`, where the
//! script reads them.

/// Tables up to this size are fetched whole (Nana's, 6 to 8 MB); larger ones by range.
pub const WHOLE_LIMIT: u64 = 16 << 20;

/// The bytes of a table's header, at its start: the tablebase crate's `HEADER_SIZE` (the module
/// checks that they agree when it is compiled).
pub const HEADER: u64 = 256;

/// The last bytes of a table read by range, asked for with its header: its histogram lies at
/// the file's end and fits in them (256 values of 10 bytes, every value of one-byte entries),
/// so that opening the table takes one round of fetching, not two.
pub const TAIL: u64 = 2560;
