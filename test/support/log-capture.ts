/** A structured log line, as the logger writes it. */
export type LogLine = Record<string, unknown>;

/** The structured lines the logger writes while `act` runs. */
export async function captureLogs(act: () => Promise<unknown>): Promise<LogLine[]> {
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await act();
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return chunks
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}
