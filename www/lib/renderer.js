// Draws a cloth on a 2D canvas, and keeps the canvas backing store crisp.
//
// A *view* says where the world is on the canvas, in CSS pixels:
//   { originX, originY, scale, pixelRatio }
// - (originX, originY): where the world origin is, from the canvas' top-left corner;
// - scale: CSS pixels per metre (y up in the world, down on screen);
// - pixelRatio: backing-store pixels per CSS pixel (devicePixelRatio, measured).
//
// `drawCloth` batches: one path and one stroke for all constraints, one path and
// one fill for all particles. Canvas 2D calls are expensive one by one: the
// original demo's stroke per constraint costs several times more (the browser
// benchmark of the repository measures both).

import { DEFAULT_STYLE } from './style.js';

// Colours and sizes (CSS pixels) of the original demo's look, generated from the
// one the wasm rasterizer draws with (LOOK in src/raster/look.rs).
export { DEFAULT_STYLE };

// ---------------------------------------------------------------- view math

/** The original demo's canvas: 1024 × 768 CSS px, origin 200 px above the centre. */
const ORIGINAL_WIDTH = 1024;
const ORIGINAL_HEIGHT = 768;
const ORIGINAL_ORIGIN_LIFT = 200;
/**
 * Pixels per metre on that canvas for the default 40 × 30 cloth (7.8 m × 5.8 m).
 * The original uses 50; the default cloth then sags past the bottom edge (it
 * settles about 12.5 m below its top), so use a little less to keep it in view.
 */
const SCALE_ON_ORIGINAL_CANVAS = 40;
export const DEFAULT_CLOTH_SIZE = Object.freeze({ width: 7.8, height: 5.8 });
export const MIN_SCALE = 1;
export const MAX_SCALE = 10000;

/**
 * Width and height in metres of the bounding box of `positions` `[x0, y0, …]`
 * (fitView's `clothSize`); 1 × 1 for no particles.
 */
export function boundingSize(positions) {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let k = 0; k < positions.length; k += 2) {
    minX = Math.min(minX, positions[k]);
    maxX = Math.max(maxX, positions[k]);
    minY = Math.min(minY, positions[k + 1]);
    maxY = Math.max(maxY, positions[k + 1]);
  }
  return positions.length ? { width: maxX - minX, height: maxY - minY } : { width: 1, height: 1 };
}

/**
 * The view for a canvas of `cssWidth × cssHeight` CSS pixels: the original's
 * layout (origin centred horizontally, lifted above the centre) shrunk or grown
 * with the canvas, grown for a cloth smaller than the default (`clothSize`, its
 * resting width and height in metres) and shrunk for a larger one, times the
 * user's `zoom`. The scale never drops below 1 px/m.
 */
export function fitView(cssWidth, cssHeight, { zoom = 1, pixelRatio = 1, clothSize = DEFAULT_CLOTH_SIZE } = {}) {
  const fit = Math.min(cssWidth / ORIGINAL_WIDTH, cssHeight / ORIGINAL_HEIGHT);
  const canvasSize = fit > 0 ? fit : 1; // a collapsed canvas: any positive size will do
  const clothFit = Math.min(
    DEFAULT_CLOTH_SIZE.width / Math.max(clothSize.width, 1e-3),
    DEFAULT_CLOTH_SIZE.height / Math.max(clothSize.height, 1e-3),
  );
  return {
    originX: cssWidth / 2,
    originY: cssHeight / 2 - ORIGINAL_ORIGIN_LIFT * canvasSize,
    scale: clampScale(SCALE_ON_ORIGINAL_CANVAS * canvasSize * clothFit * zoom),
    pixelRatio,
  };
}

export function clampScale(scale) {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/** World metres → CSS pixels from the canvas' top-left corner. */
export function worldToCanvas(view, x, y) {
  return { x: view.originX + x * view.scale, y: view.originY - y * view.scale };
}

/** CSS pixels from the canvas' top-left corner → world metres. */
export function canvasToWorld(view, x, y) {
  return { x: (x - view.originX) / view.scale, y: (view.originY - y) / view.scale };
}

// ---------------------------------------------------------------- drawing

/** Clears the canvas and sets a transform so that drawing is in CSS pixels. */
function beginFrame(ctx, view, style) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = style.background;
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  const ratio = view.pixelRatio || 1;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
}

/** A short red x-axis and green y-axis at the world origin. */
function drawAxes(ctx, view, style) {
  const { originX, originY } = view;
  ctx.lineWidth = style.axisWidth;
  ctx.strokeStyle = style.xAxisColor;
  ctx.beginPath();
  ctx.moveTo(originX, originY);
  ctx.lineTo(originX + style.axisLength, originY);
  ctx.stroke();
  ctx.strokeStyle = style.yAxisColor;
  ctx.beginPath();
  ctx.moveTo(originX, originY);
  ctx.lineTo(originX, originY - style.axisLength);
  ctx.stroke();
}

/** Particle radius in CSS px at this view's zoom. */
export function particleRadius(view, style = DEFAULT_STYLE) {
  const capped = Math.min(style.particleRadius, style.particleRadiusMetres * view.scale);
  return Math.max(style.minParticleRadius, capped);
}

function drawGrabbed(ctx, positions, view, style, grabbed) {
  if (grabbed < 0 || 2 * grabbed + 1 >= positions.length) return;
  ctx.fillStyle = style.grabbedColor;
  ctx.beginPath();
  ctx.arc(
    view.originX + positions[2 * grabbed] * view.scale,
    view.originY - positions[2 * grabbed + 1] * view.scale,
    style.grabbedRadius, 0, 2 * Math.PI,
  );
  ctx.fill();
}

/**
 * Draws the cloth: axes, the colliders, the bodies (each outline, the particle
 * indices around it, filled), every constraint as a grey line, every particle
 * as a small blue disc, the grabbed particle (index, or -1) larger and red.
 * `positions` is [x0, y0, ...] in metres, `constraints` is [a0, b0, ...].
 * Pure: it reads only its arguments and touches only `ctx`.
 */
export function drawCloth(ctx, positions, constraints, view, style = DEFAULT_STYLE, grabbed = -1, strain = null, colliders = [], bodies = []) {
  beginFrame(ctx, view, style);
  drawAxes(ctx, view, style);
  for (const collider of colliders) drawCollider(ctx, collider, view, style);
  const { originX, originY, scale } = view;
  ctx.fillStyle = style.bodyColor;
  ctx.strokeStyle = style.bodyEdgeColor;
  ctx.lineWidth = style.colliderEdgeWidth;
  for (const outline of bodies) {
    ctx.beginPath();
    for (const k of outline) ctx.lineTo(originX + positions[2 * k] * scale, originY - positions[2 * k + 1] * scale);
    ctx.closePath();
    ctx.fill('evenodd');
    ctx.stroke();
  }

  ctx.lineWidth = style.constraintWidth;
  if (strain) {
    drawStrainColoredConstraints(ctx, positions, constraints, view, strain);
  } else {
    ctx.strokeStyle = style.constraintColor;
    ctx.beginPath();
    for (let c = 0; c < constraints.length; c += 2) {
      const a = 2 * constraints[c];
      const b = 2 * constraints[c + 1];
      ctx.moveTo(originX + positions[a] * scale, originY - positions[a + 1] * scale);
      ctx.lineTo(originX + positions[b] * scale, originY - positions[b + 1] * scale);
    }
    ctx.stroke();
  }

  const radius = particleRadius(view, style);
  ctx.fillStyle = style.particleColor;
  ctx.beginPath();
  for (let p = 0; p < positions.length; p += 2) {
    const x = originX + positions[p] * scale;
    const y = originY - positions[p + 1] * scale;
    ctx.moveTo(x + radius, y); // start each disc on its own rim: no joining lines
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
  }
  ctx.fill();

  drawGrabbed(ctx, positions, view, style, grabbed);
}

/**
 * One collider of `Simulation.colliders()` ({ shape, x, y, radius } or
 * { shape, x, y, width, height } or { shape: 'ground', y }), as the wasm
 * rasterizer draws it: a filled shape with an outline; the ground a line over a band.
 */
function drawCollider(ctx, collider, view, style) {
  const { originX, originY, scale } = view;
  ctx.fillStyle = style.colliderColor;
  ctx.strokeStyle = style.colliderEdgeColor;
  ctx.lineWidth = style.colliderEdgeWidth;
  if (collider.shape === 'ground') {
    const y = originY - collider.y * scale;
    const width = ctx.canvas.width / (view.pixelRatio || 1);
    ctx.fillRect(0, y, width, style.groundBand);
    ctx.fillStyle = style.colliderEdgeColor;
    ctx.fillRect(0, y - style.colliderEdgeWidth, width, style.colliderEdgeWidth);
    return;
  }
  const x = originX + collider.x * scale;
  const y = originY - collider.y * scale;
  ctx.beginPath();
  if (collider.shape === 'circle') {
    ctx.arc(x, y, Math.max(0, collider.radius * scale - style.colliderEdgeWidth / 2), 0, 2 * Math.PI);
  } else {
    const inset = style.colliderEdgeWidth / 2;
    const width = collider.width * scale;
    const height = collider.height * scale;
    ctx.rect(x - width / 2 + inset, y - height / 2 + inset, Math.max(0, width - 2 * inset), Math.max(0, height - 2 * inset));
  }
  ctx.fill();
  ctx.stroke();
}

// ---------------------------------------------------------------- strain colours

/** How many shades the canvas renderer sorts constraints into (one path each). */
const STRAIN_SHADES = 32;

/**
 * Constraints coloured by stretch: sorted into STRAIN_SHADES shades across the
 * ramp, one path and one stroke per shade. `strain` is { restLengths, ramp,
 * colorOf }: `ramp` from `strainRamp()`, `colorOf(stretch)` the wasm's own
 * `strainColor`, so both renderers colour alike.
 */
function drawStrainColoredConstraints(ctx, positions, constraints, view, { restLengths, ramp, colorOf }) {
  const { originX, originY, scale } = view;
  const top = ramp[ramp.length - 1][0];
  const shadeOf = (stretch) => Math.min(STRAIN_SHADES - 1, Math.max(0, Math.floor((stretch / top) * STRAIN_SHADES)));
  const paths = Array.from({ length: STRAIN_SHADES }, () => new Path2D());
  for (let c = 0; c < constraints.length; c += 2) {
    const a = 2 * constraints[c];
    const b = 2 * constraints[c + 1];
    const length = Math.hypot(positions[a] - positions[b], positions[a + 1] - positions[b + 1]);
    const rest = restLengths[c / 2];
    const path = paths[shadeOf((length - rest) / rest)];
    path.moveTo(originX + positions[a] * scale, originY - positions[a + 1] * scale);
    path.lineTo(originX + positions[b] * scale, originY - positions[b + 1] * scale);
  }
  paths.forEach((path, shade) => {
    ctx.strokeStyle = colorOf(((shade + 0.5) / STRAIN_SHADES) * top);
    ctx.stroke(path);
  });
}

// ---------------------------------------------------------------- canvas size

/**
 * A canvas without a CSS size takes its size from its width/height attributes,
 * so growing the backing store for high-DPI would grow the canvas on screen, in
 * a loop. Probe each axis; pin the ones that follow the attributes to their
 * current CSS size. Returns a function that undoes the pinning.
 */
function pinAttributeSizedAxes(canvas) {
  const { width, height } = canvas;
  const before = { width: canvas.clientWidth, height: canvas.clientHeight };
  canvas.width = width + 7;
  canvas.height = height + 7;
  const followsWidth = canvas.clientWidth !== before.width;
  const followsHeight = canvas.clientHeight !== before.height;
  canvas.width = width;
  canvas.height = height;

  const saved = { width: canvas.style.width, height: canvas.style.height };
  if (followsWidth) canvas.style.width = `${before.width}px`;
  if (followsHeight) canvas.style.height = `${before.height}px`;
  return () => {
    if (followsWidth) canvas.style.width = saved.width;
    if (followsHeight) canvas.style.height = saved.height;
  };
}

/** Reads the content-box size in CSS pixels and where it starts inside the border box. */
function measureContentBox(canvas) {
  const computed = getComputedStyle(canvas);
  const px = (name) => parseFloat(computed[name]) || 0;
  return {
    cssWidth: canvas.clientWidth - px('paddingLeft') - px('paddingRight'),
    cssHeight: canvas.clientHeight - px('paddingTop') - px('paddingBottom'),
    offsetX: canvas.clientLeft + px('paddingLeft'),
    offsetY: canvas.clientTop + px('paddingTop'),
  };
}

/** Sets the backing store of `canvas` to `width` × `height` pixels where it differs. */
function sizeBackingStore(canvas) {
  return (width, height) => {
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
  };
}

/**
 * The observer's exact device-pixel size snaps to the screen's pixel grid, so use
 * it when it agrees with CSS size × devicePixelRatio; it does not always agree (an
 * emulated pixel ratio, as in test browsers, is missing from it), and then the
 * product wins.
 */
function pickDevicePixels(exact, estimate) {
  if (exact > 0 && Math.abs(exact - estimate) <= 1) return exact;
  return Math.max(1, Math.round(estimate));
}

/**
 * Keeps `canvas.width/height` equal to its CSS content size × devicePixelRatio,
 * re-measured when the element resizes (ResizeObserver) and when the pixel
 * ratio changes (page zoom, moving to another screen). Calls
 * `onResize({ cssWidth, cssHeight, pixelRatio, offsetX, offsetY })` after each
 * change (offsets: content box inside the border box, CSS px). Returns
 * `{ checkPixelRatio(), stop() }`. `setBacking(width, height)` sizes the
 * backing store: the canvas' own, or, for a canvas handed to a worker, the
 * worker's OffscreenCanvas.
 */
export function watchCanvasSize(canvas, onResize, setBacking = sizeBackingStore(canvas)) {
  const unpin = pinAttributeSizedAxes(canvas);
  let devicePixels = null; // exact backing size from the observer, when the browser gives it
  let appliedRatio = window.devicePixelRatio || 1;

  const apply = () => {
    const box = measureContentBox(canvas);
    if (!(box.cssWidth > 0 && box.cssHeight > 0)) return; // display:none or collapsed
    const ratio = window.devicePixelRatio || 1;
    appliedRatio = ratio;
    const width = pickDevicePixels(devicePixels?.width, box.cssWidth * ratio);
    const height = pickDevicePixels(devicePixels?.height, box.cssHeight * ratio);
    setBacking(width, height);
    onResize({ ...box, pixelRatio: width / box.cssWidth });
  };

  const observer = new ResizeObserver((entries) => {
    const exact = entries[entries.length - 1].devicePixelContentBoxSize?.[0];
    devicePixels = exact ? { width: exact.inlineSize, height: exact.blockSize } : null;
    apply();
  });
  try {
    observer.observe(canvas, { box: 'device-pixel-content-box' });
  } catch {
    observer.observe(canvas); // browsers without device-pixel-content-box
  }

  // A pixel-ratio change does not always resize the element in CSS pixels, so
  // listen for it too; the media query matches only the current ratio, so re-arm.
  let ratioQuery = null;
  const onRatioChange = () => {
    devicePixels = null;
    apply();
    armRatioQuery();
  };
  const armRatioQuery = () => {
    ratioQuery?.removeEventListener('change', onRatioChange);
    ratioQuery = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    ratioQuery.addEventListener('change', onRatioChange);
  };
  armRatioQuery();
  apply();

  return {
    /**
     * Re-measures if devicePixelRatio changed unnoticed (cheap: call it every frame).
     * Emulated ratio changes, as in test browsers, fire neither the media query
     * nor the observer.
     */
    checkPixelRatio() {
      if ((window.devicePixelRatio || 1) !== appliedRatio) onRatioChange();
    },
    stop() {
      observer.disconnect();
      ratioQuery?.removeEventListener('change', onRatioChange);
      unpin();
    },
  };
}
