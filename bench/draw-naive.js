// The cloth drawn the way the original demo draws it (docs/ORIGINAL.md): one canvas
// stroke per constraint and one fill per particle. The benchmark measures it against
// the batched `drawCloth` of www/lib/renderer.js and the wasm rasterizer, to show what
// batching saves; nothing outside bench/ uses it.
import { DEFAULT_STYLE, drawCloth, particleRadius } from '../www/lib/renderer.js';

const NOTHING = new Float32Array(0);

/**
 * The same picture as `drawCloth` (without a held particle), drawn call by call.
 * `positions` is [x0, y0, ...] in metres, `constraints` is [a0, b0, ...].
 */
export function drawClothNaive(ctx, positions, constraints, view, style = DEFAULT_STYLE) {
  // Background, pixel-ratio transform and axes exactly as drawCloth paints them:
  // drawCloth of a cloth with no particles and no constraints.
  drawCloth(ctx, NOTHING, NOTHING, view, style);
  const { originX, originY, scale } = view;

  ctx.lineWidth = style.constraintWidth;
  ctx.strokeStyle = style.constraintColor;
  for (let c = 0; c < constraints.length; c += 2) {
    const a = 2 * constraints[c];
    const b = 2 * constraints[c + 1];
    ctx.beginPath();
    ctx.moveTo(originX + positions[a] * scale, originY - positions[a + 1] * scale);
    ctx.lineTo(originX + positions[b] * scale, originY - positions[b + 1] * scale);
    ctx.stroke();
  }

  const radius = particleRadius(view, style);
  ctx.fillStyle = style.particleColor;
  for (let p = 0; p < positions.length; p += 2) {
    ctx.beginPath();
    ctx.arc(originX + positions[p] * scale, originY - positions[p + 1] * scale, radius, 0, 2 * Math.PI);
    ctx.fill();
  }
}
