// A small live chart of two series over simulated time, drawn with canvas 2D.
//
// The demo page (www/demo/app.js) feeds it the cloth's maximum stretch and kinetic
// energy after every animation frame. It keeps a ring buffer of samples and draws
// the last `windowSeconds` of simulated time: stretch (%) on the left axis,
// energy (J) on the right axis, each with its own range, ticks and colour, a time
// axis below and a legend on top. No libraries; crisp at any devicePixelRatio.
//
//   const plot = createPlot(document.querySelector('canvas#plot'));
//   plot.add(time, maxStretch, kineticEnergy); // skips non-finite samples
//   plot.draw();
//   plot.clear(); // on restart

/**
 * How the two series look, their labels, and each axis' floor: an axis never
 * spans less than its floor, so numerical noise of a cloth at rest (a stretch of
 * 0.001 %, an energy of 1e-6 J) stays a flat line near 0 instead of filling the plot.
 */
export const SERIES = Object.freeze([
  Object.freeze({ key: 'stretch', label: 'Max stretch in % (left axis)', color: '#d95f02', unit: '%', floor: 1 }),
  Object.freeze({ key: 'energy', label: 'Kinetic energy in J (right axis)', color: '#1f5fd1', unit: 'J', floor: 0.01 }),
]);

/** The colours, font and legend row height of every plot: this one and www/experiments/chart.js. */
export const PLOT_LOOK = Object.freeze({
  background: '#ffffff',
  axis: '#5b6472',
  grid: '#e6e9ee',
  text: '#1d2430',
  font: '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  legendRow: 17,
});

const STYLE = Object.freeze({
  ...PLOT_LOOK,
  lineWidth: 1.5,
  margin: Object.freeze({ left: 54, right: 56, top: 14, bottom: 24 }),
});

// ---------------------------------------------------------------- ring buffer

/** Fixed-capacity buffer of (time, stretch, energy) samples; the oldest drop out. */
export class SampleRing {
  constructor(capacity) {
    this.capacity = capacity;
    this.time = new Float64Array(capacity);
    this.stretch = new Float64Array(capacity);
    this.energy = new Float64Array(capacity);
    this.start = 0;
    this.length = 0;
  }

  push(time, stretch, energy) {
    const slot = (this.start + this.length) % this.capacity;
    this.time[slot] = time;
    this.stretch[slot] = stretch;
    this.energy[slot] = energy;
    if (this.length < this.capacity) this.length += 1;
    else this.start = (this.start + 1) % this.capacity;
  }

  /** Buffer index of the k-th oldest sample. */
  index(k) {
    return (this.start + k) % this.capacity;
  }

  /** Time of the newest sample (NaN when empty). */
  get lastTime() {
    return this.length ? this.time[this.index(this.length - 1)] : NaN;
  }

  get firstTime() {
    return this.length ? this.time[this.start] : NaN;
  }

  clear() {
    this.start = 0;
    this.length = 0;
  }
}

// ---------------------------------------------------------------- scales

/** A round upper bound ≥ `max` and a tick step dividing it into about `ticks` parts. */
export function niceScale(max, ticks = 4) {
  const top = max > 0 && Number.isFinite(max) ? max : 1;
  const raw = top / ticks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * magnitude).find((s) => s >= raw);
  return { max: Math.ceil(top / step - 1e-9) * step, step };
}

/**
 * A tick label: few digits, never "NaN"; k or M suffixes when the axis reaches
 * `axisMax` ≥ 1e4 or ≥ 1e7 (the same suffix for every tick of an axis).
 */
export function formatTick(value, step, axisMax = Math.abs(value)) {
  if (!Number.isFinite(value)) return '';
  if (value === 0) return '0';
  if (axisMax >= 1e7) return `${trim(value / 1e6, step / 1e6)}M`;
  if (axisMax >= 1e4) return `${trim(value / 1e3, step / 1e3)}k`;
  return trim(value, step);
}

function trim(value, step) {
  const decimals = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step) - 1e-9));
  return value.toFixed(decimals);
}

// ---------------------------------------------------------------- the plot

/**
 * A live plot on `canvas` (sized by CSS). `windowSeconds` of simulated time are
 * shown; `capacity` samples are kept, at least windowSeconds/(capacity/2) apart.
 */
export function createPlot(canvas, { windowSeconds = 10, capacity = 2000 } = {}) {
  const context = canvas.getContext('2d');
  const ring = new SampleRing(capacity);
  const minSpacing = windowSeconds / (capacity / 2);

  function add(time, maxStretch, kineticEnergy) {
    if (![time, maxStretch, kineticEnergy].every(Number.isFinite)) return false;
    if (ring.length && time < ring.lastTime) ring.clear(); // time went back: a new cloth
    if (ring.length && time - ring.lastTime < minSpacing) return false;
    ring.push(time, maxStretch * 100, kineticEnergy);
    return true;
  }

  /** Where everything goes on a canvas of `size`: legend, time range, scales, frame. */
  function layout(size) {
    context.font = STYLE.font;
    const legend = layoutLegend(context, size);
    const range = timeRange(ring, windowSeconds);
    const visible = visibleSamples(ring, range.from);
    const scales = {
      stretch: niceScale(Math.max(maxOf(ring, 'stretch', visible), SERIES[0].floor)),
      energy: niceScale(Math.max(maxOf(ring, 'energy', visible), SERIES[1].floor)),
    };
    const labelWidths = [labelsWidth(context, scales.stretch, SERIES[0]), labelsWidth(context, scales.energy, SERIES[1])];
    return { legend, range, visible, scales, labelWidths, frame: plotFrame(size, legend.height, labelWidths) };
  }

  function draw() {
    const size = fitBackingStore(canvas);
    if (!size) return;
    context.setTransform(size.pixelRatio, 0, 0, size.pixelRatio, 0, 0);
    context.fillStyle = STYLE.background;
    context.fillRect(0, 0, size.width, size.height);
    const { legend, range, visible, scales, frame } = layout(size);
    if (frame.width < 10 || frame.height < 10) return;
    drawGrid(context, frame, scales.stretch);
    drawTimeAxis(context, frame, range);
    drawValueAxis(context, frame, scales.stretch, SERIES[0], 'left');
    drawValueAxis(context, frame, scales.energy, SERIES[1], 'right');
    for (const series of SERIES) drawSeries(context, frame, range, scales[series.key], ring, series, visible);
    drawLegend(context, legend);
    if (!ring.length) drawEmptyNote(context, frame);
  }

  return {
    add,
    draw,
    clear() {
      ring.clear();
    },
    /**
     * The axes as drawn now, for tests: the canvas' CSS size, the plotting frame,
     * each value axis' scale, tick labels and widest label (CSS px).
     */
    axes() {
      const size = { width: canvas.clientWidth, height: canvas.clientHeight };
      const { frame, scales, labelWidths, range } = layout(size);
      return {
        size,
        frame,
        range,
        stretch: { ...scales.stretch, labels: tickLabels(scales.stretch, SERIES[0].unit), widest: labelWidths[0] },
        energy: { ...scales.energy, labels: tickLabels(scales.energy, SERIES[1].unit), widest: labelWidths[1] },
      };
    },
    /** Number of samples kept. */
    get length() {
      return ring.length;
    },
    /** The kept samples, oldest first (stretch in %), for tests and debugging. */
    samples() {
      return Array.from({ length: ring.length }, (_, k) => {
        const i = ring.index(k);
        return { time: ring.time[i], stretch: ring.stretch[i], energy: ring.energy[i] };
      });
    },
  };
}

/** Sizes the backing store to CSS size × devicePixelRatio; returns the CSS size. */
function fitBackingStore(canvas) {
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (!(width > 0 && height > 0)) return null;
  const pixelRatio = window.devicePixelRatio || 1;
  const pixelWidth = Math.round(width * pixelRatio);
  const pixelHeight = Math.round(height * pixelRatio);
  if (canvas.width !== pixelWidth) canvas.width = pixelWidth;
  if (canvas.height !== pixelHeight) canvas.height = pixelHeight;
  return { width, height, pixelRatio };
}

/**
 * The plotting area: the margins leave room for the widest tick label of each
 * value axis (`labelWidths`: left, right), so no label is cut.
 */
function plotFrame(size, legendHeight, [leftLabels, rightLabels]) {
  const { top: gap, bottom } = STYLE.margin;
  const left = Math.max(STYLE.margin.left, Math.ceil(leftLabels) + 10);
  const right = Math.max(STYLE.margin.right, Math.ceil(rightLabels) + 10);
  const top = legendHeight + gap;
  return { left, top, width: size.width - left - right, height: size.height - top - bottom };
}

/** The tick labels of a value axis with `scale`, as drawValueAxis writes them. */
export function tickLabels(scale, unit) {
  const labels = [];
  for (let value = 0; value <= scale.max + 1e-9 * scale.max; value += scale.step) {
    labels.push(`${formatTick(value, scale.step, scale.max)} ${unit}`);
  }
  return labels;
}

/** The width of the widest tick label of a value axis, in CSS pixels. */
function labelsWidth(ctx, scale, series) {
  return Math.max(...tickLabels(scale, series.unit).map((label) => ctx.measureText(label).width));
}

/** The time window shown: the last windowSeconds, or the first ones before that. */
function timeRange(ring, windowSeconds) {
  if (!ring.length) return { from: 0, to: windowSeconds };
  const from = Math.max(ring.firstTime, ring.lastTime - windowSeconds);
  return { from, to: from + windowSeconds };
}

/** Position (k, oldest first) of the first sample at or after `from`. */
function visibleSamples(ring, from) {
  let k = 0;
  while (k < ring.length && ring.time[ring.index(k)] < from) k += 1;
  return k;
}

function maxOf(ring, key, firstVisible) {
  let max = 0;
  for (let k = firstVisible; k < ring.length; k += 1) max = Math.max(max, ring[key][ring.index(k)]);
  return max;
}

const crisp = (v) => Math.round(v) + 0.5; // 1 px lines on pixel centres

function drawGrid(ctx, frame, scale) {
  ctx.strokeStyle = STYLE.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let value = scale.step; value <= scale.max + 1e-9 * scale.max; value += scale.step) {
    const y = crisp(frame.top + frame.height * (1 - value / scale.max));
    ctx.moveTo(frame.left, y);
    ctx.lineTo(frame.left + frame.width, y);
  }
  ctx.stroke();
  ctx.strokeStyle = STYLE.axis;
  ctx.strokeRect(crisp(frame.left), crisp(frame.top), Math.round(frame.width), Math.round(frame.height));
}

function drawTimeAxis(ctx, frame, range) {
  const { step } = niceScale(range.to - range.from, 5);
  ctx.fillStyle = STYLE.text;
  ctx.strokeStyle = STYLE.axis;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.beginPath();
  const bottom = frame.top + frame.height;
  for (let t = Math.ceil(range.from / step - 1e-9) * step; t <= range.to + 1e-9; t += step) {
    const x = crisp(frame.left + ((t - range.from) / (range.to - range.from)) * frame.width);
    ctx.moveTo(x, bottom);
    ctx.lineTo(x, bottom + 4);
    ctx.fillText(`${formatTick(t, step, range.to)} s`, x, bottom + 6);
  }
  ctx.stroke();
}

function drawValueAxis(ctx, frame, scale, series, side) {
  const x = side === 'left' ? frame.left : frame.left + frame.width;
  const direction = side === 'left' ? -1 : 1;
  ctx.fillStyle = series.color;
  ctx.strokeStyle = series.color;
  ctx.textAlign = side === 'left' ? 'right' : 'left';
  ctx.textBaseline = 'middle';
  ctx.beginPath();
  for (const [k, label] of tickLabels(scale, series.unit).entries()) {
    const y = crisp(frame.top + frame.height * (1 - (k * scale.step) / scale.max));
    ctx.moveTo(crisp(x), y);
    ctx.lineTo(crisp(x) + 4 * direction, y);
    ctx.fillText(label, x + 6 * direction, y);
  }
  ctx.stroke();
}

function drawSeries(ctx, frame, range, scale, ring, series, firstVisible) {
  if (ring.length - firstVisible < 1) return;
  const values = ring[series.key];
  ctx.save();
  ctx.beginPath();
  ctx.rect(frame.left, frame.top, frame.width, frame.height);
  ctx.clip();
  ctx.strokeStyle = series.color;
  ctx.lineWidth = STYLE.lineWidth;
  ctx.lineJoin = 'round';
  ctx.beginPath();
  for (let k = firstVisible; k < ring.length; k += 1) {
    const i = ring.index(k);
    const x = frame.left + ((ring.time[i] - range.from) / (range.to - range.from)) * frame.width;
    const y = frame.top + frame.height * (1 - values[i] / scale.max);
    if (k === firstVisible) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.stroke();
  ctx.restore();
}

/** Where each legend entry goes: in one row when it fits, else one per row. */
function layoutLegend(ctx, size) {
  const items = [];
  let x = STYLE.margin.left;
  let row = 0;
  for (const series of SERIES) {
    const width = 24 + ctx.measureText(series.label).width;
    if (items.length && x + width > size.width - 4) {
      row += 1;
      x = STYLE.margin.left;
    }
    items.push({ series, x, y: 4 + row * STYLE.legendRow + STYLE.legendRow / 2 });
    x += width + 18;
  }
  return { items, height: 4 + (row + 1) * STYLE.legendRow };
}

function drawLegend(ctx, legend) {
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const { series, x, y } of legend.items) drawLegendEntry(ctx, series, x, y);
}

/**
 * One legend entry at (x, y), its vertical middle: a short line in the series'
 * `color`, then its `label` (the caller sets textAlign left, textBaseline middle).
 */
export function drawLegendEntry(ctx, { color, label }, x, y) {
  ctx.strokeStyle = color;
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x + 18, y);
  ctx.stroke();
  ctx.fillStyle = PLOT_LOOK.text;
  ctx.fillText(label, x + 24, y);
}

function drawEmptyNote(ctx, frame) {
  ctx.fillStyle = STYLE.axis;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText('waiting for the simulation…', frame.left + frame.width / 2, frame.top + frame.height / 2);
}
