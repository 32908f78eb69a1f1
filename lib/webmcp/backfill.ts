/**
 * Tools that same-process child frames registered before the monitor enabled WebMCP on their
 * target: Chromium's `WebMCP.enable` replays only the main frame's (docs/webmcp.md,
 * "How it works", Backfill). Needed only for targets that were running when we attached: a
 * browser we attach to, a monitor that reconnected, a browser the monitor started after.
 *
 * Reading `document.modelContext` from injected code can kill the renderer (a page that once
 * read it on a scratch document; docs/webmcp.md, "How it works"), so this never does. In each
 * child frame's main world it finds the `ModelContext` objects that already exist (`Runtime.queryObjects` on the prototype)
 * and asks them for their tools, keeping those whose `window` is that frame's; no instance means
 * no script used the API there. `<form toolname>` elements are read from the DOM, which is
 * harmless. Both run in the page's main world, where a page could interfere: what they return is
 * page data like everything else, and CDP's own reports win whenever they come.
 */
import type { CdpConnection } from '../../common/cdp/cdp-connection.js';
import type { ReportedTool, ToolRegistry } from './tool-registry.js';

/** `Runtime.ExecutionContextDescription`, as far as the backfill reads it. */
export interface ContextDescription {
  id: number;
  auxData?: { frameId?: string; isDefault?: boolean };
}

const OBJECT_GROUP = 'browser-repl-webmcp-backfill';

/** Runs with `this` = the array of ModelContext instances; answers plain data only. */
const COLLECT_TOOLS = `async function () {
  const found = new Map();
  for (const context of this) {
    let tools;
    try { tools = await context.getTools(); } catch { continue; }
    for (const tool of tools ?? []) {
      if (tool === null || typeof tool !== 'object' || tool.window !== window || found.has(tool.name)) continue;
      found.set(String(tool.name), {
        name: String(tool.name),
        description: typeof tool.description === 'string' ? tool.description : '',
        inputSchema: tool.inputSchema && typeof tool.inputSchema === 'object' ? tool.inputSchema : undefined,
        annotations: tool.annotations && typeof tool.annotations === 'object' ? {
          readOnly: tool.annotations.readOnlyHint === true,
          untrustedContent: tool.annotations.untrustedContentHint === true,
          consequential: tool.annotations.consequentialHint === true,
        } : undefined,
      });
    }
  }
  return [...found.values()];
}`;

const DECLARATIVE_FORMS = `Array.from(document.querySelectorAll('form[toolname]'), (form) => ({
  name: form.getAttribute('toolname'),
  description: form.getAttribute('tooldescription') || '',
  autosubmit: form.hasAttribute('toolautosubmit'),
}))`;

/**
 * Backfills the child frames of `sessionId`'s target into `registry`. Resolves `true` when every
 * child frame was read (or went away meanwhile), `false` when a command failed otherwise (a
 * timeout on a loaded machine): the caller tries again later, since no event would ever bring
 * those tools. A frame read twice adds nothing twice (`registry.has`).
 */
export async function backfillFrames(
  cdp: CdpConnection,
  sessionId: string,
  rootFrameId: string,
  registry: ToolRegistry,
  options: { timeoutMs: number; onContextCreated: (sessionId: string, listener: (context: ContextDescription) => void) => () => void },
): Promise<boolean> {
  const session = registry.session(sessionId);
  if (session === undefined) return true;
  const childFrames = [...session.frames.values()].filter((frame) => frame.frameId !== rootFrameId).map((frame) => frame.frameId);
  if (childFrames.length === 0) return true;
  const sendOptions = { sessionId, timeoutMs: options.timeoutMs };
  // Main-world execution contexts by frame: Runtime.enable reports every existing one before it answers.
  const contexts = new Map<string, number>();
  const dispose = options.onContextCreated(sessionId, (context) => {
    if (context.auxData?.isDefault === true && typeof context.auxData.frameId === 'string') contexts.set(context.auxData.frameId, context.id);
  });
  try {
    await cdp.send('Runtime.enable', undefined, sendOptions);
  } catch {
    return false;
  } finally {
    dispose();
    await cdp.send('Runtime.disable', undefined, sendOptions).catch(() => {});
  }
  let complete = true;
  for (const frameId of childFrames) {
    const contextId = contexts.get(frameId);
    if (contextId === undefined) continue;
    const tools: ReportedTool[] = [];
    try {
      const prototype = await cdp.send('Runtime.evaluate', { expression: 'globalThis.ModelContext?.prototype', contextId, objectGroup: OBJECT_GROUP }, sendOptions);
      if (prototype.result.objectId !== undefined) {
        const instances = await cdp.send('Runtime.queryObjects', { prototypeObjectId: prototype.result.objectId, objectGroup: OBJECT_GROUP }, sendOptions);
        if (instances.objects.objectId !== undefined) {
          const collected = await cdp.send('Runtime.callFunctionOn', {
            objectId: instances.objects.objectId, functionDeclaration: COLLECT_TOOLS, awaitPromise: true, returnByValue: true,
          }, sendOptions);
          for (const tool of (collected.result.value ?? []) as Array<Omit<ReportedTool, 'frameId'>>) tools.push({ ...tool, frameId });
        }
      }
      const forms = await cdp.send('Runtime.evaluate', { expression: DECLARATIVE_FORMS, contextId, returnByValue: true }, sendOptions);
      for (const form of (forms.result.value ?? []) as Array<{ name: string | null; description: string; autosubmit: boolean }>) {
        if (typeof form.name !== 'string' || tools.some((tool) => tool.name === form.name)) continue;
        tools.push({ name: form.name, description: form.description, frameId, declarative: true, annotations: form.autosubmit ? { autosubmit: true } : undefined });
      }
    } catch {
      // The frame navigated or went away meanwhile (its new document reports its own tools), or
      // the renderer was too slow to answer: then only another attempt can find its tools.
      if (registry.session(sessionId)?.frames.has(frameId) === true) complete = false;
    } finally {
      await cdp.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }, options).catch(() => {});
    }
    // Only tools CDP has not reported itself: its report is the better one.
    if (tools.length > 0) registry.toolsAdded(sessionId, tools.filter((tool) => !registry.has(sessionId, frameId, tool.name)));
  }
  return complete;
}
