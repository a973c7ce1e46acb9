import mongoose, { type Connection } from 'mongoose';

/**
 * A dedicated connection (not mongoose's global default) with what the store and its migration
 * share. Indexes are created by the caller once the models are bound, never built in the background
 * by each model as it is defined.
 */
export async function openConnection(uri: string): Promise<Connection> {
  const connection = mongoose.createConnection(uri, { autoIndex: false });
  try {
    await connection.asPromise();
    return connection;
  } catch (error) {
    await connection.close();
    throw error;
  }
}
