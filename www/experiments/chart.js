// A static chart of several series for the experiments page, drawn with canvas 2D:
// linear or logarithmic axes, or both axes in metres at one scale (traces in the
// plane), a legend on top. The axis scales come from the live plot's
// (www/demo/plot.js). The time (x) axis ends where the data ends (10 s of data,
// an axis to 10 s); the left margin fits the widest tick label, so no label is
// cut; a series of nearly equal values is not magnified into noise.
//
//   drawChart(canvas, { title, xLabel, yLabel, logX, logY, plane, series: [{ label, points: [[x, y], …] }] });

import { niceScale, formatTick, drawLegendEntry, PLOT_LOOK } from '../demo/plot.js';
import { powerOfTen } from './format.js';

export const COLORS = Object.freeze(['#1f5fd1', '#d95f02', '#1b9e77', '#7570b3', '#e7298a', '#66a61e', '#a6761d', '#666666']);

/** The line of the `round`-th use of the colours (0: solid, then dashed, dotted): a sweep of more series than colours never draws two alike. */
export const DASHES = Object.freeze([Object.freeze([]), Object.freeze([7, 4]), Object.freeze([2, 3])]);

/** The colour and dash of series `index`. */
export function seriesLook(index) {
  const round = Math.floor(index / COLORS.length);
  return { color: COLORS[index % COLORS.length], dash: DASHES[round % DASHES.length] };
}

const STYLE = Object.freeze({
  ...PLOT_LOOK,
  margin: Object.freeze({ left: 64, right: 16, top: 10, bottom: 40 }),
});

/**
 * The smallest span a linear y axis shows, relative to the size of its values:
 * below it, differences are single precision's round-off, not the data.
 */
const NOISE_FLOOR = 1e-6;

/** Whether a point can be drawn: finite, and positive on a log axis. */
function drawable([x, y], logX, logY) {
  return Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0);
}

/** The least and the greatest of `values` (a loop: a spread of 100 000 values overflows the stack). */
export function extent(values) {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

/** A logarithmic axis over the decades around min..max. */
function logAxis(min, max) {
  const low = Math.floor(Math.log10(min));
  let high = Math.ceil(Math.log10(max));
  if (high === low) high += 1;
  const every = Math.max(1, Math.ceil((high - low) / 8));
  const ticks = [];
  for (let e = low; e <= high; e += every) ticks.push({ value: 10 ** e, label: e >= 0 && e <= 3 ? String(10 ** e) : powerOfTen(e) });
  return { at: (v) => (Math.log10(v) - low) / (high - low), ticks };
}

/**
 * An axis: maps values to 0..1 and lists its ticks with labels. A `tight` axis
 * (the x axis) spans exactly the data; another is widened to round ticks.
 */
function axis(values, log, tight = false) {
  if (!values.length) values = log ? [1, 10] : [0, 1];
  let [min, max] = extent(values);
  if (log) return logAxis(min, max);
  if (min > 0 && min < max * 0.5) min = 0; // start at 0 unless the values sit far from it
  if (max < 0 && max > min * 0.5) max = 0;
  const floor = NOISE_FLOOR * Math.max(Math.abs(min), Math.abs(max));
  if (max - min <= floor) {
    const middle = (max + min) / 2;
    const pad = floor / 2 || 1;
    max = middle + pad;
    min = middle - pad;
  }
  return linearAxis(min, max, tight);
}

/** Decimals that show a multiple of `step` exactly (2.5 needs one). */
function decimalsOf(step) {
  for (let d = 0; d < 12; d += 1) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * scaled) return d;
  }
  return 12;
}

/** A tick label: as many decimals as the step needs; k or M suffixes as in the live plot; a power of ten for tiny steps. */
function tickLabel(value, step, span) {
  if (span >= 1e4) return formatTick(value, step, span);
  const decimals = decimalsOf(step);
  if (decimals <= 5 || value === 0) return value.toFixed(Math.min(decimals, 5));
  const exponent = Math.floor(Math.log10(step));
  const mantissa = value / 10 ** exponent;
  return `${Number(mantissa.toFixed(1))}×${powerOfTen(exponent)}`;
}

/** A linear axis over min..max: widened to round ticks, or (`tight`) exactly min..max with the round ticks inside. */
function linearAxis(min, max, tight = false) {
  const { step } = niceScale(max - min, 5);
  // a relative tolerance: 10 s of data summed in f32 may end at 10.0000001 s
  const firstTick = Math.ceil(min / step - 1e-6) * step;
  const lastTick = Math.floor(max / step + 1e-6) * step;
  const from = tight ? min : Math.floor(min / step + 1e-6) * step;
  const to = tight ? max : Math.ceil(max / step - 1e-6) * step;
  const span = Math.max(Math.abs(from), Math.abs(to));
  const ticks = [];
  const count = Math.round(((tight ? lastTick : to) - (tight ? firstTick : from)) / step);
  for (let k = 0; k <= Math.min(count, 100); k += 1) {
    const v = (tight ? firstTick : from) + k * step;
    ticks.push({ value: v, label: tickLabel(Math.abs(v) < step * 1e-9 ? 0 : v, step, span) });
  }
  return { at: (v) => (v - from) / (to - from || 1), ticks, from, to };
}

/** Widens the shorter of two linear axes so one metre is as long on both. */
function equalScale(xAxis, yAxis, frame) {
  const perMetre = Math.min(frame.width / (xAxis.to - xAxis.from), frame.height / (yAxis.to - yAxis.from));
  const widen = (a, pixels) => {
    const middle = (a.from + a.to) / 2;
    const half = pixels / perMetre / 2;
    const from = middle - half;
    const to = middle + half;
    const { ticks } = linearAxis(from, to);
    return { from, to, at: (v) => (v - from) / (to - from), ticks };
  };
  return [widen(xAxis, frame.width), widen(yAxis, frame.height)];
}

function fitBackingStore(canvas) {
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  const pixelRatio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * pixelRatio);
  canvas.height = Math.round(height * pixelRatio);
  return { width, height, pixelRatio };
}

/** Draws `chart` on `canvas` (sized by CSS). */
export function drawChart(canvas, chart) {
  const ctx = canvas.getContext('2d');
  const size = fitBackingStore(canvas);
  ctx.setTransform(size.pixelRatio, 0, 0, size.pixelRatio, 0, 0);
  ctx.fillStyle = STYLE.background;
  ctx.fillRect(0, 0, size.width, size.height);
  ctx.font = STYLE.font;

  // a point that cannot be drawn (null: a gap on purpose) lifts the pen
  const series = chart.series.map((s, i) => ({
    ...s,
    ...seriesLook(i),
    points: s.points.map((p) => (p && drawable(p, chart.logX, chart.logY) ? p : null)),
  }));
  const legendHeight = drawLegend(ctx, series, size.width);
  const all = series.flatMap((s) => s.points.filter(Boolean));
  let xAxis = axis(all.map((p) => p[0]), chart.logX, !chart.plane);
  let yAxis = axis(all.map((p) => p[1]), chart.logY);
  const { right, top, bottom } = STYLE.margin;
  const left = Math.max(STYLE.margin.left, 30 + widestLabel(ctx, yAxis.ticks));
  const frame = { left, top: top + legendHeight, width: size.width - left - right, height: size.height - top - legendHeight - bottom };
  if (frame.width < 20 || frame.height < 20) return;
  if (chart.plane && !chart.logX && !chart.logY) [xAxis, yAxis] = equalScale(xAxis, yAxis, frame);
  const px = (x) => frame.left + xAxis.at(x) * frame.width;
  const py = (y) => frame.top + (1 - yAxis.at(y)) * frame.height;
  const plot = { ctx, frame, xAxis, yAxis, px, py };
  // what the axes show, for the page's tests and for readers of the DOM
  const shown = (a) => ({ from: a.from ?? null, to: a.to ?? null, labels: a.ticks.map((t) => t.label) });
  canvas.dataset.axes = JSON.stringify({ x: shown(xAxis), y: shown(yAxis), left, yLabelWidth: widestLabel(ctx, yAxis.ticks) });
  drawGrid(plot);
  drawAxisLabels(plot, chart);
  drawSeries(plot, series);
  if (!all.length) {
    ctx.fillStyle = STYLE.axis;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('no data yet', frame.left + frame.width / 2, frame.top + frame.height / 2);
  }
}

/** The width of the widest tick label, CSS px. */
function widestLabel(ctx, ticks) {
  let widest = 0;
  for (const t of ticks) widest = Math.max(widest, ctx.measureText(t.label).width);
  return widest;
}

// The parts of a chart below draw on `plot`: `ctx`, the plot `frame` (CSS px),
// the axes and `px`/`py`, which map data to CSS px.

/** The grid lines at the ticks, and the frame. */
function drawGrid({ ctx, frame, xAxis, yAxis, px, py }) {
  ctx.strokeStyle = STYLE.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of yAxis.ticks) {
    const y = Math.round(py(t.value)) + 0.5;
    if (y < frame.top - 1 || y > frame.top + frame.height + 1) continue;
    ctx.moveTo(frame.left, y);
    ctx.lineTo(frame.left + frame.width, y);
  }
  for (const t of xAxis.ticks) {
    const x = Math.round(px(t.value)) + 0.5;
    if (x < frame.left - 1 || x > frame.left + frame.width + 1) continue;
    ctx.moveTo(x, frame.top);
    ctx.lineTo(x, frame.top + frame.height);
  }
  ctx.stroke();
  ctx.strokeStyle = STYLE.axis;
  ctx.strokeRect(Math.round(frame.left) + 0.5, Math.round(frame.top) + 0.5, Math.round(frame.width), Math.round(frame.height));
}

/** The tick labels and the axes' names of `chart`. */
function drawAxisLabels({ ctx, frame, xAxis, yAxis, px, py }, chart) {
  ctx.fillStyle = STYLE.text;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of yAxis.ticks) {
    const y = py(t.value);
    if (y >= frame.top - 1 && y <= frame.top + frame.height + 1) ctx.fillText(t.label, frame.left - 6, y);
  }
  ctx.textBaseline = 'top';
  const canvasWidth = frame.left + frame.width + STYLE.margin.right;
  for (const t of xAxis.ticks) {
    const x = px(t.value);
    if (x < frame.left - 1 || x > frame.left + frame.width + 1) continue;
    // a label at an edge stays inside the canvas
    const half = ctx.measureText(t.label).width / 2;
    ctx.textAlign = x + half > canvasWidth - 2 ? 'right' : x - half < 2 ? 'left' : 'center';
    ctx.fillText(t.label, ctx.textAlign === 'right' ? canvasWidth - 2 : ctx.textAlign === 'left' ? 2 : x, frame.top + frame.height + 4);
  }
  ctx.textAlign = 'center';
  ctx.fillText(chart.xLabel, frame.left + frame.width / 2, frame.top + frame.height + 21);
  ctx.save();
  ctx.translate(12, frame.top + frame.height / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'middle';
  ctx.fillText(chart.yLabel, 0, 0);
  ctx.restore();
}

/** The series, clipped to the frame: lines, and a dot on each point of short ones. */
function drawSeries({ ctx, frame, px, py }, series) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(frame.left, frame.top, frame.width, frame.height);
  ctx.clip();
  for (const s of series) {
    ctx.strokeStyle = s.color;
    ctx.fillStyle = s.color;
    ctx.lineWidth = 1.5;
    ctx.lineJoin = 'round';
    ctx.setLineDash(s.dash);
    ctx.beginPath();
    let penDown = false;
    for (const point of s.points) {
      if (!point) {
        penDown = false;
        continue;
      }
      if (penDown) ctx.lineTo(px(point[0]), py(point[1]));
      else ctx.moveTo(px(point[0]), py(point[1]));
      penDown = true;
    }
    ctx.stroke();
    ctx.setLineDash([]);
    const points = s.points.filter(Boolean);
    if (points.length <= 30) {
      for (const [x, y] of points) {
        ctx.beginPath();
        ctx.arc(px(x), py(y), 3, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
  }
  ctx.restore();
}

/** Draws the legend rows at the top; returns their height. */
function drawLegend(ctx, series, width) {
  let x = STYLE.margin.left;
  let row = 0;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const s of series) {
    const w = 24 + ctx.measureText(s.label).width;
    if (x > STYLE.margin.left && x + w > width - 4) {
      row += 1;
      x = STYLE.margin.left;
    }
    const y = STYLE.margin.top + row * STYLE.legendRow + STYLE.legendRow / 2;
    ctx.setLineDash(s.dash);
    drawLegendEntry(ctx, s, x, y);
    ctx.setLineDash([]);
    x += w + 18;
  }
  return series.length ? (row + 1) * STYLE.legendRow : 0;
}
