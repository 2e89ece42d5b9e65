/**
 * `npm run webhook-receiver -- --port 4000 --secret whsec_…`: a webhook endpoint for trying
 * events locally. It checks each delivery's signature with the typed client's helper, prints
 * the event, and answers 200 (or 400 when the signature does not verify).
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { WebhookSignatureError, constructWebhookEvent } from '../../lib/client/webhook-signature';

const { values } = parseArgs({ options: { port: { type: 'string' }, secret: { type: 'string' } }, strict: true });
const port = Number(values.port ?? 4000);
const secret = values.secret ?? process.env.WEBHOOK_SECRET;
if (!secret || !Number.isInteger(port)) {
  console.error('Usage: npm run webhook-receiver -- --port N --secret whsec_…   (or WEBHOOK_SECRET=whsec_…)');
  process.exit(2);
}

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    try {
      const event = constructWebhookEvent(body, request.headers['groupshoot-signature'] as string | undefined, secret);
      console.log(`${event.createdAt}  ${event.type.padEnd(18)} ${event.id}  ${JSON.stringify(event.data)}`);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
    } catch (error) {
      const reason = error instanceof WebhookSignatureError ? error.code : 'not_json';
      console.log(`refused a delivery: ${reason}`);
      response.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: reason }));
    }
  });
}).listen(port, () => console.log(`Webhook receiver on http://localhost:${port}/ (Ctrl-C stops it)`));
