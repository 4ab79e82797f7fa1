//! The Python package's test environment: a virtual environment in `target/xtask-python` with
//! the package (`python/`, built by maturin from the workspace) and what its tests read the
//! tables and the export with (pytest, pyarrow, pandas, DuckDB), all from PyPI. The test
//! `tests/python.rs` runs pytest with its Python.

use std::path::Path;
use std::process::Command;

use crate::error::XtaskError;

/// What the package's tests need from PyPI besides the package.
const PACKAGES: [&str; 5] = ["maturin>=1.5,<2", "pytest>=7", "pyarrow>=14", "pandas>=2", "duckdb>=1"];

/// Makes the virtual environment where missing, installs [`PACKAGES`] where missing, then
/// builds the package from the workspace with maturin and installs it (every time: the Rust
/// code may have changed), in the profile the tests build in (`--profile dev`, which the test
/// profile inherits unchanged), so that it shares their build.
pub fn prepare() -> Result<(), XtaskError> {
    // crates/xtask -> the workspace.
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("the workspace folder");
    let venv = workspace.join("target/xtask-python");
    let python = venv.join("bin/python");
    if !python.exists() {
        eprintln!(
            "xtask: the Python package's tests need a virtual environment: python3 -m venv {}",
            venv.display()
        );
        // Debian's python3 has no venv module without python3-venv: virtualenv from PyPI then.
        let made =
            Command::new("python3").args(["-m", "venv"]).arg(&venv).status().is_ok_and(|s| s.success());
        if !made {
            eprintln!(
                "xtask: python3 -m venv failed; pip install --user virtualenv, then python3 -m virtualenv"
            );
            let mut pip = Command::new("python3");
            pip.args(["-m", "pip", "install", "-q", "--user", "--disable-pip-version-check", "virtualenv"]);
            run(&mut pip, "pip install --user virtualenv")?;
            run(
                Command::new("python3").args(["-m", "virtualenv", "-q"]).arg(&venv),
                "python3 -m virtualenv",
            )?;
        }
    }
    let have = Command::new(&python)
        .args(["-c", "import maturin, pytest, pyarrow, pandas, duckdb"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        eprintln!("xtask: pip install {}", PACKAGES.join(" "));
        let mut pip = Command::new(&python);
        pip.args(["-m", "pip", "install", "-q", "--disable-pip-version-check"]).args(PACKAGES);
        run(&mut pip, "pip install of the tests' packages")?;
    }
    // maturin itself, not through pip, so that cargo's progress shows: the first build takes
    // minutes.
    let wheels = venv.join("wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    eprintln!(
        "xtask: maturin build --profile dev (the build the tests share), then pip install of the wheel"
    );
    let mut build = Command::new(&python);
    build
        .args(["-m", "maturin", "build", "--profile", "dev", "--manifest-path"])
        .arg(workspace.join("python/Cargo.toml"))
        .arg("--out")
        .arg(&wheels)
        .env("PATH", path_with(&venv.join("bin")));
    run(&mut build, "maturin build of ./python")?;
    let wheel = std::fs::read_dir(&wheels)
        .ok()
        .and_then(|dir| dir.flatten().map(|e| e.path()).find(|p| p.extension().is_some_and(|x| x == "whl")))
        .ok_or_else(|| XtaskError::File {
            path: wheels.clone(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "maturin build wrote no wheel there"),
        })?;
    let mut install = Command::new(&python);
    install
        .args(["-m", "pip", "install", "-q", "--disable-pip-version-check", "--force-reinstall", "--no-deps"])
        .arg(&wheel);
    run(&mut install, "pip install of the package's wheel")
}

/// `PATH` with `bin` first (maturin is found there by pip's build).
fn path_with(bin: &Path) -> std::ffi::OsString {
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(
        std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect::<Vec<_>>()).unwrap_or_default(),
    );
    std::env::join_paths(dirs).unwrap_or_default()
}

fn run(command: &mut Command, what: &str) -> Result<(), XtaskError> {
    match command.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(status) => Err(XtaskError::Failed { command: what.to_string(), status }),
        Err(source) => Err(XtaskError::Start { command: what.to_string(), source }),
    }
}
