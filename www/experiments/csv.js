// A chart's and a table's data as CSV, for the experiments page's Save CSV
// buttons. No DOM: the worker that runs the experiments uses it too.
//
//   chartCsv({ xLabel, yLabel, series: [{ label, points: [[x, y], …] }] }) // "series,x label,y label\n…"
//   tableCsv({ columns, rows })

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
