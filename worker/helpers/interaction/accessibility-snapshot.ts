/**
 * `accessibilitySnapshot({maxNodes = 2000, interactiveOnly = false})` → `{url, title, nodes,
 * truncated?, totalNodes?}`. One `Accessibility.getFullAXTree` for the page plus one per
 * same-process frame (with `DOM.getFrameOwner` to place it), all in parallel; the projection is
 * `ax-projection.ts`. Cross-site frames are their own targets: `iframeTarget()` + `switchTab()`.
 * url and title are the document's (`location.href`, `document.title`), read alongside. The few
 * buttons that may be file inputs (`fileInputCandidates`) get one `DOM.describeNode` each, in
 * parallel, so the snapshot can report them as file inputs.
 */
import { DialogGuard } from './dialog-guard.js';
import { fileInputCandidates, projectAxTree } from './ax-projection.js';
import { readSnapshotRequest } from './interaction-options.js';

import type { Protocol } from 'devtools-protocol';
import type { HelperContext } from '../helper-context.js';
import type { DomFacts, FrameTree, SnapshotNode } from './ax-projection.js';

/** What `accessibilitySnapshot()` resolves to. */
export interface AccessibilitySnapshot {
  url: string;
  title: string;
  nodes: SnapshotNode[];
  /** Present (true) when `maxNodes` cut the list. */
  truncated?: true;
  /** With `truncated`: how many nodes there were. */
  totalNodes?: number;
}

function childFrameIds(tree: Protocol.Page.FrameTree): string[] {
  return (tree.childFrames ?? []).flatMap((child) => [child.frame.id, ...childFrameIds(child)]);
}

/** Which of `candidates` are file inputs (a node that went away meanwhile is simply not one). */
async function readDomFacts(context: HelperContext, send: ReturnType<HelperContext['callOptions']>, candidates: readonly number[]): Promise<DomFacts> {
  const fileInputs = new Map<number, { multiple: boolean }>();
  await Promise.all(candidates.map(async (backendNodeId) => {
    const described = await context.client.send('DOM.describeNode', { backendNodeId }, send).catch(() => null);
    if (described === null || described.node.localName !== 'input') return;
    const attributes = described.node.attributes ?? [];
    let type = '';
    let multiple = false;
    // Attributes come as a flat [name, value, name, value, …] list.
    for (let i = 0; i + 1 < attributes.length; i += 2) {
      const name = attributes[i]?.toLowerCase();
      if (name === 'type') type = (attributes[i + 1] ?? '').toLowerCase();
      if (name === 'multiple') multiple = true;
    }
    if (type === 'file') fileInputs.set(backendNodeId, { multiple });
  }));
  return { fileInputs };
}

/** `accessibilitySnapshot(options?)` of the attached page. */
export async function accessibilitySnapshot(context: HelperContext, options: unknown): Promise<AccessibilitySnapshot> {
  const request = readSnapshotRequest(options);
  const { client } = context;
  const sessionId = await client.ensureAttached(context.callOptions());
  const guard = await DialogGuard.start(context, 'accessibilitySnapshot', sessionId);
  try {
    const send = context.callOptions({ sessionId });
    const [main, frameTree, location] = await guard.guard(Promise.all([
      client.send('Accessibility.getFullAXTree', {}, send),
      client.send('Page.getFrameTree', undefined, send).catch(() => null),
      client.send('Runtime.evaluate', { expression: '[location.href, document.title]', returnByValue: true }, send).catch(() => null),
    ]));
    const frameIds = frameTree === null ? [] : childFrameIds(frameTree.frameTree);
    const frames = await guard.guard(Promise.all(frameIds.map(async (frameId): Promise<FrameTree | null> => {
      try {
        const [tree, owner] = await Promise.all([
          client.send('Accessibility.getFullAXTree', { frameId }, send),
          client.send('DOM.getFrameOwner', { frameId }, send),
        ]);
        return { ownerBackendNodeId: owner.backendNodeId, nodes: tree.nodes };
      } catch {
        return null; // A cross-site frame lives in another target, or the frame went away meanwhile.
      }
    })));
    const found = frames.filter((frame): frame is FrameTree => frame !== null);
    const facts = await guard.guard(readDomFacts(context, send, fileInputCandidates([main.nodes, ...found.map((frame) => frame.nodes)])));
    const projection = projectAxTree(main.nodes, found, request, facts);
    const [url, title] = Array.isArray(location?.result.value) ? (location.result.value as unknown[]) : [];
    const snapshot: AccessibilitySnapshot = {
      url: typeof url === 'string' ? url : '',
      title: typeof title === 'string' ? title : '',
      nodes: projection.nodes,
    };
    if (projection.truncated) {
      snapshot.truncated = true;
      snapshot.totalNodes = projection.total;
    }
    return snapshot;
  } finally {
    guard.dispose();
  }
}
