//! Progress bars on standard error (hidden when it is not a terminal).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Shows the engine's phases as progress bars, one bar per phase.
/// Also records how long each phase took.
#[derive(Debug)]
pub struct Bars {
    label: String,
    bar: Mutex<Option<(ProgressBar, String, Instant)>>,
    times: Mutex<Vec<(String, Duration)>>,
}

impl Bars {
    pub fn new(label: impl Into<String>) -> Bars {
        Bars { label: label.into(), bar: Mutex::new(None), times: Mutex::new(Vec::new()) }
    }

    /// The phases seen so far with their durations.
    pub fn times(&self) -> Vec<(String, Duration)> {
        self.times.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

pub fn bar(total: u64, message: String) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg:32} [{bar:30}] {percent:>3}% {elapsed_precise}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(message);
    bar
}

impl nana_engine::Progress for Bars {
    fn begin(&self, phase: &str, total: u64) {
        let b = bar(total, format!("{}: {phase}", self.label));
        *self.bar.lock().unwrap_or_else(|e| e.into_inner()) = Some((b, phase.to_string(), Instant::now()));
    }

    fn advance(&self, n: u64) {
        if let Some((b, _, _)) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            b.inc(n);
        }
    }

    fn end(&self) {
        if let Some((b, phase, start)) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            b.finish_and_clear();
            self.times.lock().unwrap_or_else(|e| e.into_inner()).push((phase, start.elapsed()));
        }
    }
}
