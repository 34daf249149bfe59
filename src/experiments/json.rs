//! The experiments' definitions and reports as JSON, for the page (no
//! serialisation library: the shapes are few and fixed).

use std::fmt::Write;

use super::thin::thin;
use super::{Cell, Change, Chart, Check, Choice, Definition, Report, Setting, Status};

/// A JSON string literal.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number; `null` for NaN and infinities (JSON has none).
pub fn number(value: f64) -> String {
    if value.is_finite() {
        // Rust's shortest round-trip form, which JSON.parse reads back exactly
        format!("{value:?}")
    } else {
        "null".into()
    }
}

fn list<T>(items: impl IntoIterator<Item = T>, item: impl Fn(T) -> String) -> String {
    let parts: Vec<String> = items.into_iter().map(item).collect();
    format!("[{}]", parts.join(","))
}

fn setting(s: &Setting) -> String {
    format!(
        "{{\"name\":{},\"label\":{},\"unit\":{},\"min\":{},\"max\":{},\"whole\":{},\"default\":{}}}",
        string(s.name),
        string(s.label),
        string(s.unit),
        number(s.min),
        number(s.max),
        s.whole,
        number(s.default)
    )
}

fn choice(c: &Choice) -> String {
    let change = match c.change {
        Change::Times(factor) => format!("{{\"times\":{}}}", number(factor)),
        Change::Values(values) => format!("{{\"values\":{}}}", list(values, |v| number(*v))),
        Change::Other => "{\"other\":true}".into(),
    };
    format!(
        "{{\"settings\":{},\"name\":{},\"change\":{change},\"measureOnly\":{},\"meaning\":{},\"advice\":{}}}",
        list(c.settings, |s| string(s)),
        string(c.name),
        c.measure_only,
        string(c.meaning),
        string(c.advice)
    )
}

/// Every definition: id, title, claim, source, method, rule, settings, the
/// key number's name and the choices the verdict depends on.
pub fn definitions(definitions: &[&Definition]) -> String {
    list(definitions, |d| {
        format!(
            "{{\"id\":{},\"title\":{},\"claim\":{},\"source\":{},\"method\":{},\"rule\":{},\"settings\":{},\"key\":{},\"choices\":{}}}",
            string(d.id),
            string(d.title),
            string(d.claim),
            string(d.source),
            string(d.method),
            string(d.rule),
            list(d.settings, setting),
            string(d.key),
            list(d.choices, choice)
        )
    })
}

/// A status as the page names it.
fn status(s: Status) -> &'static str {
    match s {
        Status::Holds => "holds",
        Status::Partly => "partly",
        Status::DoesNotHold => "does-not-hold",
    }
}

/// A check of a choice: the perturbation, its status (`null` when it could
/// not run, `note` saying why), its key number and whether it flips the
/// verdict of `verdict_status`.
fn check(c: &Check, verdict_status: Option<Status>) -> String {
    format!(
        "{{\"choice\":{},\"settings\":{},\"perturbation\":{},\"value\":{},\"perturbed\":{},\"status\":{},\"key\":{},\"flips\":{},\"note\":{}}}",
        string(c.choice),
        list(c.settings, |s| string(s)),
        string(&c.perturbation),
        number(c.value),
        number(c.perturbed),
        c.status.map_or("null".into(), |s| string(status(s))),
        number(c.key),
        verdict_status.is_some_and(|v| c.flips(v)),
        string(&c.note)
    )
}

/// A chart with at most `max_points` points per series (see [`thin`]).
fn chart(c: &Chart, max_points: usize) -> String {
    format!(
        "{{\"title\":{},\"xLabel\":{},\"yLabel\":{},\"logX\":{},\"logY\":{},\"plane\":{},\"series\":{}}}",
        string(&c.title),
        string(&c.x_label),
        string(&c.y_label),
        c.log_x,
        c.log_y,
        c.plane,
        list(&c.series, |s| format!(
            "{{\"label\":{},\"points\":{}}}",
            string(&s.label),
            list(thin(&s.points, max_points), |p| format!(
                "[{},{}]",
                number(p[0]),
                number(p[1])
            ))
        ))
    )
}

fn cell(c: &Cell) -> String {
    match c {
        Cell::Text(text) => string(text),
        Cell::Number(value) => number(*value),
    }
}

/// A report: charts (at most `max_points` points per series), table, key
/// numbers, the verdict (`null` while running, with `dependsOn`, the choices
/// whose perturbation changes it) and the checks of its choices.
pub fn report(r: &Report, max_points: usize) -> String {
    let verdict = r.verdict.as_ref().map_or("null".into(), |v| {
        format!(
            "{{\"status\":{},\"text\":{},\"advice\":{},\"dependsOn\":{}}}",
            string(status(v.status)),
            string(&v.text),
            string(&v.advice),
            list(&v.depends_on, |name| string(name))
        )
    });
    let verdict_status = r.verdict.as_ref().map(|v| v.status);
    format!(
        "{{\"charts\":{},\"table\":{{\"columns\":{},\"rows\":{}}},\"numbers\":{{{}}},\"verdict\":{},\"checks\":{}}}",
        list(&r.charts, |c| chart(c, max_points)),
        list(&r.table.columns, |c| string(c)),
        list(&r.table.rows, |row| list(row, cell)),
        r.numbers
            .iter()
            .map(|(name, value)| format!("{}:{}", string(name), number(*value)))
            .collect::<Vec<_>>()
            .join(","),
        verdict,
        list(&r.checks, |c| check(c, verdict_status))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_numbers_are_valid_json() {
        assert_eq!(string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(number(0.1), "0.1");
        assert_eq!(number(1e-7), "1e-7");
        assert_eq!(number(f64::NAN), "null");
        assert_eq!(number(f64::INFINITY), "null");
        assert_eq!(number(3.0), "3.0");
    }
}
