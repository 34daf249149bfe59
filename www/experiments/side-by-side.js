// The side-by-side cloths of the experiments page: two cloths, one pointer,
// and pairs of settings chosen from a list so that each shows one of the
// papers' points at a glance. Each side's fields can still be typed; a value
// applies once its cloth has it (wherever the cloth runs: a worker answers
// later), a refused one is explained under its field, and the link keeps the
// pair and the values the cloths run (never a value they refused).
//
// URL: `pair=ID`, `scene=preset`, `left.name=value`, `right.name=value`.

import { mountCloth, parseNumber, PRESETS } from '../lib/cloth.js';
import { element } from './element.js';

/** The settings each side-by-side cloth offers. */
const SIDE_FIELDS = Object.freeze([
  { name: 'iterations', label: 'Iterations' },
  { name: 'substeps', label: 'Substeps' },
  { name: 'stiffness', label: 'Stiffness (N/m, 0 = PBD)' },
  { name: 'pbdCoefficient', label: 'PBD coefficient k (at stiffness 0)' },
  { name: 'timeStepSize', label: 'Time step (s)' },
  { name: 'damping', label: 'Constraint damping β (N·s/m)' },
]);

/** What every side starts from before its pair's values. */
const BASE = Object.freeze({ iterations: 10, substeps: 1, stiffness: 0, pbdCoefficient: 1, timeStepSize: 0.01, damping: 0 });

/**
 * The pairs, each a point of the papers made visible: the scene both sides
 * show, the values that differ, and what to look for.
 */
export const PAIRS = Object.freeze([
  {
    id: 'pbd-iterations',
    label: 'Plain PBD: 2 against 50 iterations',
    scene: 'cloth',
    left: { iterations: 2, stiffness: 0 },
    right: { iterations: 50, stiffness: 0 },
    look: 'Plain PBD has no stiffness of its own: the same rigid constraints hang like rubber with 2 iterations and stay taut with 50 (XPBD paper, section 1).',
  },
  {
    id: 'soft-pbd-iterations',
    label: 'Plain PBD, k = 0.1: 5 against 50 iterations',
    scene: 'cloth',
    left: { iterations: 5, stiffness: 0, pbdCoefficient: 0.1 },
    right: { iterations: 50, stiffness: 0, pbdCoefficient: 0.1 },
    look: 'Plain PBD with a soft coefficient k = 0.1: its stiffness is not k but 1 − (1 − k)ⁿ per step, so the same constraints sag with 5 iterations and hang far tauter with 50 (Müller et al. 2007, section 3.3).',
  },
  {
    id: 'xpbd-iterations',
    label: 'XPBD: 5 against 50 iterations',
    scene: 'cloth',
    left: { iterations: 5, stiffness: 2000 },
    right: { iterations: 50, stiffness: 2000 },
    look: 'XPBD keeps the stiffness you set: at 2000 N/m the two cloths stretch alike, though one solves ten times as often (XPBD paper, section 6).',
  },
  {
    id: 'iterations-substeps',
    label: 'Iterations against substeps: 20 × 1 against 1 × 20 (the cord)',
    scene: 'double-pendulum',
    left: { iterations: 20, substeps: 1 },
    right: { iterations: 1, substeps: 20 },
    look: 'The same 20 solves a frame: spent on iterations, the cord loses its swing within seconds; spent on substeps, it keeps swinging (Small Steps, section 4).',
  },
  {
    id: 'damping',
    label: 'Constraint damping: β = 0 against β = 10 N·s/m',
    scene: 'cloth',
    left: { stiffness: 1000, damping: 0 },
    right: { stiffness: 1000, damping: 10 },
    look: 'Drag and let go: the undamped cloth bounces on its springs, the damped one settles (XPBD paper, section 3.5).',
  },
]);
export const DEFAULT_PAIR = PAIRS[0].id;

const SIDE_CLOTH = Object.freeze({ width: 20, height: 15, fixed: 2, mass: 0.1 });
const SIDE_CLOTH_PRESET = 'cloth';

/** Pointer events forwarded to the other cloth get their own pointer ids. */
const MIRRORED_POINTER_OFFSET = 1000;

/** The values of `side` ('left' or 'right') in the pair `pair`. */
function pairValues(pair, side) {
  return { ...BASE, ...pair[side] };
}

/** Builds one side's fields in its form; returns them by name. */
function buildFields(side, form) {
  const inputs = new Map();
  for (const { name, label } of SIDE_FIELDS) {
    const id = `${side}-${name}`;
    const input = element('input', { id, name, type: 'text', autocomplete: 'off', inputmode: 'decimal' });
    const error = element('p', { id: `${id}-error`, className: 'field-error', 'aria-live': 'polite' });
    input.setAttribute('aria-describedby', `${id}-error`);
    inputs.set(name, { input, error });
    form.append(element('div', { className: 'field' }, element('label', { for: id, text: label }), input, error));
  }
  form.addEventListener('submit', (event) => event.preventDefault());
  return inputs;
}

/** Mounts both cloths with the pair and values of `params` (a URLSearchParams). */
export async function mountSideBySide(params) {
  const pairSelect = document.getElementById('side-pair');
  for (const pair of PAIRS) pairSelect.add(new Option(pair.label, pair.id));
  const wanted = params.get('pair') ?? DEFAULT_PAIR;
  const pair = PAIRS.find((p) => p.id === wanted) ?? PAIRS[0];
  if (pair.id !== wanted) setSceneError(`There is no pair "${wanted.slice(0, 40)}"; showing "${pair.label}".`);
  pairSelect.value = pair.id;
  const sides = {};
  for (const side of ['left', 'right']) {
    const figure = document.querySelector(`.side[data-side="${side}"]`);
    const canvas = figure.querySelector('canvas');
    const inputs = buildFields(side, figure.querySelector('form'));
    // `worker=off` runs these cloths on the page too
    const cloth = await mountCloth(canvas, { ...SIDE_CLOTH, worker: params.get('worker') === 'off' ? 'off' : 'auto' });
    sides[side] = { name: side, canvas, cloth, inputs, applied: {}, pair };
  }
  const scene = document.getElementById('side-scene');
  for (const { name, title } of PRESETS) scene.add(new Option(title, name));
  const fromUrl = params.get('scene');
  const choosing = choosePair(sides, pair, { scene: fromUrl, values: params });
  for (const side of Object.values(sides)) {
    for (const [name, { input }] of side.inputs) {
      input.addEventListener('change', async () => {
        await applySideField(side, name);
        updateSideLink(sides);
      });
    }
  }
  mirrorPointer(sides.left, sides.right);
  mirrorPointer(sides.right, sides.left);
  document.getElementById('side-restart').addEventListener('click', () => {
    sides.left.cloth.restart();
    sides.right.cloth.restart();
  });
  pairSelect.addEventListener('change', async () => {
    await choosePair(sides, PAIRS.find((p) => p.id === pairSelect.value) ?? PAIRS[0], {});
    updateSideLink(sides);
  });
  scene.addEventListener('change', async () => {
    await changeSideScene(sides, scene.value);
    updateSideLink(sides);
  });
  await choosing;
  updateSideLink(sides);
  return sides;
}

function setSceneError(text) {
  document.getElementById('side-scene-error').textContent = text;
}

/**
 * Both sides take `pair`: its scene (or `scene`, from a link), its values, and
 * any `left.name`/`right.name` in `values` (a link's), each checked by the
 * cloth; resolves once both cloths run them.
 */
function choosePair(sides, pair, { scene = null, values = null }) {
  document.getElementById('side-look').textContent = pair.look;
  for (const side of Object.values(sides)) {
    side.pair = pair;
    const chosen = pairValues(pair, side.name);
    for (const [name, { input }] of side.inputs) input.value = values?.get(`${side.name}.${name}`) ?? String(chosen[name]);
  }
  const select = document.getElementById('side-scene');
  let preset = pair.scene;
  if (scene !== null) {
    select.value = scene;
    if (select.value === scene) preset = scene;
    else setSceneError(`There is no scene "${scene.slice(0, 40)}"; both show the pair's scene, ${pair.scene}.`);
  }
  select.value = preset;
  return changeSideScene(sides, preset);
}

/**
 * Both sides show the scene `preset` (at its own size and with its own values),
 * then each side's typed settings apply again, so the two still differ only
 * there; resolves once both cloths run them.
 */
async function changeSideScene(sides, preset) {
  const restarts = Object.values(sides).map(async (side) => {
    const cloth = side.cloth.restart(preset === SIDE_CLOTH_PRESET ? { preset, ...SIDE_CLOTH } : { preset });
    await cloth.ready;
    await Promise.all([...side.inputs.keys()].map((name) => applySideField(side, name)));
  });
  try {
    await Promise.all(restarts);
    setSceneError('');
  } catch (e) {
    setSceneError(e.message);
  }
}

/**
 * Applies one typed side-by-side value once its cloth has it; a value refused
 * (by the field or by the cloth, wherever it runs) is explained under its field,
 * and the side keeps the value its cloth runs.
 */
async function applySideField(side, name) {
  const { input, error } = side.inputs.get(name);
  try {
    const value = parseNumber(input.value, name);
    await side.cloth.set(name, value);
    side.applied[name] = value;
    input.removeAttribute('aria-invalid');
    error.textContent = '';
  } catch (e) {
    input.setAttribute('aria-invalid', 'true');
    error.textContent = e.message;
    // the link keeps what the cloth runs with, never the refused value
    side.applied[name] = side.cloth.options[name];
  }
}

/** The link: the pair, the scene if not the pair's, and each value the cloth accepted that is not the pair's. */
function updateSideLink(sides) {
  const url = new URL(location.href);
  url.search = '';
  url.hash = 'side-by-side';
  const pair = sides.left.pair;
  if (pair.id !== DEFAULT_PAIR) url.searchParams.set('pair', pair.id);
  const scene = document.getElementById('side-scene').value;
  if (scene && scene !== pair.scene) url.searchParams.set('scene', scene);
  for (const side of Object.values(sides)) {
    const chosen = pairValues(pair, side.name);
    for (const name of side.inputs.keys()) {
      const value = side.applied[name];
      if (value !== undefined && Math.fround(value) !== Math.fround(chosen[name])) url.searchParams.set(`${side.name}.${name}`, String(value));
    }
  }
  document.getElementById('side-link').href = url.href;
}

/**
 * The user's pointer on `from` also drives `to`: every real pointer event on
 * `from`'s canvas is repeated on `to`'s at the same point of the cloth (world
 * coordinates), so both cloths are grabbed and dragged together.
 */
function mirrorPointer(from, to) {
  const forward = (event) => {
    if (event.mirrored) return; // a repeated event is not repeated back
    const world = from.cloth.clientToWorld(event.clientX, event.clientY);
    const at = to.cloth.worldToClient(world.x, world.y);
    const copy = new PointerEvent(event.type, {
      pointerId: event.pointerId + MIRRORED_POINTER_OFFSET,
      pointerType: event.pointerType,
      isPrimary: event.isPrimary,
      button: event.button,
      buttons: event.buttons,
      clientX: at.x,
      clientY: at.y,
      bubbles: true,
      cancelable: true,
    });
    // a copy: it does not scroll the page a second time (www/lib/pointer.js)
    Object.defineProperty(copy, 'mirrored', { value: true });
    to.canvas.dispatchEvent(copy);
  };
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
    from.canvas.addEventListener(type, forward);
  }
}
