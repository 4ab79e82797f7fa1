//! The module's interface to JavaScript: plain `extern "C"` functions over the module's memory,
//! no generated glue (the page's `nana-web.js` is the other side).
//!
//! Strings and bytes go in by [`nana_alloc`]ating room in the module's memory and writing them
//! there; a result comes back as a pointer to its length (4 bytes, little-endian) followed by
//! its UTF-8 bytes, freed with [`nana_free`] (length plus 4). Every result is JSON:
//! `{"status": 200, "body": ...}`, `{"need": [{"file", "start", "end"}, ...]}` (with
//! `"so_far": {"status": 200, "body": ...}` for a view whose mainline is not whole yet:
//! [`Outcome::Need`]) or `{"error": "..."}`.

use std::cell::RefCell;

use serde_json::json;

use crate::{Outcome, Site, SiteTable, WebError};

thread_local! {
    static SITE: RefCell<Option<Site>> = const { RefCell::new(None) };
}

/// Room for `len` bytes in the module's memory.
#[no_mangle]
pub extern "C" fn nana_alloc(len: usize) -> *mut u8 {
    let mut room = Vec::<u8>::with_capacity(len);
    let ptr = room.as_mut_ptr();
    std::mem::forget(room);
    ptr
}

/// Frees what [`nana_alloc`] gave (or a result, of its length plus 4).
///
/// # Safety
/// `ptr` and `len` are those of one [`nana_alloc`] or result, freed once.
#[no_mangle]
pub unsafe extern "C" fn nana_free(ptr: *mut u8, len: usize) {
    // Safety: as the caller promises, a vector of this capacity that was forgotten.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
}

/// The string of `len` bytes at `ptr`.
///
/// # Safety
/// `ptr..ptr + len` lies in the module's memory.
unsafe fn text<'a>(ptr: *const u8, len: usize) -> Result<&'a str, WebError> {
    // Safety: as the caller promises.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    std::str::from_utf8(bytes).map_err(WebError::NotUtf8)
}

/// A result for JavaScript: its length, then its bytes.
fn result(value: serde_json::Value) -> *mut u8 {
    let text = value.to_string();
    let mut out = Vec::with_capacity(text.len() + 4);
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    let mut out = out.into_boxed_slice();
    let ptr = out.as_mut_ptr();
    std::mem::forget(out);
    ptr
}

/// A JSON body as a value to nest.
fn parse(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or(serde_json::Value::Null)
}

/// Starts the site over the tables of the JSON list at `ptr` (`[{"file", "size"}, ...]`, as the
/// site's `tables.json` lists them); the result is `{"status": 200, "body": null}` or an error.
///
/// # Safety
/// `ptr..ptr + len` lies in the module's memory.
#[no_mangle]
pub unsafe extern "C" fn nana_init(ptr: *const u8, len: usize) -> *mut u8 {
    // Safety: as the caller promises.
    let tables = unsafe { text(ptr, len) }
        .and_then(|t| serde_json::from_str::<Vec<SiteTable>>(t).map_err(WebError::Json));
    match tables {
        Ok(tables) => {
            SITE.with(|s| *s.borrow_mut() = Some(Site::new(&tables)));
            result(json!({"status": 200, "body": null}))
        }
        Err(e) => result(json!({ "error": format!("the list of tables: {e}") })),
    }
}

/// Answers the API's URL at `ptr` ([`Site::handle`]).
///
/// # Safety
/// `ptr..ptr + len` lies in the module's memory.
#[no_mangle]
pub unsafe extern "C" fn nana_request(ptr: *const u8, len: usize) -> *mut u8 {
    // Safety: as the caller promises.
    let url = match unsafe { text(ptr, len) } {
        Ok(url) => url,
        Err(e) => return result(json!({ "error": e.to_string() })),
    };
    SITE.with(|s| match &*s.borrow() {
        None => result(json!({"error": "the module was not started (nana_init)"})),
        Some(site) => match site.handle(url) {
            Outcome::Answer { status, body } => result(json!({ "status": status, "body": parse(&body) })),
            Outcome::Need { ranges, so_far: None } => result(json!({ "need": ranges })),
            Outcome::Need { ranges, so_far: Some(view) } => {
                result(json!({ "need": ranges, "so_far": {"status": 200, "body": parse(&view)} }))
            }
        },
    })
}

/// The block indexes to fetch in the background ([`Site::block_indexes`]): `{"status": 200,
/// "body": [{"file", "start", "end"}, ...]}`.
#[no_mangle]
pub extern "C" fn nana_block_indexes() -> *mut u8 {
    SITE.with(|s| match &*s.borrow() {
        None => result(json!({"error": "the module was not started (nana_init)"})),
        Some(site) => result(json!({"status": 200, "body": site.block_indexes()})),
    })
}

/// Keeps the `data_len` bytes at `data` as the bytes of the table file named at `name` from
/// `offset` ([`Site::supply`]); the result is `{"status": 200, "body": null}` or an error.
///
/// # Safety
/// Both ranges lie in the module's memory.
#[no_mangle]
pub unsafe extern "C" fn nana_supply(
    name: *const u8,
    name_len: usize,
    offset: f64,
    data: *const u8,
    data_len: usize,
) -> *mut u8 {
    // Safety: as the caller promises.
    let file = match unsafe { text(name, name_len) } {
        Ok(file) => file,
        Err(e) => return result(json!({ "error": e.to_string() })),
    };
    // Safety: as the caller promises.
    let bytes = unsafe { std::slice::from_raw_parts(data, data_len) };
    SITE.with(|s| match &*s.borrow() {
        None => result(json!({"error": "the module was not started (nana_init)"})),
        Some(site) => match site.supply(file, offset as u64, bytes) {
            Ok(()) => result(json!({"status": 200, "body": null})),
            Err(e) => result(json!({ "error": e.to_string() })),
        },
    })
}
