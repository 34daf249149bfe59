//! Numbers in the experiments' words, written for people: `2.45 J`, not
//! `2.448e0 J`; `1 substep`, not `1 substeps`.

/// `value` with three significant digits and `unit` (none when it is `""`):
/// plain decimals from 0.001 to 99 999, otherwise `1.23 × 10⁻⁵`; a minus
/// sign, not a hyphen, as the page writes numbers.
pub fn quantity(value: f64, unit: &str) -> String {
    let number = number(value);
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

/// [`quantity`] without a unit.
pub fn number(value: f64) -> String {
    number_to(value, 3)
}

/// [`quantity`] with `digits` significant digits (at least 1), for values
/// whose small differences matter (two late energies compared, say).
pub fn quantity_to(value: f64, digits: u32, unit: &str) -> String {
    let number = number_to(value, digits);
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

/// `value` with `digits` significant digits, written as [`number`] writes it.
fn number_to(value: f64, digits: u32) -> String {
    let digits = digits.max(1) as i32;
    if !value.is_finite() {
        return if value.is_nan() {
            "–".into()
        } else if value > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    if value == 0.0 {
        return "0".into();
    }
    let magnitude = value.abs();
    let exponent = magnitude.log10().floor() as i32;
    if (-3..5).contains(&exponent) {
        let decimals = (digits - 1 - exponent).max(0) as usize;
        let text = format!("{value:.decimals$}");
        return trim_zeros(&text).replace('-', "−");
    }
    let mantissa = value / 10f64.powi(exponent);
    // rounding may carry the mantissa to 10
    let scale = 10f64.powi(digits - 1);
    let (mantissa, exponent) = if (mantissa.abs() * scale).round() >= 10.0 * scale {
        (mantissa / 10.0, exponent + 1)
    } else {
        (mantissa, exponent)
    };
    let decimals = (digits - 1) as usize;
    let mantissa = trim_zeros(&format!("{mantissa:.decimals$}"));
    format!(
        "{} × 10{}",
        mantissa.replace('-', "−"),
        superscript(exponent)
    )
}

/// `count` and the noun, singular for one: `1 substep`, `5 substeps`.
pub fn count(count: u32, singular: &str, plural: &str) -> String {
    format!("{count} {}", if count == 1 { singular } else { plural })
}

fn trim_zeros(text: &str) -> String {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text.to_string()
    }
}

fn superscript(exponent: i32) -> String {
    exponent
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(quantity(2.448, "J"), "2.45 J");
        assert_eq!(quantity(0.4712, "J"), "0.471 J");
        assert_eq!(quantity(12.0, "s"), "12 s");
        assert_eq!(quantity(1234.6, ""), "1235");
        assert_eq!(quantity(0.001234, "m"), "0.00123 m");
        assert_eq!(quantity(1.234e-5, "m"), "1.23 × 10⁻⁵ m");
        assert_eq!(quantity(-9.996e-7, "m"), "−1 × 10⁻⁶ m");
        assert_eq!(quantity(6e10, ""), "6 × 10¹⁰");
        assert_eq!(quantity(0.0, "J"), "0 J");
        assert_eq!(number(f64::NAN), "–");
        assert_eq!(count(1, "substep", "substeps"), "1 substep");
        assert_eq!(count(5, "substep", "substeps"), "5 substeps");
        assert_eq!(quantity_to(-12.34567, 5, "J"), "−12.346 J");
        assert_eq!(quantity_to(1.23456e-7, 4, "J"), "1.235 × 10⁻⁷ J");
        assert_eq!(quantity_to(9.99996e-7, 4, ""), "1 × 10⁻⁶");
    }
}
