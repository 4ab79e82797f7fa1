//! The WebAssembly module's build: no thread pool (rayon and its crossbeam), no memory map
//! (memmap2), no C library (zstd's), no files (`std::fs`). The engine, the tablebase and the games enable rayon through
//! their default feature `parallel`; the tablebase, the probe and the server use files through
//! their default feature `files`. This crate depends on them without those, and so must every
//! crate between (docs/SITE.md). A crate that turns a feature back on for the module, adds one
//! of those dependencies, or uses a file outside its `files` feature fails these tests; the
//! native build (and this crate's tests, through its dev-dependencies) keeps them.

use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

/// The crates the module must not depend on: a name, or a prefix ending in `-`. zstd's C library
/// (`zstd-sys`) compresses layout-3 blocks for the writer only; the module decodes them with the
/// pure-Rust `ruzstd`.
const FORBIDDEN: [&str; 6] = ["rayon", "rayon-", "crossbeam-", "memmap2", "zstd", "zstd-"];

fn forbidden(name: &str) -> bool {
    FORBIDDEN.iter().any(|f| if f.ends_with('-') { name.starts_with(f) } else { name == *f })
}

/// Whether the toolchain has the target's standard library (`rustup target add`).
fn target_installed() -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = Command::new(rustc).args(["--print", "target-libdir", "--target", TARGET]).output() else {
        return false;
    };
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    out.status.success()
        && std::fs::read_dir(dir).is_ok_and(|files| {
            files.flatten().any(|f| f.file_name().to_string_lossy().starts_with("libstd-"))
        })
}

#[test]
fn the_module_has_no_thread_pool_and_no_memory_map() {
    assert!(
        target_installed(),
        "the {TARGET} target is not installed, so the module's build cannot be checked: \
         `rustup target add {TARGET}` (`cargo xtask test` adds it)"
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "-p", "nana-web", "--target", TARGET, "-e", "normal", "--prefix", "none"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "cargo tree failed: {stderr}");
    let tree = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = tree.lines().filter_map(|l| l.split_whitespace().next()).collect();
    // The module's own crates are there: the list is the module's, not an empty one.
    for name in ["nana-web", "nana-tablebase", "nana-engine", "nana-shogi", "dobutsu-shogi"] {
        assert!(names.contains(&name), "{name} is not in the module's dependencies:\n{tree}");
    }
    let mut found: Vec<&str> = names.iter().copied().filter(|n| forbidden(n)).collect();
    found.sort_unstable();
    found.dedup();
    assert!(
        found.is_empty(),
        "the WebAssembly module depends on {found:?}: a crate of its dependencies enables the \
         `parallel` feature of the engine, the tablebase or a game (or depends on rayon or memmap2 \
         itself, or turns on the tablebase's `files`, which brings zstd) for {TARGET}; see `cargo tree -p nana-web --target {TARGET} -e features -i rayon`"
    );
}

/// Clippy's configuration for the module's build: `std::fs` and the `Path` methods that ask the
/// file system, disallowed.
const CLIPPY_CONF: &str = "clippy-wasm";

/// The module and the crates of the workspace it is built from use no file: a dependency tree
/// cannot show that, so Clippy lints the module's build for the target with every `std::fs` item
/// disallowed (`clippy-wasm/clippy.toml`), over the code compiled for it, called or not.
#[test]
fn the_module_uses_no_file() {
    assert!(target_installed(), "the {TARGET} target is not installed: `rustup target add {TARGET}`");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let clippy = Command::new(&cargo).args(["clippy", "--version"]).output();
    assert!(
        clippy.is_ok_and(|o| o.status.success()),
        "Clippy is not installed, so the module's use of files cannot be checked: \
         `rustup component add clippy`"
    );
    let manifest = env!("CARGO_MANIFEST_DIR");
    let out = Command::new(cargo)
        .args(["clippy", "-p", "nana-web", "--target", TARGET, "--"])
        .args(["-D", "clippy::disallowed_methods", "-D", "clippy::disallowed_types"])
        .env("CLIPPY_CONF_DIR", std::path::Path::new(manifest).join(CLIPPY_CONF))
        .current_dir(manifest)
        .output()
        .expect("cargo clippy runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the WebAssembly module's build uses files (std::fs) or does not build: a crate uses \
         them outside its `files` feature, or turns that feature on for {TARGET}:\n{stderr}"
    );
    // The configuration was read: a path in it that names nothing is reported, not ignored.
    assert!(
        !stderr.contains("does not refer to"),
        "{CLIPPY_CONF}/clippy.toml names a missing item:\n{stderr}"
    );
}
