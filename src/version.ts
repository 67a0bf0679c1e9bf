export const SERVER_NAME = 'robot-parts-mcp';
export const SERVER_VERSION = '0.1.0';
