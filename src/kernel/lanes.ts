/** Read: current state. Planning: previews, no side effects. Command: changes state. */
export const LANES = ['read', 'planning', 'command'] as const;
export type Lane = (typeof LANES)[number];
