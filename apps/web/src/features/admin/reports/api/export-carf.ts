import { CARF_FIRST_YEAR, exportCarfReport } from '@florin/contracts';
import { endpointUrl } from '../../../../lib/api-client';

/** A plain link: the browser downloads the file with the staff cookie, as the newsletter export does. */
export function carfExportUrl(year: number): string {
  return endpointUrl(exportCarfReport, { query: { year } });
}

/** The years that can be exported, newest first: from CARF's first to the current one (UTC, as CARF counts). */
export function carfYears(today: Date = new Date()): number[] {
  const years: number[] = [];
  for (let year = today.getUTCFullYear(); year >= CARF_FIRST_YEAR; year -= 1) years.push(year);
  return years;
}
