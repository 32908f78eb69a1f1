// common/timeout-sec.ts: the one check of a timeout_sec (docs/repl.md, docs/playwright.md,
// docs/webmcp.md), used by the routes, the library calls and the MCP tools alike.
import t from 'tap';
import { CELL_TIMEOUT, timeoutMsOf, WEBMCP_TIMEOUT } from '../../dist/common/timeout-sec.js';
import { LIMITS } from '../../dist/common/limits.js';

t.test('absent: the default of its kind, in milliseconds', async (t) => {
  t.equal(timeoutMsOf(undefined, CELL_TIMEOUT), LIMITS.timeoutSecDefault * 1000);
  t.equal(timeoutMsOf(undefined, WEBMCP_TIMEOUT), LIMITS.webmcpTimeoutSecDefault * 1000);
});

t.test('an integer within the range: its milliseconds, the bounds included', async (t) => {
  t.equal(timeoutMsOf(LIMITS.timeoutSecMin, CELL_TIMEOUT), LIMITS.timeoutSecMin * 1000);
  t.equal(timeoutMsOf(LIMITS.timeoutSecMax, CELL_TIMEOUT), LIMITS.timeoutSecMax * 1000);
  t.equal(timeoutMsOf(LIMITS.webmcpTimeoutSecMax, WEBMCP_TIMEOUT), LIMITS.webmcpTimeoutSecMax * 1000);
});

t.test('anything else: a 400 naming timeout_sec, in the words of its kind', async (t) => {
  for (const bad of [0, LIMITS.timeoutSecMax + 1, 1.5, '10', null, Number.NaN, Number.POSITIVE_INFINITY]) {
    t.throws(() => timeoutMsOf(bad, CELL_TIMEOUT), { code: 'REPL_ERR_INVALID_REQUEST', message: 'timeout_sec must be between 1 and 300' }, `cell ${String(bad)}`);
  }
  t.throws(() => timeoutMsOf(121, WEBMCP_TIMEOUT), { code: 'REPL_ERR_INVALID_REQUEST', message: 'timeout_sec must be an integer from 1 to 120' });
  t.throws(() => timeoutMsOf(0, CELL_TIMEOUT, 'REPL_ERR_INVALID_ARGUMENT'), { code: 'REPL_ERR_INVALID_ARGUMENT' }, 'a caller may name its own code');
});

t.test('the ranges are frozen', async (t) => {
  t.ok(Object.isFrozen(CELL_TIMEOUT));
  t.ok(Object.isFrozen(WEBMCP_TIMEOUT));
});
