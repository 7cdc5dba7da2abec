// Lore's error type: every failure the engine reports carries a stable code and a hint that tells
// the person (or agent) what to do next. Each door presents these in its own way.

export type ErrorCode =
  | 'INVALID_INPUT'
  | 'LIMIT_EXCEEDED'
  | 'SECRET_DETECTED'
  | 'NOT_FOUND'
  | 'INVALID_STATE'
  | 'HUMAN_ONLY'
  | 'STORE_BUSY'
  | 'STORE_TOO_NEW'
  | 'STORE_UNAVAILABLE'
  /** The disk under the store is full: nothing was saved; it works again once there is room. */
  | 'NO_SPACE'
  /** The store's data folder is read-only: reads work, writes are refused. */
  | 'STORE_READ_ONLY'
  | 'INTEGRITY'
  /** Something outside Lore (a network host) could not be reached or refused. */
  | 'UNAVAILABLE'
  /** The person stopped it; nothing was kept. */
  | 'CANCELLED';

export class LoreError extends Error {
  override readonly name = 'LoreError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      message: this.message,
      hint: this.hint,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export function invalid(message: string, hint?: string): LoreError {
  return new LoreError('INVALID_INPUT', message, hint);
}

export function isLoreError(error: unknown): error is LoreError {
  return error instanceof LoreError;
}
