/** "an owner", "an admin", "an operator", "a viewer", "an agent". */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** Who asked for a deployment, as far as its record says: a role or an agent. */
export function requester(by: { kind: string; role: string }): string {
  return withArticle(by.kind === 'agent' ? 'agent' : by.role);
}

const TRIGGERS: Record<string, string> = {
  session: 'signed in',
  token: 'with an API token',
  agent: '',
  hook: 'by a deploy hook',
  rollback: 'as a rollback',
  approval: 'after an approval',
};

/** How a deployment came to be, in words, after who asked for it ("", "signed in", ...). */
export function triggerText(trigger: string): string {
  return TRIGGERS[trigger] ?? trigger;
}
