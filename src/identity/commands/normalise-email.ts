/** An email address as typed is trimmed and lower-cased (sign-up, login, password reset). */
export const normaliseEmail = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;
