import { epochMs, jsonb } from './sql-values.js';

/** How a column's value travels: its parameter's cast on the way in, and timestamps as epoch ms on the way out. */
export type ColumnType = 'text' | 'jsonb' | 'float8' | 'integer' | 'boolean' | 'timestamptz';

/** A row property's column: its name in the table and its type. */
export type ColumnOf = readonly [column: string, type: ColumnType];

/** Every property of the row, each with its column: a property without one is a type error. */
export type Columns<Row> = { readonly [Property in keyof Row]-?: ColumnOf };

type Raw = Record<string, unknown>;
type Entry<Row> = readonly [property: keyof Row & string, column: ColumnOf];

/**
 * One table's columns, listed once (beside its row type in tables/), and every statement text and row mapping
 * that reads or writes the table whole, made from that list: the select list (selectList), the row read back
 * (rowOf), the INSERT and the UPDATE of every column but the key, and their values in the same order. Timestamps
 * are read as epoch milliseconds (exact, whatever the session's time zone) under `<column>_ms`; jsonb arrives
 * parsed; every value is written with its cast, a Date as its ISO text (sql-values.ts).
 */
export class Table<Row extends object, Written extends object = object> {
  /** The columns of a row read whole (Row), then those only writes set (Written: a list's rendering, ADR 18). */
  private readonly entries: readonly Entry<Row & Written>[];
  private readonly readEntries: readonly Entry<Row>[];
  private readonly keyEntries: readonly Entry<Row & Written>[];
  private readonly restEntries: readonly Entry<Row & Written>[];
  /** The table's columns in the list's order: what an INSERT names. */
  readonly columnNames: string;
  /** One row's `?` in columnNames' order, each with its cast. */
  readonly rowValues: string;
  readonly insertSql: string;
  /** Sets every column but the key to updateValues' values; the key's go last. */
  readonly updateSql: string;
  private readonly selectLists = new Map<string, string>();

  constructor(
    readonly name: string,
    columns: Columns<Row>,
    key: readonly (keyof Row & string)[],
    written?: Columns<Written>,
  ) {
    this.readEntries = Object.entries(columns) as unknown as Entry<Row>[];
    this.entries = [...this.readEntries, ...(Object.entries(written ?? {}) as unknown as Entry<Written>[])] as unknown as Entry<Row & Written>[];
    this.keyEntries = key.map((property) => [property, columns[property]] as const) as unknown as Entry<Row & Written>[];
    this.restEntries = this.entries.filter(([property]) => !(key as readonly string[]).includes(property));
    this.columnNames = this.entries.map(([, [column]]) => column).join(', ');
    this.rowValues = `(${this.entries.map(([, column]) => parameter(column)).join(', ')})`;
    this.insertSql = `insert into ${name} (${this.columnNames}) values ${this.rowValues}`;
    this.updateSql = `update ${name} set ${this.restEntries.map(([, column]) => `${column[0]} = ${parameter(column)}`).join(', ')}
      where ${this.keyEntries.map(([, [column]]) => `${column} = ?`).join(' and ')}`;
  }

  /** The select list of a row read whole, columns prefixed with `alias.` when given (a query that joins others). */
  selectList(alias = ''): string {
    let list = this.selectLists.get(alias);
    if (list === undefined) {
      list = this.makeSelectList(alias);
      this.selectLists.set(alias, list);
    }
    return list;
  }

  private makeSelectList(alias: string): string {
    const named = (column: string) => (alias === '' ? column : `${alias}.${column}`);
    return this.readEntries.map(([, [column, type]]) => (type === 'timestamptz' ? `${epochMs(named(column))} as ${column}_ms` : named(column)))
      .join(', ');
  }

  /** A row read with selectList. */
  rowOf(raw: Raw): Row {
    const row: Raw = {};
    for (const [property, [column, type]] of this.readEntries) {
      if (type !== 'timestamptz') row[property] = raw[column];
      else {
        const ms = raw[`${column}_ms`];
        row[property] = ms === null ? null : new Date(ms as number);
      }
    }
    return row as Row;
  }

  /** One INSERT of these rows, and its values; ended there, so that a caller may add an ON CONFLICT clause. */
  insertRows(rows: readonly (Row & Written)[]): { readonly sql: string; readonly values: unknown[] } {
    return {
      sql: `insert into ${this.name} (${this.columnNames}) values ${rows.map(() => this.rowValues).join(', ')}`,
      values: rows.flatMap((row) => this.values(row)),
    };
  }

  /** A row's values in columnNames' order (rowValues, insertSql). */
  values(row: Row & Written): unknown[] {
    return this.entries.map(([property, column]) => valueOf(row[property], column));
  }

  /** updateSql's values: every column but the key, then the key. */
  updateValues(row: Row & Written): unknown[] {
    return [...this.restEntries, ...this.keyEntries].map(([property, column]) => valueOf(row[property], column));
  }
}

function parameter([, type]: ColumnOf): string {
  return type === 'text' ? '?' : `?::${type}`;
}

function valueOf(value: unknown, [, type]: ColumnOf): unknown {
  return type === 'jsonb' && value !== null ? jsonb(value) : value;
}
