// Shared setup of the interaction browser tests: the real HTTP server (whose default host launches
// Chromium lazily) plus the fixture server, and small cell runners. Everything started here is
// closed by the test's teardown.
import { apiServer } from './api-server.mjs';
import { startFixtureServer } from './fixture-server.mjs';

/** Starts both servers for `t`; returns cell runners bound to them. */
export async function interactionApi(t) {
  const fixtures = await startFixtureServer();
  t.teardown(() => fixtures.close());
  // The browser is launched, never attached: a CDP_ENDPOINT in the developer's shell must not leak in.
  const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } } });

  /** Runs a cell that must succeed; returns the whole result. */
  async function ok(code, extra) {
    const result = await api.repl(code, extra);
    if (!result.success) throw new Error(`cell failed: ${result.error}\n--- cell:\n${code}`);
    return result;
  }

  /** Evaluates `expression` (it may use await) in a cell and returns its JSON value. */
  async function value(expression) {
    const result = await ok(`repl.write(JSON.stringify(await (async () => (${expression}))()))`);
    const writes = result.content.filter((item) => item.channel === 'write');
    return JSON.parse(writes[writes.length - 1].text);
  }

  /** Runs statements that must throw; returns the thrown `{code, message}`. */
  async function failure(statements) {
    const result = await ok(`try { ${statements}; repl.write(JSON.stringify({ threw: false })); }
      catch (error) { repl.write(JSON.stringify({ threw: true, code: error.code, message: error.message })); }`);
    const caught = JSON.parse(result.content.filter((item) => item.channel === 'write').pop().text);
    if (!caught.threw) throw new Error(`expected the cell to throw:\n${statements}`);
    return caught;
  }

  /** Navigates the attached tab to a fixture page and waits for its load. */
  async function open(name) {
    await ok(`await gotoUrl(${JSON.stringify(fixtures.url(name))}); if (!(await waitForLoad())) throw new Error('not loaded: ${name}');`);
  }

  return { api, fixtures, ok, value, failure, open };
}

/** The stderr text items of a result. */
export const stderrOf = (result) => result.content.filter((item) => item.channel === 'stderr').map((item) => item.text);
