// The comparison baseline for the browser benchmark: the same XPBD cloth as the
// wasm `Simulation` (the original demo's step, docs/ORIGINAL.md), written the way
// a typical hand-written teaching demo is written in plain JavaScript: an object
// per particle and an object per constraint holding references to its two particles.
//
// It is deliberately NOT tuned (no typed arrays, no structure-of-arrays, no
// precomputed inverse masses sums): the benchmark measures how much faster the
// wasm port is than this ordinary style. It is, however, exact: same grid, same
// constraint order, same skips, so after 100 steps it agrees with the wasm
// `Simulation` in `original` order to well under a millimetre (JS numbers are f64,
// the port uses f32; that rounding difference is the whole gap).

/** Distance between neighbouring particles at rest, in metres. */
const SPACING = 0.2;
/** Constraints shorter than this (metres) are skipped: their direction is undefined. */
const MIN_SOLVE_LENGTH = 0.001;

export class PlainXpbdCloth {
  /**
   * A `width × height` grid hanging from 1, 2 or 4 fixed corners, with the
   * original's defaults (dt 0.01 s, 5 iterations, stiffness 1000 N/m,
   * gravity -9.81 m/s², mass 0.5 kg).
   */
  constructor(width = 40, height = 30, fixedCount = 2) {
    this.width = width;
    this.height = height;
    this.timeStepSize = 0.01;
    this.iterations = 5;
    this.stiffness = 1000;
    this.gravity = -9.81;
    this.time = 0;
    this._mass = 0.5;

    this.particles = [];
    for (let i = 0; i < height; i++) {
      for (let j = 0; j < width; j++) {
        const x = SPACING * j;
        const y = -SPACING * i;
        this.particles.push({ x, y, oldX: x, oldY: y, vx: 0, vy: 0, w: 1 / this._mass });
      }
    }

    const fixedByCount = {
      1: [0],
      2: [0, width - 1],
      4: [0, width - 1, (height - 1) * width, height * width - 1],
    };
    this.fixed = fixedByCount[fixedCount];
    if (!this.fixed) throw new Error(`fixedCount must be 1, 2 or 4, got ${fixedCount}`);
    for (const index of this.fixed) this.particles[index].w = 0;

    // Creation order matters for Gauss–Seidel: horizontal, vertical, then the two
    // diagonals of each cell — exactly the wasm grid's order.
    this.constraints = [];
    const add = (a, b) => {
      const pa = this.particles[a];
      const pb = this.particles[b];
      const rest = Math.hypot(pa.x - pb.x, pa.y - pb.y);
      this.constraints.push({ a: pa, b: pb, rest, lambda: 0 });
    };
    for (let i = 0; i < height; i++) {
      for (let j = 0; j < width - 1; j++) add(i * width + j, i * width + j + 1);
    }
    for (let i = 0; i < height - 1; i++) {
      for (let j = 0; j < width; j++) add(i * width + j, (i + 1) * width + j);
    }
    for (let i = 0; i < height - 1; i++) {
      for (let j = 0; j < width - 1; j++) {
        const k = i * width + j;
        add(k, k + width + 1);
        add(k + 1, k + width);
      }
    }
  }

  get mass() {
    return this._mass;
  }

  /** Changes every free particle's mass; fixed particles keep w = 0. */
  set mass(value) {
    this._mass = value;
    for (const p of this.particles) if (p.w !== 0) p.w = 1 / value;
  }

  get numParticles() {
    return this.particles.length;
  }

  get numConstraints() {
    return this.constraints.length;
  }

  /** One time step: predict, reset λ, `iterations` Gauss–Seidel sweeps, velocities. */
  step() {
    const dt = this.timeStepSize;
    const particles = this.particles;
    const constraints = this.constraints;

    for (let i = 0; i < particles.length; i++) {
      const p = particles[i];
      if (p.w === 0) continue;
      p.oldX = p.x;
      p.oldY = p.y;
      p.vy += dt * this.gravity;
      p.x += dt * p.vx;
      p.y += dt * p.vy;
    }

    for (let c = 0; c < constraints.length; c++) constraints[c].lambda = 0;

    const alpha = this.stiffness === 0 ? 0 : 1 / this.stiffness;
    const alphaTilde = alpha / (dt * dt);
    for (let iteration = 0; iteration < this.iterations; iteration++) {
      for (let c = 0; c < constraints.length; c++) {
        const constraint = constraints[c];
        const a = constraint.a;
        const b = constraint.b;
        const dx = a.x - b.x;
        const dy = a.y - b.y;
        const d = Math.sqrt(dx * dx + dy * dy);
        if (d <= MIN_SOLVE_LENGTH) continue;
        const denominator = a.w + b.w + alphaTilde;
        if (denominator === 0) continue;
        const C = d - constraint.rest;
        const deltaLambda = -(C + alphaTilde * constraint.lambda) / denominator;
        constraint.lambda += deltaLambda;
        const nx = dx / d;
        const ny = dy / d;
        a.x += a.w * deltaLambda * nx;
        a.y += a.w * deltaLambda * ny;
        b.x -= b.w * deltaLambda * nx;
        b.y -= b.w * deltaLambda * ny;
      }
    }

    for (let i = 0; i < particles.length; i++) {
      const p = particles[i];
      if (p.w === 0) continue;
      p.vx = (p.x - p.oldX) / dt;
      p.vy = (p.y - p.oldY) / dt;
    }
    this.time += dt;
  }

  /** Writes positions as [x0, y0, x1, y1, ...] into `out` (a typed array or array) and returns it. */
  positionsInto(out = new Float64Array(2 * this.particles.length)) {
    const particles = this.particles;
    for (let i = 0; i < particles.length; i++) {
      out[2 * i] = particles[i].x;
      out[2 * i + 1] = particles[i].y;
    }
    return out;
  }

  /** Constraint endpoints [a0, b0, ...] as particle indices, in creation order. */
  constraintIndices() {
    const indexOf = new Map(this.particles.map((p, i) => [p, i]));
    const out = new Uint32Array(2 * this.constraints.length);
    this.constraints.forEach((c, k) => {
      out[2 * k] = indexOf.get(c.a);
      out[2 * k + 1] = indexOf.get(c.b);
    });
    return out;
  }

  /** False once any coordinate is NaN or infinite. */
  isFinite() {
    return this.particles.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  }
}
