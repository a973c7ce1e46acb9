import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';

/** The MongoDB server MONGODB_URI names, as tests use it: fresh databases, and a connection to drop them. */
export interface MongoTestServer {
  readonly uri: string;
  /** A connection to the server, open while the suite runs (to read or drop a test's database). */
  readonly admin: Connection;
  /** The name and URI of a database no test used before. */
  freshDatabase(): { name: string; uri: string };
}

/** Names the databases of this run apart from those of any other run on the same server. */
const run = randomBytes(4).toString('hex');
let databases = 0;

/**
 * `define`'s suites under `title`, registered only when MONGODB_URI names a server (as CI's MongoDB run
 * sets it), with that server open to them.
 */
export function describeWithMongo(title: string, define: (server: MongoTestServer) => void): void {
  const uri = process.env.MONGODB_URI;
  if (!uri) return;
  describe(title, () => {
    let admin: Connection | undefined;

    before(async () => {
      admin = await mongoose.createConnection(uri).asPromise();
    });

    after(async () => {
      await admin?.close();
    });

    define({
      uri,
      get admin() {
        if (!admin) throw new Error('the MongoDB connection is open only while the suite runs');
        return admin;
      },
      freshDatabase() {
        databases += 1;
        return freshMongoDatabase(uri, `test_${run}_${databases}`);
      },
    });
  });
}

/**
 * A fresh database on the server of `uri`, named after the URI's own database plus `suffix`.
 * Credentials keep authenticating against the database they were given for.
 */
function freshMongoDatabase(uri: string, suffix: string): { name: string; uri: string } {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/([^?]*))?(?:\?(.*))?$/.exec(uri);
  if (!match) throw new Error('MONGODB_URI is not a mongodb:// URI');
  const [, server, base = '', query = ''] = match;
  const options = new URLSearchParams(query);
  if (server.includes('@') && !options.has('authSource')) options.set('authSource', base || 'admin');
  const name = `${base || 'bds'}_${suffix}`;
  const search = options.toString();
  return { name, uri: `${server}/${name}${search ? `?${search}` : ''}` };
}
