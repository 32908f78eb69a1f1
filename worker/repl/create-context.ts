/**
 * Builds the persistent `vm` context a REPL's cells run in, with exactly the globals of contract
 * §8. The context is a state container, not a sandbox: `process`, `Buffer` and `fetch` are this
 * worker's own objects.
 */
import { createContext, type Context } from 'node:vm';

export interface ContextGlobals {
  console: object;
  repl: object;
  /** Browser helpers, installed both as bare globals and on the frozen `browser` namespace. */
  helpers: Readonly<Record<string, (...args: never[]) => unknown>>;
  webmcp: object;
}

/** Node globals a cell may use; everything else of Node (require, setImmediate, performance…) stays out. */
function nodeGlobals(): Record<string, unknown> {
  return {
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    queueMicrotask,
    Buffer,
    process,
    fetch,
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    AbortController,
    AbortSignal,
    structuredClone,
    atob,
    btoa,
  };
}

/**
 * `crypto` the way Node's own global defines it: a replaceable accessor, resolved on first read.
 * Reading `globalThis.crypto` loads Web Crypto (≈ 2 ms of a worker's start, issue 8), which most
 * cells never use. The getter returns this thread's own `crypto` object, as the data property did.
 */
function defineLazyCrypto(sandbox: Record<string, unknown>): void {
  let value: unknown;
  let resolved = false;
  Object.defineProperty(sandbox, 'crypto', {
    configurable: true,
    enumerable: true,
    get() {
      if (!resolved) {
        value = globalThis.crypto;
        resolved = true;
      }
      return value;
    },
    set(replacement: unknown) {
      value = replacement;
      resolved = true;
    },
  });
}

export function createReplContext(globals: ContextGlobals): Context {
  const browser = Object.freeze({ ...globals.helpers, webmcp: globals.webmcp });
  const sandbox: Record<string, unknown> = nodeGlobals();
  defineLazyCrypto(sandbox);
  Object.assign(sandbox, {
    console: globals.console,
    repl: globals.repl,
    ...globals.helpers,
    browser,
    webmcp: globals.webmcp,
  });
  return createContext(sandbox, { name: 'browser-repl', codeGeneration: { strings: true, wasm: true } });
}
