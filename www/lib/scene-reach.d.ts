// Types for www/lib/scene-reach.js: the world box a scene will move in.

/** A world box in metres. */
export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A collider as `Simulation.colliders()` gives it. */
export type SceneCollider =
  | { shape: 'ground'; y: number }
  | { shape: 'circle'; x: number; y: number; radius: number }
  | { shape: 'box'; x: number; y: number; width: number; height: number };

/** What `sceneBounds` reads of a scene, as built. */
export interface SceneDescription {
  /** [x0, y0, x1, y1, ...] in metres. */
  positions: ArrayLike<number>;
  /** Per particle, truthy when pinned. */
  pinned: ArrayLike<number | boolean>;
  /** [a0, b0, a1, b1, ...]: the particles of each distance constraint. */
  constraints: ArrayLike<number>;
  /** Rest length of each constraint, metres. */
  restLengths: ArrayLike<number>;
  /** N/m of every constraint; 0 is rigid. */
  stiffness: number;
  /** kg of each free particle. */
  mass: number;
  /** m/s² along y (negative: down). */
  gravity: number;
  /** Wind velocity [x, y] in m/s. Default [0, 0]. */
  wind?: [number, number];
  /** kg/m². Default 0. */
  windDrag?: number;
  /** Constraints break beyond this × their rest length; 0 (default): never. */
  tearStretch?: number;
  colliders?: readonly SceneCollider[];
}

/** Peak stretch of a suddenly released hanging load, in static stretches (2). */
export declare const DYNAMIC_STRETCH: number;
/** Peak stretch of a body swinging down about a pivot, in static stretches (3). */
export declare const SWING_STRETCH: number;
/** Mean of 1 / cos²θ over the constraints crossing a front of equal reach (1.5). */
export declare const CROSSING_SLANT: number;
/** No path stretches beyond this many times its rest length in the estimate (50). */
export declare const MAX_STRETCH: number;
/** Pins within this fraction of the body's reach act as one pivot (0.1). */
export declare const PIVOT_FRACTION: number;
/** A body with no pin may spread sideways by this fraction of its larger side (0.5)... */
export declare const FREE_SPREAD: number;
/** ...and bounce up by this fraction (0.25). */
export declare const FREE_BOUNCE: number;
/** The smallest box a scene is framed in, metres (0.5). */
export declare const MIN_EXTENT: number;
/** Particles or constraints `sceneBoundsInSlices` goes through between two yields. */
export declare const SLICE_WORK: number;

/** The world box the scene will move in (see the top of scene-reach.js). */
export declare function sceneBounds(scene: SceneDescription): Bounds;
/** The scene a Simulation or GpuSimulation runs, as sceneBounds reads it (copies). */
export declare function describeScene(source: {
  positions(): ArrayLike<number>;
  constraints(): ArrayLike<number>;
  restLengths(): ArrayLike<number>;
  isPinned?(index: number): boolean;
  pinnedParticles?(): number[];
  colliders?(): SceneCollider[];
}): SceneDescription;
/** sceneBounds a slice at a time: yields every SLICE_WORK particles or constraints, returns the box. */
export declare function sceneBoundsInSlices(scene: SceneDescription): Generator<undefined, Bounds, undefined>;
/** The box a scene with nothing to show is framed in: MIN_EXTENT around the origin. */
export declare function nothingToShow(): Bounds;
/** The box of the particles and colliders as they start. */
export declare function startBounds(scene: Pick<SceneDescription, 'positions' | 'colliders'>): Bounds;
