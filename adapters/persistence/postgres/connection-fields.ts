import type pg from 'pg';

/**
 * The fields of a database URL that the service's pools use, read as MikroORM reads its clientUrl (host, port,
 * user, password, database; nothing of the query string), for the pg pools beside them (readiness's probe, the
 * PostgreSQL rate-limit store): they reach the database as the pools reach it. Given to pg as a connectionString
 * instead, `?sslmode=require` against a server without TLS (which the pools, ignoring it, reach) would leave
 * readiness answering false for ever.
 */
export function pgConnectionOf(url: string): pg.ClientConfig {
  const parsed = new URL(url);
  return {
    host: decodeURIComponent(parsed.hostname),
    // MikroORM's `+url.port` is 0 without a port, which pg takes as none: PGPORT, else 5432. So does undefined.
    port: Number(parsed.port) || undefined,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname).replace(/^\//, ''),
  };
}
