// The server's HTTP and WebSocket API (docs/api.md). Every failure becomes an Error
// whose message is the server's own `error` text, with its stable `code` and `params`
// (i18n.js `errorText` renders them in the page language).

async function request(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!response.ok) {
    const error = new Error(data?.error || `HTTP ${response.status}`);
    error.status = response.status;
    error.code = data?.code;
    error.params = data?.params || {};
    throw error;
  }
  return data;
}

export const catalog = () => request('GET', '/api/catalog');
/** Game summaries; `query` holds any of status, game, ids (an array), limit, offset. */
export function listGames(query) {
  const params = new URLSearchParams({ limit: 30 });
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, Array.isArray(value) ? value.join(',') : value);
  }
  return request('GET', `/api/games?${params}`);
}
export const createGame = (body) => request('POST', '/api/games', body);
export const importGame = (body) => request('POST', '/api/games/import', body);
export const gameState = (id) => request('GET', `/api/games/${encodeURIComponent(id)}`);
export const positionAt = (id, ply) => request('GET', `/api/games/${encodeURIComponent(id)}/positions/${ply}`);
export const playMove = (id, token, move) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/moves`, { move }, token);
/** A seat action: takeback, takeback/accept, resign, draw/offer, draw/claim, ... */
export const act = (id, token, action) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/${action}`, undefined, token);
/** A position's board, legal moves and move list (`POST /api/positions`). */
export const position = (body) => request('POST', '/api/positions', body);
/**
 * The engine's evaluation and best lines of a position (`POST /api/analyse`); `token`
 * is the seat this browser holds in the analysed game, if any (its players get no
 * engine while it goes on).
 */
export const analyse = (body, token) => request('POST', '/api/analyse', body, token);
export const exportUrl = (id) => `/api/games/${encodeURIComponent(id)}/export`;

/**
 * Watches a game: `onState(state)` on connect and after every change, `onStatus(ok)`
 * when the connection drops or comes back. Reconnects with a growing delay. Returns a
 * function that closes it for good.
 */
export function watch(id, onState, onStatus) {
  let socket = null;
  let closed = false;
  let delay = 500;
  let timer = null;
  const open = () => {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/ws`);
    socket.onopen = () => {
      delay = 500;
      onStatus(true);
    };
    socket.onmessage = (event) => {
      try {
        const data = JSON.parse(event.data);
        if (data?.id) onState(data);
      } catch {
        // A message that is not JSON: ignore it.
      }
    };
    socket.onclose = () => {
      if (closed) return;
      onStatus(false);
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  open();
  return () => {
    closed = true;
    clearTimeout(timer);
    if (socket) socket.close();
  };
}

/** The players whose names contain `search` (all when empty), in registration order. */
export const players = (search) =>
  request('GET', search ? `/api/players?search=${encodeURIComponent(search)}` : '/api/players');
/** Standings of one game kind (with ratings), or overall when `game` is empty. */
export const standings = (game) =>
  request('GET', game ? `/api/players/standings?game=${encodeURIComponent(game)}` : '/api/players/standings');
/** Imports a `Name_Won_Lost;` player file whole, or nothing (the error names the record). */
/** Importing and deleting players needs the administrator's token (`--admin-token`). */
export const importPlayers = (text, adminToken) => request('POST', '/api/players/import', { text }, adminToken);
export const deletePlayer = (name, adminToken) =>
  request('DELETE', `/api/players/${encodeURIComponent(name)}`, undefined, adminToken);

/** The address of a report (`board`, `linear`, `players`, `top10`) as `format` (dot or svg). */
export function reportUrl(kind, params, format) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  query.set('format', format);
  return `/api/reports/${encodeURIComponent(kind)}?${query}`;
}

/** A report's SVG text; a refused report throws the server's error text. */
export async function reportSvg(kind, params) {
  const response = await fetch(reportUrl(kind, params, 'svg'));
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = JSON.parse(text).error || text;
    } catch {
      // Not JSON: the text itself.
    }
    throw new Error(message || `HTTP ${response.status}`);
  }
  return text;
}
