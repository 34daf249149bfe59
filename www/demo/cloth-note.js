// The line under the canvas on the first screen: the original's values make a
// heavy, soft cloth (0.5 kg a particle, 1,000 N/m), which hangs its corners on
// long threads and looks broken unless something says so; its button stiffens
// the cloth. Shown while the plain cloth runs at the original's stiffness and mass.

import { PARAMETERS } from '../lib/cloth.js';
import { byId } from './dom.js';
import { restart } from './restart.js';

const TABLE = new Map(PARAMETERS.map((parameter) => [parameter.name, parameter.defaultValue]));

/** What "Stiffen the cloth" sets: a light cloth that hardly stretches (about 3 % where the original's stretches 490 %). */
export const STIFF_CLOTH = Object.freeze({ stiffness: 100_000, mass: 0.05, substeps: 4 });

/** Shows the note while the cloth is the original's heavy, soft one. */
export function showClothNote(controller) {
  const { preset, stiffness, mass } = controller.options;
  const original = preset === 'cloth' && stiffness === TABLE.get('stiffness') && mass === TABLE.get('mass');
  const note = byId('cloth-note');
  if (note.hidden === original) note.hidden = !original;
}

export function wireClothNote(controller, plot) {
  byId('stiffen').addEventListener('click', () => restart(controller, plot, { ...STIFF_CLOTH }));
}
