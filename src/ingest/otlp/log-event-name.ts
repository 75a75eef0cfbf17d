import type { Attributes } from '../../model/span.js';

/** `eventName` (proto field 12) when set, else the deprecated `event.name` attribute, else `''`. */
export function eventNameOf(eventName: string, attributes: Attributes): string {
  if (eventName !== '') return eventName;
  const legacy = attributes['event.name'];
  return typeof legacy === 'string' ? legacy : '';
}
