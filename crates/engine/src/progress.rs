//! Progress reports from a solve, phase by phase.

/// Receives progress reports; the command line shows them as progress bars.
pub trait Progress: Sync {
    /// The phases to come, in order, the next one to begin first, as far as the caller knows
    /// them: a receiver that counts phases ("phase 2 of 3") keeps the names it knows where they
    /// are and adds the others after them, so that a game's solve can announce its own phases
    /// and the engine's before the engine announces its own. By default ignored.
    fn plan(&self, phases: &[&str]) {
        let _ = phases;
    }
    /// A phase of `total` units of work begins.
    fn begin(&self, phase: &str, total: u64);
    /// `n` more units of the current phase are done.
    fn advance(&self, n: u64);
    /// The current phase is over.
    fn end(&self);
}

/// The phases a [`Progress`] receiver has been told of, for numbering them: "phase 2 of 3".
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PhasePlan(Vec<String>);

impl PhasePlan {
    /// Takes [`Progress::plan`]'s announcement: names known keep their place, the others
    /// follow them in order.
    pub fn announce(&mut self, phases: &[&str]) {
        for phase in phases {
            if !self.0.iter().any(|p| p == phase) {
                self.0.push(phase.to_string());
            }
        }
    }

    /// The number of `phase` among the phases known, from 1, and how many there are; a phase
    /// begun without being announced is added after the others.
    pub fn number(&mut self, phase: &str) -> (usize, usize) {
        let at = match self.0.iter().position(|p| p == phase) {
            Some(at) => at,
            None => {
                self.0.push(phase.to_string());
                self.0.len() - 1
            }
        };
        (at + 1, self.0.len())
    }
}

/// Reports nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn begin(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn end(&self) {}
}
