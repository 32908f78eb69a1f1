// The main thread's operation object (docs/architecture.md, "Operations"): one call's budget and
// cancellation, checked once at the edge and raced below it without hand-made timers.
import { getEventListeners } from 'node:events';
import t from 'tap';
import { Operation, abortError } from '../../dist/common/operation.js';
import { CELL_TIMEOUT, WEBMCP_TIMEOUT } from '../../dist/common/timeout-sec.js';
import { ReplError } from '../../dist/common/errors.js';

t.test('fromTimeoutSec checks a timeout_sec once: default, range, integer, error code', async (t) => {
  t.equal(Operation.fromTimeoutSec(undefined, CELL_TIMEOUT).timeoutMs, CELL_TIMEOUT.defaultSec * 1000);
  t.equal(Operation.fromTimeoutSec(5, CELL_TIMEOUT).timeoutMs, 5000);
  t.equal(Operation.fromTimeoutSec(5, CELL_TIMEOUT).timeoutSec, 5);
  t.equal(Operation.fromTimeoutSec(undefined, WEBMCP_TIMEOUT).timeoutSec, WEBMCP_TIMEOUT.defaultSec);
  for (const bad of [0, CELL_TIMEOUT.max + 1, 1.5, '5', null, Number.NaN]) {
    t.throws(() => Operation.fromTimeoutSec(bad, CELL_TIMEOUT), { code: 'REPL_ERR_INVALID_REQUEST', message: /timeout_sec/ }, `refuses ${String(bad)}`);
  }
  t.throws(() => Operation.fromTimeoutSec(0, CELL_TIMEOUT, { code: 'REPL_ERR_INVALID_ARGUMENT' }), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  for (const bad of [0, -1, Number.POSITIVE_INFINITY, Number.NaN, '1']) {
    t.throws(() => new Operation({ timeoutMs: bad }), RangeError, `a budget of ${String(bad)} is a programming error`);
  }
});

t.test('race settles with the work when it finishes first, and leaves no abort listener behind', async (t) => {
  const controller = new AbortController();
  const operation = new Operation({ timeoutMs: 60_000, signal: controller.signal });
  const pending = operation.race(new Promise((resolve) => setImmediate(resolve, 42)));
  t.equal(getEventListeners(controller.signal, 'abort').length, 1, 'the race listens while it runs');
  t.equal(await pending, 42);
  t.equal(getEventListeners(controller.signal, 'abort').length, 0, 'and not after it settled');
  await t.rejects(operation.race(Promise.reject(new Error('boom'))), { message: 'boom' }, 'a failure of the work passes through');
  t.equal(getEventListeners(controller.signal, 'abort').length, 0);
});

t.test('race resolves "timeout" once the budget has passed, counted from the race, not from the operation', async (t) => {
  const operation = new Operation({ timeoutMs: 40 });
  await new Promise((resolve) => setTimeout(resolve, 60));
  let finishWork;
  const work = new Promise((resolve) => { finishWork = resolve; });
  const outcome = operation.race(work);
  let early = 'pending';
  void outcome.then((value) => { early = value; });
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(early, 'pending', 'a budget whose clock started at construction would be over already');
  t.equal(await outcome, 'timeout');
  finishWork('late');
});

t.test('race resolves "aborted" on the signal, at once when it fired before, and handles the late rejection', async (t) => {
  const controller = new AbortController();
  const operation = new Operation({ timeoutMs: 60_000, signal: controller.signal });
  const pending = operation.race(new Promise(() => {}));
  controller.abort(new Error('client went away'));
  t.equal(await pending, 'aborted');
  t.ok(operation.aborted);
  const unhandled = [];
  const onUnhandled = (reason) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.teardown(() => process.off('unhandledRejection', onUnhandled));
  t.equal(await operation.race(Promise.reject(new Error('late'))), 'aborted');
  await new Promise((resolve) => setImmediate(resolve));
  t.same(unhandled, [], 'the work that lost the race does not become an unhandled rejection');
  t.throws(() => operation.throwIfAborted(), { code: 'REPL_ERR_ABORTED' });
  t.equal(operation.abortError().cause.message, 'client went away', 'the error carries the signal reason');
});

t.test('race resolves with a stop reason of the caller', async (t) => {
  const operation = new Operation({ timeoutMs: 60_000 });
  let stop;
  const outcome = operation.race(new Promise(() => {}), (report) => { stop = report; });
  stop('interrupt');
  stop('second');
  t.equal(await outcome, 'interrupt', 'the first stop wins');
});

t.test('defer and end: cleanups run once, last first, all of them even when one throws', async (t) => {
  const operation = new Operation({ timeoutMs: 1000 });
  const ran = [];
  operation.defer(() => ran.push('first'));
  operation.defer(() => { ran.push('throws'); throw new Error('cleanup failed'); });
  operation.defer(() => ran.push('last'));
  t.throws(() => operation.end(), { message: 'cleanup failed' });
  t.same(ran, ['last', 'throws', 'first']);
  operation.end();
  t.same(ran, ['last', 'throws', 'first'], 'a second end runs nothing');
  operation.defer(() => ran.push('after'));
  t.same(ran.at(-1), 'after', 'a cleanup registered after the end runs at once');
  const scoped = new Operation({ timeoutMs: 1000 });
  scoped.defer(() => ran.push('disposed'));
  scoped[Symbol.dispose]();
  t.equal(ran.at(-1), 'disposed', 'Symbol.dispose (what `using` calls) ends it');
});

t.test('deadlineFromNow and abortError', async (t) => {
  const operation = new Operation({ timeoutMs: 10_000 });
  const before = Date.now();
  const deadline = operation.deadlineFromNow(500);
  t.ok(deadline.at >= before + 9_500 && deadline.at <= Date.now() + 9_500);
  const controller = new AbortController();
  controller.abort('why');
  const error = abortError(controller.signal);
  t.ok(error instanceof ReplError);
  t.equal(error.code, 'REPL_ERR_ABORTED');
  t.equal(error.cause, 'why');
  t.equal(new Operation({ timeoutMs: 1 }).abortError().code, 'REPL_ERR_ABORTED');
});
