/**
 * Keeps `gen_ai.agent.name` on metrics low-cardinality: an allow list (exact names or `*` globs) and/or a cap on
 * distinct names; anything else is reported as `other`. The first `maxAgents` names seen win (stable for the
 * life of the process).
 */
import picomatch from 'picomatch';

const OTHER_AGENT = 'other';

export interface AgentLimitOptions {
  maxAgents: number;
  allowAgents: readonly string[];
}

export class AgentNameLimiter {
  private readonly seen = new Set<string>();
  private readonly allow: ((name: string) => boolean) | undefined;

  constructor(private readonly options: AgentLimitOptions) {
    this.allow = options.allowAgents.length > 0 ? picomatch([...options.allowAgents]) : undefined;
  }

  /** The label to use for `name`: the name itself, or `other`. */
  label(name: string): string {
    if (!name) return OTHER_AGENT;
    if (this.seen.has(name)) return name;
    if (this.allow && !this.allow(name)) return OTHER_AGENT;
    if (this.seen.size >= this.options.maxAgents) return OTHER_AGENT;
    this.seen.add(name);
    return name;
  }
}
