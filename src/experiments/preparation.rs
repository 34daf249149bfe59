//! Work a run does before its trials: a computation its probes or its
//! report read (the exact static equilibrium of its cloth, say), done in
//! pieces within the same work budgets as the trials' steps, so a run on the
//! page's main thread never holds it for the whole computation.

/// A computation a run does before its trials, in pieces. What it computes
/// it keeps where the probes and the report look for it.
pub trait Preparation {
    /// Works until `budget` work units are spent (at least one piece) or it
    /// is done; returns the work units spent.
    fn advance(&mut self, budget: u64) -> u64;

    /// Whether it is done.
    fn is_done(&self) -> bool;

    /// The work units it is estimated to take at most, known before it runs
    /// (the run's progress counts it).
    fn work(&self) -> f64;
}
