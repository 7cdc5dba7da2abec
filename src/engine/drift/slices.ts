// Running a drift check's steps in slices: a few ms of steps at a time, each slice's writes in one
// transaction, the thread turned (setImmediate: pending requests are read first) between slices, so
// the owner answers agents and the editor while a check of hundreds of paths runs.

/** Runs `steps` in slices of about `sliceMs`, each inside `slice` (one transaction); returns their result. */
export async function inSlices<T>(
  steps: Generator<void, T>,
  sliceMs: number,
  slice: <R>(work: () => R) => R,
): Promise<T> {
  for (;;) {
    const started = performance.now();
    const step = slice(() => {
      let next = steps.next();
      while (!next.done && performance.now() - started < sliceMs) next = steps.next();
      return next;
    });
    if (step.done) return step.value;
    await new Promise((turned) => setImmediate(turned));
  }
}
