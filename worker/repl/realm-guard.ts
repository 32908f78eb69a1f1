/**
 * The REPL loop's side of realm integrity (worker/threads/realm-integrity.ts): when the worker's
 * built-ins are put back around a request, and what happens to a worker whose built-ins a cell
 * damaged beyond repair (it answers, then ends itself).
 */
import { RealmSnapshot, lockPromiseSpecies } from '../threads/realm-integrity.js';

/** Exit code of a worker whose built-ins a cell damaged beyond repair (it ends itself after answering). */
const REALM_DAMAGED_EXIT_CODE = 70;

export class RealmGuard {
  /**
   * Code of a cell may have run since the built-ins were last put back: a timer it started fired,
   * a host message resolved something it awaits, a rejection of its went unhandled. The next
   * request then puts them back before it runs anything (see realm-integrity.ts).
   */
  touched = false;
  readonly #realm: RealmSnapshot;
  readonly #note: (message: string) => void;
  /** Built-ins a cell made impossible to put back; the worker ends after its current answer. */
  #damaged: string[] = [];
  /** The damage was found after the answer had gone out: the worker ends after the next one, which says so. */
  #foundAfterAnswer = false;
  // Captured before any cell runs: a cell may replace them.
  readonly #exitProcess = process.exit.bind(process);
  readonly #reallyExit = (process as { reallyExit?: (code: number) => never }).reallyExit?.bind(process);

  /** Call before any cell ran: locks `Promise`'s species and snapshots the built-ins. */
  constructor(note: (message: string) => void) {
    lockPromiseSpecies(Promise);
    this.#realm = RealmSnapshot.capture();
    this.#note = note;
  }

  /** Puts the built-ins back (see realm-integrity.ts); a failure is reported on stderr once. */
  restore(): void {
    if (this.#damaged.length > 0) return;
    this.#damaged = this.#realm.restore();
    this.touched = false;
    if (this.#damaged.length > 0) {
      this.#note(`browser-repl: a cell changed built-ins of the REPL runtime that cannot be put back (${this.#damaged.join(', ')}); this REPL worker ends after this answer and the next call gets a fresh REPL`);
    }
  }

  /**
   * Before a request: after the previous one the built-ins were put back already, so only what
   * ran since can have changed them. A full restore reads a few hundred descriptors, a good part
   * of a trivial cell's cost (issue 26); what runs between requests without marking itself (a
   * continuation of a cell's I/O) is caught by the quick look at the most used ones, and by the
   * full restore after the cell in any case.
   */
  restoreIfTouched(): void {
    if (!this.looksIntact()) this.restore();
  }

  /**
   * The restore of a cell answered before it (worker/repl/handlers/execute.ts): its note, if it
   * finds damage, waits for the next request's output, and {@link endIfDamaged} waits for that answer.
   */
  restoreAfterAnswer(): void {
    if (this.#damaged.length > 0) return;
    this.restore();
    this.#foundAfterAnswer = this.#damaged.length > 0;
  }

  /** The quick look at the most used built-ins (see realm-integrity.ts); false once damaged. */
  looksIntact(): boolean {
    return this.#damaged.length === 0 && !this.touched && this.#realm.looksIntact();
  }

  /** After an answer was posted: a damaged worker ends itself instead of running more cells wrongly. */
  endIfDamaged(): void {
    if (this.#damaged.length === 0) return;
    if (this.#foundAfterAnswer) {
      this.#foundAfterAnswer = false;
      return;
    }
    try {
      this.#exitProcess(REALM_DAMAGED_EXIT_CODE);
    } catch {
      // An 'exit' listener, or a wrapped `process.emit` (signal-exit does that), ran into the
      // damaged built-ins and threw, which would keep this thread alive. The exit without the
      // 'exit' event ends it all the same.
      this.#reallyExit?.(REALM_DAMAGED_EXIT_CODE);
    }
  }

  /** Ends the worker (a graceful shutdown), with the `process.exit` captured before any cell. */
  exit(code: number): void {
    this.#exitProcess(code);
  }
}
