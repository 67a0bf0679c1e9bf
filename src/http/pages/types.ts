/** What a page's render function gets (the page files and the route table of index.ts share it). */
import type { Context } from 'hono';
import type { Deps } from '../../deps.js';
import type { AppEnv } from '../common.js';

/** Calls one tool for a page: its answer, or the DomainError it failed with (thrown). */
export type CallTool = <T = Record<string, unknown>>(name: string, input: Record<string, unknown>) => Promise<T>;

export interface PageRequest {
  c: Context<AppEnv>;
  deps: Deps;
  call: CallTool;
}
