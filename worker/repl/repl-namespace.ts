/**
 * The frozen `repl` object cells see: `id`, `name`, `help`, `write`, `emitImage` (docs/repl.md,
 * "Methods available in a cell").
 */
import { formatHelpEntry, formatHelpIndex, resolveHelpEntry } from '../../common/help/format-help.js';
import { WRITE_INSPECT_OPTIONS } from '../../common/limits.js';
import type { HelpEntry } from '../../common/help/help-registry.js';
import type { OutputCollector } from '../output/output-collector.js';
import type { TraceRecorder } from '../../common/trace/trace-recorder.js';
import type { TraceExport } from '../../common/trace/trace-types.js';
import { ObjectFreeze, utilInspect } from '../output/primordials.js';

export interface ReplNamespace {
  readonly id: string;
  /** Name of this REPL within its host: `default`, or the `repl` of the request. */
  readonly name: string;
  help(methodName?: unknown): string;
  write(value: unknown): void;
  emitImage(input: unknown): Promise<void>;
  /** This REPL's trace of actions, exported (docs/trace.md): `{ entries, playwright, repl, env, omitted, dropped }`. */
  trace(options?: { clear?: boolean; title?: string }): Promise<TraceExport>;
}

export function createReplNamespace(options: {
  id: string;
  /** Read on every access: the host names a worker after it started (a warm spare). */
  name: () => string;
  collector: OutputCollector;
  help: readonly HelpEntry[];
  /** The REPL's trace (the helper context's recorder). */
  trace?: TraceRecorder;
}): ReplNamespace {
  const { collector, help } = options;
  return ObjectFreeze({
    id: options.id,
    get name(): string {
      return options.name();
    },
    help(...args: unknown[]): string {
      const text = args.length === 0 || args[0] === undefined
        ? formatHelpIndex(help)
        : formatHelpEntry(resolveHelpEntry(help, args[0]));
      collector.text('write', text);
      return text;
    },
    write(value: unknown): void {
      collector.text('write', typeof value === 'string' ? value : utilInspect(value, WRITE_INSPECT_OPTIONS));
    },
    async trace(traceOptions?: { clear?: boolean; title?: string }): Promise<TraceExport> {
      const recorder = options.trace;
      // Imported on first use, like emitImage's module.
      const { exportTrace } = await import('../../common/trace/export-script.js');
      if (recorder === undefined) return exportTrace([]);
      const title = typeof traceOptions?.title === 'string' ? traceOptions.title : undefined;
      const exported = exportTrace(recorder.entries(), { dropped: recorder.dropped, ...(title === undefined ? {} : { title }) });
      if (traceOptions?.clear === true) recorder.clear();
      return exported;
    },
    async emitImage(input: unknown): Promise<void> {
      // Imported on first use: most workers never emit an image (issue 8: start-up loads only what the first cell uses).
      const { normalizeImageInput } = await import('../output/image-input.js');
      const image = await normalizeImageInput(input);
      collector.image(image.mimeType, image.bytes);
    },
  });
}
