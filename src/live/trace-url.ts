/**
 * The link from an evaluation to its trace, from `live.traceUrlTemplate`: `{traceId}` and `{spanId}` are
 * replaced by the ids (URL-encoded, though they are hex). The template is checked at config load to be an
 * http(s) URL, so a link can never be a `javascript:` URL. Examples in docs/live-page.md.
 *
 * @example
 * ```ts
 * traceUrl('http://127.0.0.1:16686/trace/{traceId}', '4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7');
 * // 'http://127.0.0.1:16686/trace/4bf92f3577b34da6a3ce929d0e0e4736'
 * ```
 */
export function traceUrl(template: string, traceId: string, spanId: string): string {
  return template.replaceAll('{traceId}', encodeURIComponent(traceId)).replaceAll('{spanId}', encodeURIComponent(spanId));
}
