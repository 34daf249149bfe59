// The particle a GpuSimulation holds: where the pointer holds it, where it was
// last sampled and the drag velocity it leaves with, as the CPU Simulation's
// grab (src/cloth/interaction.rs).

/** A new grab of particle `index`, at `at` = [x, y], sampled at simulated `time`. */
export function newGrab(index, at, time) {
  return { index, target: at, samplePosition: at, sampleTime: time, sampleInterval: 0, velocity: [0, 0] };
}

/**
 * The mirror may be a frame old: reads where the grabbed particle really is
 * (8 bytes of `positions`, a GPU buffer) and takes that as the first sample of
 * the drag velocity and the point the grab's spring holds, as the CPU does,
 * unless a drag has moved them since; then calls `sampled()`. Returns the
 * read's Promise (it never rejects).
 */
export function readGrabbedPosition(device, positions, grab, sampled) {
  const buffer = device.createBuffer({ size: 8, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder({ label: 'read the grabbed particle' });
  encoder.copyBufferToBuffer(positions, 8 * grab.index, buffer, 0, 8);
  device.queue.submit([encoder.finish()]);
  const before = { ...grab };
  return buffer.mapAsync(GPUMapMode.READ).then(() => {
    const [x, y] = new Float32Array(buffer.getMappedRange());
    if (grab.sampleTime === before.sampleTime && grab.samplePosition === before.samplePosition) {
      grab.samplePosition = [x, y];
      grab.target = [x, y];
      sampled();
    }
  }).catch(() => {}).finally(() => buffer.destroy());
}

/** Samples the drag of `grab` to (fx, fy) at simulated `time`: the velocity since the last sample. */
export function sampleDrag(grab, fx, fy, time) {
  const elapsed = time - grab.sampleTime;
  if (elapsed > 0) {
    const seconds = Math.fround(elapsed);
    grab.velocity = [Math.fround((fx - grab.samplePosition[0]) / seconds), Math.fround((fy - grab.samplePosition[1]) / seconds)];
    grab.samplePosition = [fx, fy];
    grab.sampleTime = time;
    grab.sampleInterval = elapsed;
  }
}

/** The velocity `grab` leaves with at simulated `time`: 0 once the drag has rested. */
export function grabVelocity(grab, time) {
  const resting = time - grab.sampleTime > 2 * grab.sampleInterval + 1e-12;
  return resting ? [0, 0] : grab.velocity;
}
