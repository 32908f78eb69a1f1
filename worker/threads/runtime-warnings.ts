/**
 * The one warning filter of every worker thread (REPL and executor), installed first thing in
 * each worker's entry module.
 */
/**
 * Experimental features the runtime itself is built on: every cell is a `vm.SourceTextModule`
 * (it needs `--experimental-vm-modules`), and scripts compiled with
 * `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER` warn on their first `import()`. Their warnings say
 * nothing the user can act on, and a server would print them on every REPL start (and an executor
 * on every call whose code imports a module).
 */
const RUNTIME_EXPERIMENTAL_FEATURES = ['VM Modules', 'vm.USE_MAIN_CONTEXT_DEFAULT_LOADER'];

function isRuntimeExperimentalWarning(warning: Error): boolean {
  return warning.name === 'ExperimentalWarning'
    && RUNTIME_EXPERIMENTAL_FEATURES.some((feature) => warning.message.startsWith(`${feature} is an experimental feature`));
}

/**
 * Drops exactly the warnings of {@link RUNTIME_EXPERIMENTAL_FEATURES}; every other warning, other
 * experimental ones included (a cell importing `node:sqlite`), reaches Node's printer as before.
 * `--disable-warning=ExperimentalWarning` would silence them all. Installed before anything can
 * warn; guarded by test/socket/small-fixes.test.mjs.
 */
export function silenceRuntimeExperimentalWarnings(): void {
  const printers = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (isRuntimeExperimentalWarning(warning)) return;
    for (const print of printers) print(warning);
  });
}

