// Types for www/lib/plain-arguments.js: a caller's arguments read once into plain data.

/** The longest array of a scene that is copied; a longer one is kept as its length (the Simulation refuses it). */
export declare const LONGEST_SCENE_ARRAY: number;
/** A value where a number, string or flag belongs, as plain data (a function or Symbol as a stand-in, any other object as `{}`). */
export declare function plainValue(value: unknown): unknown;
/** A scene read once, as the Simulation reads it, into plain data. */
export declare function plainScene(spec: unknown): unknown;
/** A plain value as the cloth reads it: a stand-in revived. */
export declare function reviveValue(value: unknown): unknown;
/** A plain scene as the cloth reads it: every stand-in in it revived. */
export declare function reviveScene(scene: unknown): unknown;
/** The argument of `addBody` read once, as the Simulation reads it, into plain data. */
export declare function plainBody(body: unknown): unknown;
/** A plain body as the cloth reads it: every stand-in in it revived. */
export declare function reviveBody(body: unknown): unknown;
/** The argument of `addRope` read once, as the Simulation reads it, into plain data. */
export declare function plainRope(rope: unknown): unknown;
/** A plain rope as the cloth reads it: every stand-in in it revived. */
export declare function reviveRope(rope: unknown): unknown;
