// Types for www/lib/state-file.js: the saved-state file of a cloth.

import type { SavedState } from '../../pkg/xpbd_cloth.js';
import type { ClothStateFile } from './cloth.js';

export declare const STATE_FORMAT: 'xpbd-cloth-state';
export declare const STATE_VERSION: 1;
export declare const MAX_STATE_FILE_BYTES: number;
type SceneOfState = { preset: string; sizes: Record<string, number> } | { spec: object };
/** The file object of a Simulation's saveState() and the scene it was built from. */
export declare function encodeState(saved: SavedState, scene: SceneOfState): ClothStateFile;
/** Checks a file object's shape; the scene to build and what restoreState takes. Throws naming what is wrong. */
export declare function decodeState(file: unknown): { scene: SceneOfState; state: SavedState };
/** Parses a state file's text (refusing one too large). */
export declare function parseStateFile(text: string): unknown;
