// What the pages share: the catalog's sides, seat tokens kept on this device, side
// names, outcome texts and the screen-reader announcements.
import { t } from './i18n.js';

const SEATS = 'tablero.seats';
let catalog = { games: [] };

export function setCatalog(value) {
  catalog = value;
}

export function games() {
  return catalog.games;
}

/** The two side names of a game, the first side first. */
export function sidesOf(game) {
  const info = catalog.games.find((g) => g.id === game);
  return info ? info.sides : game === 'xiangqi' ? ['red', 'black'] : ['white', 'black'];
}

export function sideLabel(side) {
  return t(`side.${side}`);
}

function allSeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS) || '{}') || {};
  } catch {
    return {};
  }
}

/** The seat tokens this device holds for a game: {side: token}. */
export function seatsOf(id) {
  return allSeats()[id] || {};
}

/** The ids of the games this device holds a seat of, the latest `most` of them. */
export function seatGameIds(most) {
  return Object.keys(allSeats()).slice(-most);
}

export function saveSeats(id, seats) {
  const all = allSeats();
  all[id] = { ...(all[id] || {}), ...seats };
  localStorage.setItem(SEATS, JSON.stringify(all));
}

/** The reason of an outcome in the current language, e.g. "Red is checkmated". */
export function reasonText(outcome, sides) {
  if (!outcome) return '';
  const winner = outcome.winner;
  const loser = winner ? sides.find((x) => x !== winner) : null;
  const params = { winner: winner ? t(`side.${winner}`) : '', loser: loser ? t(`side.${loser}`) : '' };
  const drawKey = `reason.${outcome.reason}.draw`;
  const key = !winner && t(drawKey) !== drawKey ? drawKey : `reason.${outcome.reason}`;
  const text = t(key, params);
  return text === key ? outcome.text : text;
}

/** The address of the rules page of `game`, at the rules of `variant` where they differ. */
export function rulesPath(game, variant) {
  return variant && game === 'draughts' ? `/rules/${game}?variant=${encodeURIComponent(variant)}` : `/rules/${game}`;
}

/** Says `text` to screen readers through the page's live region. */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  // A fresh node so that the same text twice is read twice.
  setTimeout(() => {
    region.textContent = text;
  }, 30);
}
