// The demo page's readouts under the canvas: time, pace against real time, step
// and frame costs, counts, stretch, the backend, a note when the frame budget cut
// stepping short, and the live plot (www/demo/plot.js).

import { byId, setText } from './dom.js';
import { showPauseState } from './pause.js';
import { followView } from './url-state.js';

/** Formats a number, or a dash: the page never shows NaN. */
function format(value, digits, unit = '') {
  return Number.isFinite(value) ? `${value.toFixed(digits)}${unit}` : '–';
}

function showDiagnostics(diagnostics, tornCount) {
  setText('time', format(diagnostics.time, 2, ' s'));
  setText('pace', paceText(diagnostics.time));
  setText('step-ms', format(diagnostics.stepMs, 3, ' ms'));
  setText('frame-ms', format(diagnostics.frameMs, 2, ' ms'));
  setText('particles', format(diagnostics.numParticles, 0));
  setText('constraints', format(diagnostics.numConstraints, 0));
  setText('max-stretch', format(diagnostics.maxStretch * 100, 1, ' %'));
  setText('torn', format(tornCount, 0));
  showCapped(diagnostics);
}

/** Says so when the frame budget cut stepping short (the cloth runs slower than real time). */
function showCapped({ capped, stepsLastFrame }) {
  const note = byId('capped');
  if (!capped) {
    note.hidden = true;
    return;
  }
  const pace = window.clothDemo?.options.speed === 'real' ? 'real time' : 'the chosen speed';
  setText('capped', `Running slower than ${pace}: only ${stepsLastFrame} steps per frame fit in ` +
    'the frame budget, to keep the page responsive. Lower iterations, substeps or the cloth size to catch up.');
  note.hidden = false;
}

/** Simulated time against real time over the last few seconds (readout only). */
const paceText = (() => {
  const samples = [];
  return (simulated) => {
    const now = performance.now() / 1000;
    if (samples.length && simulated < samples[samples.length - 1][1]) samples.length = 0; // a restart
    samples.push([now, simulated]);
    while (samples.length > 2 && now - samples[0][0] > 3) samples.shift();
    const [then, before] = samples[0];
    if (now - then < 0.5) return '–';
    const ratio = (simulated - before) / (now - then);
    return `${ratio < 0.095 ? ratio.toFixed(2) : ratio.toPrecision(2)} × real time`;
  };
})();

/** Says which backend runs the cloth (and on which adapter). */
function showBackend(controller) {
  const simulation = controller.gpuSimulation;
  const text = controller.backend === 'webgpu'
    ? `WebGPU (${simulation?.adapterName ?? 'GPU'}${simulation?.isFallbackAdapter ? ', software' : ''})`
    : 'CPU (wasm)';
  setText('backend-active', text);
}

/** Shows the cloth's state: readouts, backend, Pause, the plot, and the view in the URL. */
export function showController(controller, plot, diagnostics = controller.diagnostics()) {
  followView(controller);
  showDiagnostics(diagnostics, controller.simulation?.tornCount ?? diagnostics.tornCount);
  showBackend(controller);
  showPauseState(controller);
  plot.add(diagnostics.time, diagnostics.maxStretch, diagnostics.kineticEnergy);
  plot.draw();
}
