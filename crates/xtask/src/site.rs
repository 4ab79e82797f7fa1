//! `cargo xtask site [--out DIR] [--tablebase-dir DIR]`: writes the static explorer, a folder
//! any static file server serves (GitHub Pages, nginx, `npx http-server`), under any sub-path.
//!
//! The WebAssembly module is built for `wasm32-unknown-unknown` (the target is added with
//! rustup where it is missing), which a build script of the command line could not do without
//! a second cargo inside the first: hence a task of its own. The folder holds:
//!
//! | file | what |
//! |---|---|
//! | `index.html` | the page `nana serve` serves, with the static site's script, manifest and icon |
//! | `nana-web.js` | the page's back end: answers the API from the module, fetches table bytes |
//! | `nana_web.wasm` | the module (`crates/web`) |
//! | `sw.js` | the service worker: the page works offline after one visit |
//! | `manifest.webmanifest`, `icon.svg` | the web app manifest (installable on a phone) and its icon |
//! | `tables.json` | every table the folder holds: its size and its parts; the byte counts the page's script shares with the module |
//! | `tables/` | the tables, a table over [`PART`] bytes in parts of [`PART`] bytes (`NAME.0`, `NAME.1`, ...) |
//! | `.nojekyll` | GitHub Pages serves the folder as it is |
//!
//! Every `.tb` file of the tablebase folder is copied. A rule set whose table is not there is
//! listed by the page as missing, with the command that makes it.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use crate::error::{file_error, XtaskError};
use crate::workspace;

/// The byte counts the page's script shares with the module (which tables it fetches whole,
/// what opening a table reads): the module's own source, written into `tables.json`.
#[path = "../../web/src/sizes.rs"]
mod sizes;

/// The largest file the site holds: GitHub refuses files over 100 MB and warns over 50 MB.
pub const PART: u64 = 32 << 20;

const USAGE: &str = "usage: cargo xtask site [--out DIR (default site)] [--tablebase-dir DIR (default \
                     $NANA_TABLEBASE_DIR, else tablebase)]";

const TARGET: &str = "wasm32-unknown-unknown";

/// The static site's files kept in `crates/web/assets`, copied as they are (`sw.js` gets the
/// build's version).
const ASSETS: [&str; 4] = ["nana-web.js", "manifest.webmanifest", "icon.svg", "sw.js"];

/// Where the page takes the static site's tags.
const MARKER: &str = "<!-- static site: its script, manifest and icon (cargo xtask site) -->";

pub fn run(args: Vec<String>) -> ExitCode {
    match parse(&args).and_then(|(out, tables)| write_site(&out, &tables)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(XtaskError::Help(usage)) => {
            println!("{usage}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse(args: &[String]) -> Result<(PathBuf, PathBuf), XtaskError> {
    let mut out = PathBuf::from("site");
    let mut tables =
        std::env::var_os("NANA_TABLEBASE_DIR").map_or_else(|| PathBuf::from("tablebase"), PathBuf::from);
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = || {
            iter.next()
                .map(PathBuf::from)
                .ok_or_else(|| XtaskError::NeedsFolder { option: arg.clone(), usage: USAGE })
        };
        match arg.as_str() {
            "--out" => out = value()?,
            "--tablebase-dir" => tables = value()?,
            "-h" | "--help" => return Err(XtaskError::Help(USAGE)),
            other => return Err(XtaskError::UnknownArgument { argument: other.to_string(), usage: USAGE }),
        }
    }
    Ok((out, tables))
}

/// Adds the wasm target with rustup where the toolchain lacks it.
pub fn ensure_wasm_target() -> Result<(), XtaskError> {
    let installed = Command::new("rustup").args(["target", "list", "--installed"]).output();
    match installed {
        Ok(o)
            if o.status.success()
                && String::from_utf8_lossy(&o.stdout).lines().any(|l| l.trim() == TARGET) =>
        {
            Ok(())
        }
        Ok(o) if o.status.success() => {
            eprintln!("xtask: the site's module needs the {TARGET} target: rustup target add {TARGET}");
            let ok =
                Command::new("rustup").args(["target", "add", TARGET]).status().is_ok_and(|s| s.success());
            ok.then_some(()).ok_or_else(|| XtaskError::Rustup(format!("rustup target add {TARGET}")))
        }
        _ => Err(XtaskError::NoRustup { target: TARGET }),
    }
}

/// Builds the module; its path.
pub fn build_module(root: &Path) -> Result<PathBuf, XtaskError> {
    ensure_wasm_target()?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--target", TARGET, "-p", "nana-web"])
        .current_dir(root)
        .status()
        .map_err(|source| XtaskError::Start { command: "cargo".to_string(), source })?;
    if !status.success() {
        return Err(XtaskError::ModuleBuild);
    }
    Ok(crate::target_dir().join(TARGET).join("release/nana_web.wasm"))
}

/// Clippy's check of the module's build for files, run as `crates/web/tests/wasm_deps.rs` runs
/// it (the same command, configuration and lints, so that the test finds the check built and
/// reads its result instead of compiling every dependency for the target again); whether it
/// passed is the test's to say, so its output is not shown here.
pub fn check_module(root: &Path) -> Result<(), XtaskError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let web = root.join("crates/web");
    Command::new(cargo)
        .args(["clippy", "-p", "nana-web", "--target", TARGET, "--"])
        .args(["-D", "clippy::disallowed_methods", "-D", "clippy::disallowed_types"])
        .env("CLIPPY_CONF_DIR", web.join("clippy-wasm"))
        .current_dir(&web)
        .output()
        .map_err(|source| XtaskError::Start { command: "cargo clippy".to_string(), source })?;
    Ok(())
}

/// FNV-1a, 64 bits: the build's version, for the service worker's cache name.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// A part of a table in the site: its URL, its offset in the table and its size.
type Part = (String, u64, u64);

/// One table's entry in `tables.json`: its file, size and parts, each addressed by its offset.
fn table_json(name: &str, size: u64, parts: &[Part]) -> String {
    let parts: Vec<String> = parts
        .iter()
        .map(|(url, offset, size)| format!("{{\"url\": \"{url}\", \"offset\": {offset}, \"size\": {size}}}"))
        .collect();
    format!("{{\"file\": \"{name}\", \"size\": {size}, \"parts\": [{}]}}", parts.join(", "))
}

/// Copies the table at `path` into `dir` in parts of at most [`PART`] bytes: (URL, offset,
/// size) of each.
fn copy_table(path: &Path, name: &str, dir: &Path) -> Result<(u64, Vec<Part>), XtaskError> {
    let size = path.metadata().map_err(file_error(path))?.len();
    let mut file = File::open(path).map_err(file_error(path))?;
    if size <= PART {
        fs::copy(path, dir.join(name)).map_err(file_error(path))?;
        return Ok((size, vec![(format!("tables/{name}"), 0, size)]));
    }
    let mut parts = Vec::new();
    let mut offset = 0;
    while offset < size {
        let len = PART.min(size - offset);
        let part = format!("{name}.{}", parts.len());
        let target = dir.join(&part);
        let mut out = File::create(&target).map_err(file_error(&target))?;
        let copied = io::copy(&mut (&mut file).take(len), &mut out).map_err(file_error(&target))?;
        if copied != len {
            return Err(XtaskError::Shorter(path.to_path_buf()));
        }
        parts.push((format!("tables/{part}"), offset, len));
        offset += len;
    }
    Ok((size, parts))
}

fn write_site(out: &Path, tables: &Path) -> Result<(), XtaskError> {
    let root = workspace();
    let mut names: Vec<String> = fs::read_dir(tables)
        .map_err(|source| XtaskError::TablebaseDir { path: tables.to_path_buf(), source })?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tb") && !n.contains('"') && !n.contains('\\'))
        .collect();
    names.sort();
    let module = build_module(root)?;

    let dir = out.join("tables");
    if dir.exists() {
        fs::remove_dir_all(&dir).map_err(file_error(&dir))?;
    }
    fs::create_dir_all(&dir).map_err(file_error(&dir))?;
    let mut listed = Vec::new();
    for name in &names {
        let (size, parts) = copy_table(&tables.join(name), name, &dir)?;
        listed.push(table_json(name, size, &parts));
    }
    let list = format!(
        "{{\"whole_limit\": {}, \"header\": {}, \"tail\": {}, \"tables\": [\n  {}\n]}}\n",
        sizes::WHOLE_LIMIT,
        sizes::HEADER,
        sizes::TAIL,
        listed.join(",\n  ")
    );
    let write = |name: &str, bytes: &[u8]| fs::write(out.join(name), bytes).map_err(file_error(out));
    write("tables.json", list.as_bytes())?;

    let wasm = fs::read(&module).map_err(file_error(&module))?;
    write("nana_web.wasm", &wasm)?;
    let page_path = root.join("crates/server/assets/explorer.html");
    let page = fs::read_to_string(&page_path).map_err(file_error(&page_path))?;
    if !page.contains(MARKER) {
        return Err(XtaskError::NoMarker { path: page_path, marker: MARKER });
    }
    let tags =
        "<script src=\"nana-web.js\"></script>\n<link rel=\"manifest\" href=\"manifest.webmanifest\">\n\
                <link rel=\"icon\" href=\"icon.svg\">\n<meta name=\"theme-color\" content=\"#5a3e1b\">";
    let page = page.replace(MARKER, tags);
    write("index.html", page.as_bytes())?;
    let mut version = fnv(0xcbf2_9ce4_8422_2325, &wasm);
    version = fnv(version, list.as_bytes());
    version = fnv(version, page.as_bytes());
    for asset in ASSETS {
        let path = root.join("crates/web/assets").join(asset);
        let text = fs::read_to_string(&path).map_err(file_error(&path))?;
        version = fnv(version, text.as_bytes());
        let text = text.replace("@VERSION@", &format!("{version:016x}"));
        write(asset, text.as_bytes())?;
    }
    write(".nojekyll", b"")?;
    let mut stdout = io::stdout().lock();
    let _ = writeln!(
        stdout,
        "wrote the site to {} ({} tables: {}); serve the folder with any static file server, e.g. \
         `npx http-server {}`; the page names every rule set whose table is missing, with the command that makes it",
        out.display(),
        names.len(),
        if names.is_empty() { "none".to_string() } else { names.join(", ") },
        out.display()
    );
    Ok(())
}
