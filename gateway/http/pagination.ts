// The page fields are part of the contract (shared/contract/query-fields.ts).
export { pageFields } from '../../shared/contract/query-fields';
