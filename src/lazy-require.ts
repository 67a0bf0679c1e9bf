/**
 * A dependency loaded on first use instead of at start, synchronously (through its CommonJS
 * build). For the libraries only some calls need: yaml (xacro packages), fflate (archives and
 * 3MF plates) and csv-stringify (BOM exports). Importing them with the server cost ~70 ms of
 * every start, for calls most processes never make.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `() => require(id)`, loaded once. The caller types it: `lazyRequire<typeof import('yaml')>('yaml')`. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
