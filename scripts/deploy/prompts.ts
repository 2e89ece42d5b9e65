import { createInterface } from 'node:readline';

/** Questions on a terminal; without one, nothing is asked and the caller gets undefined. */
export interface Prompter {
  readonly interactive: boolean;
  ask(question: string, fallback?: string): Promise<string | undefined>;
  /** Asks without echoing the answer (secrets), so it is neither on screen nor in the shell's history. */
  askHidden(question: string): Promise<string | undefined>;
}

export function terminalPrompter(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Prompter {
  const interactive = Boolean(input.isTTY);
  const question = (text: string, hidden: boolean) =>
    new Promise<string>((resolve) => {
      const reader = createInterface({ input, output, terminal: true });
      if (hidden) {
        // readline echoes through _writeToOutput; past the question nothing is shown.
        const writer = reader as unknown as { _writeToOutput: (text: string) => void };
        const write = writer._writeToOutput.bind(reader);
        let asked = false;
        writer._writeToOutput = (chunk) => {
          if (!asked) write(chunk);
          asked = true;
        };
      }
      reader.question(text, (answer) => {
        reader.close();
        if (hidden) output.write('\n');
        resolve(answer.trim());
      });
    });
  return {
    interactive,
    async ask(text, fallback) {
      if (!interactive) return fallback;
      const answer = await question(`${text}${fallback ? ` [${fallback}]` : ''}: `, false);
      return answer === '' ? fallback : answer;
    },
    async askHidden(text) {
      if (!interactive) return undefined;
      const answer = await question(`${text}: `, true);
      return answer === '' ? undefined : answer;
    },
  };
}
