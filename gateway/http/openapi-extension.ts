// zod's `.openapi()` is added by the contract (shared/contract/openapi-extension.ts).
export * from '../../shared/contract/openapi-extension';
