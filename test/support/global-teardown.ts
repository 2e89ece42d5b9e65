export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamoDbLocal__?: { stop(): Promise<void> } }).__dynamoDbLocal__?.stop();
}
