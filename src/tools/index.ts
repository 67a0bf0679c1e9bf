/** Every tool, in the order tools/list shows them. One loop registers them on MCP; the REST table derives from them. */
import type { AnyTool } from './define.js';
import { getCatalogueStatsTool } from './get-catalogue-stats.js';
import { getPartTool } from './get-part.js';
import { listPartsTool } from './list-parts.js';
import { searchPartsTool } from './search-parts.js';
import { registerKeyTool } from './register-key.js';
import { getBalanceTool } from './get-balance.js';
import { createPaymentTool } from './create-payment.js';
import { getPaymentStatusTool } from './get-payment-status.js';
import { checkCompatibilityTool } from './check-compatibility.js';
import { ruleFlangeTool } from './rule-flange.js';
import { designAdapterPlateTool } from './design-adapter-plate.js';
import { convertParameterTool } from './convert-parameter.js';
import { screenPartTool } from './screen-part.js';
import { checkBomTool } from './check-bom.js';
import { exportBomTool } from './export-bom.js';
import { extractRobotPartsTool } from './extract-robot-parts.js';
import { listSpecFieldsTool } from './list-spec-fields.js';
import { comparePartsTool } from './compare-parts.js';
import { findAlternativesTool } from './find-alternatives.js';
import { findWhereUsedTool } from './find-where-used.js';
import { lintUrdfTool } from './lint-urdf.js';
import { sizeActuatorsTool } from './size-actuators.js';
import { getAnalyticsTool } from './get-analytics.js';

export const TOOLS: readonly AnyTool[] = [
  searchPartsTool,
  getPartTool,
  listPartsTool,
  getCatalogueStatsTool,
  listSpecFieldsTool,
  comparePartsTool,
  findAlternativesTool,
  checkCompatibilityTool,
  ruleFlangeTool,
  designAdapterPlateTool,
  convertParameterTool,
  screenPartTool,
  checkBomTool,
  exportBomTool,
  extractRobotPartsTool,
  findWhereUsedTool,
  lintUrdfTool,
  sizeActuatorsTool,
  getAnalyticsTool,
  registerKeyTool,
  getBalanceTool,
  createPaymentTool,
  getPaymentStatusTool,
];
