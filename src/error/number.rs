//! Numbers in messages, shown the way JavaScript shows them: the shortest
//! digits that read back as the same number, `NaN`, `Infinity`, and exponent
//! form for very large or small values.
//!
//! The shortest digits come from the `ryu` crate (the algorithm std and
//! JavaScript engines share in spirit, with small tables), laid out here;
//! `core::fmt`'s own float formatting would add about 40 KB of code and
//! tables to the wasm module for messages alone (docs/limits.md).

use std::fmt;

/// A number shown the way JavaScript shows it in messages: `NaN`, `Infinity`,
/// `-Infinity`, and exponent form for very large or small values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number(pub f64);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            f.write_str("NaN")
        } else if v.is_infinite() {
            f.write_str(if v < 0.0 { "-Infinity" } else { "Infinity" })
        } else if v == 0.0 || (1e-7..1e21).contains(&v.abs()) {
            Shortest::of(v).write_plain(f)
        } else {
            Shortest::of(v).write_exponent(f)
        }
    }
}

/// A finite number written out without an exponent, as Rust's `{}` writes
/// it: the limits in messages (`1000000`, `0.00000001`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plain(pub f64);

impl fmt::Display for Plain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() {
            Shortest::of(self.0).write_plain(f)
        } else {
            Number(self.0).fmt(f)
        }
    }
}

/// Most significant digits a shortest form has (17 for an `f64`).
const MAX_DIGITS: usize = 17;

/// A finite number as its shortest decimal digits: the value is
/// `digits × 10^exponent`, with no leading or trailing zero in `digits`
/// (zero is the one digit `0`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shortest {
    negative: bool,
    digits: [u8; MAX_DIGITS],
    count: usize,
    exponent: i32,
}

impl Shortest {
    /// The shortest digits of a finite `f64` that read back as the same `f64`.
    pub fn of(value: f64) -> Shortest {
        Shortest::parse(ryu::Buffer::new().format_finite(value))
    }

    /// Reads ryu's output: `-`, digits with at most one `.`, then `e` and a
    /// signed exponent (`1.5e-8`, `123.0`, `-0.0`).
    fn parse(text: &str) -> Shortest {
        let mut shortest = Shortest {
            negative: text.starts_with('-'),
            digits: [0; MAX_DIGITS],
            count: 0,
            exponent: 0,
        };
        let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
        let mut fraction = None;
        for byte in mantissa.bytes() {
            match byte {
                b'.' => fraction = Some(0),
                b'0'..=b'9' => {
                    if (shortest.count > 0 || byte != b'0') && shortest.count < MAX_DIGITS {
                        shortest.digits[shortest.count] = byte;
                        shortest.count += 1;
                    }
                    fraction = fraction.map(|n: i32| n + 1);
                }
                _ => {}
            }
        }
        shortest.exponent = read_exponent(exponent) - fraction.unwrap_or(0);
        while shortest.count > 0 && shortest.digits[shortest.count - 1] == b'0' {
            shortest.count -= 1;
            shortest.exponent += 1;
        }
        if shortest.count == 0 {
            shortest.digits[0] = b'0';
            shortest.count = 1;
            shortest.exponent = 0;
        }
        shortest
    }

    /// The digits, as text.
    fn digits(&self) -> &str {
        self.digits_in(0, self.count)
    }

    /// The digits from `start` to `end`, as text (byte slices, so no
    /// char-boundary check and its panic message is linked in).
    fn digits_in(&self, start: usize, end: usize) -> &str {
        let bytes = self.digits.get(start..end.min(self.count)).unwrap_or(&[]);
        // only ASCII digits are stored
        std::str::from_utf8(bytes).unwrap_or("")
    }

    /// Writes the number without an exponent, as Rust's `{}` does: `1000000`,
    /// `0.000001`, `-2.5`, `-0`.
    fn write_plain(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        let digits = self.digits();
        let point = self.count as i32 + self.exponent;
        if self.exponent >= 0 {
            f.write_str(digits)?;
            write_zeros(f, self.exponent)
        } else if point > 0 {
            let point = point as usize;
            f.write_str(self.digits_in(0, point))?;
            f.write_str(".")?;
            f.write_str(self.digits_in(point, self.count))
        } else {
            f.write_str("0.")?;
            write_zeros(f, -point)?;
            f.write_str(digits)
        }
    }

    /// Writes the number in exponent form, as Rust's `{:e}` does: `1e21`,
    /// `-1.5e-8`.
    fn write_exponent(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        f.write_str(self.digits_in(0, 1))?;
        if self.count > 1 {
            f.write_str(".")?;
            f.write_str(self.digits_in(1, self.count))?;
        }
        write!(f, "e{}", self.exponent + self.count as i32 - 1)
    }
}

/// A decimal exponent as ryu writes it (`-8`, `21`); 0 for anything else.
fn read_exponent(text: &str) -> i32 {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = digits
        .bytes()
        .filter(u8::is_ascii_digit)
        .fold(0i32, |e, d| {
            e.saturating_mul(10).saturating_add(i32::from(d - b'0'))
        });
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// Writes `count` zeros.
fn write_zeros(f: &mut fmt::Formatter<'_>, count: i32) -> fmt::Result {
    (0..count).try_for_each(|_| f.write_str("0"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the messages showed with std's float formatting: the reference.
    fn std_shown(v: f64) -> String {
        if v.is_nan() {
            "NaN".into()
        } else if v.is_infinite() {
            format!("{}Infinity", if v < 0.0 { "-" } else { "" })
        } else if v == 0.0 || (1e-7..1e21).contains(&v.abs()) {
            format!("{v}")
        } else {
            format!("{v:e}")
        }
    }

    #[test]
    fn numbers_read_as_javascript_and_std_show_them() {
        let cases = [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (0.05, "0.05"),
            (-9.81, "-9.81"),
            (1e15, "1000000000000000"),
            (1e-6, "0.000001"),
            (1e-7, "0.0000001"),
            (1e-8, "1e-8"),
            (1.5e-10, "1.5e-10"),
            (1e21, "1e21"),
            (-2.5e300, "-2.5e300"),
            (123456.789, "123456.789"),
            (f64::MAX, "1.7976931348623157e308"),
            (5e-324, "5e-324"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (v, shown) in cases {
            assert_eq!(Number(v).to_string(), shown, "{v:e}");
            assert_eq!(std_shown(v), shown, "the reference agrees for {v:e}");
            if v.is_finite() {
                assert_eq!(Plain(v).to_string(), format!("{v}"));
            }
        }
    }

    /// Arbitrary inputs (proptest runs natively only).
    #[cfg(not(target_arch = "wasm32"))]
    mod arbitrary {
        use super::*;
        use proptest::prelude::*;

        /// Where `shown` and std's `expected` may differ: a number exactly halfway
        /// between two shortest forms, where ryu and std choose different last
        /// digits; both read back as the same number, with as many digits.
        fn same_number(shown: &str, expected: &str, v: f64) -> bool {
            shown == expected
                || (shown.len() == expected.len() && shown.parse::<f64>().ok() == Some(v))
        }

        proptest! {
            #[test]
            fn every_f64_reads_as_std_shows_it(bits in any::<u64>()) {
                let v = f64::from_bits(bits);
                let shown = Number(v).to_string();
                prop_assert!(same_number(&shown, &std_shown(v), v), "{} vs {}", shown, std_shown(v));
                if v.is_finite() {
                    let plain = Plain(v).to_string();
                    prop_assert!(same_number(&plain, &format!("{v}"), v), "{} vs {}", plain, v);
                }
            }

            #[test]
            fn scaled_numbers_read_as_std_shows_them(m in -1_000_000i64..1_000_000, e in -30i32..30) {
                let v = m as f64 * 10f64.powi(e);
                prop_assert!(same_number(&Number(v).to_string(), &std_shown(v), v));
            }
        }
    }
}
