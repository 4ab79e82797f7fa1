//! The project's rule on lengths: no Rust file over 500 lines and no function over 80 lines
//! without a stated reason. A file's reason is a line containing `Long:` among its first 40
//! lines (its `//!` header); a function's is a `Long:` line in the doc comment above it, or in
//! its file's `//!` header, from the `Long:` line on, naming the function in backticks.
//!
//! The scan is by lines, not a parse: a function runs from its `fn` line to the first line after
//! its signature that starts with `}` at the `fn` line's indentation (as rustfmt lays code out).
//! It walks `crates/`, `tests/`, `python/src` and `benches/`, leaving out `target` and `fuzz`.

use std::fs;
use std::path::{Path, PathBuf};

const FILE_LIMIT: usize = 500;
const FUNCTION_LIMIT: usize = 80;
const HEADER_LINES: usize = 40;
const ROOTS: &[&str] = &["crates", "tests", "python/src", "benches"];
const SKIPPED: &[&str] = &["target", "fuzz", "node_modules"];
const REASON: &str = "Long:";

#[test]
fn every_long_file_and_function_states_why() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ROOTS {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(!files.is_empty(), "no Rust file found under {}", root.display());
    files.sort();
    let mut failures = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        failures.extend(unexplained(&name, &text));
    }
    assert!(
        failures.is_empty(),
        "without a stated reason (a line with `{REASON}`, docs: crates/xtask/tests/lengths.rs):\n{}",
        failures.join("\n")
    );
}

/// The `.rs` files under `dir`, recursively, leaving out the `SKIPPED` directories.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !SKIPPED.contains(&name.as_ref()) && !name.starts_with('.') {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// One line per breach of the rule in the file `name` with the text `text`.
fn unexplained(name: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut failures = Vec::new();
    if lines.len() > FILE_LIMIT && !lines.iter().take(HEADER_LINES).any(|l| l.contains(REASON)) {
        failures.push(format!("{name}: {} lines", lines.len()));
    }
    let header = file_reason(&lines);
    for (start, function, length) in functions(&lines) {
        if length <= FUNCTION_LIMIT {
            continue;
        }
        let named = header.as_deref().is_some_and(|h| h.contains(&format!("`{function}`")));
        if !named && !doc_states_reason(&lines, start) {
            failures.push(format!("{name}:{}: fn {function}: {length} lines", start + 1));
        }
    }
    failures
}

/// The file's `//!` header from its first `Long:` line on, if it has one.
fn file_reason(lines: &[&str]) -> Option<String> {
    let header: Vec<&str> = lines.iter().copied().filter(|l| l.starts_with("//!")).collect();
    let from = header.iter().position(|l| l.contains(REASON))?;
    Some(header[from..].join("\n"))
}

/// Whether the doc comment above line `start` (through its attributes) has a `Long:` line.
fn doc_states_reason(lines: &[&str], start: usize) -> bool {
    lines[..start]
        .iter()
        .rev()
        .map(|l| l.trim_start())
        .take_while(|l| l.starts_with("///") || l.starts_with("#[") || l.starts_with("//"))
        .any(|l| l.contains(REASON))
}

/// Every function with a body: its `fn` line's index, its name and its length in lines.
fn functions(lines: &[&str]) -> Vec<(usize, String, usize)> {
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let indent = indentation(line);
        // The signature ends at the first line ending in `{` (a body follows), `;` (none) or `}`
        // (a body on the same line).
        let Some(open) = (start..lines.len()).find(|&i| {
            let l = lines[i].trim_end();
            l.ends_with('{') || l.ends_with(';') || l.ends_with('}')
        }) else {
            continue;
        };
        if !lines[open].trim_end().ends_with('{') {
            continue;
        }
        let close = (open + 1..lines.len())
            .find(|&i| indentation(lines[i]) == indent && lines[i].trim_start().starts_with('}'));
        if let Some(close) = close {
            found.push((start, name, close - start + 1));
        }
    }
    found
}

/// The name of the function a line declares, if it starts a function's signature.
fn fn_name(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    let qualifiers = ["pub(crate) ", "pub(super) ", "pub ", "const ", "async ", "unsafe ", "extern \"C\" "];
    while let Some(q) = qualifiers.iter().find(|q| rest.starts_with(**q)) {
        rest = &rest[q.len()..];
    }
    let rest = rest.strip_prefix("fn ")?;
    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

#[test]
fn the_scan_measures_a_function_from_its_fn_line_to_its_closing_brace() {
    let text = "impl A {\n    /// Doc.\n    pub fn f(\n        x: u8,\n    ) -> u8 {\n        x\n    }\n    fn g();\n    fn h() {}\n}\n";
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(functions(&lines), vec![(2, "f".to_string(), 5)]);
    assert!(!doc_states_reason(&lines, 2));
    let reasoned = "/// Long: one match.\n#[test]\nfn f() {\n}\n";
    assert!(doc_states_reason(&reasoned.lines().collect::<Vec<_>>(), 2));
}
