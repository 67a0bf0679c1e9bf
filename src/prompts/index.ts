/** Every prompt, in the order prompts/list shows them. */
import { checkMountingPrompt } from './check-mounting.js';
import type { PromptDefinition } from './define.js';
import { planBomPrompt } from './plan-bom.js';
import { selectActuatorPrompt } from './select-actuator.js';

export const PROMPTS: readonly PromptDefinition[] = [selectActuatorPrompt, planBomPrompt, checkMountingPrompt];
