/** Accounts: keys, credentials, rate-limit policy and the account service. */
export * from './keys.js';
export * from './credentials.js';
export * from './rate-limit.js';
export * from './service.js';
