//! What a run shows: plots, a table, the key numbers and the verdict.

use super::json;
use super::Check;

/// What a run shows: plots, a table, the key numbers and the verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub charts: Vec<Chart>,
    pub table: Table,
    /// The numbers the verdict is computed from, by name (the tests read them).
    pub numbers: Vec<(&'static str, f64)>,
    /// `None` while the run is going on.
    pub verdict: Option<Verdict>,
    /// The verdict judged again under a perturbation of each of the
    /// experiment's choices (empty while the run is going on).
    pub checks: Vec<Check>,
}

impl Report {
    /// A finished report (its checks are the run's to add).
    pub fn new(
        charts: Vec<Chart>,
        table: Table,
        numbers: Vec<(&'static str, f64)>,
        verdict: Verdict,
    ) -> Report {
        Report {
            charts,
            table,
            numbers,
            verdict: Some(verdict),
            checks: Vec::new(),
        }
    }

    /// A report of nothing yet: no plots, an empty table, no numbers, no
    /// verdict.
    pub fn empty() -> Report {
        Report {
            charts: Vec::new(),
            table: Table::default(),
            numbers: Vec::new(),
            verdict: None,
            checks: Vec::new(),
        }
    }

    /// The key number `name` (NaN if there is none).
    pub fn number(&self, name: &str) -> f64 {
        self.numbers
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(f64::NAN, |(_, v)| *v)
    }

    /// The report as JSON, for the page, every point of every series.
    pub fn to_json(&self) -> String {
        json::report(self, usize::MAX)
    }

    /// The report as JSON with at most about `max_points` points per series
    /// (the lowest and highest of each run of neighbours), for a plot.
    pub fn to_json_thinned(&self, max_points: usize) -> String {
        json::report(self, max_points)
    }
}

/// A plot: series of points with labelled axes.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
    /// Both axes in metres at the same scale (traces in the plane).
    pub plane: bool,
    pub series: Vec<Series>,
}

impl Chart {
    pub fn new(title: &str, x_label: &str, y_label: &str) -> Chart {
        Chart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            log_y: false,
            plane: false,
            series: Vec::new(),
        }
    }
}

/// One line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<[f64; 2]>,
}

/// The table of measured numbers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

/// A cell of the table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Number(f64),
}

/// Whether the claim holds here, and why, in words computed from the data.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub status: Status,
    pub text: String,
    /// What this means for you: which setting to choose, in one line.
    pub advice: String,
    /// The choices (their names) under whose perturbation the status
    /// changes: the verdict depends on them.
    pub depends_on: Vec<&'static str>,
}

impl Verdict {
    /// A verdict depending on nothing yet (the run adds what it depends on).
    pub fn new(status: Status, text: impl Into<String>, advice: impl Into<String>) -> Verdict {
        Verdict {
            status,
            text: text.into(),
            advice: advice.into(),
            depends_on: Vec::new(),
        }
    }
}

/// The verdict's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Holds,
    Partly,
    DoesNotHold,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Holds => "holds",
            Status::Partly => "holds in part",
            Status::DoesNotHold => "does not hold",
        }
    }
}
