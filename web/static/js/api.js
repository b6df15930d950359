// The HTTP API of `fiveup serve` (docs/WEB.md): JSON requests and the search event stream.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function failure(r) {
  let msg = `${r.status} ${r.statusText}`;
  try {
    const text = await r.text();
    try {
      const j = JSON.parse(text);
      if (j && j.error) msg = j.error;
    } catch {
      if (text.trim()) msg = text.trim().split('\n')[0];
    }
  } catch { /* body unreadable: keep the status line */ }
  return new ApiError(msg, r.status);
}

/** GET (body undefined) or POST JSON (or text/plain with {text: true}); returns the parsed JSON. */
export async function api(path, body, { signal, text = false } = {}) {
  const opts = body === undefined ? { signal } : {
    method: 'POST',
    headers: { 'content-type': text ? 'text/plain; charset=utf-8' : 'application/json' },
    body: text ? body : JSON.stringify(body),
    signal,
  };
  const r = await fetch(path, opts);
  if (!r.ok) throw await failure(r);
  return r.json();
}

/**
 * POST /api/search and call onEvent(name, data) for every event of the text/event-stream.
 * Resolves when the stream ends; abort `signal` to stop the search.
 */
export async function searchStream(body, signal, onEvent) {
  const r = await fetch('/api/search', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!r.ok) throw await failure(r);
  const reader = r.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  const dispatch = (block) => {
    let event = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      let value = i < 0 ? '' : line.slice(i + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (!data.length) return;
    let parsed;
    try { parsed = JSON.parse(data.join('\n')); } catch { parsed = data.join('\n'); }
    onEvent(event, parsed);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      dispatch(buf.slice(0, i));
      buf = buf.slice(i + 2);
    }
  }
  if (buf.trim()) dispatch(buf);
}
