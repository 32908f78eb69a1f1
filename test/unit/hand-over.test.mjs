// lib/browsers/hand-over.ts, the pending hand-over requests of one browser (docs/live-view.md#hand-over):
// the first Done wins, a timeout fails with REPL_ERR_HUMAN_TIMEOUT, an abort and the browser's end
// take the request off the list, and every change is announced.
import t from 'tap';
import { HumanRequests, MAX_PENDING_HUMAN_REQUESTS } from '../../dist/lib/browsers/hand-over.js';

t.test('the first Done answers; a later one finds nothing pending', async (t) => {
  const requests = new HumanRequests();
  let changes = 0;
  requests.onChange(() => changes++);
  const asked = requests.request({ message: 'Solve the captcha', timeoutMs: 60_000, from: 'repl:default' });
  const [pending] = requests.pending();
  t.match(pending, { id: /^hr_\d+$/, message: 'Solve the captcha', from: 'repl:default' });
  t.ok(Date.parse(pending.expiresAt) > Date.parse(pending.createdAt), 'it says when it expires');
  t.equal(requests.complete(pending.id, { reply: 'done', by: 'Ada' }), true, 'the first Done is accepted');
  t.equal(requests.complete(pending.id, { reply: 'late' }), false, 'a second one is not');
  t.same(await asked, { reply: 'done', by: 'Ada' });
  t.same(requests.pending(), [], 'nothing is left');
  t.equal(changes, 2, 'added and answered: two changes');
});

t.test('a timeout, an abort and the end of the browser each fail the request and remove it', async (t) => {
  const requests = new HumanRequests();
  await t.rejects(requests.request({ message: 'Nobody', timeoutMs: 20, from: 'mcp' }), { code: 'REPL_ERR_HUMAN_TIMEOUT' });
  t.same(requests.pending(), []);

  const controller = new AbortController();
  const aborted = requests.request({ message: 'Cell ends', timeoutMs: 60_000, from: 'repl:default', signal: controller.signal });
  controller.abort();
  await t.rejects(aborted, { code: 'REPL_ERR_ABORTED' });
  t.same(requests.pending(), []);

  const open = requests.request({ message: 'Browser ends', timeoutMs: 60_000, from: 'executor' });
  requests.close();
  await t.rejects(open, { code: 'REPL_ERR_CLOSED' });
  await t.rejects(requests.request({ message: 'After', timeoutMs: 1000, from: 'executor' }), { code: 'REPL_ERR_CLOSED' }, 'a closed one takes no more');
});

t.test('bad requests and too many pending are refused', async (t) => {
  const requests = new HumanRequests();
  await t.rejects(requests.request({ message: '  ', timeoutMs: 1000, from: 'x' }), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  await t.rejects(requests.request({ message: 'm', timeoutMs: 0, from: 'x' }), { code: 'REPL_ERR_INVALID_ARGUMENT' });
  const controller = new AbortController();
  const held = Array.from({ length: MAX_PENDING_HUMAN_REQUESTS }, () => requests.request({ message: 'm', timeoutMs: 60_000, from: 'x', signal: controller.signal }).catch((error) => error));
  await t.rejects(requests.request({ message: 'one more', timeoutMs: 1000, from: 'x' }), { code: 'REPL_ERR_CONFLICT' });
  controller.abort();
  for (const error of await Promise.all(held)) t.equal(error.code, 'REPL_ERR_ABORTED');
  t.same(requests.pending(), []);
});
