//! Progress bars on standard error (hidden when it is not a terminal).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use nana_engine::PhasePlan;

/// Shows the engine's phases as progress bars, one bar per phase, each with its number among
/// the phases announced (`[2/3]`) and an estimate of the time it has left. Also records how
/// long each phase took.
#[derive(Debug)]
pub struct Bars {
    label: String,
    bar: Mutex<Option<(ProgressBar, String, Instant)>>,
    times: Mutex<Vec<(String, Duration)>>,
    plan: Mutex<PhasePlan>,
}

impl Bars {
    pub fn new(label: impl Into<String>) -> Bars {
        Bars {
            label: label.into(),
            bar: Mutex::new(None),
            times: Mutex::new(Vec::new()),
            plan: Mutex::new(PhasePlan::default()),
        }
    }

    /// `[2/3] retrograde`: the phase's number among those announced (a phase begun without
    /// being announced is added to them).
    fn numbered(&self, phase: &str) -> String {
        let (at, of) = self.plan.lock().unwrap_or_else(|e| e.into_inner()).number(phase);
        format!("[{at}/{of}] {phase}")
    }

    /// The phases seen so far with their durations.
    pub fn times(&self) -> Vec<(String, Duration)> {
        self.times.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// A spinner for a phase whose amount of work is not known in advance (the engine reports a
/// total of 0): the phase and the time it has taken so far, never a share done.
pub fn spinner(message: String) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{msg:32} {spinner} (running) {elapsed_precise}")
            .expect("valid template"),
    );
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
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

/// A bar of a phase of known length, with an estimate of the time the phase has left (from
/// its rate so far).
fn bar_with_eta(total: u64, message: String) -> ProgressBar {
    let bar = bar(total, message);
    bar.set_style(
        ProgressStyle::with_template("{msg:32} [{bar:30}] {percent:>3}% {elapsed_precise}, about {eta} left")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

impl nana_engine::Progress for Bars {
    fn plan(&self, phases: &[&str]) {
        self.plan.lock().unwrap_or_else(|e| e.into_inner()).announce(phases);
    }

    fn begin(&self, phase: &str, total: u64) {
        let message = format!("{}: {}", self.label, self.numbered(phase));
        // A bar of length 0 reads 100% from the start: a phase of unknown length spins instead.
        let b = if total == 0 { spinner(message) } else { bar_with_eta(total, message) };
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

#[cfg(test)]
mod tests {
    use nana_engine::Progress;

    use super::*;

    /// A phase of unknown length (the engine's total of 0, as Dobutsu's "reach") is not shown
    /// as done: it has no length, so no share; a phase of known length has its length.
    #[test]
    fn a_phase_of_unknown_length_shows_no_share_done() {
        let bars = Bars::new("test");
        bars.begin("reach", 0);
        let length = |bars: &Bars| bars.bar.lock().unwrap().as_ref().map(|(b, _, _)| b.length());
        assert_eq!(length(&bars), Some(None));
        bars.end();
        bars.begin("retrograde", 10);
        assert_eq!(length(&bars), Some(Some(10)));
        bars.end();
        assert_eq!(bars.times().len(), 2);
    }

    /// A phase is numbered among those announced, in their order; one announced twice keeps
    /// its place, and one never announced is counted after them.
    #[test]
    fn phases_are_numbered_among_those_announced() {
        let bars = Bars::new("test");
        bars.plan(&["survey", "count moves", "retrograde"]);
        bars.plan(&["count moves", "retrograde"]);
        assert_eq!(bars.numbered("survey"), "[1/3] survey");
        assert_eq!(bars.numbered("retrograde"), "[3/3] retrograde");
        assert_eq!(bars.numbered("write"), "[4/4] write");
        let fresh = Bars::new("test");
        assert_eq!(fresh.numbered("reach"), "[1/1] reach");
    }
}
