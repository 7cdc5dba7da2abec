// How the index shares the owner's thread: its own work (classify, redact, chunk the files of a
// batch) holds the thread at most SLICE_MS before it turns it; a batch of 50 long files took a few
// hundred ms in one piece, and the owner answered nothing meanwhile. A batch's writes still wait
// for its one commit.

/** How long the index's own work holds the thread before it turns it, in ms. */
export const SLICE_MS = 8;

/** Lets the event loop take what is waiting (a request, a timer) before the index goes on. */
export const turn = (): Promise<void> => new Promise((turned) => setImmediate(turned));
