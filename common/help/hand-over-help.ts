/** The help entry of `requestHuman`, the hand-over to a person (docs/live-view.md#hand-over). */
import type { HelpEntry } from './format-help.js';

export const HAND_OVER_HELP: readonly HelpEntry[] = [
  {
    name: 'browser.requestHuman',
    group: 'Browser control',
    signature: 'requestHuman(options: { message: string; timeoutSec?: number } | string): Promise<{ reply: string; by?: string }>',
    description:
      'Hands the browser over to a person: the live view (browser_live_view_url) shows message (at most 4000 characters) prominently with a Done button and a reply field, and the call resolves with { reply } (what the person typed, "" when nothing; by is the viewer\'s name when its URL carried &name=) when an interactive viewer presses Done. Several viewers: the first Done wins; a read-only viewer cannot answer. '
      + 'Nobody is notified: show the person browser_live_view_url first (the browser object carries it). If nobody presses Done within timeoutSec (1..3600, default 300; the cell\'s own timeout_sec still applies, so raise it too) it fails with REPL_ERR_HUMAN_TIMEOUT. The request belongs to the cell: when the cell ends, times out or is interrupted, the request leaves the view and the call fails with REPL_ERR_ABORTED. Also available in Playwright executor code.',
    example: 'const { reply } = await requestHuman({ message: "Solve the captcha, then press Done", timeoutSec: 240 });\nrepl.write(`person said: ${reply}`);',
  },
];
