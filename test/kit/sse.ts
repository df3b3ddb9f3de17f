// Reads a GraphQL subscription over Server-Sent Events with plain fetch, collecting `next` payloads.

export async function sseReader(url: string, key: string, query: string, variables?: Record<string, unknown>) {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query, variables }),
    signal: controller.signal,
  });
  const events: any[] = [];
  let ended = false;
  let buffer = '';
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let split;
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === 'next' && data) events.push(JSON.parse(data));
          if (event === 'complete') ended = true;
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return { status: res.status, contentType: res.headers.get('content-type'), events, isEnded: () => ended, close: () => controller.abort(), reading };
}

export type SseReader = Awaited<ReturnType<typeof sseReader>>;
