// Types for www/lib/options.js: the options of mountCloth, their checks and messages.

import type { Parameter } from './parameters.js';
import type { ClothOptions } from './cloth.js';

/** The codes of the Errors thrown for an option or a parameter. */
export type OptionErrorCode = 'invalid_value' | 'wrong_type' | 'unknown_option';

/** An Error for an option or parameter: `field` names it, `code` says what was wrong. */
export interface OptionError extends Error {
  field: string;
  code: OptionErrorCode;
}

/** Where a cloth runs: "auto" (WebGPU for large cloths on a hardware adapter, else the CPU), "webgpu" or "cpu". */
export type BackendName = 'auto' | 'webgpu' | 'cpu';
export const BACKENDS: readonly BackendName[];
/** Where a cloth steps and draws: "auto" (a worker where one can run), "on" (a worker, or an Error), "off" (the page's main thread). */
export type WorkerChoice = 'auto' | 'on' | 'off';
export const WORKER_CHOICES: readonly WorkerChoice[];
/** The options that stay with the caller (onFrame, onError): a worker never gets them. */
export const CALLBACK_OPTIONS: readonly string[];
/** `options` without onFrame and onError: what crosses to a worker. */
export function withoutCallbacks(options: ClothOptions): ClothOptions;
/**
 * The options a caller gives (mountCloth, restart) read once into plain data: names and the
 * values the JavaScript side owns checked (throws an Error with `field` and `code`), the
 * rest made plain for the Simulation to check (plain-arguments.js).
 */
export function readOptionChanges(changes: unknown): ClothOptions;
/** Throws an Error with `field` `name` unless `value` is a BackendName. */
export function checkBackend(value: unknown, name?: string): void;
export function fieldError(field: string, code: OptionErrorCode, message: string): OptionError;
export const PARAMETER_BY_NAME: ReadonlyMap<string, Parameter>;
export const DEFAULT_OPTIONS: Readonly<ClothOptions>;
export function checkRule(value: unknown, name: string): void;
export function quoteForMessage(text: unknown): string;
export function describe(value: unknown): string;
export function mergeOptions(base: ClothOptions, changes: ClothOptions): ClothOptions;
/** mergeOptions, and the names `changes` gives a value (each property read once). */
export function mergeOptionsGiven(base: ClothOptions, changes: ClothOptions): { options: ClothOptions; given: Set<string> };
export function liveParameter(name: unknown, value: unknown): Parameter;
export function parseNumber(text: unknown, name?: string): number;
