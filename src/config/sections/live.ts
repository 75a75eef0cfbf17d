import { z } from 'zod';

/**
 * The live page on the metrics listener (docs/live-page.md): what the in-memory ring behind it keeps. The ring
 * lives in the process only; a restart empties it.
 */
export const liveSection = z
  .strictObject({
    /** Serve `GET /`, `/api/summary` and `/api/evaluations` on the `emit.prometheus` listener (`serve`, `demo`). */
    enabled: z.boolean().default(true),
    /** Evaluations kept for the page (the newest; older ones are dropped). */
    maxEvaluations: z.number().int().positive().max(1_000_000).default(2000),
    /** How far back the page looks: evaluations and per-minute counts older than this are dropped. */
    windowMinutes: z.number().int().min(1).max(1440).default(30),
    /** Distinct agent names with their own rows; later ones are counted under `other`. */
    maxAgents: z.number().int().positive().max(10_000).default(100),
    /** Link from an evaluation to its trace: an http(s) URL with `{traceId}` (and optionally `{spanId}`) in it. */
    traceUrlTemplate: z
      .string()
      .min(1)
      .refine((t) => /^https?:\/\//i.test(t), { message: 'must start with http:// or https://' })
      .refine((t) => t.includes('{traceId}'), { message: 'must contain the {traceId} placeholder' })
      .optional(),
    /**
     * The live page's address as people reach it (behind a proxy, a DNS name), e.g. `https://tracejudge.example.com`.
     * Published as `tracejudge_live_info{url="…"}` on /metrics, from which the shipped alerts build a link to the
     * page filtered to the alert's agent and scorer (docs/alerting.md). No query or fragment; a trailing `/` is dropped.
     */
    publicUrl: z
      .url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' })
      .refine((u) => !/[?#]/.test(u), { message: 'must have no query or fragment' })
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
  })
  .prefault({});

/** The validated `live` section. */
export type LiveConfig = z.output<typeof liveSection>;
