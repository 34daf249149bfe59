// Errors that are data: an Error about a named option or argument carries the
// name in its own `field` property and what went wrong in `code`, as the
// Simulation's Errors do, so callers read those instead of parsing the message.

/**
 * An Error with `message`, and own properties `field` (the option's or
 * argument's JavaScript name) and `code` (a word that does not change with the
 * wording: "invalid_value", "wrong_type", ...).
 */
export function fieldError(field, code, message) {
  const error = new Error(message);
  Object.defineProperties(error, {
    field: { value: field, enumerable: true },
    code: { value: code, enumerable: true },
  });
  return error;
}

/** The string own property `name` of an Error, or undefined (also for a Proxy that throws). */
function ownString(error, name) {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return undefined;
  try {
    const descriptor = Object.getOwnPropertyDescriptor(error, name);
    return typeof descriptor?.value === 'string' ? descriptor.value : undefined;
  } catch {
    return undefined;
  }
}

/** The `field` of an Error that names one, else undefined. */
export function fieldOf(error) {
  return ownString(error, 'field');
}

/** The `code` of an Error that has one, else undefined. */
export function codeOf(error) {
  return ownString(error, 'code');
}

/**
 * `error` as plain data that crosses to or from a worker (`postMessage`
 * clones an Error's message but drops its own properties): message, name,
 * `field` and `code`.
 */
export function errorToData(error) {
  const message = error instanceof Error ? error.message : String(error);
  return { message, name: error?.name ?? 'Error', field: fieldOf(error), code: codeOf(error) };
}

/** The Error that `errorToData` described, with its `field` and `code` again. */
export function errorFromData({ message, name, field, code }) {
  const error = field !== undefined || code !== undefined ? fieldError(field, code, message) : new Error(message);
  if (name && name !== 'Error') Object.defineProperty(error, 'name', { value: name });
  return error;
}

/** The refusal of a mount whose `signal` aborted: an AbortError with `field` "signal" and `code` "aborted". */
export function abortedError() {
  const error = fieldError('signal', 'aborted', 'the mount was aborted (its signal)');
  Object.defineProperty(error, 'name', { value: 'AbortError' });
  return error;
}

/** Throws abortedError() when `signal` (an AbortSignal, or none) has aborted. */
export function throwIfAborted(signal) {
  if (signal?.aborted) throw abortedError();
}
