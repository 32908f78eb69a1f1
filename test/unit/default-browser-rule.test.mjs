import t from 'tap';
import { REGISTRY_MODULE, defaultBrowserProblems } from '../../scripts/check-default-browser.mjs';

const at = (path, text) => defaultBrowserProblems([{ path, text }]);

t.test('special cases of the default browser outside the registry are refused', async (t) => {
  const refused = [
    "import { DEFAULT_BROWSER_ID } from '../browsers/browsers.js';",
    'const tools = new BrowserTools({ host: defaultHost });',
    "if (idOrName === 'default') return primary;",
    "const local = 'default' !== req.params.id_or_name ? 1 : 0;",
    "if (String(req.params['id_or_name']) === 'default') next();",
    'if (session.id !== "default") hold();',
    'const own = browsers.get(`default`);',
    "const url = '/browsers/default/repl';",
  ];
  for (const line of refused) {
    const problems = at('lib/http/example.ts', `// first line\n${line}\n`);
    t.equal(problems.length, 1, line);
    t.match(problems[0], /^lib\/http\/example\.ts:2: /, 'names the file and the line');
  }
});

t.test('REPL and executor names, and the registry module itself, are not browser ids', async (t) => {
  const allowed = [
    "repl = host.repl(body.repl ?? 'default');",
    "if (name === 'default') return { interrupted: false };",
    "return name === 'default' ? this.#default : this.#named.get(name);",
    "const primary = options.primaryBrowser ?? {};",
    "if (condition === 'default') return;",
  ];
  for (const line of allowed) t.same(at('lib/http/example.ts', line), [], line);
  t.same(at(REGISTRY_MODULE, "const DEFAULT_BROWSER_ID = 'default';\nif (idOrName === DEFAULT_BROWSER_ID) return this.#primary;"), [], 'the registry may');
  t.same(at('lib/client/openapi-types.ts', ' * GET /browsers/default shows it'), [], 'the HTTP client addresses it from outside');
});
