// Baseline REPL in a child process: the same runtime as our worker, speaking the same messages
// over child-process IPC ('advanced' serialisation, so ArrayBuffers cross as in our protocol).
import { serveRepl } from '../../dist/worker/repl/serve-repl.js';

serveRepl({
  replId: process.env.BROWSER_REPL_ID,
  browserAvailable: false,
  port: {
    postMessage: (message) => process.send(message),
    on: (_event, listener) => process.on('message', listener),
  },
});
