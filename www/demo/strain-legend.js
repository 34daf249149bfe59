// The legend of "Colour by stretch": the strain ramp of the wasm module, shown
// while the cloth is coloured by stretch.

import { strainRamp } from '../lib/wasm.js';
import { byId } from './dom.js';

/** Fills #strain-legend from the ramp: stops evenly spaced, labelled with their stretch. */
export function buildStrainLegend() {
  const ramp = strainRamp();
  const position = (k) => (100 * k) / (ramp.length - 1);
  const stops = ramp.map(([, color], k) => `${color} ${position(k)}%`);
  byId('strain-legend-bar').style.backgroundImage = `linear-gradient(to right, ${stops.join(', ')})`;
  const labels = byId('strain-legend-labels');
  labels.replaceChildren(
    ...ramp.map(([stretch], k) => {
      const label = document.createElement('span');
      label.textContent = `${Math.round(stretch * 100)} %${k === ramp.length - 1 ? '+' : ''}`;
      label.style.left = `${position(k)}%`;
      return label;
    }),
  );
}

export function showStrainLegend(controller) {
  byId('strain-legend').hidden = !controller.options.strainColors;
}
