// The field rules are part of the contract (shared/contract/fields.ts); the update feeds still import them from here.
export * from '../../shared/contract/fields';
