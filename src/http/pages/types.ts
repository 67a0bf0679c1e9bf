/** What a page's render function gets (the page files and the route table of index.ts share it). */
import type { Context } from 'hono';
import type { Deps } from '../../deps.js';
import type { AppEnv } from '../common.js';

/** Calls one tool for a page: its answer, or the DomainError it failed with (thrown). `archive`: an uploaded package, unpacked in the worker pool. */
export type CallTool = <T = Record<string, unknown>>(name: string, input: Record<string, unknown>, opts?: { archive?: Uint8Array }) => Promise<T>;

export interface PageRequest {
  c: Context<AppEnv>;
  deps: Deps;
  call: CallTool;
}
