// Generated from LOOK in src/raster/look.rs by `XPBD_BLESS=1 cargo test --test
// generated`: change the Rust source, not this file.
//
// The look of the cloth (colours, and sizes in CSS pixels), as the wasm rasterizer
// draws it: LOOK in src/raster/look.rs.

export const DEFAULT_STYLE = Object.freeze({
  background: '#ffffff',
  constraintColor: '#999999',
  constraintWidth: 1,
  particleColor: '#1f5fd1',
  particleRadius: 2.5,
  particleRadiusMetres: 0.06,
  minParticleRadius: 0.75,
  grabbedColor: '#e01b1b',
  grabbedRadius: 6,
  axisLength: 30,
  axisWidth: 2,
  xAxisColor: '#e01b1b',
  yAxisColor: '#1a9c2a',
  colliderColor: '#dfe4ec',
  colliderEdgeColor: '#5b6472',
  colliderEdgeWidth: 2,
  groundBand: 12,
  bodyColor: '#f3c982',
  bodyEdgeColor: '#8a5a12',
});
