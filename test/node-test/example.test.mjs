// Using chromium-repl from a plain `node --test` suite (run by `npm run test:node`).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { replFixture } from 'chromium-repl/testing';

const repl = replFixture({ after });

test('bindings persist between cells', async () => {
  await repl.run('let visits = 0; function visit() { return ++visits; }');
  assert.equal(await repl.text('visit(); repl.write(String(visit()))'), '2');
});

test('text() is what the cell wrote; stdout() and stderr() are its console output', async () => {
  const cell = 'repl.write("answer"); console.log("progress"); console.error("warning")';
  assert.equal(await repl.text(cell), 'answer');
  assert.equal(await repl.stdout(cell), 'progress');
  assert.equal(await repl.stderr(cell), 'warning');
});

test('a failing cell throws with the cell error and its code', async () => {
  await assert.rejects(repl.run('throw new TypeError("bad input")'), /cell failed: bad input/);
  await repl.run('const limit = 1');
  await assert.rejects(repl.run('const limit = 2'), { code: 'REPL_ERR_BINDING' });
  await assert.rejects(repl.run('throw Object.assign(new Error("not found"), { code: "E_NOT_FOUND" })'), { code: 'E_NOT_FOUND' });
});

test('the REPL id is stable until a reset', async () => {
  const first = await repl.run('repl.write(repl.id)');
  const second = await repl.run('repl.write(repl.id)');
  assert.equal(first.replId, second.replId);
  const reset = await repl.run('repl.write(repl.id)', { reset: true });
  assert.notEqual(reset.replId, first.replId);
  assert.equal(reset.content[0].text, reset.replId);
});
