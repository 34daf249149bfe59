// Types for www/lib/errors.js.

/** An Error about a named option or argument: the Simulation's, and those of the JavaScript layer. */
export interface FieldError extends Error {
  /** The JavaScript name of the option or argument: "mass", "width", "stepsPerFrame", ... */
  readonly field: string;
  /** What went wrong, in a word that does not change with the message: "invalid_value", "wrong_type", ... */
  readonly code: string;
}

/** An Error with `message` and own `field` and `code` properties. */
export declare function fieldError(field: string, code: string, message: string): FieldError;

/** The `field` of an Error that names one (a string own property), else undefined. */
export declare function fieldOf(error: unknown): string | undefined;

/** The `code` of an Error that has one (a string own property), else undefined. */
export declare function codeOf(error: unknown): string | undefined;

/** An Error as plain data that crosses a worker's boundary (postMessage drops an Error's own properties). */
export interface ErrorData {
  message: string;
  name: string;
  field: string | undefined;
  code: string | undefined;
}

/** `error` as plain data: message, name, `field` and `code`. */
export declare function errorToData(error: unknown): ErrorData;

/** The Error `errorToData` described, with its `field` and `code` again. */
export declare function errorFromData(data: ErrorData): Error;

/** The refusal of a mount whose `signal` aborted: an AbortError with `field` "signal" and `code` "aborted". */
export declare function abortedError(): Error & { field: string; code: string };
/** Throws abortedError() when `signal` has aborted. */
export declare function throwIfAborted(signal: AbortSignal | null | undefined): void;
