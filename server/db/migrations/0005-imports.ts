/**
 * Imports kept on the server: the file, the work on it and each product's status, so that another
 * browser or a colleague opens the same import, and the server itself refuses to send a product twice.
 * Stands alone, like every migration.
 */
import { type Migration } from 'kysely';

export const imports: Migration = {
  async up(db) {
    await db.schema
      .createTable('imports')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('started_by_kind', 'text', (c) => c.notNull())
      .addColumn('started_by_id', 'text')
      .addColumn('started_by_name', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('work', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('runner_token', 'text')
      .addColumn('runner_kind', 'text')
      .addColumn('runner_id', 'text')
      .addColumn('runner_name', 'text')
      .addColumn('runner_since', 'bigint')
      .addColumn('lease_until', 'bigint')
      .addColumn('ran_at', 'bigint')
      .addColumn('ended_at', 'bigint')
      .addColumn('ended_how', 'text')
      .execute();
    await db.schema.createIndex('imports_site').on('imports').columns(['site_id', 'created_at']).execute();
    await db.schema
      .createTable('import_products')
      .addColumn('import_id', 'text', (c) => c.notNull().references('imports.id').onDelete('cascade'))
      .addColumn('product_key', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('create_seq', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('import_products_key', ['import_id', 'product_key'])
      .execute();
  },
};
