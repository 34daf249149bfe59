// The cloth's colours from CSS custom properties on its canvas (or an element
// around it, since custom properties inherit): `--xpbd-cloth-background`,
// `--xpbd-cloth-line`, ... Read when asked (mount, resize, refreshTheme, a
// style change of the element), never per frame: getComputedStyle forces a
// style recalculation.

import { DEFAULT_STYLE } from './style.js';

/** Each custom property and the style field it sets (www/lib/style.js names). */
export const THEME_PROPERTIES = Object.freeze({
  '--xpbd-cloth-background': 'background',
  '--xpbd-cloth-line': 'constraintColor',
  '--xpbd-cloth-particle': 'particleColor',
  '--xpbd-cloth-grabbed': 'grabbedColor',
  '--xpbd-cloth-axis-x': 'xAxisColor',
  '--xpbd-cloth-axis-y': 'yAxisColor',
  '--xpbd-cloth-collider': 'colliderColor',
  '--xpbd-cloth-collider-edge': 'colliderEdgeColor',
  '--xpbd-cloth-body': 'bodyColor',
  '--xpbd-cloth-body-edge': 'bodyEdgeColor',
});

let probe = null;

/** A 1x1 canvas 2D context: the browser's own colour parser and painter. */
function colorProbe() {
  if (!probe) {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    probe = canvas.getContext('2d', { willReadFrequently: true });
  }
  return probe;
}

/** What the context makes of `text`, or null when it refuses it (two sentinels tell a refusal apart). */
function parsedFillStyle(context, text) {
  context.fillStyle = '#000000';
  context.fillStyle = text;
  const parsed = String(context.fillStyle);
  context.fillStyle = '#ffffff';
  context.fillStyle = text;
  return String(context.fillStyle) === parsed ? parsed : null;
}

const hex = (channels) => `#${channels.map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`;

/** `parsed` painted into the probe's pixel and read back, in sRGB; null when reading pixels is not faithful. */
function paintedColor(context, parsed) {
  if (!pixelsAreFaithful(context)) return null;
  context.globalCompositeOperation = 'copy';
  context.fillStyle = parsed;
  context.fillRect(0, 0, 1, 1);
  return hex([...context.getImageData(0, 0, 1, 1).data.slice(0, 3)]);
}

let faithful = null;

/** Whether a painted pixel reads back as painted (privacy modes may add noise to or blank canvas reads). */
function pixelsAreFaithful(context) {
  if (faithful === null) {
    context.globalCompositeOperation = 'copy';
    context.fillStyle = '#0c2238';
    context.fillRect(0, 0, 1, 1);
    faithful = hex([...context.getImageData(0, 0, 1, 1).data.slice(0, 3)]) === '#0c2238';
  }
  return faithful;
}

/**
 * `value` (any CSS colour) as opaque `#rrggbb`, or null when it is no colour.
 * The browser parses it: CSS.supports refuses what is no colour; a canvas 2D
 * context's `fillStyle` gives sRGB colours as `#rrggbb` or `rgba(...)`, and a
 * colour in another space (`oklch()`, `lab()`, `color(display-p3 ...)`,
 * `color-mix()`, ...) is painted into one pixel and read back in sRGB.
 * `currentColor` is the computed `color` of `element` (null without one).
 */
export function normalizeColor(value, element = null) {
  let text = String(value).trim();
  if (!text || typeof CSS === 'undefined' || !CSS.supports('color', text)) return null;
  if (/^(inherit|initial|unset|revert|revert-layer)$/i.test(text)) return null;
  if (/currentcolor/i.test(text)) {
    if (typeof getComputedStyle !== 'function' || !element?.isConnected) return null;
    const current = getComputedStyle(element).color;
    text = text.replace(/currentcolor/gi, current);
  }
  const context = colorProbe();
  const parsed = parsedFillStyle(context, text);
  if (parsed === null) return null;
  if (/^#[0-9a-f]{6}$/i.test(parsed)) return parsed.toLowerCase();
  const legacy = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(,[^)]*)?\)$/i.exec(parsed);
  if (legacy) return hex(legacy.slice(1, 4));
  return paintedColor(context, parsed);
}

/**
 * The style of the cloth on `element`: DEFAULT_STYLE with each colour its
 * custom property sets to a valid colour; an invalid value keeps the default.
 */
export function readTheme(element) {
  const style = { ...DEFAULT_STYLE };
  if (typeof getComputedStyle !== 'function' || !element?.isConnected) return style;
  const computed = getComputedStyle(element);
  for (const [property, field] of Object.entries(THEME_PROPERTIES)) {
    const value = computed.getPropertyValue(property);
    if (!value.trim()) continue;
    const color = normalizeColor(value, element);
    if (color) style[field] = color;
    else console.warn(`xpbd-cloth: ${property}: ${JSON.stringify(value.trim().slice(0, 40))} is not a colour; keeping ${style[field]}`);
  }
  return style;
}

/** The colour fields of `drawInto`'s view object for `style`. */
export function drawColors(style) {
  return {
    backgroundColor: style.background,
    constraintColor: style.constraintColor,
    particleColor: style.particleColor,
    grabbedColor: style.grabbedColor,
    xAxisColor: style.xAxisColor,
    yAxisColor: style.yAxisColor,
    colliderColor: style.colliderColor,
    colliderEdgeColor: style.colliderEdgeColor,
    bodyColor: style.bodyColor,
    bodyEdgeColor: style.bodyEdgeColor,
  };
}
