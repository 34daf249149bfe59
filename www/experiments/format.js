// Numbers on the experiments page, written for people: `2.45 J`, not
// `2.448e0 J`; `1.23 × 10⁻⁵`, not `1.230e-5`; a duration as `35 ms` or `2.4 s`,
// never `0.0 s`. The same rules as the verdicts' words (src/experiments/words.rs).

/** A no-break space: a number never wraps away from its unit ("0.4 %", "35 ms"). */
const NBSP = '\u00a0';

/** The units a number may stand before in the page's text (and the Rust side's). */
const UNIT_AFTER_NUMBER = /(\d) (?=(?:%|‰|°\/s|°|ms|s|J|m\/s|m|cm|mm|kg|N\/m|N|Hz|px|× ?10|×)(?![\w/]))/g;

const SUPERSCRIPT = Object.freeze({ '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' });

/** `10` with `exponent` as a superscript: `10⁻⁵`. */
export function powerOfTen(exponent) {
  return `10${[...String(exponent)].map((c) => SUPERSCRIPT[c]).join('')}`;
}

/** Drops the trailing zeros of a decimal: `2.50` → `2.5`, `3.00` → `3`. */
function trimZeros(text) {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/**
 * A number with `digits` significant digits (3 unless told): plain decimals from
 * 0.001 to 99 999, otherwise `1.23 × 10⁻⁵`; `–` for none, `−` for minus.
 */
export function formatNumber(value, digits = 3) {
  if (value === null || value === undefined) return '–';
  if (typeof value !== 'number') return String(value);
  if (Number.isNaN(value)) return '–';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  if (value === 0) return '0';
  let exponent = Math.floor(Math.log10(Math.abs(value)));
  let text;
  if (exponent >= -3 && exponent < 5) {
    text = trimZeros(value.toFixed(Math.max(0, digits - 1 - exponent)));
  } else {
    let mantissa = value / 10 ** exponent;
    if (Math.abs(Number(mantissa.toFixed(digits - 1))) >= 10) {
      mantissa /= 10;
      exponent += 1;
    }
    text = `${trimZeros(mantissa.toFixed(digits - 1))}${NBSP}×${NBSP}${powerOfTen(exponent)}`;
  }
  return text.replace('-', '−');
}

/** A number and its unit: `2.45 J`. */
export function formatQuantity(value, unit, digits) {
  const number = formatNumber(value, digits);
  return unit ? `${number}${NBSP}${unit}` : number;
}

/** A duration in milliseconds: `35 ms` below a second, `2.4 s` from one, `under 1 ms` below that. */
export function formatDuration(ms) {
  if (!(ms >= 1)) return `under 1${NBSP}ms`;
  if (ms < 1000) return `${Math.round(ms)}${NBSP}ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}${NBSP}s`;
}

/** `count` and its noun, singular for one: `1 substep`, `5 substeps`. */
export function plural(count, singular, pluralForm = `${singular}s`) {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/**
 * `text` (a verdict, a label, a table cell from the Rust side) with its numbers
 * for people: a number in exponent form (`2.448e0`, `1e-9`) becomes
 * `formatNumber`'s (`2.45`, `1 × 10⁻⁹`), and `1 substeps` / `1 iterations`
 * become singular, and a number keeps its unit on its line (a no-break space
 * between them). Other text is left as it is.
 */
export function readableText(text) {
  if (typeof text !== 'string') return text;
  return text
    .replace(/(?<![\w.])(-?\d+(?:\.\d+)?)e([-+]?\d+)(?![\w.])/g, (match) => (Number.isFinite(Number(match)) ? formatNumber(Number(match)) : match))
    .replace(/(?<![\w.])1 (substep|iteration)s\b/g, '1 $1')
    .replace(UNIT_AFTER_NUMBER, `$1${NBSP}`);
}

/** The words shown for each verdict status: findings, not errors. */
export const STATUS_WORDS = Object.freeze({ holds: 'Holds', partly: 'Holds in part', 'does-not-hold': 'Does not hold here' });

/** The badge of a verdict: its status, and what it depends on when a check changed it. */
export function badgeText(status, dependsOn = []) {
  const words = STATUS_WORDS[status] ?? status;
  return dependsOn.length ? `${words}, depends on ${dependsOn.join(' and ')}` : words;
}

/** How a choice is perturbed, in words: `twice`, `ten times`, `the other`, `at 0.01, 10⁻⁴ and 10⁻⁵`. */
function changeWords({ change }) {
  if (change.times === 2) return 'twice';
  if (change.times === 10) return 'ten times';
  if (change.times !== undefined) return `${formatNumber(change.times)} ×`;
  if (change.other) return 'the other';
  const values = change.values.map((v) => formatNumber(v));
  return `at ${values.length > 1 ? `${values.slice(0, -1).join(', ')} and ${values.at(-1)}` : values[0]}`;
}

/** The choices a definition declares, as the page lists them: `the iteration count (ten times)`. */
export function choicesText(choices = []) {
  return choices.map((choice) => `${choice.name} (${changeWords(choice)})`).join('; ');
}
