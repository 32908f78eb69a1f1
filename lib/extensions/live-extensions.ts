/**
 * `POST /browsers/{id}/extensions` (the SDK's `browsers.loadExtensions`), without a restart:
 * Chromium 156 loads an unpacked extension into a running browser with the CDP command
 * `Extensions.loadUnpacked` (docs/browsers.md#extensions). The hosted product restarts Chromium
 * instead; here the browser keeps its tabs, cookies and REPL bindings, and the extension's content
 * scripts apply from each page's next load.
 *
 * Each browser's extensions are unpacked into a private temporary folder of its own,
 * `<name>/` per extension (a name loaded again replaces the earlier one), removed when the
 * browser ends. A Chromium relaunched after a crash loads them again before it is used
 * (`BrowserManager.onReady`).
 */
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserLink } from '../../common/cdp/browser-link.js';
import { ReplError } from '../../common/errors.js';
import type { ZipLimits } from '../system/zip.js';
import { unpackExtension } from './extension-store.js';

/** The parts of a browser this module uses (lib/browsers' `Browser`, structurally). */
export interface ExtensionHost {
  readonly id: string;
  readonly chromium: {
    endpoint(options?: { signal?: AbortSignal | undefined }): Promise<string>;
    onReady(hook: (endpoint: string) => Promise<void>): () => void;
  } | null;
  onEnd(hook: () => Promise<void>): () => void;
}

/** Bounds one `Extensions.loadUnpacked` (Chromium reads and checks the folder). */
const LOAD_TIMEOUT_MS = 30_000;

/**
 * Loads each folder of `paths` into the browser at `endpoint`, in order; returns Chromium's
 * extension ids.
 * @throws ReplError `REPL_ERR_EXTENSION_INVALID` (Chromium refused one: its message says why), CDP errors.
 */
export async function loadUnpacked(endpoint: string, paths: readonly string[]): Promise<string[]> {
  const link = new BrowserLink({ endpointProvider: () => Promise.resolve(endpoint) });
  try {
    const ids: string[] = [];
    for (const path of paths) {
      try {
        ids.push((await link.send('Extensions.loadUnpacked', { path }, { timeoutMs: LOAD_TIMEOUT_MS })).id);
      } catch (error) {
        if (error instanceof ReplError && error.code === 'REPL_ERR_CDP_COMMAND_FAILED') {
          throw new ReplError('REPL_ERR_EXTENSION_INVALID', `Chromium refused the extension: ${error.message}`, { cause: error });
        }
        throw error;
      }
    }
    return ids;
  } finally {
    await link.close();
  }
}

interface HostState {
  folder: Promise<string>;
  /** Loaded folders by extension name, in load order. */
  loaded: Map<string, string>;
  disposeReady: () => void;
}

/** The extensions loaded into running browsers, by browser id. */
export class LiveExtensions {
  readonly #limits: ZipLimits;
  readonly #hosts = new Map<string, HostState>();
  /** Loads into one browser run one at a time. */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(limits: ZipLimits) {
    this.#limits = limits;
  }

  #state(host: ExtensionHost): HostState {
    const known = this.#hosts.get(host.id);
    if (known !== undefined) return known;
    const folder = mkdtemp(join(tmpdir(), 'browser-repl-extensions-'));
    folder.catch(() => undefined);
    const state: HostState = { folder, loaded: new Map(), disposeReady: () => {} };
    // A relaunched Chromium (after a crash) starts without them: loaded again before it is used.
    state.disposeReady = host.chromium?.onReady((endpoint) => loadUnpacked(endpoint, [...state.loaded.values()]).then(() => undefined)) ?? (() => {});
    host.onEnd(async () => {
      state.disposeReady();
      this.#hosts.delete(host.id);
      this.#queues.delete(host.id);
      await rm(await folder, { recursive: true, force: true }).catch(() => undefined);
    });
    this.#hosts.set(host.id, state);
    return state;
  }

  /**
   * Unpacks and checks every zip first (a refused one loads none), then loads them into the
   * running browser. `extensions`: each one's name (its folder) and staged zip.
   * @throws ReplError `REPL_ERR_EXTENSION_INVALID`, the zip errors, `REPL_ERR_INVALID_REQUEST`
   *   (a browser without a Chromium of its own), CDP errors.
   */
  load(host: ExtensionHost, extensions: ReadonlyArray<{ name: string; zip: string }>, signal?: AbortSignal): Promise<void> {
    const chromium = host.chromium;
    if (chromium === null) throw new ReplError('REPL_ERR_INVALID_REQUEST', 'this browser has no Chromium to load extensions into');
    const previous = this.#queues.get(host.id) ?? Promise.resolve();
    const run = previous.then(async () => {
      const state = this.#state(host);
      const folder = await state.folder;
      const staged: Array<{ name: string; staging: string; root: string }> = [];
      try {
        for (const [index, extension] of extensions.entries()) {
          const staging = join(folder, `.incoming-${index}-${extension.name}`);
          await rm(staging, { recursive: true, force: true });
          const { root } = await unpackExtension(extension.zip, staging, this.#limits);
          staged.push({ name: extension.name, staging, root });
        }
        const paths: string[] = [];
        for (const { name, staging, root } of staged) {
          const target = join(folder, name);
          await rm(target, { recursive: true, force: true });
          await rename(staging, target);
          state.loaded.delete(name);
          state.loaded.set(name, join(target, root));
          paths.push(join(target, root));
        }
        try {
          await loadUnpacked(await chromium.endpoint({ signal }), paths);
        } catch (error) {
          // Not loaded: a relaunch must not try them again.
          for (const { name } of staged) state.loaded.delete(name);
          throw error;
        }
      } finally {
        await Promise.all(staged.map(({ staging }) => rm(staging, { recursive: true, force: true })));
      }
    });
    this.#queues.set(host.id, run.catch(() => undefined));
    return run;
  }
}
