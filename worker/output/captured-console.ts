/**
 * The `console` that cells see. Node's console would write to the worker's stdout, which is a
 * diagnostic stream; this one turns each call into one ordered output item (docs/repl.md, "Response").
 */
import type { OutputChannel } from '../../common/protocol/repl-messages.js';
import type { OutputCollector } from './output-collector.js';
import { ObjectFreeze, ReflectApply, utilFormat } from './primordials.js';

const STDOUT_METHODS = ['log', 'info', 'debug', 'dir', 'table'] as const;
const STDERR_METHODS = ['warn', 'error', 'trace'] as const;

export type CapturedConsole = Readonly<Record<(typeof STDOUT_METHODS)[number] | (typeof STDERR_METHODS)[number], (...args: unknown[]) => void>>;

export function createCapturedConsole(collector: OutputCollector): CapturedConsole {
  const methods: Record<string, (...args: unknown[]) => void> = {};
  const bind = (name: string, channel: OutputChannel) => {
    methods[name] = {
      // A method-shorthand keeps `console.log.name === 'log'` like the real console.
      [name](...args: unknown[]): void {
        collector.text(channel, ReflectApply(utilFormat, undefined, args) as string);
      },
    }[name]!;
  };
  for (const name of STDOUT_METHODS) bind(name, 'stdout');
  for (const name of STDERR_METHODS) bind(name, 'stderr');
  return ObjectFreeze(methods) as CapturedConsole;
}
