/**
 * What the handlers of a REPL worker's messages share (worker/repl/handlers/): the cell context
 * and its evaluator, the output collector, the browser side (the endpoint bridge, the scoped
 * endpoint of a cell's Playwright, the helpers), the interrupts, and which REPL this worker
 * serves. Built once, before the worker posts `ready`; serve-repl.ts routes each message to its
 * handler with it.
 */
import { HELP_ENTRIES } from '../../common/help/help-registry.js';
import { ReplError } from '../../common/errors.js';
import type { WorkerToMainMessage } from '../../common/protocol/repl-messages.js';
import type { ScopedEndpoint } from '../../common/cdp/scoped-endpoint.js';
import { EndpointBridge } from '../threads/endpoint-bridge.js';
import { ModuleReclaimer } from '../threads/module-reclaimer.js';
import type { CdpClient } from '../cdp/cdp-client.js';
import { HelperContext } from '../helpers/helper-context.js';
import { cdpClientClass, createBrowserHelpers, scopedEndpointClass } from '../helpers/browser-helpers.js';
import { createCapturedConsole } from '../output/captured-console.js';
import { OutputCollector } from '../output/output-collector.js';
import { CellEvaluator } from './cell-evaluator.js';
import { CellInterrupts, newInterruptToken, sourceAsWritten } from './cell-interrupts.js';
import { createReplContext } from './create-context.js';
import { RealmGuard } from './realm-guard.js';
import { createReplNamespace } from './repl-namespace.js';
import { currentCellScope } from '../webmcp/cell-scope.js';
import { createWebMcpClient } from '../webmcp/webmcp-client.js';
import { createHumanClient } from '../webmcp/human-client.js';
import type { HumanBridge } from '../webmcp/human-client.js';

import type { BrowserHelper } from '../helpers/browser-helpers.js';
import type { WebMcpBridge } from '../webmcp/webmcp-client.js';

/** What the runtime needs of its startup (serve-repl.ts `ReplStartup` adds the port). */
export interface ReplRuntimeOptions {
  replId: string;
  browserAvailable: boolean;
  /** The flag the host sets when a cell is past its deadline (`WorkerStartup.interrupts`). */
  interrupts?: SharedArrayBuffer | undefined;
  /** Insert the liveness checks into cells (default true). */
  interruptChecks?: boolean | undefined;
  /** `WorkerStartup.interruptFlag`: the flag the host raises on this busy thread. */
  interruptFlag?: string | undefined;
}

/** Posts to the host with the port's `postMessage` captured before any cell ran. */
export type PostToHost = (message: WorkerToMainMessage, transfer?: ArrayBuffer[]) => void;

export interface ReplRuntime {
  readonly post: PostToHost;
  readonly browserAvailable: boolean;
  readonly realm: RealmGuard;
  /**
   * Which REPL this worker serves: set once by a `configure` message before the first cell (a
   * warm spare is started unnamed, for whichever REPL of the host takes it).
   */
  readonly identity: { name: string; ownsTab: boolean };
  readonly collector: OutputCollector;
  readonly endpoints: EndpointBridge;
  /** What a cell's own Playwright connects to (CDP_ENDPOINT), made on first use. */
  scopedEndpoint(): ScopedEndpoint;
  readonly helperContext: HelperContext;
  readonly helpers: Readonly<Record<string, BrowserHelper>>;
  readonly webmcp: WebMcpBridge;
  /** `requestHuman()` (docs/live-view.md#hand-over), a global beside the browser helpers. */
  readonly human: HumanBridge;
  readonly interrupts: CellInterrupts;
  readonly evaluator: CellEvaluator;
  /** Every cell is a module V8 keeps until asked for all the garbage it can find. */
  readonly reclaimer: ModuleReclaimer;
}

export function createReplRuntime(options: ReplRuntimeOptions, post: PostToHost): ReplRuntime {
  // First, before anything a cell could reach exists: the built-ins as the worker started with them.
  const realm = new RealmGuard((message) => collector.text('stderr', message));
  const identity = { name: 'default', ownsTab: false };
  // What an interrupted cell still writes (a `catch` before its next check, a listener it left)
  // reaches no response: output after the deadline is dropped.
  const collector = new OutputCollector({}, () => currentCellScope()?.interrupted !== true);
  const endpoints = new EndpointBridge({ post, available: options.browserAvailable });
  // What a cell's own Playwright connects to (CDP_ENDPOINT): the browser as this REPL may see it,
  // without the tabs other REPLs and executors own (common/cdp/scoped-endpoint.ts).
  let scoped: ScopedEndpoint | undefined;
  const scopedEndpoint = (): ScopedEndpoint => (scoped ??= new (scopedEndpointClass())({
    upstream: async () => (await endpoints.request()).endpoint,
    scope: async () => {
      const grant = await endpoints.request();
      return {
        mode: identity.ownsTab ? 'own' : 'shared',
        ownTargetIds: grant.targetId === undefined ? [] : [grant.targetId],
        foreign: grant.tabOwners ?? {},
        downloadsFolder: grant.downloads?.incoming,
        defaultContextId: grant.browserContextId,
      };
    },
  }));
  // Created on first use (issue 8): a cell that never drives the browser never loads the CDP client.
  const client = (): CdpClient => new (cdpClientClass())({
    // The client's notes are complete stderr lines already (they carry the browser-repl: prefix).
    onNote: (message) => collector.text('stderr', message),
    endpointProvider: async ({ previous }) => {
      const { endpoint } = await endpoints.request(previous);
      // Cells find the effective endpoint here (connectOverCDP(process.env.CDP_ENDPOINT)).
      process.env['CDP_ENDPOINT'] = await scopedEndpoint().url();
      return endpoint;
    },
    // The host knows which tabs are whose; it is asked whenever a page is chosen, so a tab another
    // REPL opened a moment ago is never taken for this one's.
    foreignTabs: async () => new Map(Object.entries((await endpoints.request()).tabOwners ?? {})),
    // The host's live view, recorder and computer controls show the tab the default REPL drives.
    onAttached: (targetId) => post({ type: 'attached', targetId }),
    ...(identity.ownsTab ? {
      ownTab: async ({ gone }: { gone?: string | undefined }) => {
        const { targetId } = await endpoints.request(undefined, { tabGone: gone });
        if (targetId === undefined) throw new ReplError('REPL_ERR_PROTOCOL', 'the host named no tab for this REPL');
        return targetId;
      },
    } : {}),
  });
  let knownDownloadFolders: { incoming: string; folder: string } | undefined;
  // The token of this worker's interrupt checks: page functions are sent without them.
  const interruptNames = options.interruptFlag === undefined ? newInterruptToken() : { token: options.interruptFlag };
  const helperContext = new HelperContext({
    client,
    sourceAsWritten: (source) => sourceAsWritten(source, interruptNames),
    note: (message) => collector.text('stderr', message),
    // The folders never change for a worker; only a reapply has to reach the host.
    downloadFolders: async (reapply) => {
      if (!reapply && knownDownloadFolders !== undefined) return knownDownloadFolders;
      const { downloads } = await endpoints.request(undefined, { reapplyDownloads: reapply });
      if (downloads === undefined) throw new ReplError('REPL_ERR_BROWSER_NOT_FOUND', 'the host manages no downloads for this REPL');
      knownDownloadFolders = downloads;
      return downloads;
    },
  });
  const repl = createReplNamespace({ id: options.replId, name: () => identity.name, collector, help: HELP_ENTRIES, trace: helperContext.trace });
  const webmcp = createWebMcpClient({ post, currentScope: currentCellScope, trace: helperContext.trace });
  const human = createHumanClient({ post, currentScope: currentCellScope });
  const helpers = { ...createBrowserHelpers(helperContext), requestHuman: human.requestHuman };
  const context = createReplContext({
    console: createCapturedConsole(collector),
    repl,
    helpers,
    webmcp: webmcp.client,
    // An interrupt clears the timers the cell started (cell-scope.ts).
    onTimer: (timer) => currentCellScope()?.trackTimer(timer),
    onTimerCallback: () => {
      realm.touched = true;
    },
  });
  const interrupts = new CellInterrupts({
    context, names: interruptNames, buffer: options.interrupts, currentScope: currentCellScope, raisedByHost: options.interruptFlag !== undefined,
  });
  const evaluator = new CellEvaluator({ context, interruptChecks: options.interruptChecks === false ? undefined : interruptNames });
  return {
    post,
    browserAvailable: options.browserAvailable,
    realm,
    identity,
    collector,
    endpoints,
    scopedEndpoint,
    helperContext,
    helpers,
    webmcp,
    human,
    interrupts,
    evaluator,
    reclaimer: new ModuleReclaimer(),
  };
}
