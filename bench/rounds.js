// Timing for the work-limits page (bench/limits.js and the searches it runs):
// a call timed over a few rounds, reported as the median (what a run on a
// shared machine typically costs) and the fastest round (the one least
// disturbed by other work).

/**
 * Times `run` `rounds` times, calling `before` (untimed) ahead of each round;
 * returns `{ ms, fastest }`: the median and the fastest round, milliseconds.
 */
export function timeRounds(run, rounds, before = () => {}) {
  const times = [];
  for (let r = 0; r < rounds; r++) {
    before();
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const middle = times.length >> 1;
  const ms = times.length % 2 ? times[middle] : (times[middle - 1] + times[middle]) / 2;
  return { ms, fastest: times[0] };
}
