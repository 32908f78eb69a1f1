// worker/repl/cell-interrupts.ts: an interrupt the host sent for a cell that had not begun yet
// (its execute message waited in the worker's queue) stops that cell the moment it begins,
// instead of being cleared by begin() and leaving the cell to run into the destructive fallback.
import t from 'tap';
import vm from 'node:vm';
import { CellInterrupts } from '../../dist/worker/repl/cell-interrupts.js';
import { CellScope } from '../../dist/worker/webmcp/cell-scope.js';
import { INTERRUPT_BUFFER_BYTES, INTERRUPT_REQUESTED } from '../../dist/common/protocol/repl-messages.js';

function setup() {
  const buffer = new SharedArrayBuffer(INTERRUPT_BUFFER_BYTES);
  const view = new Int32Array(buffer);
  const interrupts = new CellInterrupts({ context: vm.createContext({}), buffer, currentScope: () => undefined });
  return { interrupts, view };
}

t.test('an interrupt message that came before its cell began stops the cell as it begins', async (t) => {
  const { interrupts } = setup();
  interrupts.requested(7);
  const scope = new CellScope();
  let stopped = 0;
  interrupts.begin(7, scope, () => { stopped += 1; });
  t.equal(stopped, 1);
  t.equal(scope.interrupted, true);
});

t.test('a flag naming the cell that begins stops it; a flag of an earlier cell is void', async (t) => {
  const { interrupts, view } = setup();
  Atomics.store(view, INTERRUPT_REQUESTED, 9);
  const own = new CellScope();
  interrupts.begin(9, own, () => {});
  t.equal(own.interrupted, true, 'the flag named this very request');
  interrupts.end();

  Atomics.store(view, INTERRUPT_REQUESTED, 10);
  const later = new CellScope();
  let stopped = false;
  interrupts.begin(11, later, () => { stopped = true; });
  t.equal(stopped, false, 'a flag left for an earlier request is not this cell\'s');
  t.equal(Atomics.load(view, INTERRUPT_REQUESTED), 0, 'and it is cleared');
  interrupts.end();
});

t.test('an early interrupt is kept for its own request only', async (t) => {
  const { interrupts } = setup();
  interrupts.requested(20);
  const other = new CellScope();
  let stopped = false;
  interrupts.begin(19, other, () => { stopped = true; });
  t.equal(stopped, false, 'request 19 began first: the interrupt names 20');
  interrupts.end();
  const own = new CellScope();
  interrupts.begin(20, own, () => {});
  t.equal(own.interrupted, true);
  interrupts.end();
  const next = new CellScope();
  interrupts.begin(21, next, () => {});
  t.equal(next.interrupted, false, 'used once');
});
