import type Database from 'better-sqlite3';
import { DuplicateError } from '../../errors';
import { duplicateTarget } from './unique-indexes';

export type Row = Record<string, unknown>;

/**
 * The serving connection as the concern modules use it: statements prepared once per SQL text
 * (preparing costs more than running most of these queries), updates of the fields a patch sets,
 * and writes whose unique-constraint refusals become DuplicateError.
 */
export class SqliteDatabase {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs an UPDATE of the defined values plus updated_at; true when a row matched. */
  update(table: string, condition: string, conditionParams: unknown[], values: Record<string, unknown>, at: Date): boolean {
    const columns = Object.entries(values).filter(([, v]) => v !== undefined);
    const assignments = [...columns.map(([c]) => `${c} = ?`), 'updated_at = ?'];
    return this.write(() =>
      this.prepare(`UPDATE ${table} SET ${assignments.join(', ')} WHERE ${condition}`)
        .run(...columns.map(([, v]) => v), at.getTime(), ...conditionParams),
    ).changes > 0;
  }

  /** Runs a write, translating unique-constraint failures into DuplicateError. */
  write<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      const target = duplicateTarget(this.db, error);
      if (target) throw new DuplicateError(target);
      throw error;
    }
  }
}
