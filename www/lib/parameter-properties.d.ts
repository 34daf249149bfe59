// Types for www/lib/parameter-properties.js: the Simulation parameter properties.

/**
 * Defines on `prototype` (Simulation's) a property for each of `names`: reading
 * it calls `parameterValue(name)`, setting it `setParameterValue(name, value)`.
 */
export declare function defineParameterProperties(prototype: object, names: Iterable<string>): void;
