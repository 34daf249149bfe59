// The experiments at their limits, for the work-limits page (bench/limits.js),
// on the experiments page's own build (pkg/experiments/). For every experiment
// and a few settings (the defaults; every setting at its maximum; sizes,
// counts and durations at their maximum with the time steps at their minimum)
// it times the constructor (which steps nothing), the longest of the page's
// slices (`advance(WORK_PER_CALL)`, as www/experiments/runner.js calls it) over
// a fixed number of slices, and one `advance` with the largest budget accepted.
// Rows: { kind, call, what, units, ms (median), fastest }.

import init, { ExperimentRun, experimentDefinitions } from '../pkg/experiments/xpbd_cloth.js';
import { WORK_PER_CALL } from '../www/experiments/runner.js';
import { timeRounds } from './rounds.js';

/** The largest budget `ExperimentRun.advance` accepts (MAX_WORK_PER_CALL). */
const LARGEST_BUDGET = 1_500_000_000;

/** The settings tried for `definition`: [label, settings]. */
function candidates(definition, quick) {
  const all = (pick) => Object.fromEntries(definition.settings.map((s) => [s.name, pick(s)]));
  const heavy = all((s) => (/timeStep/i.test(s.name) ? s.min : s.max));
  const out = [['defaults', {}], ['every setting at its maximum', all((s) => s.max)], ['the time steps at their minimum, the rest at their maximum', heavy]];
  return quick ? out.slice(0, 1) : out;
}

/** The page's slices of `run`: the longest of `slices` calls, and the units it did. */
function longestSlice(run, slices) {
  let longest = { ms: 0, fastest: 0, units: 0 };
  for (let k = 0; k < slices && !run.done; k++) {
    const before = run.workDone;
    const time = timeRounds(() => run.advance(WORK_PER_CALL), 1);
    if (time.ms > longest.ms) longest = { ...time, units: run.workDone - before };
  }
  return longest;
}

/** The rows of one experiment at one setting. */
function experimentRows(definition, label, settings, quick) {
  const what = `${definition.id}, ${label}`;
  let run;
  const build = timeRounds(() => {
    try {
      run = new ExperimentRun(definition.id, settings);
    } catch (error) {
      run = { refused: `${error.code} ${error.field}` };
    }
  }, 1);
  if (run.refused) return [{ kind: 'experiments', call: 'constructor', what: `${what}: refused (${run.refused})`, units: 0, ...build }];
  try {
    const slice = longestSlice(run, quick ? 20 : 200);
    const before = run.workDone;
    const largest = timeRounds(() => run.advance(LARGEST_BUDGET), 1);
    return [
      { kind: 'experiments', call: 'constructor', what, units: 0, ...build },
      { kind: 'experiments', call: `advance(${WORK_PER_CALL}), the page's slice`, what, ...slice },
      { kind: 'experiments', call: 'advance(1.5e9)', what, units: run.workDone - before, ...largest },
    ];
  } finally {
    run.free();
  }
}

/** Every experiment at every candidate setting; `progress` hears of each. */
export async function searchExperiments(quick, progress, breathe) {
  await init();
  const rows = [];
  for (const definition of JSON.parse(experimentDefinitions())) {
    for (const [label, settings] of candidates(definition, quick)) {
      rows.push(...experimentRows(definition, label, settings, quick));
      progress(`experiment ${definition.id}, ${label}: ${rows.at(-1).call} ${rows.at(-1).ms.toFixed(0)} ms`);
      await breathe();
    }
  }
  return rows;
}
