import type { Migration } from './migration';

/** A customer's deletion removes its licence acceptances: found by customer, not by a scan. */
const ACCEPTANCES_BY_CUSTOMER = `
CREATE INDEX licence_acceptances_customer ON licence_acceptances(customer_id);
`;

export const migration: Migration = (db) => db.exec(ACCEPTANCES_BY_CUSTOMER);
