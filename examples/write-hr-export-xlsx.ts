/**
 * `npx tsx examples/write-hr-export-xlsx.ts [CSV] [XLSX]`: the sample HR export as an Excel
 * workbook (default: examples/hr-export.csv to examples/hr-export.xlsx), so that the import
 * command can be tried on both formats without a binary file in the repository. It reads the CSV
 * with the import command's own reader, so the workbook holds exactly the rows the CSV does.
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { readTable } from '../scripts/import/read-table';

/** Writes the rows of the delimited text file `csvFile` as the first sheet of `xlsxFile`. */
export async function writeWorkbookOfCsv(csvFile: string, xlsxFile: string): Promise<void> {
  const table = await readTable(csvFile, readFileSync(csvFile));
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('HR export');
  sheet.addRow(table.columns);
  for (const row of table.rows) sheet.addRow(table.columns.map((column) => row.values?.[column] ?? ''));
  await workbook.xlsx.writeFile(xlsxFile);
}

if (require.main === module) {
  const [csvFile = 'examples/hr-export.csv', xlsxFile = 'examples/hr-export.xlsx'] = process.argv.slice(2);
  writeWorkbookOfCsv(csvFile, xlsxFile).then(
    () => console.log(`Wrote ${xlsxFile} from ${csvFile}`),
    (error: Error) => {
      console.error(`Could not write ${xlsxFile}: ${error.message}`);
      process.exitCode = 1;
    },
  );
}
