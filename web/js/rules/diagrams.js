// The rules pages' diagrams: a small position per piece and the squares the piece
// reaches from it, worked out here from each game's move patterns so that the page
// needs no server game. A browser test sets every diagram up on the server and
// compares its dots with the server's legal moves, so the patterns cannot drift from
// the rules crates.
import { drawBoard } from '../board.js';
import { h } from '../dom.js';
import { DIAGONAL, KNIGHT, STRAIGHT } from '../pieces.js';

// Pieces as text: the kind's letter (upper case: the first side, White or Red), then
// the square — file letter and rank (chess `d4`, xiangqi `e0`, draughts `c3`), or for
// Ajedrez 3D level, row letter and column (`1D4`). The piece that moves comes first.
const D = {
  chess: {
    k: 'Kd4 kh8 Pa2',
    q: 'Qd4 Kh1 kh8 Pd6 nf6',
    r: 'Rd4 Kh1 kh8 Pd7 nf4',
    b: 'Bd4 Ka8 kh1 Pf6 nb2',
    n: 'Nd4 Kh1 kh8 Pc6',
    p: 'Pe2 Kh1 kh8 nd3 pf3',
  },
  xiangqi: {
    k: 'Ke1 ke9 ae8',
    a: 'Ae1 Ke0 kd9',
    b: 'Be2 Ke0 kd9 Nf3',
    n: 'Ne4 Ke0 kd9 Pe5',
    r: 'Re4 Kd0 kf9 pe6 Nb4',
    c: 'Ce4 Kd0 kf9 pe6 re8 Nb4 pa4',
    p: 'Pe5 Kd0 kf9',
  },
  chess3d: {
    a: 'A1D4 A1F2 D1A1 d1H8',
    t: 'T1D4 T1D8 P1F6 d1H1 D0A1',
    c: 'C1D4 P1C4 D0A1 d2H8',
    d: 'D1D4 R1C3 p1D6 d2H8',
    r: 'R1D4 D0A8 d2H1 P1F4',
    p: 'P0D4 P1D4 c0C3 c0C5 D2A1 d2H8',
  },
  // On the board of the rule set (international 10×10, else 8×8), as seen with a1 dark;
  // a1-light sets (Spanish, Italian) see it in a mirror.
  draughts: {
    m: 'Mc3 mh8',
    capture: 'Me5 md6 mf4',
    k: 'Kd4 mh2',
  },
};

/** The diagrams of `game`: their ids (`chess.k`, `draughts.capture`). */
export const diagramsOf = (game) => Object.keys(D[game] || {}).map((id) => `${game}.${id}`);

const SIZE = { chess: [8, 8, 1], xiangqi: [9, 10, 1], chess3d: [8, 8, 3] };
const draughtsSize = (variant) => (variant === 'international' ? 10 : 8);
const mirrored = (variant) => variant === 'spanish' || variant === 'italian';
const FIRST = { chess: 'white', xiangqi: 'red', chess3d: 'white', draughts: 'white' };

/** The position of diagram `id` (`variant`: the draughts rule set): {game, board, from}. */
export function diagram(id, variant = 'international') {
  const [game, name] = id.split('.');
  const [width, height, levels] = game === 'draughts' ? [draughtsSize(variant), draughtsSize(variant), 1] : SIZE[game];
  const pieces = D[game][name].split(' ').map((text) => {
    const letter = text[0];
    const side = letter === letter.toUpperCase() ? FIRST[game] : 'black';
    let at;
    if (game === 'chess3d') {
      at = [Number(text[1]), Number(text[3]) - 1, text.charCodeAt(2) - 65];
    } else {
      const x = text.charCodeAt(1) - 97;
      const rank = Number(text.slice(2));
      at = [0, game === 'draughts' && mirrored(variant) ? width - 1 - x : x, game === 'xiangqi' ? rank : rank - 1];
    }
    return { at, side, kind: letter.toLowerCase() };
  });
  return { game, variant, width, height, levels, pieces, from: pieces[0].at };
}

const inside = (d, [l, x, y]) => l >= 0 && l < d.levels && x >= 0 && x < d.width && y >= 0 && y < d.height;
const at = (d, spot) => d.pieces.find((p) => p.at[0] === spot[0] && p.at[1] === spot[1] && p.at[2] === spot[2]);

/** Squares reached by sliding (or stepping, `max` 1) from `from` in `dirs`. */
function rays(d, from, dirs, max = 99) {
  const me = at(d, from);
  const out = [];
  for (const [dx, dy] of dirs) {
    for (let i = 1; i <= max; i++) {
      const spot = [from[0], from[1] + dx * i, from[2] + dy * i];
      if (!inside(d, spot)) break;
      const other = at(d, spot);
      if (!other) {
        out.push(spot);
        continue;
      }
      if (other.side !== me.side) out.push(spot);
      break;
    }
  }
  return out;
}

const step = (from, dx, dy) => [from[0], from[1] + dx, from[2] + dy];
const empty = (d, spot) => inside(d, spot) && !at(d, spot);
const enemy = (d, spot, me) => inside(d, spot) && at(d, spot) && at(d, spot).side !== me.side;
const free = (d, spot, me) => inside(d, spot) && (!at(d, spot) || at(d, spot).side !== me.side);

function chessTargets(d, me, from) {
  switch (me.kind) {
    case 'k':
      return rays(d, from, [...STRAIGHT, ...DIAGONAL], 1);
    case 'q':
      return rays(d, from, [...STRAIGHT, ...DIAGONAL]);
    case 'r':
      return rays(d, from, STRAIGHT);
    case 'b':
      return rays(d, from, DIAGONAL);
    case 'n':
      return KNIGHT.map(([x, y]) => step(from, x, y)).filter((s) => free(d, s, me));
    default: {
      const out = [];
      const one = step(from, 0, 1);
      if (empty(d, one)) {
        out.push(one);
        const two = step(from, 0, 2);
        if (from[2] === 1 && empty(d, two)) out.push(two);
      }
      return [...out, ...[-1, 1].map((x) => step(from, x, 1)).filter((s) => enemy(d, s, me))];
    }
  }
}

function xiangqiTargets(d, me, from) {
  const red = me.side === 'red';
  const inPalace = ([, x, y]) => x >= 3 && x <= 5 && (red ? y <= 2 : y >= 7);
  const ownHalf = ([, , y]) => (red ? y <= 4 : y >= 5);
  switch (me.kind) {
    case 'k':
      return rays(d, from, STRAIGHT, 1).filter(inPalace);
    case 'a':
      return rays(d, from, DIAGONAL, 1).filter(inPalace);
    case 'b':
      return DIAGONAL.filter(([x, y]) => empty(d, step(from, x, y)))
        .map(([x, y]) => step(from, 2 * x, 2 * y))
        .filter((s) => free(d, s, me) && ownHalf(s));
    case 'n':
      return KNIGHT.filter(([x, y]) =>
        empty(d, step(from, Math.abs(x) === 2 ? x / 2 : 0, Math.abs(y) === 2 ? y / 2 : 0)),
      )
        .map(([x, y]) => step(from, x, y))
        .filter((s) => free(d, s, me));
    case 'r':
      return rays(d, from, STRAIGHT);
    case 'c': {
      const out = [];
      for (const [dx, dy] of STRAIGHT) {
        let screen = false;
        for (let spot = step(from, dx, dy); inside(d, spot); spot = step(spot, dx, dy)) {
          const other = at(d, spot);
          if (!screen) {
            if (other) screen = true;
            else out.push(spot);
          } else if (other) {
            if (other.side !== me.side) out.push(spot);
            break;
          }
        }
      }
      return out;
    }
    default: {
      const ahead = red ? 1 : -1;
      const sideways = ownHalf(from) ? [] : [step(from, 1, 0), step(from, -1, 0)];
      return [step(from, 0, ahead), ...sideways].filter((s) => free(d, s, me));
    }
  }
}

// Single captures only: the diagrams leave no second capture to make.
function draughtsTargets(d, me, from) {
  const flying = !['english', 'italian'].includes(d.variant);
  const backward = ['international', 'brazilian', 'russian'].includes(d.variant);
  const ahead = me.side === 'white' ? 1 : -1;
  const captures = [];
  for (const [dx, dy] of DIAGONAL) {
    if (me.kind === 'm' && dy !== ahead && !backward) continue;
    let spot = step(from, dx, dy);
    if (me.kind === 'k' && flying) while (empty(d, spot)) spot = step(spot, dx, dy);
    if (!enemy(d, spot, me)) continue;
    for (let land = step(spot, dx, dy); empty(d, land); land = step(land, dx, dy)) {
      captures.push(land);
      if (me.kind === 'm' || !flying) break;
    }
  }
  if (captures.length) return captures;
  if (me.kind === 'k') return rays(d, from, DIAGONAL, flying ? 99 : 1).filter((s) => !at(d, s));
  return [-1, 1].map((x) => step(from, x, ahead)).filter((s) => empty(d, s));
}

function chess3dTargets(d, me, from) {
  const [level, x, y] = from;
  const own = (kind) => d.pieces.filter((p) => p.side === me.side && p.kind === kind && p.at[0] === level && p !== me);
  let same;
  let changesLevel;
  switch (me.kind) {
    case 'a':
      same = rays(d, from, STRAIGHT);
      changesLevel = own('a').some((p) => Math.abs(p.at[1] - x) === Math.abs(p.at[2] - y));
      break;
    case 't':
      same = rays(d, from, DIAGONAL);
      changesLevel = own('t').some((p) => p.at[1] === x || p.at[2] === y);
      break;
    case 'r':
      same = rays(d, from, [...STRAIGHT, ...DIAGONAL]);
      changesLevel = true;
      break;
    case 'd':
      same = [...STRAIGHT, ...DIAGONAL]
        .flatMap(([dx, dy]) => [step(from, dx, dy), step(from, 2 * dx, 2 * dy)])
        .filter((s) => free(d, s, me));
      changesLevel = own('r').some((p) => Math.max(Math.abs(p.at[1] - x), Math.abs(p.at[2] - y)) === 1);
      break;
    case 'c':
      // The long leg first: both of its squares must be empty.
      same = KNIGHT.filter(([dx, dy]) => {
        const long = Math.abs(dx) === 2 ? [Math.sign(dx), 0] : [0, Math.sign(dy)];
        return empty(d, step(from, ...long)) && empty(d, step(from, 2 * long[0], 2 * long[1]));
      })
        .map(([dx, dy]) => step(from, dx, dy))
        .filter((s) => free(d, s, me));
      changesLevel = false;
      break;
    default: {
      const ahead = me.side === 'white' ? 1 : -1;
      const start = me.side === 'white' ? 1 : 6;
      const stacked = d.pieces.some(
        (p) => p.side === me.side && p.kind === 'p' && p.at[0] !== level && p.at[1] === x && p.at[2] === y,
      );
      same = [step(from, 0, ahead)].filter((s) => empty(d, s));
      if (stacked && y !== start) same.push(...[-1, 1].map((dx) => step(from, dx, ahead)).filter((s) => empty(d, s)));
      same.push(...[-1, 1].map((dx) => step(from, dx, -ahead)).filter((s) => enemy(d, s, me)));
      changesLevel = false;
    }
  }
  const levelMoves = changesLevel ? [level - 1, level + 1].map((l) => [l, x, y]).filter((s) => empty(d, s)) : [];
  return [...same, ...levelMoves];
}

const TARGETS = { chess: chessTargets, xiangqi: xiangqiTargets, draughts: draughtsTargets, chess3d: chess3dTargets };

/** The spots the first piece of diagram `d` reaches. */
export function targetsOf(d) {
  return TARGETS[d.game](d, d.pieces[0], d.from);
}

const CHESS_FEN = { k: 'k', q: 'q', r: 'r', b: 'b', n: 'n', p: 'p' };

/**
 * The diagram's position in its game's notation, the moving piece's side to move:
 * chess and xiangqi FEN, the Ajedrez 3D position string, or PDN with `numberOf(spot)`
 * naming draughts squares (the server's numbering).
 */
export function positionText(d, numberOf) {
  const mover = d.pieces[0].side;
  const rows = (level) => {
    const lines = [];
    for (let y = d.height - 1; y >= 0; y--) {
      let line = '';
      let gap = 0;
      for (let x = 0; x < d.width; x++) {
        const p = at(d, [level, x, y]);
        if (!p) {
          gap++;
          continue;
        }
        if (gap) line += gap;
        gap = 0;
        const letter = CHESS_FEN[p.kind] || p.kind;
        line += p.side === 'black' ? letter : letter.toUpperCase();
      }
      lines.push(line + (gap ? gap : ''));
    }
    return lines.join('/');
  };
  if (d.game === 'chess') return `${rows(0)} ${mover === 'white' ? 'w' : 'b'} - - 0 1`;
  if (d.game === 'xiangqi') return `${rows(0)} ${mover === 'red' ? 'w' : 'b'} - - 0 1`;
  if (d.game === 'chess3d')
    return `${[0, 1, 2].map(rows).join('|')} ${mover === 'white' ? 'w' : 'b'} 0 1 0000000000000000`;
  const side = (s) =>
    d.pieces
      .filter((p) => p.side === s)
      .map((p) => `${p.kind === 'k' ? 'K' : ''}${numberOf(p.at)}`)
      .join(',');
  return `${mover === 'white' ? 'W' : 'B'}:W${side('white')}:B${side('black')}`;
}

const letters = (n, from) => Array.from({ length: n }, (_, i) => String.fromCharCode(from + i));

/**
 * The drawing of diagram `d` with dots on `targets`: the board code of the game page,
 * as a picture (`label` names it). Ajedrez 3D shows the level of the piece and the
 * levels it can move to.
 */
export function drawDiagram(d, targets, label, levelLabel) {
  const [cols, rows] =
    d.game === 'chess3d'
      ? [letters(8, 49), letters(8, 65)]
      : [letters(d.width, 97), Array.from({ length: d.height }, (_, i) => String(d.game === 'xiangqi' ? i : i + 1))];
  const names = Array.from({ length: d.levels }, (_, l) =>
    rows.map((row) => cols.map((col) => (d.game === 'chess3d' ? `${l}${row}${col}` : `${col}${row}`))),
  );
  const board = {
    width: d.width,
    height: d.height,
    levels: d.levels,
    pieces: d.pieces,
    check: null,
    numbers: [],
    column_labels: cols,
    row_labels: rows,
    names,
  };
  const svgs = drawBoard({
    game: d.game,
    board,
    flipped: false,
    xiangqiStyle: 'chinese',
    chess3dStyle: 'moves',
    selected: d.from,
    focus: null,
    targets,
    marks: [],
    last: null,
    label,
    levelLabel,
    describe: () => '',
  });
  const used = new Set([d.from[0], ...targets.map((s) => s[0])]);
  const figures = svgs
    .map((svg, level) => {
      // A picture, not a grid to play on.
      svg.querySelector('.hits')?.remove();
      svg.setAttribute('role', 'img');
      svg.removeAttribute('aria-describedby');
      return d.levels > 1 ? h('figure', { class: 'level' }, h('figcaption', {}, levelLabel(level)), svg) : svg;
    })
    .filter((_, level) => used.has(level));
  return h('div', { class: `diagram diagram-${d.game}`, 'data-diagram': `${d.game}` }, figures);
}
