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

test('a failing cell names its line, and its stack starts in this file', async () => {
  const code = 'const ready = true;\nif (ready) throw new RangeError("third line of the cell")\nrepl.write("never")';
  const error = await repl.run(code).then(() => assert.fail('the cell should fail'), (failure) => failure);
  assert.equal(error.message, 'cell failed: third line of the cell\n  cell line 2: if (ready) throw new RangeError("third line of the cell")');
  assert.equal(error.cellLine, 2);
  const frames = error.stack.split('\n');
  assert.match(frames.find((line) => line.startsWith('    at ')), /example\.test\.mjs:\d+:\d+/, 'the first frame is the caller in this test file');
  assert.match(error.stack, /--- cell stack ---\nRangeError: third line of the cell\n\s+at browser-repl-cell-\d+\.mjs:2:/);
  const syntax = await repl.text('const fine = 1;\nconst broken = ;').catch((failure) => failure);
  assert.equal(syntax.code, 'REPL_ERR_CELL_SYNTAX');
  assert.match(syntax.message, /\n {2}cell line 2: const broken = ;$/);
  assert.match(syntax.stack.split('\n').find((line) => line.startsWith('    at ')), /example\.test\.mjs/, 'text() too');
});
