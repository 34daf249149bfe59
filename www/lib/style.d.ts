// Types for www/lib/style.js (generated from LOOK in src/raster/look.rs).
import type { ClothStyle } from './renderer.js';

/** The cloth's colours and sizes (CSS px), as the wasm rasterizer draws them. */
export declare const DEFAULT_STYLE: Readonly<ClothStyle>;
