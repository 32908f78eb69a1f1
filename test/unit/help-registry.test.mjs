// The help registry renders repl.help text; docs/repl.md and openapi.json are generated from it.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { HELP_ENTRIES } from '../../dist/lib/index.js';
import { formatHelpEntry, formatHelpIndex, resolveHelpEntry } from '../../dist/common/help/format-help.js';

t.test('formatHelpIndex', async (t) => {
  const text = formatHelpIndex(HELP_ENTRIES);
  t.match(text, /^Browser REPL methods\n\nUse repl\.help\("methodName"\) for signatures, behavior, defaults, and examples\.\n\nREPL: repl\.help, repl\.write, repl\.emitImage/);
  t.equal(text.split('\n').at(-1), 'WebMCP: webmcp.listTools, webmcp.invokeTool', 'the WebMCP group comes last');
  t.equal(resolveHelpEntry(HELP_ENTRIES, 'invokeTool').name, 'webmcp.invokeTool');
  t.match(formatHelpEntry(resolveHelpEntry(HELP_ENTRIES, 'webmcp.invokeTool')), /UNTRUSTED.*\n\nCall as webmcp\.invokeTool\(\.\.\.\)\./s);
  const entries = [
    { name: 'repl.write', group: 'REPL', signature: 's', description: 'd' },
    { name: 'browser.click', group: 'Browser control', signature: 'click()', description: 'd' },
    { name: 'browser.cdp', group: 'Browser control', signature: 'cdp()', description: 'd' },
    { name: 'webmcp.listTools', group: 'WebMCP', signature: 'l()', description: 'd' },
  ];
  t.equal(formatHelpIndex(entries).split('\n').slice(4).join('\n'),
    'REPL: repl.write\nBrowser control: click, cdp\nWebMCP: webmcp.listTools');
});

t.test('formatHelpEntry and resolveHelpEntry', async (t) => {
  const entries = [
    { name: 'repl.write', group: 'REPL', signature: 'repl.write(v)', description: 'Writes.', example: 'repl.write(1)' },
    { name: 'browser.click', group: 'Browser control', signature: 'click(target)', description: 'Clicks.' },
    { name: 'webmcp.listTools', group: 'WebMCP', signature: 'webmcp.listTools()', description: 'Lists.' },
  ];
  t.equal(formatHelpEntry(entries[0]), 'repl.write(v)\n\nWrites.\n\nCall as repl.write(...).\n\nExample:\nrepl.write(1)');
  t.equal(formatHelpEntry(entries[1]), 'click(target)\n\nClicks.\n\nAvailable as click(...) and browser.click(...).');
  t.equal(resolveHelpEntry(entries, ' click ').name, 'browser.click');
  t.equal(resolveHelpEntry(entries, 'browser.click').name, 'browser.click');
  t.equal(resolveHelpEntry(entries, 'listTools').name, 'webmcp.listTools');
  t.equal(resolveHelpEntry(entries, 'write').name, 'repl.write');
  t.throws(() => resolveHelpEntry(entries, ''), { message: 'repl.help: methodName must be a non-empty string when provided' });
  t.throws(() => resolveHelpEntry(entries, 42), { message: 'repl.help: methodName must be a non-empty string when provided' });
  t.throws(() => resolveHelpEntry(entries, 'nope'), { message: 'repl.help: unknown method "nope"; call repl.help() to list methods' });
});

t.test('generated docs and openapi.json are up to date', async (t) => {
  const out = execFileSync(process.execPath, ['scripts/generate.mjs', '--check'], { cwd: new URL('../../', import.meta.url) });
  t.match(out.toString(), /up to date/);
});
