// Types for www/lib/state-file.js: the saved-state file of a cloth.

import type { SavedState } from '../../pkg/xpbd_cloth.js';
import type { ClothStateFile } from './cloth.js';

export declare const STATE_FORMAT: 'xpbd-cloth-state';
export declare const STATE_VERSION: 1;
export declare const MAX_STATE_FILE_BYTES: number;
type SceneOfState = { preset: string; sizes: Record<string, number> } | { spec: object };
/** The loop's parameters a state keeps: how fast the saved cloth moves. */
type LoopOfState = { speed?: 'quarter' | 'half' | 'real' | 'double' | 'original'; stepsPerFrame?: number };
/** The file object of a Simulation's saveState(), the scene it was built from and the loop's parameters. */
export declare function encodeState(saved: SavedState, scene: SceneOfState, loop?: LoopOfState): ClothStateFile;
/**
 * Checks a file object's shape, reading each value once, and gives plain data: the
 * scene to build, what restoreState takes and the loop's parameters. Throws an
 * Error with `field` (the place in the file, "file" for the whole) and `code`
 * ("wrong_type" or "invalid_state") naming what is wrong.
 */
export declare function decodeState(file: unknown): { scene: SceneOfState; state: SavedState; loop: LoopOfState };
/** Parses a state file's text (refusing one too large or not JSON with `field` "file"). */
export declare function parseStateFile(text: string): unknown;
