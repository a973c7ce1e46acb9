/** A string as an SQL literal. Channel names are validated at start-up; quoting keeps the statement whole whatever they hold. */
export const sqlText = (value: string): string => `'${value.replace(/'/g, "''")}'`;
