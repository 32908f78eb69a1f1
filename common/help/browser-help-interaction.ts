/** Help entries of the interaction helpers (click, fill, keyboard, scroll, waits, accessibility snapshot). */
import type { HelpEntry } from './format-help.js';

const TARGETS =
  'target is a CSS selector (matched in the document, its open shadow roots and same-origin iframes; hidden matches are ignored, several visible matches fail at once), an accessibility-snapshot node / { backendNodeId }, or a semantic target searched the same way: { role, name?, exact? } (ARIA role and accessible name, as Playwright\'s getByRole; the role names a snapshot prints, such as "Date" or "file input", work too), { text, exact? } (the innermost elements whose whitespace-normalised text matches, as getByText) or { label, exact? } (the control a <label>, aria-labelledby or aria-label names, as getByLabel). A string name/text/label matches case-insensitively as a substring; exact: true asks for the whole string, case-sensitive; a RegExp works too. Several visible matches of a semantic target fail at once listing them: "click: {role: \\"button\\", name: \\"Book\\"} matched 2 elements: button \\"Book now\\", button \\"Book later\\"; …"; no match is waited for like a selector. Errors name a snapshot node by role and name: node 12 (button "Book")';

const DIALOGS =
  'A JavaScript dialog never makes it hang: with one open it fails at once with REPL_ERR_DIALOG_OPEN, naming cdp("Page.handleJavaScriptDialog", { accept: true }).';

export const INTERACTION_HELP: readonly HelpEntry[] = [
  {
    name: 'browser.accessibilitySnapshot',
    group: 'Browser control',
    signature: 'accessibilitySnapshot(options?): Promise<{ url, title, nodes, truncated?, totalNodes? }>',
    description:
      'options: { maxNodes = 2000, interactiveOnly = false }. A compact view of Chromium\'s accessibility tree of the attached page, same-origin iframes included. Each node is { backendNodeId, role, name, depth, value?, text?, checked?, pressed?, selected?, expanded?, disabled?, focused?, required?, readonly?, level?, fileInput?, multiple? }: only elements an action can target are listed (text is folded into its element\'s text, layout wrappers are dropped), in document order, depth giving the nesting. A file input has role "file input" and fileInput: true (multiple: true when it takes several files; value says the chosen files): set its files with uploadFile, do not click it. A <label> of a listed control is left out (the control\'s name is the label\'s text); a label of nothing or of a hidden control (a styled upload) stays, named by its text. Date and time inputs list their segments (spinbutton "Month", button "Show date picker") named once; fill the date input itself. Pass a node as is to click, fillInput, waitForElement or uploadFile, or use its role and name as a target: click({ role: node.role, name: node.name, exact: true }). backendNodeId is a stable handle while the element lives; after a navigation or re-render a node is stale and helpers fail at once telling you to take a new snapshot. maxNodes bounds the list (truncated and totalNodes then say so); interactiveOnly keeps only widgets and focusable elements. Cross-site iframes are separate targets: iframeTarget() + switchTab(). Call waitForLoad() first on a page you just opened.',
    example: 'const { nodes } = await accessibilitySnapshot();\nconst search = nodes.find((n) => n.role === "button" && n.name === "Search");\nawait click(search);',
  },
  {
    name: 'browser.click',
    group: 'Browser control',
    signature: 'click(target, options?): Promise<void>',
    description:
      `options: { button = "left" | "right" | "middle", clickCount = 1, timeoutSec = 10, modifiers, position: { x, y }, force = false, trial = false, coveredTimeoutSec }. Clicks with physical mouse input (move, then press and release per click; clickCount 2 is a double click). ${TARGETS}; {x, y} clicks viewport coordinates at once. An element target waits up to timeoutSec (default 10) until it is visible, enabled (not disabled, not aria-disabled), scrolled into view, stable over two animation frames and not covered (hit-tested through shadow roots and frames), then clicks the centre of its visible part, or another point of it when the centre is covered, and resolves only once the click's events reached the target: a click that something covered at the last moment is stopped before the page sees it and tried again, one that reaches nothing of the target's document throws. On timeout it throws "click: selector \\"<s>\\" was not actionable within <t>s (<reason>)", e.g. (intercepted by <div id="overlay">); with coveredTimeoutSec it throws as soon as the same element has covered the target that long. modifiers hold keys during the click (as pressKey takes them); position clicks at an offset from the element's top-left corner; force skips the enabled/stable/covered checks and the proof; trial runs the checks without clicking. It does not wait for what the click causes. A dialog the click opens is reported on stderr. ${DIALOGS}`,
    example: 'await click("button[type=submit]");\nawait click({ role: "button", name: "Book now" });\nawait click({ text: "Accept cookies", exact: true });\nawait click({ x: 420, y: 315 });\nawait click(".row", { clickCount: 2, modifiers: ["Shift"] });',
  },
  {
    name: 'browser.typeText',
    group: 'Browser control',
    signature: 'typeText(text): Promise<void>',
    description: `Inserts text into whatever has focus with one Input.insertText (beforeinput and input fire, no key events), without focusing anything first. Use fillInput to focus, clear and type into a field, pressKey for single keys. ${DIALOGS}`,
    example: 'await click("#editor");\nawait typeText("Hello, world");',
  },
  {
    name: 'browser.fillInput',
    group: 'Browser control',
    signature: 'fillInput(target, text, options?): Promise<void>',
    description:
      `options: { clearFirst = true, timeoutSec = 10, force = false, insert = false, coveredTimeoutSec }. coveredTimeoutSec: throw as soon as the same element has covered the field that long, instead of waiting out timeoutSec. Focuses an editable field and types text into it. ${TARGETS}; a label stands for its control. It waits up to timeoutSec (default 10) until the target is visible, enabled, editable (text-like input, textarea or contenteditable, not read-only) and not covered (click's hit test: a point of the field, or of its label, must be on top), else throws "fillInput: selector \\"<s>\\" was not editable within <t>s (<reason>)", e.g. (intercepted by <div id="cookie-banner">) for a field under an overlay; force skips the hit test. With clearFirst (default true) the old content is selected and deleted with Backspace. Characters on the US layout are typed as real key presses (Shift for capitals and symbols); other characters and line breaks are inserted, so a newline never submits a form; text over 200 characters is inserted at once except its last character. insert: true types the whole text as one insertion instead (beforeinput and input fire, no key events; as Playwright's fill), much faster for long text. change fires when the value changed; pages that reformat on input keep their formatting. Date and time inputs get their value set directly. ${DIALOGS}`,
    example: 'await fillInput("input[name=q]", "cloud browsers");\nawait pressKey("Enter");\nawait fillInput({ label: "Email address" }, "ada@example.com");',
  },
  {
    name: 'browser.pressKey',
    group: 'Browser control',
    signature: 'pressKey(key, modifiers?): Promise<void>',
    description:
      `modifiers: string[] | { alt, ctrl, meta, shift } | 0-15. Presses and releases one key in whatever has focus (keyDown, char for printable keys, keyUp) on a US layout. key is one character ("a", "!", "é") or a key name, case-insensitive ("Enter", "ArrowLeft", "KeyA", "Digit1", "F5", "Numpad1"), or an alias (esc, return, spacebar, del, cmd, command, ctrl). Modifiers: an array of Alt/Control/Ctrl/Meta/Shift names (any case), an object of flags ({ ctrl: true }) or a bitfield 0-15 (Alt 1, Control 2, Meta 4, Shift 8); Shift maps keys to their shifted form (Digit1 + Shift types "!"). Enter submits forms; Control+A selects all on any platform. Errors: "unknown key: <k> (…)", "pressKey: unknown modifier: <m> (…)", "pressKey: modifiers must be an array drawn from Alt, Control, Meta, Shift (or an object like {ctrl: true})". A dialog the key opens is reported on stderr. ${DIALOGS}`,
    example: 'await pressKey("Enter");\nawait pressKey("a", ["Control"]);\nawait pressKey("Digit1", { shift: true });',
  },
  {
    name: 'browser.scroll',
    group: 'Browser control',
    signature: 'scroll(x, y, dy = -300, dx = 0): Promise<void>',
    description:
      `Sends exactly one mouse-wheel event at viewport point (x, y): dy (default -300, as in the hosted product; positive scrolls down, negative up) and dx (default 0) in CSS pixels, so the element under the point scrolls as for a person. The command has a 5 s timeout and is never retried or replaced by window.scrollBy; a timeout reports an unknown outcome. It returns when Chromium has taken the event; smooth scrolling may still be running. ${DIALOGS}`,
    example: 'await scroll(400, 300, 600);       // down 600 px\nawait scroll(400, 300);            // up 300 px (the default)',
  },
  {
    name: 'browser.waitForElement',
    group: 'Browser control',
    signature: 'waitForElement(target, options?): Promise<boolean>',
    description:
      `target: selector | snapshot node | { backendNodeId } | { role, name?, exact? } | { text, exact? } | { label, exact? } (as click takes them); options: { state = "visible" | "attached" | "detached" | "hidden", timeoutSec = 10 }. Polls (at least once, every 50 ms) until the state holds and resolves true, or resolves false after timeoutSec (default 10, ending before the cell's deadline). States consider every match of a selector or semantic target, in the document, open shadow roots and same-origin iframes: attached = at least one match, detached = none, visible = at least one visible match, hidden = no visible match (so a hidden duplicate never masks a visible one). A snapshot node that no longer exists is detached and hidden. It throws only for contract errors: bad arguments ("waitForElement: state must be attached, detached, visible, or hidden"), an invalid selector, CDP failures. ${DIALOGS}`,
    example: 'if (!(await waitForElement("#results", { state: "visible", timeoutSec: 15 }))) {\n  throw new Error("results did not render");\n}',
  },
];
