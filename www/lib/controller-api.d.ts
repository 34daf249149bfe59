// Types for www/lib/controller-api.js: the controller's API written once.

/** What a method answers: at once ('none', 'value'), the controller with `ready` ('restart'), or a Promise. */
export type Answer = 'none' | 'value' | 'restart' | 'promise';

export interface MethodOfApi {
  /** Its parameters as cloth.d.ts names them; `?` marks an optional one. */
  readonly params: readonly string[];
  readonly answer: Answer;
  /** 'cloth': where the cloth runs (its worker, when it has one); 'page': the calling side. */
  readonly where: 'cloth' | 'page';
  /** Reads the arguments on the calling side into plain data; throws a refused argument. */
  readonly read: (...args: unknown[]) => unknown[];
  /** After destroy(): refuse the call, ignore it, or still answer. */
  readonly destroyed: 'refuse' | 'ignore' | 'answer';
}

/** What a pointer pressed on the cloth does: ClothTool of cloth.d.ts. */
export declare const TOOLS: readonly ['drag', 'cut', 'pin'];
export declare const METHODS: Readonly<Record<string, MethodOfApi>>;
/** Every getter and where its answer comes from. */
export declare const GETTERS: Readonly<Record<string, 'cloth' | 'page'>>;
export declare const CLOTH_GETTERS: readonly string[];
/** The methods a cloth's worker performs when the page posts them. */
export declare const WORKER_CALLS: readonly string[];
/** The Symbol under which a controller performs each method with plain arguments. */
export declare const PERFORM: Readonly<Record<string, symbol>>;
/** The refusal of a call on a destroyed cloth: `field` "controller", `code` "destroyed". */
export declare function destroyedError(): Error & { field: string; code: string };
/** Installs the public methods of METHODS on a controller class that performs each of them. */
export declare function installApi(Class: { prototype: object; name: string }, reportRefusedRestart: (controller: any, error: unknown) => void): void;
/** Binds every method of the list to `controller`. */
export declare function bindApi(controller: object): void;
