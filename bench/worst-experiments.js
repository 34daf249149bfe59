// The experiments at their limits, for the work-limits page (bench/limits.js),
// on the experiments page's own build (pkg/experiments/). For every experiment
// and a few settings (the defaults; every setting at its maximum; sizes,
// counts and durations at their maximum with the time steps at their minimum)
// (a setting the experiment refuses is halved until it accepts, and said) it
// times the constructor (which steps nothing), the longest of the page's
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

/**
 * `settings` made acceptable: while the experiment refuses them (the work
 * limit, naming a size), the duration is halved towards its minimum (the
 * run's total work), then the setting named. Returns the settings and what
 * was lowered.
 */
function accepted(definition, settings) {
  const given = { ...settings };
  const lowered = [];
  const above = (setting) => setting && given[setting.name] !== undefined && given[setting.name] > setting.min;
  const duration = definition.settings.find((s) => s.name === 'duration');
  for (let tries = 0; tries < 30; tries++) {
    try {
      new ExperimentRun(definition.id, given).free();
      break;
    } catch (error) {
      const named = definition.settings.find((s) => s.name === error.field);
      const setting = above(duration) ? duration : named;
      if (!above(setting)) break;
      const half = Math.max(setting.min, given[setting.name] / 2);
      given[setting.name] = setting.whole ? Math.round(half) : half;
      lowered.push(`${setting.name} ${given[setting.name]}`);
    }
  }
  return { settings: given, lowered: [...new Set(lowered.map((l) => l.split(' ')[0]))].map((n) => `${n} ${given[n]}`) };
}

/** The rows of one experiment at one setting. */
function experimentRows(definition, label, wanted, quick) {
  const { settings, lowered } = accepted(definition, wanted);
  const what = `${definition.id}, ${label}${lowered.length ? ` (lowered to be accepted: ${lowered.join(', ')})` : ''}`;
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
