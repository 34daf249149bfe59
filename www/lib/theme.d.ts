// Types for www/lib/theme.js: the cloth's colours from --xpbd-cloth-* custom properties.

import type { ClothStyle } from './renderer.js';

/** Each custom property and the ClothStyle field it sets. */
export declare const THEME_PROPERTIES: Readonly<Record<string, keyof ClothStyle>>;
/**
 * Any CSS colour as opaque `#rrggbb` in sRGB, or null when it is no colour; the browser
 * parses it. `currentColor` is `element`'s computed `color` (null without an element).
 */
export declare function normalizeColor(value: string, element?: Element | null): string | null;
/** DEFAULT_STYLE with the colours the custom properties on `element` set (invalid values keep the default). */
export declare function readTheme(element: Element): ClothStyle;
/** The colour fields of drawInto's view object for `style`. */
export declare function drawColors(style: ClothStyle): Record<string, string>;
