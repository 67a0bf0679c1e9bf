/** The account, ledger, rate-limit and order ports the domain declares (src/domain/accounts/ledger.ts), implemented here by sqlite-ledger.ts and pg-ledger.ts. */
export * from '../domain/accounts/ledger.js';
