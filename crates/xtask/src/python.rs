//! The Python package's test environment: a virtual environment in `target/xtask-python` with
//! the package (`python/`) and what its tests read the tables and the export with (pytest,
//! pyarrow, pandas, DuckDB; cshogi, whose USI client starts `nana-engine`; nbclient, ipykernel
//! and matplotlib, which run the example notebook), all from PyPI. The test `tests/python.rs`
//! runs pytest with its Python.
//!
//! The test command installs the package from the tests' own build ([`install_from_build`]): the
//! extension module is the workspace build's `lib_nana.so`, so that the package and the tests
//! share one build. The self-check installs it as a user does, from the wheel maturin builds
//! ([`install_wheel`]), and runs every Python test again; maturin builds the package's crate
//! alone, and the package's feature `workspace-features` turns on in its dependencies what the
//! workspace build has turned on, so that maturin compiles the package's crate and reuses the
//! rest.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::XtaskError;
use crate::workspace;

/// What the package's tests need from PyPI besides the package.
const PACKAGES: [&str; 9] = [
    "maturin>=1.5,<2",
    "pytest>=7",
    "pyarrow>=14",
    "pandas>=2",
    "duckdb>=1",
    "cshogi>=0.8",
    "nbclient>=0.9",
    "ipykernel>=6",
    "matplotlib>=3.7",
];

/// The virtual environment's folder.
fn venv() -> PathBuf {
    workspace().join("target/xtask-python")
}

/// Makes the virtual environment where missing and installs [`PACKAGES`] where missing.
pub fn prepare() -> Result<(), XtaskError> {
    let venv = venv();
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
        .args([
            "-c",
            "import maturin, pytest, pyarrow, pandas, duckdb, cshogi, nbclient, ipykernel, matplotlib",
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        eprintln!("xtask: pip install {}", PACKAGES.join(" "));
        let mut pip = Command::new(&python);
        pip.args(["-m", "pip", "install", "-q", "--disable-pip-version-check"]).args(PACKAGES);
        run(&mut pip, "pip install of the tests' packages")?;
    }
    Ok(())
}

/// Installs the package into the virtual environment as maturin's wheel lays it out (the
/// `python/python/nana` folder with the extension module `nana/_nana.abi3.so`), the module
/// taken from the `dev` build of the workspace (`target/debug/lib_nana.so`), which the caller
/// has just built.
pub fn install_from_build() -> Result<(), XtaskError> {
    let python = venv().join("bin/python");
    // A wheel the self-check installed goes first: its record would name files no longer ours.
    let mut uninstall = Command::new(&python);
    uninstall.args(["-m", "pip", "uninstall", "-q", "-y", "--disable-pip-version-check", "nana"]);
    let _ = uninstall.output();
    let package = installed_package(&python)?;
    let copied = (|| -> std::io::Result<()> {
        if package.exists() {
            std::fs::remove_dir_all(&package)?;
        }
        std::fs::create_dir_all(&package)?;
        for entry in std::fs::read_dir(workspace().join("python/python/nana"))? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                std::fs::copy(entry.path(), package.join(entry.file_name()))?;
            }
        }
        std::fs::copy(workspace().join("target/debug/lib_nana.so"), package.join("_nana.abi3.so"))?;
        Ok(())
    })();
    copied.map_err(|source| XtaskError::File { path: package.clone(), source })?;
    eprintln!("xtask: the Python package installed from this build into {}", package.display());
    Ok(())
}

/// Builds the package's wheel with maturin (in the `dev` profile, with the feature
/// `workspace-features` that lets it reuse the workspace build) and installs it, as `pip install
/// ./python` would.
pub fn install_wheel() -> Result<(), XtaskError> {
    let venv = venv();
    let python = venv.join("bin/python");
    // maturin itself, not through pip, so that cargo's progress shows.
    let wheels = venv.join("wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    eprintln!("xtask: maturin build --profile dev --features workspace-features of ./python, then pip install of the wheel");
    let mut build = Command::new(&python);
    build
        .args(["-m", "maturin", "build", "--profile", "dev", "--features", "workspace-features"])
        .arg("--manifest-path")
        .arg(workspace().join("python/Cargo.toml"))
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
    // The copy the test command made has no record for pip to uninstall.
    let package = installed_package(&python)?;
    if package.exists() {
        std::fs::remove_dir_all(&package).map_err(|source| XtaskError::File { path: package, source })?;
    }
    let mut install = Command::new(&python);
    install
        .args(["-m", "pip", "install", "-q", "--disable-pip-version-check", "--force-reinstall", "--no-deps"])
        .arg(&wheel);
    run(&mut install, "pip install of the package's wheel")
}

/// The folder the package `nana` is installed in by `python`: `nana` in its site-packages.
fn installed_package(python: &Path) -> Result<PathBuf, XtaskError> {
    let out = Command::new(python)
        .args(["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
        .output()
        .map_err(|source| XtaskError::Start { command: python.display().to_string(), source })?;
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("nana"))
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
