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

t.test('only common/cdp/transport.ts opens a WebSocket', async (t) => {
  const openers = ['common', 'lib', 'worker']
    .flatMap((area) => sources(join(root, area)))
    .filter((file) => OPENS_SOCKET.some((pattern) => pattern.test(readFileSync(file, 'utf8'))))
    .map((file) => relative(root, file));
  t.same(openers, ['common/cdp/transport.ts']);
});

t.test('the check would see another opener', async (t) => {
  t.ok(OPENS_SOCKET.some((pattern) => pattern.test("import WebSocket from 'ws';")));
  t.ok(OPENS_SOCKET.some((pattern) => pattern.test('const socket = new WebSocket(url);')));
  t.ok(OPENS_SOCKET.some((pattern) => pattern.test("const { WebSocket } = await import('ws');")));
});
