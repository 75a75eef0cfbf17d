import { z } from 'zod';

/** Every object key name reachable in a zod schema (through defaults, optionals, unions, records, arrays, lazies). */
export function schemaKeys(schema: z.ZodType): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<z.ZodType>();
  const walk = (s: z.ZodType): void => {
    if (seen.has(s)) return;
    seen.add(s);
    if (s instanceof z.ZodObject) {
      for (const [k, v] of Object.entries(s.shape) as [string, z.ZodType][]) {
        keys.add(k);
        walk(v);
      }
    } else if (s instanceof z.ZodDefault || s instanceof z.ZodPrefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) {
      walk(s.unwrap() as z.ZodType);
    } else if (s instanceof z.ZodArray) {
      walk(s.element as z.ZodType);
    } else if (s instanceof z.ZodRecord) {
      walk(s.valueType as z.ZodType);
    } else if (s instanceof z.ZodUnion || s instanceof z.ZodDiscriminatedUnion) {
      for (const o of s.options as readonly z.ZodType[]) walk(o);
    } else if (s instanceof z.ZodPipe) {
      walk(s.in as z.ZodType);
      walk(s.out as z.ZodType);
    } else if (s instanceof z.ZodLazy) {
      walk(s.unwrap() as z.ZodType);
    }
  };
  walk(schema);
  return keys;
}
