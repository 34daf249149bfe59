// The largest value a Simulation setter accepts: the work limits refuse any
// setting whose step would cost too much, so the heaviest accepted settings are
// found by asking the Simulation itself. Used by the work-limits page
// (bench/limits.js) and by the main-thread test (tests/e2e/long-tasks.test.mjs).

/** The largest whole value from `low` to `high` that `sim[name]` accepts (it must accept `low`); leaves it set. */
export function largestAccepted(sim, name, low, high) {
  sim[name] = low;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    try {
      sim[name] = middle;
      low = middle;
    } catch {
      high = middle - 1;
    }
  }
  sim[name] = low;
  return low;
}
