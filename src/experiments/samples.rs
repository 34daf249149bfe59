//! Reading a trial's samples: means, series and changes.

use super::Series;

/// `100 · |b − a| / |a|`: how much `b` differs from `a`, in percent.
pub fn percent_change(a: f64, b: f64) -> f64 {
    100.0 * (b - a).abs() / a.abs().max(1e-300)
}

/// The mean of column `column` of `samples` whose first value is at least `from`.
pub fn mean_after(samples: &[Vec<f64>], column: usize, from: f64) -> f64 {
    let values: Vec<f64> = samples
        .iter()
        .filter(|row| row[0] >= from)
        .map(|row| row[column])
        .collect();
    if values.is_empty() {
        f64::NAN
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// Column `column` of `samples` against their first value, as a series.
pub fn series(label: impl Into<String>, samples: &[Vec<f64>], column: usize) -> Series {
    Series {
        label: label.into(),
        points: samples.iter().map(|row| [row[0], row[column]]).collect(),
    }
}
