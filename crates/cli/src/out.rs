//! Writing a command's output: every line through [`outln!`], so that an output that cannot be
//! written (a full disk, a closed file) is an error of the command, not a panic.

use std::fmt;
use std::io::Write;

use crate::error::CliError;

/// Writes formatted text to `out`.
pub fn write(out: &mut dyn Write, args: fmt::Arguments<'_>) -> Result<(), CliError> {
    out.write_fmt(args).map_err(CliError::Output)
}

/// `outln!(out, "...", args)`: one line to `out`, returning from the function with the error
/// when it cannot be written.
macro_rules! outln {
    ($out:expr) => {
        $crate::out::write($out, format_args!("\n"))?
    };
    ($out:expr, $($arg:tt)*) => {
        $crate::out::write($out, format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// `out!(out, "...", args)`: text without a line end.
macro_rules! out {
    ($out:expr, $($arg:tt)*) => {
        $crate::out::write($out, format_args!($($arg)*))?
    };
}

pub(crate) use {out, outln};
