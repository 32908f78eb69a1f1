// Issue 8: exactly one source module opens a CDP WebSocket (common/cdp/transport.ts); the main
// thread's tab registry and every worker reach the browser through the shared CDP layer.
import t from 'tap';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sources = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
});

// Any way of getting a WebSocket client: the `ws` package (static or dynamic), or the global one.
const OPENS_SOCKET = [/from\s+['"]ws['"]/, /import\(\s*['"]ws['"]\s*\)/, /require\(\s*['"]ws['"]\s*\)/, /\bnew\s+(?:globalThis\.)?WebSocket\s*\(/, /from\s+['"]undici['"][^;]*\bWebSocket\b/];

// Not a socket of the server's: the live view's page script, a string this module serves, opens
// the viewer's WebSocket from the viewer's own browser (docs/live-view.md).
const SERVED_TO_BROWSERS = ['lib/live-view/page.ts'];

t.test('only common/cdp/transport.ts opens a WebSocket', async (t) => {
  const openers = ['common', 'lib', 'worker']
    .flatMap((area) => sources(join(root, area)))
    .filter((file) => OPENS_SOCKET.some((pattern) => pattern.test(readFileSync(file, 'utf8'))))
    .map((file) => relative(root, file));
  t.same(openers.filter((file) => !SERVED_TO_BROWSERS.includes(file)), ['common/cdp/transport.ts']);
  // An exception that no longer applies is removed, not kept.
  t.same(openers.filter((file) => SERVED_TO_BROWSERS.includes(file)), SERVED_TO_BROWSERS);
});

t.test('the check would see another opener', async (t) => {
  t.ok(OPENS_SOCKET.some((pattern) => pattern.test("import WebSocket from 'ws';")));
  t.ok(OPENS_SOCKET.some((pattern) => pattern.test('const socket = new WebSocket(url);')));
  t.ok(OPENS_SOCKET.some((pattern) => pattern.test("const { WebSocket } = await import('ws');")));
});
