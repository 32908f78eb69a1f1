// Using browser-repl from a plain `node --test` suite (run by `npm run test:node`).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { replFixture } from 'chromium-repl/testing';

const repl = replFixture({ after });

test('bindings persist between cells', async () => {
  await repl.run('let visits = 0; function visit() { return ++visits; }');
  assert.equal(await repl.text('visit(); repl.write(String(visit()))'), '2');
});

test('a failing cell throws with the cell error', async () => {
  await assert.rejects(repl.run('throw new TypeError("bad input")'), /cell failed: bad input/);
});

test('the REPL id is stable until a reset', async () => {
  const first = await repl.run('repl.write(repl.id)');
  const second = await repl.run('repl.write(repl.id)');
  assert.equal(first.replId, second.replId);
  const reset = await repl.run('repl.write(repl.id)', { reset: true });
  assert.notEqual(reset.replId, first.replId);
  assert.equal(reset.content[0].text, reset.replId);
});
