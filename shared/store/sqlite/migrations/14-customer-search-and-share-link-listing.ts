import type { Migration } from './migration';

const CUSTOMER_SEARCH_AND_SHARE_LINK_LISTING = `
CREATE INDEX IF NOT EXISTS customers_name_nocase ON customers(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS customers_id_nocase ON customers(customer_id COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS share_links_customer ON share_links(customer_id, created_at);
`;

// The audit log filtered by who acted or what was acted on, each in log order.

export const migration: Migration = (db) => db.exec(CUSTOMER_SEARCH_AND_SHARE_LINK_LISTING);
