/**
 * The live-view page: one self-contained HTML document (no external asset, scripts and styles
 * under a per-answer nonce) that opens the view's WebSocket (its own URL + `/ws`, with the same
 * query), draws each frame scaled to fit its box, lists the tabs, says who is in control, and
 * (unless read-only) sends mouse, wheel, keyboard and paste input with coordinates mapped to CSS
 * pixels of the tab ({@link imageToPage}, embedded). A pending hand-over request (`requestHuman`)
 * is shown in a panel above the screen, with a reply field and "Done" (docs/live-view.md#hand-over).
 * `window.liveView` exposes its state (frames
 * seen, refusals, the mapping back from page to screen) for tests and embedders.
 */
import { imageToPage } from './input.js';

/** The page, with `nonce` on its script and style. */
export function livePageHtml(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Live view</title>
<style nonce="${nonce}">
  html, body { margin: 0; height: 100%; background: #1e1f22; color: #e8e8e8; font: 13px/1.4 system-ui, sans-serif; }
  body { display: flex; flex-direction: column; }
  header { display: flex; gap: 10px; align-items: center; padding: 6px 10px; background: #2b2d31; flex-wrap: wrap; }
  .badge { padding: 2px 8px; border-radius: 10px; font-weight: 600; }
  .badge.interactive { background: #2e7d32; }
  .badge.view-only { background: #616161; }
  .badge.off { background: #b71c1c; }
  select, input, button { font: inherit; background: #1e1f22; color: inherit; border: 1px solid #555; border-radius: 4px; padding: 2px 6px; }
  select { max-width: 40ch; }
  #screen { flex: 1; position: relative; min-height: 0; outline: none; }
  #screen:focus-visible { box-shadow: inset 0 0 0 2px #4a90e2; }
  #frame { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; user-select: none; -webkit-user-drag: none; }
  #message { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; color: #aaa; pointer-events: none; }
  .spacer { flex: 1; }
  #human { display: flex; gap: 10px; align-items: center; padding: 10px 14px; background: #f9a825; color: #1e1f22; font-size: 15px; flex-wrap: wrap; }
  #human-message { flex: 1 1 30ch; font-weight: 600; white-space: pre-wrap; overflow-wrap: anywhere; }
  #human input { background: #fff; color: #1e1f22; border-color: #8d6e00; min-width: 24ch; }
  #human button { background: #1e1f22; color: #fff; font-weight: 600; padding: 4px 16px; }
  #human button:disabled { opacity: .5; }
  #human-note { font-size: 12px; }
  #control.waiting { background: #f9a825; color: #1e1f22; }
  #control.agent { background: #37474f; }
  [hidden] { display: none !important; }
</style>
</head>
<body data-frames="0" data-refused="0" data-state="connecting">
<header>
  <span id="mode" class="badge off">connecting</span>
  <span id="viewers"></span>
  <span id="control" class="badge agent" title="Who is in control">agent in control</span>
  <label>Tab <select id="tabs" aria-label="Tab shown"></select></label>
  <span class="spacer"></span>
  <form id="send-text"><input id="text" placeholder="Text to type" aria-label="Text to type" size="24"> <button>Type</button></form>
</header>
<section id="human" role="alert" aria-live="assertive" hidden>
  <span id="human-message"></span>
  <form id="human-form"><input id="human-reply" placeholder="Reply (optional)" aria-label="Reply to the agent" maxlength="16384"> <button id="human-done">Done</button></form>
  <span id="human-note"></span>
</section>
<div id="screen" tabindex="0" aria-label="Browser screen">
  <img id="frame" alt="" hidden>
  <div id="message">Waiting for the first frame…</div>
</div>
<script nonce="${nonce}">
"use strict";
(() => {
  const imageToPage = ${imageToPage.toString()};
  const $ = (id) => document.getElementById(id);
  const frame = $('frame'), screen = $('screen'), mode = $('mode'), tabs = $('tabs');
  const state = { frames: 0, refused: 0, errors: [], readOnly: true, metadata: undefined, viewers: 0, tabs: [], current: null, ended: false, human: [], humanDone: [] };
  const wsUrl = new URL(location.href);
  wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  wsUrl.pathname = wsUrl.pathname.replace(/\\/?$/, '/ws');
  wsUrl.hash = '';
  const socket = new WebSocket(wsUrl.href);
  const send = (message) => { if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); };
  const showMessage = (text) => { $('message').textContent = text; $('message').hidden = text === ''; };
  const setMode = () => {
    if (state.ended) { mode.textContent = 'disconnected'; mode.className = 'badge off'; return; }
    mode.textContent = state.readOnly ? 'view only' : 'interactive';
    mode.className = 'badge ' + (state.readOnly ? 'view-only' : 'interactive');
    $('send-text').hidden = state.readOnly;
    tabs.disabled = state.readOnly;
    showHuman();
  };
  // The oldest pending request is the one shown; Done answers it.
  const showHuman = () => {
    const request = state.human[0];
    const control = $('control');
    control.textContent = request === undefined ? 'agent in control' : 'waiting for a person';
    control.className = 'badge ' + (request === undefined ? 'agent' : 'waiting');
    $('human').hidden = request === undefined || state.ended;
    if (request === undefined) return;
    if ($('human').dataset.id !== request.id) { $('human').dataset.id = request.id; $('human-reply').value = ''; }
    $('human-message').textContent = request.message + (state.human.length > 1 ? ' (+' + (state.human.length - 1) + ' more)' : '');
    $('human-done').disabled = state.readOnly;
    $('human-reply').disabled = state.readOnly;
    $('human-note').textContent = state.readOnly ? 'view only: an interactive viewer must press Done' : 'asked by ' + request.from + ', until ' + new Date(request.expiresAt).toLocaleTimeString();
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    switch (message.type) {
      case 'hello': state.readOnly = message.readOnly; document.body.dataset.state = 'open'; setMode(); break;
      case 'status':
        state.viewers = message.viewers;
        $('viewers').textContent = message.viewers + (message.viewers === 1 ? ' viewer' : ' viewers') + ' (' + message.interactiveViewers + ' interactive)';
        break;
      case 'tabs': {
        state.tabs = message.tabs; state.current = message.current;
        tabs.replaceChildren(...message.tabs.map((tab) => {
          const option = document.createElement('option');
          option.value = tab.targetId;
          option.textContent = (tab.title || tab.url || 'untitled') + (tab.owner === 'repl:default' ? '' : ' [' + tab.owner + ']');
          option.selected = tab.targetId === message.current;
          return option;
        }));
        break;
      }
      case 'frame':
        state.metadata = message.metadata;
        frame.src = 'data:image/jpeg;base64,' + message.data;
        frame.hidden = false;
        showMessage('');
        state.frames++;
        document.body.dataset.frames = String(state.frames);
        break;
      case 'human': state.human = message.requests; showHuman(); break;
      case 'humanDone': state.humanDone.push(message); if (message.accepted && !message.mine) $('human-note').textContent = 'answered by ' + (message.by || 'another viewer'); break;
      case 'refused': state.refused++; document.body.dataset.refused = String(state.refused); break;
      case 'error': state.errors.push(message.message); break;
      case 'ended': showMessage('The live view ended: ' + message.reason); break;
    }
  };
  socket.onclose = () => { state.ended = true; document.body.dataset.state = 'closed'; setMode(); if (state.frames === 0) showMessage('Disconnected'); };

  // Where the image is drawn inside its box (object-fit: contain).
  const drawn = () => {
    const box = frame.getBoundingClientRect();
    const width = frame.naturalWidth, height = frame.naturalHeight;
    if (!width || !height) return undefined;
    const scale = Math.min(box.width / width, box.height / height);
    const w = width * scale, h = height * scale;
    return { left: box.left + (box.width - w) / 2, top: box.top + (box.height - h) / 2, width: w, height: h };
  };
  // A release outside the image still releases (clamped to its edge), so no button stays down.
  const toPage = (event, clamp = false) => {
    const rect = drawn();
    if (rect === undefined || state.metadata === undefined) return undefined;
    let fx = (event.clientX - rect.left) / rect.width, fy = (event.clientY - rect.top) / rect.height;
    if (fx < 0 || fx > 1 || fy < 0 || fy > 1) {
      if (!clamp) return undefined;
      fx = Math.min(Math.max(fx, 0), 1); fy = Math.min(Math.max(fy, 0), 1);
    }
    return imageToPage(fx, fy, state.metadata);
  };
  /** The inverse, for tests and embedders: a point of the page (CSS px) as client coordinates of this document. */
  const pageToClient = (x, y) => {
    const rect = drawn(), m = state.metadata;
    if (rect === undefined || m === undefined) return undefined;
    const scale = m.pageScaleFactor > 0 ? m.pageScaleFactor : 1;
    return { x: rect.left + (x * scale / m.deviceWidth) * rect.width, y: rect.top + ((y * scale + m.offsetTop) / m.deviceHeight) * rect.height };
  };
  const modifiers = (event) => (event.altKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.metaKey ? 4 : 0) | (event.shiftKey ? 8 : 0);
  const BUTTONS = ['left', 'middle', 'right', 'back', 'forward'];
  let pressed = false;
  const mouse = (kind) => (event) => {
    if (state.readOnly) return;
    if (kind === 'mouseReleased' && !pressed) return;
    const point = toPage(event, kind === 'mouseReleased');
    if (point === undefined) return;
    event.preventDefault();
    if (kind === 'mousePressed') screen.focus();
    if (kind !== 'mouseMoved') pressed = kind === 'mousePressed';
    send({ type: 'mouse', event: kind, x: point.x, y: point.y, button: kind === 'mouseMoved' ? 'none' : (BUTTONS[event.button] || 'left'),
      buttons: event.buttons, clickCount: kind === 'mouseMoved' ? 0 : Math.min(Math.max(event.detail, 1), 3), modifiers: modifiers(event) });
  };
  let pendingMove;
  frame.addEventListener('mousedown', mouse('mousePressed'));
  window.addEventListener('mouseup', mouse('mouseReleased'));
  frame.addEventListener('mousemove', (event) => {
    // One move per animation frame at most.
    if (pendingMove === undefined) requestAnimationFrame(() => { const last = pendingMove; pendingMove = undefined; mouse('mouseMoved')(last); });
    pendingMove = event;
  });
  frame.addEventListener('contextmenu', (event) => event.preventDefault());
  frame.addEventListener('wheel', (event) => {
    if (state.readOnly) return;
    const point = toPage(event);
    if (point === undefined) return;
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
    send({ type: 'wheel', x: point.x, y: point.y, deltaX: event.deltaX * unit, deltaY: event.deltaY * unit, modifiers: modifiers(event) });
  }, { passive: false });
  const key = (kind) => (event) => {
    if (state.readOnly) return;
    // Ctrl/Cmd+V stays the viewer's own: its paste event sends the text.
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v') return;
    event.preventDefault();
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
    const text = kind === 'keyDown' && plain ? (event.key.length === 1 ? event.key : event.key === 'Enter' ? '\\r' : undefined) : undefined;
    send({ type: 'key', event: kind, key: event.key, code: event.code, keyCode: event.keyCode, location: event.location, modifiers: modifiers(event), ...(text === undefined ? {} : { text }) });
  };
  screen.addEventListener('keydown', key('keyDown'));
  screen.addEventListener('keyup', key('keyUp'));
  document.addEventListener('paste', (event) => {
    if (state.readOnly || event.target === $('text')) return;
    const text = event.clipboardData && event.clipboardData.getData('text/plain');
    if (!text) return;
    event.preventDefault();
    send({ type: 'insertText', text });
  });
  $('send-text').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('text').value;
    if (text !== '') send({ type: 'insertText', text });
    $('text').value = '';
    screen.focus();
  });
  $('human-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const request = state.human[0];
    if (request === undefined) return;
    send({ type: 'humanDone', id: request.id, reply: $('human-reply').value });
  });
  tabs.addEventListener('change', () => send({ type: 'selectTab', targetId: tabs.value }));
  setInterval(() => send({ type: 'ping' }), 20000);
  window.liveView = { state, send, pageToClient };
})();
</script>
</body>
</html>
`;
}
