//! Why the module refused what the page handed it: [`WebError`], each variant holding what
//! failed. The page gets its `Display` as the `error` of a result ([`crate::abi`]); nothing
//! else turns it into text.

use std::error::Error;
use std::fmt;
use std::str::Utf8Error;

/// Why a call of the page failed (an answer's own errors are the API's, [`nana_server::ApiError`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum WebError {
    /// A string the page handed over is not UTF-8.
    NotUtf8(Utf8Error),
    /// The list of tables is not the JSON `tables.json` holds.
    Json(serde_json::Error),
    /// Bytes were handed over for `file`, a table the site does not hold.
    NoTable(String),
    /// Bytes `start..end` of `file` run past its end, `len` bytes.
    PastEnd { file: String, start: u64, end: u64, len: u64 },
}

impl fmt::Display for WebError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebError::NotUtf8(_) => write!(f, "not UTF-8"),
            WebError::Json(e) => write!(f, "{e}"),
            WebError::NoTable(file) => write!(f, "no table {file}"),
            WebError::PastEnd { file, start, end, len } => {
                write!(f, "{file}: bytes {start}..{end} run past the file's end ({len} bytes)")
            }
        }
    }
}

impl Error for WebError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            WebError::NotUtf8(e) => Some(e),
            WebError::Json(e) => Some(e),
            WebError::NoTable(_) | WebError::PastEnd { .. } => None,
        }
    }
}
