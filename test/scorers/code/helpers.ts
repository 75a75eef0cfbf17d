/** Builders for agent-shaped runs in the reference's test form (createAgentTestRun/createTestMessage). */
export function msg(role: 'user' | 'assistant', content: string, toolInvocations?: unknown[]) {
  return {
    id: `m-${role}`,
    role,
    createdAt: new Date(0),
    content: { format: 2, parts: [{ type: 'text', text: content }], content, ...(toolInvocations ? { toolInvocations } : {}) },
  };
}

export function agentRun(input: string, output: string) {
  return { input: { inputMessages: [msg('user', input)], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} }, output: [msg('assistant', output)] };
}
