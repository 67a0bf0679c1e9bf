/**
 * zod's parse options for a document validated once, such as a dataset read at start: without
 * zod's compiled fast path. That path generates and compiles a function for each object schema
 * on its first parse, which pays back only over many parses; for the start's small documents it
 * was most of their cost (the datasets: ~30 ms with it, ~10 ms without; the analytics tables ~7
 * and ~1 ms). The parse's result and errors are the same either way.
 */
export const PARSE_ONCE = { jitless: true } as const;
