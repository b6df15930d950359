// Shareable addresses: a game line (ruleset, options, start, moves, the ply shown) in the page's
// address, so that a copied link reopens the same position.
//
//   #analyse?ruleset=raumschach&start=…&moves=Dc2Cc2+Bc4Cc4&ply=1
//   #play?ruleset=fiveup&moves=…&opponent=ab%3Atime%3D0.5&side=white&clock=300%2B3
//
// The query is URLSearchParams' form encoding (with `/ : = , >` left as they are): moves are separated by spaces (written '+'),
// `start` is left out for the standard start, the 5x5x5 options appear only when on, `ply` only
// when an earlier position is shown. Unknown keys are ignored (a link from a newer page still
// opens); a bad position or move is the server's one-line error, as if typed.

/** The query of a game line `spec` (GameSpec) showing `ply`, with `extra` keys (in order). */
export function lineQuery(spec, ply, extra = {}) {
  const q = new URLSearchParams();
  q.set('ruleset', spec.ruleset || 'fiveup');
  if (spec.castling) q.set('castling', '1');
  if (spec.hypercylinder) q.set('hypercylinder', '1');
  if (spec.start && spec.start !== 'startpos') q.set('start', spec.start);
  if (spec.moves && spec.moves.length) q.set('moves', spec.moves.join(' '));
  if (ply !== null && ply !== undefined && spec.moves && ply < spec.moves.length) q.set('ply', String(ply));
  for (const [k, v] of Object.entries(extra)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  return readable(q.toString());
}

/** Form encoding with the characters a fragment may hold unescaped left readable (`/ : = , >`). */
function readable(query) {
  return query.replace(/%(2F|3A|3D|2C|3E)/gi, (m) => decodeURIComponent(m));
}

/**
 * Reads a query written by lineQuery: `{spec, ply, params}` (ply null: the end of the line), or
 * null when the query names no game (no `ruleset`, `start` or `moves`).
 */
export function parseLineQuery(query) {
  const q = new URLSearchParams(query || '');
  if (!q.has('ruleset') && !q.has('start') && !q.has('moves')) return null;
  const flag = (k) => ['1', 'true', 'yes', 'on'].includes((q.get(k) || '').toLowerCase());
  const spec = {
    ruleset: q.get('ruleset') || 'fiveup',
    castling: flag('castling'),
    hypercylinder: flag('hypercylinder'),
    start: (q.get('start') || '').trim() || 'startpos',
    moves: (q.get('moves') || '').split(/[\s,]+/).filter(Boolean),
  };
  const plyText = q.get('ply');
  const ply = plyText !== null && /^\d+$/.test(plyText) ? Number(plyText) : null;
  return { spec, ply, params: q };
}

/** The page's address for `route` with `query`; the current one is replaced (no history entry, no hashchange). */
export function setAddress(route, query) {
  const hash = `#${route}${query ? `?${query}` : ''}`;
  if (location.hash === hash) return;
  // only an address of the same page is replaced: one the user has just gone to (its hashchange
  // not handled yet) is left alone
  const shown = location.hash.replace(/^#/, '').split(/[?/]/)[0] || 'play';
  if (shown !== route.split('/')[0]) return;
  try {
    history.replaceState(history.state, '', hash);
  } catch {
    /* a sandboxed page may refuse: the address just stays */
  }
}

/** The whole address (for copying) of `route` with `query`. */
export function addressOf(route, query) {
  return `${location.origin}${location.pathname}#${route}${query ? `?${query}` : ''}`;
}
