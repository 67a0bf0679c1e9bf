/** prompts/list, prompts/get and prompt-argument completion, derived from the definitions in one loop each. */
import type { Deps } from '../deps.js';
import { completionOf, type CompletionAnswer } from '../resources/serve.js';
import { PROMPTS } from './index.js';

const listed = PROMPTS.map((p) => ({
  name: p.name,
  title: p.title,
  description: p.description,
  arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
}));

export function listPrompts() {
  return listed;
}

const byName = new Map(PROMPTS.map((p) => [p.name, p]));

function unknownPrompt(name: string): string {
  return `Unknown prompt "${name}"; the prompts are ${PROMPTS.map((p) => p.name).join(', ')}`;
}

type PromptAnswer =
  | { error: string; result?: undefined }
  | { error?: undefined; result: { description: string; messages: { role: 'user'; content: { type: 'text'; text: string } }[] } };

export async function getPrompt(deps: Deps, name: string, args: Record<string, string>): Promise<PromptAnswer> {
  const p = byName.get(name);
  if (!p) return { error: unknownPrompt(name) };
  for (const a of p.arguments) {
    const v = args[a.name];
    if (a.required && (typeof v !== 'string' || !v.trim())) return { error: `Prompt ${name}: argument "${a.name}" is required (${a.description})` };
  }
  const known = new Set(p.arguments.map((a) => a.name));
  const extra = Object.keys(args).filter((k) => !known.has(k));
  if (extra.length) return { error: `Prompt ${name}: unknown argument "${extra[0]}"; the arguments are ${[...known].join(', ')}` };
  const text = await p.render(args, deps);
  return { result: { description: p.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] } };
}

export async function completePromptArgument(deps: Deps, name: string, argument: string, value: string, context: Record<string, string>): Promise<CompletionAnswer> {
  const p = byName.get(name);
  if (!p) return { error: unknownPrompt(name) };
  const a = p.arguments.find((x) => x.name === argument);
  if (!a) return { error: `Prompt ${name} has no argument "${argument}"` };
  return { completion: completionOf(a.complete ? await a.complete(deps, value, context) : []) };
}
