// Minimal host for the child-process baseline: fork, handshake, one cell at a time, kill on reset.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';

const ENTRY = new URL('./child-repl-entry.mjs', import.meta.url);

export class ChildRepl {
  #child = null;
  #nextId = 1;
  #pending = null;

  async #start() {
    const replId = randomUUID();
    const child = fork(ENTRY, {
      serialization: 'advanced',
      execArgv: ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', '--max-old-space-size=512'],
      env: { ...process.env, BROWSER_REPL_ID: replId },
    });
    await new Promise((resolve, reject) => {
      child.once('message', (message) => (message.type === 'ready' ? resolve() : reject(new Error('bad handshake'))));
      child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    child.on('message', (message) => {
      if (message.type === 'output') this.#pending.content.push(message.item);
      else if (message.type === 'result') { const pending = this.#pending; this.#pending = null; pending.resolve({ ...message, content: pending.content }); }
    });
    this.#child = child;
    this.replId = replId;
  }

  /** Process id of the running child, if any (memory measurements). */
  get pid() {
    return this.#child?.pid;
  }

  async run(code, { reset = false } = {}) {
    if (reset) await this.close();
    if (this.#child === null) await this.#start();
    const requestId = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending = { content: [], resolve };
      this.#child.send({ type: 'execute', requestId, code, deadline: Date.now() + 60_000 });
    });
  }

  async close() {
    const child = this.#child;
    this.#child = null;
    if (child === null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
