/** Every published dataset. Each is an MCP resource and a REST path. */
import type { DatasetDefinition } from './define.js';
import { flangeRulingsDataset } from './flange-rulings.js';
import { parameterSemanticsDataset } from './parameter-semantics.js';
import { ossLayerDataset } from './oss-layer.js';
import { intelligenceDataset } from './intelligence.js';

export const DATASETS: readonly DatasetDefinition[] = [parameterSemanticsDataset, flangeRulingsDataset, ossLayerDataset, intelligenceDataset];
