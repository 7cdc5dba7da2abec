// The advisory locks a PostgreSQL store takes, in one place: PostgreSQL's two-key form, the first
// key marking the lock as Lore's (so a team's own advisory locks never collide with them).

/** 'Lore' in ASCII: the class of every advisory lock Lore takes. */
export const LOCK_CLASS = 0x4c6f7265;
/** Held (session-level) for a whole `lore store migrate`. */
export const LOCK_MIGRATE = 0;
/** The class of a repository's audit-chain lock; the second key is the repository's id. */
export const AUDIT_LOCK_CLASS = LOCK_CLASS + 1;
