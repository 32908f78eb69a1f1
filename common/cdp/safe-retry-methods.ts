/**
 * CDP methods that may be sent a second time when the connection dropped before their answer.
 * Each one only observes state or sets up something idempotent, so running it twice is harmless.
 * Everything else (evaluation, navigation, input, target creation, ...) may have taken effect
 * before the socket died; repeating it could click twice or submit twice, so it is reported as
 * "outcome unknown" instead (docs/browser-helpers.md, "Exactly once").
 */
export const SAFE_RETRY_METHODS: ReadonlySet<string> = new Set([
  'Accessibility.getFullAXTree',
  'Browser.getVersion',
  'DOM.enable',
  'DOM.getBoxModel',
  'DOM.getContentQuads',
  'DOM.getDocument',
  'DOM.querySelector',
  'DOM.querySelectorAll',
  'DOM.resolveNode',
  'Network.enable',
  'Page.captureScreenshot',
  'Page.enable',
  'Page.getFrameTree',
  'Page.getLayoutMetrics',
  'Runtime.enable',
  'SystemInfo.getInfo',
  'Target.getTargets',
]);

/** True when `method` may be retried after the connection closed before its response. */
export function isSafeRetryMethod(method: string): boolean {
  return SAFE_RETRY_METHODS.has(method);
}
