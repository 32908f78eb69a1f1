/**
 * Maps a position of a compiled cell back to the cell as written (issue 26: stack lines and
 * columns of the cell). The lowering (lower-cell.ts) and the interrupt checks
 * (interrupt-checks.ts) never add or remove a line break, so lines stay where they were, but a
 * line they edited has its columns moved: `let a = 1; null.x` compiles to
 * `__browser_repl_init_…["a"] = 1; null.x`. Both passes report their edits, and this map undoes
 * them: a position inside text they inserted maps to where the insertion was made.
 */

/** One edit of a pass: the input span `[start, end)` became `length` characters of output. */
export interface SourceEdit {
  readonly start: number;
  readonly end: number;
  readonly length: number;
}

const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/g;

/** Offsets at which each line of `text` starts (line 1 at index 0). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const match of text.matchAll(LINE_BREAK)) starts.push(match.index + match[0].length);
  return starts;
}

/** The input offset an output offset came from, through `edits` (sorted by start, applied in order). */
function throughEdits(offset: number, edits: readonly SourceEdit[]): number {
  let delta = 0;
  for (const edit of edits) {
    const outputStart = edit.start + delta;
    if (offset < outputStart) break;
    if (offset < outputStart + edit.length) return edit.start;
    delta += edit.length - (edit.end - edit.start);
  }
  return offset - delta;
}

/** Positions of one compiled cell, as written. */
export class CellPositions {
  readonly #compiledLines: number[];
  readonly #writtenLines: number[];
  /** Characters before the user's code in the lowered source (the prelude and its line break). */
  readonly #preludeLength: number;
  readonly #loweringEdits: readonly SourceEdit[];
  readonly #checkEdits: readonly SourceEdit[];

  /**
   * @param written the cell as the user wrote it
   * @param compiled the module source V8 compiled (prelude line, lowered and checked code)
   * @param preludeLength characters of the lowered source before the user's first line
   * @param loweringEdits the lowering's edits of `written`
   * @param checkEdits the checks' insertions into the lowered source
   */
  constructor(written: string, compiled: string, preludeLength: number, loweringEdits: readonly SourceEdit[], checkEdits: readonly SourceEdit[]) {
    this.#compiledLines = lineStarts(compiled);
    this.#writtenLines = lineStarts(written);
    this.#preludeLength = preludeLength;
    this.#loweringEdits = loweringEdits;
    this.#checkEdits = checkEdits;
  }

  /**
   * The 1-based column in the cell as written of 1-based `column` on user line `line` (as V8
   * reports it for the module compiled with `lineOffset: -1`), or undefined when the line does
   * not exist.
   */
  writtenColumn(line: number, column: number): number | undefined {
    // Line 1 of the compiled source is the prelude: user line N is compiled line N + 1.
    const lineStart = this.#compiledLines[line];
    const writtenLineStart = this.#writtenLines[line - 1];
    if (lineStart === undefined || writtenLineStart === undefined) return undefined;
    const lowered = throughEdits(lineStart + column - 1, this.#checkEdits);
    const written = throughEdits(lowered - this.#preludeLength, this.#loweringEdits);
    return written - writtenLineStart + 1;
  }
}
