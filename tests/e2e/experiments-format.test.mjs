// The experiments page's numbers and verdict words for people
// (www/experiments/format.js) and the chart's range of a very long series
// (www/experiments/chart.js), in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badgeText, choicesText, formatDuration, formatNumber, formatQuantity, plural, readableText } from '../../www/experiments/format.js';
import { extent } from '../../www/experiments/chart.js';

test('numbers read as people write them', () => {
  const cases = [
    [2.448, '2.45'],
    [0.4712, '0.471'],
    [12, '12'],
    [1234.6, '1235'],
    [0.001234, '0.00123'],
    [1.234e-5, '1.23 × 10⁻⁵'],
    [-9.996e-7, '−1 × 10⁻⁶'],
    [6e10, '6 × 10¹⁰'],
    [0, '0'],
    [NaN, '–'],
    [null, '–'],
  ];
  for (const [value, text] of cases) assert.equal(formatNumber(value), text, String(value));
  assert.equal(formatNumber(1.23456e-5, 4), '1.235 × 10⁻⁵');
  assert.equal(plural(1, 'substep'), '1 substep');
  assert.equal(plural(5, 'substep'), '5 substeps');
});

test('durations: never "0.0 s"', () => {
  assert.equal(formatDuration(0.3), 'under 1 ms');
  assert.equal(formatDuration(35.4), '35 ms');
  assert.equal(formatDuration(2400), '2.4 s');
  assert.equal(formatDuration(65_000), '65 s');
});

test('the Rust side\'s words get numbers for people, and nothing else changes', () => {
  assert.equal(readableText('is 2.448e0 J without damping and 4.680e-1 J'), 'is 2.45 J without damping and 0.468 J');
  assert.equal(readableText('β = 1.000e1 N·s/m, below 3e-8'), 'β = 10 N·s/m, below 3 × 10⁻⁸');
  assert.equal(readableText('with 1 substeps and 1 iterations; 11 substeps'), 'with 1 substep and 1 iteration; 11 substeps');
  for (const same of ['from 10 to 100 iterations', 'x1e5', 'version 1.2.3e', 'in 2 more runs', '1e400']) {
    assert.equal(readableText(same), same);
  }
});

test('a number never wraps away from its unit: a no-break space joins them', () => {
  assert.equal(readableText('holds: 5.9 % (within 10 %), 0.4 % in 35 ms at 2 m/s'), 'holds: 5.9\u00a0% (within 10\u00a0%), 0.4\u00a0% in 35\u00a0ms at 2\u00a0m/s');
  assert.equal(formatQuantity(2.448, 'J'), '2.45\u00a0J');
  assert.equal(formatDuration(35.4), '35\u00a0ms');
  assert.doesNotMatch(readableText('5 steps of 2 sweeps'), /\u00a0/, 'a count and a word that is no unit stay apart');
});

test('a chart\'s range of a million points (a spread into Math.min overflows the stack)', () => {
  const values = Array.from({ length: 1_000_000 }, (_, i) => i % 1000);
  assert.deepEqual(extent(values), [0, 999]);
  assert.throws(() => Math.min(...values), RangeError, 'the spread this replaces');
});

test('a verdict badge names what the verdict depends on; the choices read as the page lists them', () => {
  assert.equal(badgeText('holds'), 'Holds');
  assert.equal(badgeText('partly', []), 'Holds in part');
  assert.equal(badgeText('does-not-hold', ['the sweep order', 'the simulated time']), 'Does not hold here, depends on the sweep order and the simulated time');
  const choices = [
    { name: 'the iteration count', change: { times: 10 } },
    { name: 'the simulated time', change: { times: 2 } },
    { name: 'the sweep order', change: { other: true } },
    { name: 'the residual level', change: { values: [0.01, 1e-4, 1e-5] } },
  ];
  assert.equal(
    choicesText(choices),
    'the iteration count (ten times); the simulated time (twice); the sweep order (the other); the residual level (at 0.01, 1 × 10⁻⁴ and 1 × 10⁻⁵)',
  );
  assert.equal(choicesText([]), '');
});
