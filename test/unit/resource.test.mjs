import t from 'tap';
import { Resource, lifecycleOf } from '../../dist/common/resource.js';

/** A resource whose ends are held open until the test lets them finish. */
class Probe extends Resource {
  calls = [];
  #release = {};

  closeGracefully() {
    this.calls.push('close');
    return new Promise((resolve, reject) => { this.#release.close = { resolve, reject }; });
  }

  destroyNow() {
    this.calls.push('destroy');
    return new Promise((resolve, reject) => { this.#release.destroy = { resolve, reject }; });
  }

  /** Resolves (or rejects) the end of that kind once it has started. */
  async finish(kind, error) {
    while (this.#release[kind] === undefined) await new Promise((resolve) => setImmediate(resolve));
    if (error === undefined) this.#release[kind].resolve();
    else this.#release[kind].reject(error);
  }
}

t.test('concurrent close() callers share one promise and one run', async (t) => {
  const probe = new Probe();
  t.equal(probe.state, 'open');
  const first = probe.close();
  const second = probe.close();
  t.equal(first, second, 'the same promise');
  t.equal(probe.state, 'closing');
  t.equal(probe.closed, true, 'closed as soon as close() was called');
  t.equal(probe.disposed, false);
  await probe.finish('close');
  await first;
  t.same(probe.calls, ['close'], 'closeGracefully ran once');
  t.equal(probe.state, 'disposed');
  t.equal(probe.disposed, true);
  t.equal(probe.close(), first, 'a later close() answers with the same settled promise');
});

t.test('close() after destroy() is a no-op sharing the destruction', async (t) => {
  const probe = new Probe();
  const destroyed = probe.destroy();
  t.equal(probe.close(), destroyed, 'close() returns the destroy promise');
  t.equal(probe.destroy(), destroyed, 'concurrent destroy() callers share it too');
  await probe.finish('destroy');
  await destroyed;
  await probe.close();
  t.same(probe.calls, ['destroy'], 'closeGracefully never ran');
});

t.test('destroy() during close() escalates; disposed only once both ended', async (t) => {
  const slow = new Probe();
  const slowClosing = slow.close();
  await new Promise((resolve) => setImmediate(resolve));
  const destroying = slow.destroy();
  t.not(destroying, slowClosing, 'destroy() does not wait for the graceful end');
  t.equal(slow.state, 'destroying');
  await slow.finish('close');
  await slowClosing;
  t.equal(slow.disposed, false, 'the forceful end is still running');
  await slow.finish('destroy');
  await destroying;
  t.equal(slow.disposed, true);
  t.same(slow.calls, ['close', 'destroy']);
});

t.test('destroy() after the resource is disposed does nothing', async (t) => {
  const probe = new Probe();
  const closing = probe.close();
  await probe.finish('close');
  await closing;
  await probe.destroy();
  t.same(probe.calls, ['close'], 'destroyNow never ran');
});

t.test('a failing end rejects every caller with the same error and still disposes', async (t) => {
  const probe = new Probe();
  const failure = new Error('could not end');
  const first = probe.close();
  const second = probe.close();
  await probe.finish('close', failure);
  await t.rejects(first, failure);
  await t.rejects(second, failure);
  t.equal(probe.disposed, true);
});

t.test('a synchronous throw in an end becomes the shared rejection', async (t) => {
  class Throws extends Resource {
    closeGracefully() { throw new Error('sync'); }
    destroyNow() { return Promise.resolve(); }
  }
  const resource = new Throws();
  const closing = resource.close();
  t.equal(resource.state, 'closing', 'no subclass code ran inside close() itself');
  await t.rejects(closing, { message: 'sync' });
});

t.test('[Symbol.asyncDispose] closes gracefully', async (t) => {
  const probe = new Probe();
  const disposing = probe[Symbol.asyncDispose]();
  await probe.finish('close');
  await disposing;
  t.same(probe.calls, ['close']);
  t.equal(probe.disposed, true);
});

t.test('without a forceful end of its own, destroy() is close() and waits for the same end', async (t) => {
  class GracefulOnly extends Resource {
    runs = 0;
    #finish;
    closeGracefully() {
      this.runs++;
      return new Promise((resolve) => { this.#finish = resolve; });
    }
    finish() { this.#finish(); }
  }
  const during = new GracefulOnly();
  const closing = during.close();
  await new Promise((resolve) => setImmediate(resolve));
  const destroying = during.destroy();
  let destroyed = false;
  void destroying.then(() => { destroyed = true; });
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(destroyed, false, 'destroy() during close() waits for the graceful end');
  during.finish();
  await Promise.all([closing, destroying]);
  t.equal(during.runs, 1, 'the end ran once');

  const first = new GracefulOnly();
  const destroyingFirst = first.destroy();
  await new Promise((resolve) => setImmediate(resolve));
  first.finish();
  await destroyingFirst;
  await first.close();
  t.equal(first.runs, 1, 'destroy() first ran the graceful end once');
});

t.test('lifecycleOf: an owner that delegates gets the same rules', async (t) => {
  const calls = [];
  const graceful = lifecycleOf({ closeGracefully: async () => { calls.push('close') } });
  const [a, b] = [graceful.close(), graceful.close()];
  t.equal(a, b, 'concurrent close() callers share one promise');
  await a;
  t.same(calls, ['close']);
  t.equal(graceful.state, 'disposed');
  t.equal(await graceful.destroy(), undefined, 'destroy() after disposal is a no-op');
  t.same(calls, ['close'], 'and runs nothing');

  const forceful = lifecycleOf({ closeGracefully: async () => { calls.push('slow close') }, destroyNow: async () => { calls.push('destroy') } });
  const destroyed = forceful.destroy();
  t.equal(forceful.destroy(), destroyed, 'concurrent destroy() callers share one promise');
  t.equal(forceful.close(), destroyed, 'close() after destroy() resolves with the destruction');
  await destroyed;
  t.same(calls, ['close', 'destroy'], 'destroyNow ran once, closeGracefully never');

  const defaulted = lifecycleOf({ closeGracefully: async () => { calls.push('only close') } });
  await defaulted.destroy();
  t.same(calls.at(-1), 'only close', 'without destroyNow, destroying is closing');
});
