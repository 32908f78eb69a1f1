/**
 * Credentials never reach a log line: the server's token and a browser's CDP capability travel in
 * URLs as `?token=` and `?jwt=` (docs/security.md), and URLs are what debug lines print.
 */
export function redactUrl(url: string | undefined): string {
  return (url ?? '').replace(/([?&](?:token|jwt)=)[^&#]*/gi, '$1[redacted]');
}
