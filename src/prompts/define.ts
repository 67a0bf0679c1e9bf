/**
 * One prompt = one plain definition (like tools): its arguments, with optional completion, and
 * a render function that writes the messages. src/prompts/index.ts lists them; one loop serves
 * prompts/list, prompts/get and completion/complete for ref/prompt.
 */
import type { Deps } from '../deps.js';

export interface PromptArgumentDefinition {
  name: string;
  description: string;
  required: boolean;
  /** Values for completion/complete, all matches (the caller caps the answer at 100 and reports the total). */
  complete?: (deps: Deps, value: string, context: Record<string, string>) => Promise<string[]>;
}

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgumentDefinition[];
  /** The user message of the prompt; arguments are validated (required present, none unknown) before. */
  render: (args: Record<string, string>, deps: Deps) => Promise<string> | string;
}

export function definePrompt(def: PromptDefinition): PromptDefinition {
  return def;
}
