/**
 * What every browser helper receives: the REPL's CDP client, the running cell's deadline and
 * abort signal, and a way to leave a note on the cell's stderr. One context lives as long as the
 * worker; `beginCell`/`endCell` scope the per-cell parts.
 *
 * The deadline is passed to the client in the options of each call (`callOptions()`): the client
 * itself does not know which cell is running.
 */
import { setMaxListeners } from 'node:events';
import { Deadline } from '../../common/cdp/deadline.js';
import { DEADLINE_MARGIN_MS } from '../../common/limits.js';

import type { DeadlineOptions } from '../../common/cdp/deadline.js';
import { ReplError } from '../../common/errors.js';
import { TraceRecorder } from '../../common/trace/trace-recorder.js';
import type { CdpClient } from '../cdp/cdp-client.js';

/** The host's download folders for one REPL (lib/chromium/downloads.ts). */
export interface DownloadFolders {
  /** Where Chromium saves every download, named by its guid. */
  incoming: string;
  /** This REPL's own folder. */
  folder: string;
}

/** The signal between cells: a helper still running after its cell ended sees it aborted. */
const ENDED = new AbortController();
ENDED.abort(new Error('Browser REPL execution finished'));

export class HelperContext {
  /** The client, or the factory that creates it on first use (issue 8: a worker's start-up). */
  #client: CdpClient | (() => CdpClient);
  readonly #note: (message: string) => void;
  #deadline: Deadline | undefined;
  /** Created on first use of `signal` in a cell: most cells never wait on anything. */
  #controller: AbortController | undefined;

  readonly #downloadFolders: ((reapply: boolean) => Promise<DownloadFolders>) | undefined;
  readonly #sourceAsWritten: (source: string) => string;
  /**
   * This REPL's trace of actions (docs/trace.md): the helpers and the agent tools record into it,
   * `repl.trace()` and the `trace` tool operation read it.
   */
  readonly trace = new TraceRecorder({ page: () => this.#tracePage() });

  constructor(options: {
    client: CdpClient | (() => CdpClient);
    note: (message: string) => void;
    /**
     * A cell function's source text as the user wrote it, from what V8 returns: without the
     * interrupt checks the lowering inserted (worker/repl/cell-interrupts.ts). Default: as it is.
     */
    sourceAsWritten?: ((source: string) => string) | undefined;
    /** The host's download folders for this REPL; `reapply` has the host set Chromium's download behaviour again. */
    downloadFolders?: ((reapply: boolean) => Promise<DownloadFolders>) | undefined;
  }) {
    this.#client = options.client;
    this.#note = options.note;
    this.#downloadFolders = options.downloadFolders;
    this.#sourceAsWritten = options.sourceAsWritten ?? ((source) => source);
  }

  #tracePage(): { tab: string; url: string; document: number } {
    // The trace never creates the client: a REPL that drove no page has no page to name.
    if (typeof this.#client === 'function') return { tab: '', url: '', document: 0 };
    const client = this.#client;
    return { tab: client.targetId ?? '', url: client.mainFrameUrl, document: client.documents };
  }

  /** What `js(fn)` sends to the page: the function's source as written (see the constructor). */
  sourceAsWritten(source: string): string {
    return this.#sourceAsWritten(source);
  }

  /** Where this REPL's downloads go (waitForDownload, listDownloads). */
  downloadFolders(reapply = false): Promise<DownloadFolders> {
    if (this.#downloadFolders === undefined) {
      return Promise.reject(new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'this REPL has no browser host, so it has no download folder'));
    }
    return this.#downloadFolders(reapply);
  }

  get client(): CdpClient {
    if (typeof this.#client === 'function') this.#client = this.#client();
    return this.#client;
  }

  /** Closes the client, if it was ever created. */
  async closeClient(): Promise<void> {
    if (typeof this.#client !== 'function') await this.#client.close();
  }

  /** Called by the runtime when a cell starts; `deadline` is the cell's own (Unix ms). */
  beginCell(deadline: number): void {
    this.#deadline = new Deadline(deadline - DEADLINE_MARGIN_MS);
    this.#controller = undefined;
  }

  /**
   * Whether the running cell asked for {@link signal}: a helper of it ran, and ending the cell
   * aborts what it left listening (runtime code then runs in {@link endCell}).
   */
  get cellUsedSignal(): boolean {
    return this.#controller !== undefined && this.#controller !== ENDED;
  }

  /** Called when the cell ends: waits it left running are cancelled. */
  endCell(): void {
    this.#deadline = undefined;
    this.#controller?.abort(new Error('Browser REPL execution finished'));
    this.#controller = ENDED;
  }

  /**
   * When the running cell's commands and waits must be over: {@link DEADLINE_MARGIN_MS} before the
   * cell's own deadline. `undefined` between cells.
   */
  get deadline(): Deadline | undefined {
    return this.#deadline;
  }

  /** Options for one CDP call of a helper: `extra` plus the running cell's deadline. */
  callOptions<T extends object = Record<never, never>>(extra?: T): T & DeadlineOptions {
    return { ...extra, deadline: this.#deadline } as T & DeadlineOptions;
  }

  /** Aborted when the cell that is running now ends. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      // Every running helper listens to it, and a cell may run many at once
      // (Promise.all of waitForElement calls): that is not a leak, so Node's warning at 10 is not for it.
      setMaxListeners(0, this.#controller.signal);
    }
    return this.#controller.signal;
  }

  /** Absolute time (Unix ms) by which a wait of `timeoutMs` must end: never past the cell's {@link deadline}. */
  waitDeadline(timeoutMs: number): number {
    const own = Date.now() + timeoutMs;
    return this.#deadline === undefined ? own : Math.min(own, this.#deadline.at);
  }

  /** Writes `browser-repl: <message>` to the cell's stderr. */
  note(message: string): void {
    this.#note(`browser-repl: ${message}`);
  }
}
