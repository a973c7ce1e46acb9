import type { Migration } from './migration';

/** Applications gain how the customer portal presents them; none before. */
const APPLICATION_BRANDING = `
ALTER TABLE applications ADD COLUMN display_name TEXT;
ALTER TABLE applications ADD COLUMN accent_colour TEXT;
ALTER TABLE applications ADD COLUMN support_url TEXT;
`;

export const migration: Migration = (db) => db.exec(APPLICATION_BRANDING);
