//! The page end to end in headless Chromium: a server on a loopback port over Nana's and
//! Dobutsu's solved tables, driven by `tests/browser/explorer.mjs` (playwright-core). Needs Node.js and Chromium,
//! and installs the pinned npm packages of `tests/browser` on first use; without Node.js or
//! Chromium the test fails and says how to install them (`cargo xtask test` installs them).
//!
//! The screenshots land in `target/explorer-screenshots/`; with `NANA_UPDATE_SCREENSHOTS=1`
//! they are also copied to `docs/explorer/`, the pictures of docs/EXPLORER.md.

use std::path::{Path, PathBuf};
use std::process::Command;

use std::sync::Arc;

use nana_front::Explorable;
use nana_probe::table::TableRules;
use nana_server::{Registry, Status};

use crate::common::{heavy, registry, tables, Server};

/// A server whose `nana/current` waits for a solve that never comes (queued), beside a ready
/// `nana/original`: what the page shows while a table is being solved.
fn pending_registry() -> Arc<Registry> {
    let mut r = Registry::new();
    let current = nana_shogi::Rules::CURRENT;
    r.add_pending("nana", "current", current.describe(), current.words(), Status::Queued, None);
    r.set_board("nana", "current", nana_server::board_of(current));
    let original = tables().iter().find(|(name, _)| *name == "original").expect("the original rules");
    r.add("nana", "original", Box::new(original.1.clone()));
    Arc::new(r)
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().expect("the workspace")
}

const INSTALL: &str = "run the tests with `cargo xtask test`, which installs them, or install the browser test's tools: `apt-get install -y nodejs npm chromium` \
     (Debian; or set CHROMIUM to a Chromium binary) and `npm ci --prefix tests/browser`";

/// The width and height of a PNG, after checking its signature.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || &bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("four bytes"));
    Some((be(16), be(20)))
}

#[test]
fn the_page_plays_edits_and_shows_statistics_in_chromium() {
    let root = workspace();
    let script = root.join("tests/browser/explorer.mjs");
    let node_version = Command::new("node").arg("--version").output();
    assert!(
        node_version.as_ref().is_ok_and(|o| o.status.success()),
        "Node.js (`node`) is not available: {INSTALL}"
    );
    let chromium =
        std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(chromium.exists(), "no Chromium at {}: {INSTALL}", chromium.display());
    // The npm packages are pinned by tests/browser/package-lock.json: install them on first use,
    // so that the test command needs nothing else.
    if !root.join("tests/browser/node_modules/playwright-core").is_dir() {
        let npm = Command::new("npm")
            .args(["ci", "--prefix", "tests/browser", "--no-audit", "--no-fund"])
            .current_dir(&root)
            .output();
        let ok = npm.as_ref().is_ok_and(|o| o.status.success());
        let why = npm.map_or_else(|e| e.to_string(), |o| String::from_utf8_lossy(&o.stderr).into_owned());
        assert!(ok, "`npm ci --prefix tests/browser` failed ({why}): {INSTALL}");
    }

    let _turn = heavy();
    let server = Server::start(registry(), 2);
    let pending = Server::start(pending_registry(), 1);
    let out = root.join("target/explorer-screenshots");
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new("node")
        .arg(&script)
        .arg(server.url())
        .arg(&out)
        .arg(pending.url())
        .current_dir(&root)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    eprintln!("{stdout}{stderr}");
    match run.status.code() {
        Some(0) => {}
        Some(2) => panic!("the browser test could not start: {}\n{INSTALL}", stderr.trim()),
        _ => panic!("the browser test failed ({}): {}", run.status, stderr.trim()),
    }
    drop((server, pending));

    let names = [
        "explorer-start.png",
        "explorer-editor.png",
        "explorer-position.png",
        "explorer-stats.png",
        "explorer-stats-phone.png",
        "explorer-dobutsu.png",
        "explorer-phone.png",
        "explorer-play.png",
        "explorer-play-phone.png",
        "explorer-ja.png",
    ];
    for name in names {
        let bytes = std::fs::read(out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (w, h) = png_size(&bytes).unwrap_or_else(|| panic!("{name} is not a PNG"));
        let phone = name.ends_with("phone.png");
        let size_ok = if phone { (w, h) == (390, 844) } else { w >= 800 && h >= 600 };
        assert!(size_ok && bytes.len() > 5000, "{name}: {w}x{h}, {} bytes", bytes.len());
    }
    if std::env::var_os("NANA_UPDATE_SCREENSHOTS").is_some() {
        let docs = root.join("docs/explorer");
        std::fs::create_dir_all(&docs).expect("docs/explorer");
        for name in names {
            std::fs::copy(out.join(name), docs.join(name)).expect("copies a screenshot");
        }
    }
}
