export default async function globalTeardown(): Promise<void> {
  const services = (globalThis as { __localServices__?: { stop(): Promise<void> }[] }).__localServices__ ?? [];
  await Promise.all(services.map((service) => service.stop()));
}
