#!/usr/bin/env node
// Runs test262 tests through the REPL's cell evaluator twice, without and with the liveness checks
// of issue 15 (worker/analyzer/interrupt-checks.ts), and fails when a test passes without the
// checks but not with them: the checks must never change what a cell means (docs/test262.md).
//
//   node --experimental-vm-modules scripts/test262-repl.mjs --test262 <dir> [--filter <prefix>]...
//     [--commit <sha>] [--baseline <report.json>] [--write] [--json]
//
// <dir> is a test262 checkout (its test/ and harness/; default $TEST262_DIR). --filter replaces the
// default selection with paths under test/ (repeatable). --baseline compares each mode with the
// `--json` report of an earlier run (of another revision of the REPL): a test that failed there
// must not pass here and the reverse, and the run fails when one passed there and fails here.
// --write puts the figures into docs/test262.md between its TEST262 markers; --json prints them
// as JSON instead of text.
//
// Needs `npm run build` first: it runs dist/, the code the worker runs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import vm from 'node:vm';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parse as parseYaml } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Paths under test/ run by default: where loops, functions, awaits and their source text are. */
const DEFAULT_SELECTION = [
  ...['for', 'for-in', 'for-of', 'while', 'do-while', 'function', 'async-function', 'generators', 'async-generator', 'class', 'labeled', 'try', 'break', 'continue']
    .map((name) => `language/statements/${name}`),
  ...['arrow-function', 'async-arrow-function', 'await', 'function', 'async-function', 'class', 'generators', 'async-generator']
    .map((name) => `language/expressions/${name}`),
  // fn.toString() of a cell's function must not show the checks (cell-interrupts.ts hides them).
  'built-ins/Function/prototype/toString',
];

/** A test's whole run (harness, test, its $DONE) in one mode; the limit test262 runners use. */
const TEST_TIMEOUT_MS = 10_000;
/** How long an async test may take to call $DONE. */
const ASYNC_TIMEOUT_MS = 5_000;
/**
 * A job that blocks its thread (a synchronous endless loop) never reaches the in-thread timer: the
 * main thread then ends the worker after this long and starts a new one for the next job.
 */
const WATCHDOG_MS = TEST_TIMEOUT_MS + 20_000;
const MODES = ['without', 'with'];

// ---------------------------------------------------------------------------------------------
// Main thread: select, skip, hand the jobs to a worker one at a time, compare, report.

async function main() {
  const { values } = parseArgs({
    options: {
      test262: { type: 'string', default: process.env.TEST262_DIR },
      filter: { type: 'string', multiple: true },
      commit: { type: 'string' },
      baseline: { type: 'string' },
      write: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  if (values.test262 === undefined || !existsSync(path.join(values.test262, 'test')) || !existsSync(path.join(values.test262, 'harness'))) {
    console.error('usage: npm run test262 -- --test262 <test262 checkout with test/ and harness/> [--filter <path under test/>]... [--commit <sha>] [--baseline <report.json>] [--write] [--json]');
    process.exit(2);
  }
  const test262 = path.resolve(values.test262);
  const selection = values.filter ?? DEFAULT_SELECTION;
  const files = selection.flatMap((prefix) => selectFiles(test262, prefix));
  const tests = [...new Set(files)].sort().map((file) => planTest(test262, file));
  const runnable = tests.filter((test) => test.skip === undefined);

  const started = Date.now();
  const results = await runJobs(runnable.flatMap((test) => MODES.map((mode) => ({ test, mode }))), test262);
  const report = summarize({
    tests,
    results,
    selection,
    test262Commit: values.commit ?? gitHead(test262) ?? 'unknown',
    replCommit: replRevision(),
    seconds: Math.round((Date.now() - started) / 1000),
  });
  if (values.baseline !== undefined) report.againstBaseline = compareWithBaseline(report, JSON.parse(readFileSync(values.baseline, 'utf8')));
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else console.log(formatText(report));
  if (values.write) writeSection(formatMarkdown(report));
  const lostAgainstBaseline = MODES.some((mode) => (report.againstBaseline?.lost[mode].length ?? 0) > 0);
  process.exit(report.lost.length > 0 || lostAgainstBaseline ? 1 : 0);
}

/** The tests that failed in `mode`, from a report: those failing in both modes and those lost or gained. */
function failuresOf(report, mode) {
  const onlyThisMode = mode === 'with' ? report.lost : report.gained;
  return new Map([...report.failedInBoth, ...onlyThisMode].map(({ test, reason }) => [test, reason]));
}

/**
 * Each mode against the same mode of an earlier run's report (an earlier revision of the REPL, the
 * same selection): `lost` failed here but not there, `gained` the reverse. Tests skipped or not
 * selected in either run are not compared.
 */
function compareWithBaseline(report, baseline) {
  const comparison = { baseline: { replCommit: baseline.replCommit, node: baseline.node, counts: baseline.counts }, lost: {}, gained: {} };
  if (baseline.selected !== report.selected || baseline.test262Commit !== report.test262Commit) {
    throw new Error(`--baseline: that report ran ${baseline.selected} tests of test262 ${baseline.test262Commit}, this one ${report.selected} of ${report.test262Commit}`);
  }
  for (const mode of MODES) {
    const now = failuresOf(report, mode);
    const before = failuresOf(baseline, mode);
    comparison.lost[mode] = [...now].filter(([test]) => !before.has(test)).map(([test, reason]) => ({ test, reason }));
    comparison.gained[mode] = [...before].filter(([test]) => !now.has(test)).map(([test, reason]) => ({ test, reason }));
  }
  return comparison;
}

/** The test files (not `_FIXTURE` modules, which tests import) under test/<prefix>. */
function selectFiles(test262, prefix) {
  const base = path.join(test262, 'test');
  const target = path.join(base, prefix);
  const directory = existsSync(target) && statSync(target).isDirectory() ? target : path.dirname(target);
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true })
    .map((name) => path.join(directory, name))
    .filter((file) => file.endsWith('.js') && !file.includes('_FIXTURE') && path.relative(base, file).startsWith(path.normalize(prefix)));
}

/** The frontmatter between `/*---` and `---*\/`, as test262's own runners read it (YAML). */
function readMeta(source) {
  const match = /\/\*---([\s\S]*?)---\*\//.exec(source);
  if (match === null) return {};
  // A test about line terminators may be written with CR alone, which YAML does not break on.
  return parseYaml(match[1].replaceAll(/\r\n?/g, '\n')) ?? {};
}

/** Static import/export (not `import(` or `import.meta`): a cell rejects them. */
const STATIC_MODULE_SYNTAX = /^\s*(?:import(?!\s*[(.])|export)\b/m;

/** What the worker needs to run a test, or why it is skipped (the same in both modes). */
function planTest(test262, file) {
  const name = path.relative(path.join(test262, 'test'), file).split(path.sep).join('/');
  const source = readFileSync(file, 'utf8');
  let meta;
  try {
    meta = readMeta(source);
  } catch (error) {
    return { name, skip: `frontmatter is not YAML (${error.message.split('\n')[0]})` };
  }
  const flags = new Set(meta.flags ?? []);
  const features = new Set(meta.features ?? []);
  const negative = meta.negative ?? undefined;
  const skip = (() => {
    // A cell is module code: always strict.
    if (flags.has('noStrict')) return 'noStrict: a cell is module code, always strict';
    if (flags.has('module') && (STATIC_MODULE_SYNTAX.test(source) || source.includes('_FIXTURE'))) {
      return 'module test with static import/export or a _FIXTURE module: a cell rejects static import/export';
    }
    if (negative?.phase === 'resolution') return 'negative at module resolution: a cell has no static imports to resolve';
    // The REPL runs cells in worker threads, where Atomics.wait may block.
    if (flags.has('CanBlockIsFalse')) return 'CanBlockIsFalse: cells run in a worker thread, which can block';
    if (source.includes('$262.agent')) return '$262.agent: no agents (other threads) in this runner';
    if (features.has('IsHTMLDDA') || source.includes('$262.IsHTMLDDA')) return '$262.IsHTMLDDA: no such object outside a browser';
    if (source.includes('$262.AbstractModuleSource')) return '$262.AbstractModuleSource: not provided by this runner';
    return undefined;
  })();
  if (skip !== undefined) return { name, skip };
  return {
    name,
    file,
    raw: flags.has('raw'),
    async: flags.has('async'),
    includes: meta.includes ?? [],
    negative: negative === undefined ? undefined : { phase: negative.phase, type: negative.type },
  };
}

/**
 * Runs every job in one worker thread, one at a time; a job that does not answer within
 * {@link WATCHDOG_MS} is a failure ("blocked the thread") and the next job gets a new worker.
 */
async function runJobs(jobs, test262) {
  const results = new Map();
  let next = 0;
  const progressEvery = Math.max(500, Math.ceil(jobs.length / 20));
  while (next < jobs.length) {
    next = await new Promise((resolve) => {
      const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { test262 } });
      let index = next;
      let watchdog;
      let finished = false;
      const record = (outcome) => {
        const { test, mode } = jobs[index];
        const entry = results.get(test.name) ?? {};
        entry[mode] = outcome;
        results.set(test.name, entry);
        index += 1;
        if (index % progressEvery === 0) process.stderr.write(`test262: ${index}/${jobs.length} runs\n`);
      };
      const stop = (resumeAt) => {
        if (finished) return;
        finished = true;
        clearTimeout(watchdog);
        worker.removeAllListeners();
        worker.on('error', () => {});
        worker.terminate().finally(() => resolve(resumeAt));
      };
      const send = () => {
        if (index >= jobs.length) return stop(index);
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          record({ pass: false, reason: `timeout: no answer within ${WATCHDOG_MS / 1000} s (the thread was blocked)` });
          stop(index);
        }, WATCHDOG_MS);
        const { test, mode } = jobs[index];
        worker.postMessage({ test, mode });
      };
      worker.on('message', (outcome) => {
        record(outcome);
        send();
      });
      const crashed = (why) => {
        if (finished) return;
        record({ pass: false, reason: `the worker thread died: ${why}` });
        stop(index);
      };
      worker.on('error', (error) => crashed(String(error?.stack ?? error).split('\n')[0]));
      worker.on('exit', (code) => crashed(`exit code ${code}`));
      send();
    });
  }
  return results;
}

function gitHead(directory) {
  try {
    return execFileSync('git', ['-C', directory, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** This package's commit, marked when the worktree has changes (the checks under test may be among them). */
function replRevision() {
  const head = gitHead(root);
  if (head === undefined) return 'unknown';
  let dirty = false;
  try {
    dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== ''
      || execFileSync('git', ['-C', root, 'ls-files', '--others', '--exclude-standard', 'worker', 'common'], { encoding: 'utf8' }).trim() !== '';
  } catch {}
  return `${head.slice(0, 12)}${dirty ? ' with uncommitted changes' : ''}`;
}

function summarize({ tests, results, selection, test262Commit, replCommit, seconds }) {
  const counts = Object.fromEntries(MODES.map((mode) => [mode, { passed: 0, failed: 0, skipped: 0 }]));
  const skipReasons = {};
  const lost = [];
  const gained = [];
  const failedInBoth = [];
  for (const test of tests) {
    if (test.skip !== undefined) {
      for (const mode of MODES) counts[mode].skipped += 1;
      skipReasons[test.skip] = (skipReasons[test.skip] ?? 0) + 1;
      continue;
    }
    const entry = results.get(test.name) ?? {};
    for (const mode of MODES) counts[mode][entry[mode]?.pass === true ? 'passed' : 'failed'] += 1;
    const without = entry.without ?? { pass: false, reason: 'not run' };
    const withChecks = entry.with ?? { pass: false, reason: 'not run' };
    if (without.pass && !withChecks.pass) lost.push({ test: test.name, reason: withChecks.reason });
    else if (!without.pass && withChecks.pass) gained.push({ test: test.name, reason: without.reason });
    else if (!without.pass) failedInBoth.push({ test: test.name, reason: without.reason });
  }
  return {
    test262Commit,
    replCommit,
    node: process.version,
    date: new Date().toISOString().slice(0, 10),
    seconds,
    selection,
    selected: tests.length,
    counts,
    failedInBoth,
    lost,
    gained,
    skipReasons,
  };
}

function formatText(report) {
  const lines = [
    `test262 ${report.test262Commit}, Node ${report.node}, browser-repl ${report.replCommit}: ${report.selected} tests in ${report.seconds} s`,
    `                 passed  failed  skipped`,
    ...MODES.map((mode) => {
      const { passed, failed, skipped } = report.counts[mode];
      return `${`${mode} checks`.padEnd(15)}  ${String(passed).padStart(6)}  ${String(failed).padStart(6)}  ${String(skipped).padStart(7)}`;
    }),
    `failed in both modes: ${report.failedInBoth.length}`,
    `lost (pass without checks, fail with them): ${report.lost.length}`,
    ...report.lost.map(({ test, reason }) => `  ${test}: ${reason}`),
    `gained (fail without checks, pass with them): ${report.gained.length}`,
    ...report.gained.map(({ test, reason }) => `  ${test}: ${reason}`),
    'skipped:',
    ...Object.entries(report.skipReasons).map(([reason, count]) => `  ${count} ${reason}`),
  ];
  const against = report.againstBaseline;
  if (against !== undefined) {
    lines.push(`against the baseline (browser-repl ${against.baseline.replCommit}, Node ${against.baseline.node}):`);
    for (const mode of MODES) {
      lines.push(`  ${mode} checks: lost ${against.lost[mode].length}, gained ${against.gained[mode].length}`);
      lines.push(...against.lost[mode].map(({ test, reason }) => `    lost ${test}: ${reason}`));
      lines.push(...against.gained[mode].map(({ test }) => `    gained ${test}`));
    }
  }
  return lines.join('\n');
}

function formatMarkdown(report) {
  const list = (entries) => (entries.length === 0 ? ['None.'] : entries.map(({ test, reason }) => `- \`${test}\`: ${reason.replaceAll('\n', ' ')}`));
  const selection = report.selection === DEFAULT_SELECTION ? 'the default selection' : report.selection.map((prefix) => `\`${prefix}\``).join(', ');
  return [
    `Last run: ${report.date}, test262 \`${report.test262Commit}\`, Node ${report.node}, browser-repl \`${report.replCommit}\`; ${selection}, ${report.selected} tests.`,
    '',
    '| Mode | Passed | Failed | Skipped |',
    '|---|---|---|---|',
    ...MODES.map((mode) => {
      const { passed, failed, skipped } = report.counts[mode];
      return `| ${mode} checks | ${passed} | ${failed} | ${skipped} |`;
    }),
    '',
    `Failed in both modes: ${report.failedInBoth.length}.`,
    '',
    `Lost (pass without checks, fail with them): ${report.lost.length}.`,
    '',
    ...list(report.lost),
    '',
    `Gained (fail without checks, pass with them): ${report.gained.length}.`,
    '',
    ...list(report.gained),
    '',
    'Skipped (in both modes):',
    '',
    ...(Object.keys(report.skipReasons).length === 0 ? ['None.'] : Object.entries(report.skipReasons).map(([reason, count]) => `- ${count}: ${reason}`)),
    ...(report.againstBaseline === undefined ? [] : [
      '',
      `Against the baseline, browser-repl \`${report.againstBaseline.baseline.replCommit}\` on Node ${report.againstBaseline.baseline.node} (each mode against the same mode):`,
      '',
      '| Mode | Lost | Gained |',
      '|---|---|---|',
      ...MODES.map((mode) => `| ${mode} checks | ${report.againstBaseline.lost[mode].length} | ${report.againstBaseline.gained[mode].length} |`),
      '',
      ...MODES.flatMap((mode) => [...report.againstBaseline.lost[mode].map(({ test, reason }) => `- lost ${mode} checks: \`${test}\`: ${reason.replaceAll('\n', ' ')}`),
        ...report.againstBaseline.gained[mode].map(({ test }) => `- gained ${mode} checks: \`${test}\``)]),
    ]),
  ].join('\n');
}

const BEGIN = '<!-- TEST262:BEGIN -->';
const END = '<!-- TEST262:END -->';

function writeSection(body) {
  const file = path.join(root, 'docs/test262.md');
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`docs/test262.md lacks the ${BEGIN} … ${END} markers`);
  writeFileSync(file, `${current.slice(0, start + BEGIN.length)}\n${body}\n${current.slice(end)}`);
}

// ---------------------------------------------------------------------------------------------
// Worker thread: one job is one test in one mode, in a fresh context and evaluator.

function runWorker() {
  // Tests leave rejected promises behind (and a timed-out one may reject later): none may end the thread.
  process.on('unhandledRejection', () => {});
  process.on('uncaughtException', () => {});
  const { test262 } = workerData;
  const harnessFiles = new Map();
  const harness = (name) => {
    if (!harnessFiles.has(name)) harnessFiles.set(name, readFileSync(path.join(test262, 'harness', name), 'utf8'));
    return harnessFiles.get(name);
  };
  const modules = Promise.all([
    import(new URL('../dist/worker/repl/cell-evaluator.js', import.meta.url).href),
    import(new URL('../dist/worker/repl/cell-interrupts.js', import.meta.url).href),
  ]);
  // Jobs arrive one at a time (the main thread waits for each answer).
  parentPort.on('message', async ({ test, mode }) => {
    const [{ CellEvaluator }, { CellInterrupts }] = await modules;
    let outcome;
    try {
      outcome = await runTest(test, mode, { CellEvaluator, CellInterrupts, harness });
    } catch (error) {
      outcome = { pass: false, reason: `runner error: ${describe(error)}` };
    }
    parentPort.postMessage(outcome);
  });
}

/** A promise that settles with `value` after `ms`, and its cancel. */
function timer(ms, value) {
  let handle;
  const promise = new Promise((resolve) => {
    handle = setTimeout(() => resolve(value), ms);
  });
  return { promise, cancel: () => clearTimeout(handle) };
}

async function runTest(test, mode, { CellEvaluator, CellInterrupts, harness }) {
  // An ordinary global object, as a REPL worker's (worker/repl/create-context.ts).
  const context = vm.createContext(vm.constants.DONT_CONTEXTIFY);
  let done;
  const asyncDone = new Promise((resolve) => {
    done = resolve;
  });
  // doneprintHandle.js reports through print(); only its two messages matter.
  context.print = (message) => {
    const text = String(message);
    if (text === 'Test262:AsyncTestComplete') done({ pass: true });
    else if (text.startsWith('Test262:AsyncTestFailure:')) done({ pass: false, reason: `$DONE(error): ${text.slice('Test262:AsyncTestFailure:'.length)}` });
  };
  context.$262 = make262(context);
  // As worker/repl/repl-runtime.ts builds a worker: the checks' bindings first, then the evaluator. The flag is
  // the constant a REPL worker's is between interrupts (the host raises it).
  const interrupts = mode === 'with' ? new CellInterrupts({ context, currentScope: () => undefined, raisedByHost: true }) : undefined;
  const evaluator = new CellEvaluator({ context, interruptChecks: interrupts?.names });

  const limit = timer(TEST_TIMEOUT_MS, { pass: false, reason: `timeout: not settled within ${TEST_TIMEOUT_MS / 1000} s` });
  try {
    return await Promise.race([limit.promise, evaluateTest(test, evaluator, harness, asyncDone)]);
  } finally {
    limit.cancel();
  }
}

/**
 * The harness is its own cell before the test's: its top-level functions become persistent
 * globals, as a user's would, and the test's own declarations are lowered on their own.
 */
async function evaluateTest(test, evaluator, harness, asyncDone) {
  if (!test.raw) {
    const names = [...new Set(['assert.js', 'sta.js', ...(test.async ? ['doneprintHandle.js'] : []), ...test.includes])];
    try {
      await evaluator.evaluate(names.map(harness).join('\n'));
    } catch (error) {
      return { pass: false, reason: `the harness cell threw ${describe(error)}` };
    }
  }
  const source = readFileSync(test.file, 'utf8');
  let threw = false;
  let thrown;
  try {
    await evaluator.evaluate(source);
  } catch (error) {
    threw = true;
    thrown = error;
  }
  const { negative } = test;
  if (negative !== undefined) {
    if (!threw) return { pass: false, reason: `expected a ${negative.type} at ${negative.phase} time, ran to completion` };
    // Parse errors (and redeclarations, also refused before the cell runs) carry a code. The
    // parser's error is a SyntaxError subclass (meriyah's ParseError): any class of the chain counts.
    const code = safeGet(thrown, 'code');
    const early = code === 'REPL_ERR_CELL_SYNTAX' || code === 'REPL_ERR_BINDING';
    if ((negative.phase === 'parse') === early && classNames(thrown).includes(negative.type)) return { pass: true };
    return { pass: false, reason: `expected a ${negative.type} at ${negative.phase} time, got ${early ? 'an early' : 'a runtime'} ${describe(thrown)}` };
  }
  if (threw) return { pass: false, reason: `threw ${describe(thrown)}` };
  if (!test.async) return { pass: true };
  const wait = timer(ASYNC_TIMEOUT_MS, { pass: false, reason: `async: $DONE not called within ${ASYNC_TIMEOUT_MS / 1000} s` });
  try {
    return await Promise.race([asyncDone, wait.promise]);
  } finally {
    wait.cancel();
  }
}

/**
 * The part of test262's `$262` these tests use: the realm's global, scripts, new realms (each a
 * context of its own), and detaching a buffer. No `gc` (tests check for it), no agents.
 */
function make262(context) {
  return {
    global: vm.runInContext('globalThis', context),
    evalScript: (code) => vm.runInContext(String(code), context),
    createRealm: () => {
      const realm = vm.createContext(vm.constants.DONT_CONTEXTIFY);
      realm.$262 = make262(realm);
      return realm.$262;
    },
    detachArrayBuffer: (buffer) => {
      structuredClone(buffer, { transfer: [buffer] });
      return null;
    },
  };
}

function safeGet(value, key) {
  try {
    return value !== null && (typeof value === 'object' || typeof value === 'function') ? value[key] : undefined;
  } catch {
    return undefined;
  }
}

/** The constructor's name of a thrown value (cell-realm errors and Test262Error alike). */
function nameOf(value) {
  return safeGet(safeGet(value, 'constructor'), 'name') ?? safeGet(value, 'name') ?? typeof value;
}

/** The constructor names along the prototype chain of a thrown value, nearest first. */
function classNames(value) {
  const names = [];
  try {
    for (let object = value; object !== null && (typeof object === 'object' || typeof object === 'function') && names.length < 16; object = Object.getPrototypeOf(object)) {
      const name = safeGet(safeGet(object, 'constructor'), 'name');
      if (typeof name === 'string' && names.at(-1) !== name) names.push(name);
    }
  } catch {}
  return names;
}

function describe(value) {
  try {
    const text = value !== null && (typeof value === 'object' || typeof value === 'function')
      ? `${nameOf(value)}: ${String(safeGet(value, 'message'))}`
      : `${typeof value} ${String(value)}`;
    return text.replaceAll(/\s+/g, ' ').slice(0, 300);
  } catch {
    return 'a value that cannot be printed';
  }
}

// Last, so that every constant above is initialised before either thread starts.
if (isMainThread) await main();
else runWorker();
