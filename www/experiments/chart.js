// A static chart of several series for the experiments page, drawn with canvas 2D:
// linear or logarithmic axes, or both axes in metres at one scale (traces in the
// plane), a legend on top. The axis scales and tick labels are those of the live
// plot (www/plot.js). Also the chart's data as CSV.
//
//   drawChart(canvas, { title, xLabel, yLabel, logX, logY, plane, series: [{ label, points: [[x, y], …] }] });
//   chartCsv(chart) // "series,x label,y label\n…"

import { niceScale, formatTick, drawLegendEntry, PLOT_LOOK } from '../demo/plot.js';

export const COLORS = Object.freeze(['#1f5fd1', '#d95f02', '#1b9e77', '#7570b3', '#e7298a', '#66a61e', '#a6761d', '#666666']);

const STYLE = Object.freeze({
  ...PLOT_LOOK,
  margin: Object.freeze({ left: 64, right: 16, top: 10, bottom: 40 }),
});

/** Whether a point can be drawn: finite, and positive on a log axis. */
function drawable([x, y], logX, logY) {
  return Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0);
}

/** An axis: maps values to 0..1 and lists its ticks with labels. */
function axis(values, log) {
  if (!values.length) values = log ? [1, 10] : [0, 1];
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (log) {
    const low = Math.floor(Math.log10(min));
    let high = Math.ceil(Math.log10(max));
    if (high === low) high += 1;
    const every = Math.max(1, Math.ceil((high - low) / 8));
    const ticks = [];
    for (let e = low; e <= high; e += every) ticks.push({ value: 10 ** e, label: `1e${e}` });
    return { at: (v) => (Math.log10(v) - low) / (high - low), ticks };
  }
  if (min > 0 && min < max * 0.5) min = 0; // start at 0 unless the values sit far from it
  if (max < 0 && max > min * 0.5) max = 0;
  if (max === min) {
    const pad = Math.abs(max) * 0.1 || 1;
    max += pad;
    min -= pad;
  }
  return linearAxis(min, max);
}

/** Decimals that show a multiple of `step` exactly (2.5 needs one). */
function decimalsOf(step) {
  for (let d = 0; d < 12; d += 1) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * scaled) return d;
  }
  return 12;
}

/** A tick label: as many decimals as the step needs; k or M suffixes as in the live plot. */
function tickLabel(value, step, span) {
  return span >= 1e4 ? formatTick(value, step, span) : value.toFixed(decimalsOf(step));
}

/** A linear axis over at least min..max, widened to round ticks. */
function linearAxis(min, max) {
  const { step } = niceScale(max - min, 5);
  const from = Math.floor(min / step + 1e-9) * step;
  const to = Math.ceil(max / step - 1e-9) * step;
  const span = Math.max(Math.abs(from), Math.abs(to));
  const ticks = [];
  for (let k = 0; from + k * step <= to + step * 1e-6; k += 1) {
    const v = from + k * step;
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
    color: COLORS[i % COLORS.length],
    points: s.points.map((p) => (p && drawable(p, chart.logX, chart.logY) ? p : null)),
  }));
  const legendHeight = drawLegend(ctx, series, size.width);
  const { left, right, top, bottom } = STYLE.margin;
  const frame = { left, top: top + legendHeight, width: size.width - left - right, height: size.height - top - legendHeight - bottom };
  if (frame.width < 20 || frame.height < 20) return;

  const all = series.flatMap((s) => s.points.filter(Boolean));
  let xAxis = axis(all.map((p) => p[0]), chart.logX);
  let yAxis = axis(all.map((p) => p[1]), chart.logY);
  if (chart.plane && !chart.logX && !chart.logY) [xAxis, yAxis] = equalScale(xAxis, yAxis, frame);
  const px = (x) => frame.left + xAxis.at(x) * frame.width;
  const py = (y) => frame.top + (1 - yAxis.at(y)) * frame.height;
  const plot = { ctx, frame, xAxis, yAxis, px, py };
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
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of xAxis.ticks) {
    const x = px(t.value);
    if (x >= frame.left - 1 && x <= frame.left + frame.width + 1) ctx.fillText(t.label, x, frame.top + frame.height + 4);
  }
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
    drawLegendEntry(ctx, s, x, y);
    x += w + 18;
  }
  return series.length ? (row + 1) * STYLE.legendRow : 0;
}

/** A CSV field: quoted when it holds a comma, quote or line break. */
function csvField(value) {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value ?? '');
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The chart's data: one row per point, `series,x,y`, with a header of the axis labels (a gap is an empty row of its series). */
export function chartCsv(chart) {
  const rows = [['series', chart.xLabel, chart.yLabel]];
  for (const s of chart.series) for (const [x, y] of s.points) rows.push([s.label, x ?? '', y ?? '']);
  return rows.map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}

/** A table `{ columns, rows }` as CSV. */
export function tableCsv(table) {
  return [table.columns, ...table.rows].map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}
