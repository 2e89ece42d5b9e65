import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StackTemplate } from '../../infra/stateful-resources';

/**
 * The CDK CLI as the deploy uses it, behind a seam the tests replace: synth into a folder, and
 * diff, deploy and destroy of what that folder holds, so the template that is checked is the one
 * that is deployed.
 */
export interface CdkRunner {
  /** Synthesizes the app with this context into `outputDir`; the stack's template. */
  synth(context: Record<string, string>, outputDir: string, stackName: string): Promise<StackTemplate>;
  /** Prints `cdk diff` of the synthesized stack against the deployed one. */
  diff(outputDir: string, stackName: string): Promise<void>;
  /** Deploys the synthesized stack; its outputs by name. */
  deploy(outputDir: string, stackName: string): Promise<Record<string, string>>;
  destroy(context: Record<string, string>, stackName: string): Promise<void>;
}

/** Runs `npx cdk …` with the region in the environment, its output on this terminal. */
export function cdkCli(region: string, workingDirectory = process.cwd()): CdkRunner {
  const run = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn('npx', ['cdk', ...args, '--no-notices'], {
        cwd: workingDirectory,
        stdio: ['inherit', 'inherit', 'inherit'],
        env: { ...process.env, AWS_REGION: region, CDK_DEFAULT_REGION: region, CDK_DISABLE_VERSION_CHECK: '1' },
      });
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cdk ${args[0]} exited with ${code}`))));
    });
  const contextArgs = (context: Record<string, string>) =>
    Object.entries(context).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  return {
    async synth(context, outputDir, stackName) {
      await run(['synth', '--quiet', '-o', outputDir, ...contextArgs(context)]);
      return JSON.parse(readFileSync(join(outputDir, `${stackName}.template.json`), 'utf8')) as StackTemplate;
    },
    diff: (outputDir, stackName) => run(['diff', '--app', outputDir, stackName]),
    async deploy(outputDir, stackName) {
      const outputsFile = join(outputDir, 'outputs.json');
      await run([
        'deploy',
        '--app',
        outputDir,
        stackName,
        '--require-approval',
        'never',
        '--outputs-file',
        outputsFile,
      ]);
      const outputs = JSON.parse(readFileSync(outputsFile, 'utf8')) as Record<string, Record<string, string>>;
      return outputs[stackName] ?? {};
    },
    destroy: (context, stackName) => run(['destroy', stackName, '--force', ...contextArgs(context)]),
  };
}
