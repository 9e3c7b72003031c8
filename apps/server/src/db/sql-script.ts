import { sql, type Kysely } from 'kysely';

/**
 * Splits a migration script into statements at top-level semicolons, skipping
 * those inside quotes, $$ bodies and -- comments. Needed because PGlite's
 * Kysely driver uses the extended protocol, which takes one statement a call.
 */
export function splitStatements(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < script.length) {
    const char = script[i];
    if (char === '-' && script[i + 1] === '-') {
      const end = script.indexOf('\n', i);
      i = end === -1 ? script.length : end + 1;
    } else if (char === "'") {
      i = script.indexOf("'", i + 1) + 1 || script.length;
    } else if (char === '$' && script[i + 1] === '$') {
      i = script.indexOf('$$', i + 2) + 2 || script.length;
    } else if (char === ';') {
      statements.push(script.slice(start, i));
      start = i + 1;
      i += 1;
    } else {
      i += 1;
    }
  }
  statements.push(script.slice(start));
  return statements
    .map((statement) => statement.trim())
    .filter((statement) => statement.replace(/--.*$/gm, '').trim() !== '');
}

export async function runScript(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of splitStatements(script)) {
    await sql.raw(statement).execute(db);
  }
}
