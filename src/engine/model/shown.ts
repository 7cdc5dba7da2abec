// How an error message may show a value it refuses: short text that no secret rule matches is
// echoed (a typo is easier to fix when seen); anything else is described, never repeated.

import { firstSecret } from './secretRules';

export function shown(value: unknown): string {
  if (typeof value === 'string') {
    const safe = value.length <= 40 && !/[\0\r\n]/.test(value) && !firstSecret(value);
    return safe ? JSON.stringify(value) : `text of ${value.length} characters`;
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : typeof value;
}
