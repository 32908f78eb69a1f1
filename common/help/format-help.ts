/**
 * Renders `repl.help()` text from the help registry (docs/repl.md, `repl.help`). Pure: used by the
 * worker and the docs generator.
 */

export type HelpGroup = 'REPL' | 'Browser control' | 'WebMCP';

export interface HelpEntry {
  /** Qualified name: `repl.write`, `browser.click`, `webmcp.listTools`. */
  readonly name: string;
  readonly group: HelpGroup;
  readonly signature: string;
  readonly description: string;
  readonly example?: string;
}

const GROUP_ORDER: readonly HelpGroup[] = ['REPL', 'Browser control', 'WebMCP'];

function shortName(entry: HelpEntry): string {
  return entry.group === 'Browser control' ? entry.name.slice('browser.'.length) : entry.name;
}

/** The method list shown by `repl.help()` without an argument. */
export function formatHelpIndex(entries: readonly HelpEntry[]): string {
  const lines = [
    'Browser REPL methods',
    '',
    'Use repl.help("methodName") for signatures, behavior, defaults, and examples.',
    '',
  ];
  for (const group of GROUP_ORDER) {
    const names = entries.filter((entry) => entry.group === group).map(shortName);
    if (names.length > 0) lines.push(`${group}: ${names.join(', ')}`);
  }
  return lines.join('\n');
}

/** The text for one method. */
export function formatHelpEntry(entry: HelpEntry): string {
  const alias = entry.group === 'Browser control'
    ? `Available as ${shortName(entry)}(...) and ${entry.name}(...).`
    : `Call as ${entry.name}(...).`;
  const parts = [entry.signature, '', entry.description, '', alias];
  if (entry.example !== undefined) parts.push('', 'Example:', entry.example);
  return parts.join('\n');
}

/**
 * Finds the entry for `name`: the exact qualified name, `browser.<name>` for a browser helper,
 * else the one entry whose unqualified name matches. Throws the contract's messages.
 */
export function resolveHelpEntry(entries: readonly HelpEntry[], name: unknown): HelpEntry {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new TypeError('repl.help: methodName must be a non-empty string when provided');
  }
  const wanted = name.trim();
  const exact = entries.find((entry) => entry.name === wanted)
    ?? entries.find((entry) => entry.name === `browser.${wanted}`);
  if (exact !== undefined) return exact;
  const matches = entries.filter((entry) => entry.name.slice(entry.name.lastIndexOf('.') + 1) === wanted);
  if (matches.length === 1) return matches[0]!;
  throw new RangeError(`repl.help: unknown method "${wanted}"; call repl.help() to list methods`);
}
