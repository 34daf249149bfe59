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
});

let probe = null;

/**
 * `value` (any CSS colour) as opaque `#rrggbb`, or null when it is no colour.
 * The canvas context normalises a colour it accepts (to `#rrggbb` or
 * `rgba(...)`); CSS.supports tells a refused one apart.
 */
export function normalizeColor(value) {
  const text = String(value).trim();
  if (!text || typeof CSS === 'undefined' || !CSS.supports('color', text)) return null;
  // currentcolor and system colours depend on the element: not a cloth colour
  if (/^(currentcolor|inherit|initial|unset|revert)/i.test(text)) return null;
  probe ??= document.createElement('canvas').getContext('2d');
  probe.fillStyle = '#000000';
  probe.fillStyle = text;
  const parsed = String(probe.fillStyle);
  if (/^#[0-9a-f]{6}$/i.test(parsed)) return parsed.toLowerCase();
  const match = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)/i.exec(parsed);
  if (!match) return null;
  return `#${match.slice(1, 4).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`;
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
    const color = normalizeColor(value);
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
  };
}
