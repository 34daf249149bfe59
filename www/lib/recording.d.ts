// Types for www/lib/recording.js: recording a canvas as WebM.

export declare const MAX_RECORDING_SECONDS: number;
/** The WebM type this engine records `canvas` in, or null when it cannot. */
export declare function recordingType(canvas: HTMLCanvasElement): string | null;
/** `seconds` when a recording may last that long (above 0, at most 60); else throws an Error with `field` "seconds". */
export declare function checkSeconds(seconds: unknown): number;
/** Records the next `seconds` of `canvas` as WebM. */
export declare function recordCanvas(canvas: HTMLCanvasElement, seconds: number, keepDrawing?: () => void): Promise<Blob>;
