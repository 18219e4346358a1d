// The game page's input: presses and drags on the board, its keys, the move box, the
// buttons (as `intents`), and the game's states from the API and the WebSocket. Each
// changes the page state, then has the view draw it again.
import * as api from '../api.js';
import { attachPointer, neighbour, same, spotName } from '../board.js';
import { announce, sideLabel } from '../common.js';
import { errorText, t } from '../i18n.js';
import { play as playSound } from '../sound.js';
import {
  actingSide,
  annotate,
  canMove,
  cancelPremove,
  clearSelection,
  isFlipped,
  last,
  lastMover,
  movesFrom,
  notationOf,
  otherSide,
  outcomeText,
  premovable,
  press,
  receive,
  shownBoard,
  shownPly,
  takePremove,
  tokenFor,
} from './state.js';

const ARROWS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

/**
 * The controller of `page` drawn by `view`. Once `signal` is aborted (the page is
 * left) its listeners are gone and late answers of the server are dropped.
 */
export function createController(page, view, signal) {
  const render = () => view.render(page, intents);

  function apply(state) {
    if (signal.aborted) return;
    const change = receive(page, state);
    if (!change) return;
    if (change.changed) view.closeOverlay();
    if (change.moved) {
      const move = last(state.moves);
      announce(t('announce.move', { side: sideLabel(lastMover(page)), move: notationOf(page, move) }));
    }
    if (change.ended) {
      announce(t('announce.over', { text: outcomeText(page) }));
      playSound('end');
    } else if (change.moved) {
      playSound(state.board.check ? 'check' : state.last_move?.captures.length ? 'capture' : 'move');
    }
    if (change.offered) playSound('offer');
    const premove = takePremove(page);
    render();
    if (premove) sendMove(premove.move, { quiet: true });
  }

  function refused(error, text = t('error.prefix', { message: errorText(error) })) {
    page.message = text;
    render();
  }

  /**
   * Plays `text` (the move format or notation) for the side to move; true if played.
   * A `quiet` move (a premove) that the server refuses all the same, as when the
   * opponent's clock ran out meanwhile, goes without a word.
   */
  async function sendMove(text, { quiet = false } = {}) {
    if (page.state?.status !== 'playing') return false;
    const token = tokenFor(page, page.state.turn);
    if (!token) return false;
    try {
      const state = await api.playMove(page.id, token, text);
      page.message = '';
      page.notice = null;
      apply(state);
      return true;
    } catch (error) {
      if (!quiet) refused(error);
      return false;
    }
  }

  function play(hint) {
    clearSelection(page);
    view.closeOverlay();
    sendMove(hint.move);
  }

  function pressSpot(spot) {
    const outcome = press(page, spot);
    if (!outcome) return;
    if (outcome.play) play(outcome.play);
    else if (outcome.promote) view.showPromotion(page, outcome.promote, intents);
    else {
      // A press that refuses says why; any other clears what the last one said.
      const board = page.state.board;
      page.message = outcome.mustCapture
        ? t('draughts.mustCapture', { squares: outcome.mustCapture.map((spot) => spotName(board, spot)).join(', ') })
        : '';
      render();
    }
  }

  async function review(ply) {
    if (!page.state) return;
    if (ply >= page.state.moves.length) {
      page.review = null;
      render();
      return;
    }
    try {
      page.review = await api.positionAt(page.id, ply);
      page.selected = null;
      render();
    } catch (error) {
      refused(error, errorText(error));
    }
  }

  /** What the page's buttons do. */
  const intents = {
    play,
    review,
    async act(action) {
      const side = actingSide(page);
      if (!side) return;
      try {
        const state = await api.act(page.id, tokenFor(page, side), action);
        page.message = '';
        page.notice = null;
        page.confirmResign = false;
        apply(state);
      } catch (error) {
        refused(error);
      }
    },
    // An offer or request of the opponent is answered by the other seat.
    async answer(action, fromSide) {
      const token = tokenFor(page, otherSide(page, fromSide));
      if (!token) return;
      try {
        apply(await api.act(page.id, token, action));
      } catch (error) {
        refused(error);
      }
    },
    flip() {
      page.flip = !page.flip;
      render();
    },
    confirmResign(asking) {
      page.confirmResign = asking;
      render();
    },
    cancelChoice() {
      clearSelection(page);
      render();
    },
    cancelPromotion() {
      view.closeOverlay();
      page.selected = null;
      render();
    },
    setAutoflip(on) {
      page.autoflip = on;
      localStorage.setItem('tablero.autoflip', on ? 'on' : 'off');
      render();
    },
    setChineseNotation(on) {
      page.chineseNotation = on;
      localStorage.setItem('tablero.xiangqiNotation', on ? 'chinese' : 'wxf');
      render();
    },
    setFileNumbers(on) {
      page.fileNumbers = on;
      localStorage.setItem('tablero.xiangqiFiles', on ? 'on' : 'off');
      render();
    },
    setChess3dStyle(style) {
      page.chess3dStyle = style;
      localStorage.setItem('tablero.chess3dPieces', style);
      render();
    },
    showLevel(level) {
      page.level = level;
      render();
    },
    closeBanner() {
      page.bannerClosed = true;
      render();
    },
    setXiangqiStyle(style) {
      page.xiangqiStyle = style;
      localStorage.setItem('tablero.xiangqiPieces', style);
      render();
    },
  };

  // The arrows review the game, Escape drops a half-chosen move or the premove; not
  // while typing, nor on the board, whose arrows move between squares.
  function onDocumentKey(event) {
    if (!page.state || event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    if (event.key === 'Escape') {
      view.closeOverlay();
      clearSelection(page);
      cancelPremove(page);
      render();
      return;
    }
    if (event.target instanceof Element && event.target.closest('[data-spot]')) return;
    const total = page.state.moves.length;
    const ply = shownPly(page);
    if (event.key === 'ArrowLeft') review(Math.max(0, ply - 1));
    else if (event.key === 'ArrowRight') review(Math.min(total, ply + 1));
  }

  // The keyboard on the board: the arrows move the focus over the squares, Enter or
  // Space presses the focused one (select, then play), Page Up/Down change level.
  function onBoardKey(event) {
    const hit = event.target instanceof Element && event.target.closest('[data-spot]');
    if (!hit || !page.state) return;
    const spot = hit.getAttribute('data-spot').split(',').map(Number);
    const board = shownBoard(page);
    let next = null;
    if (ARROWS[event.key]) {
      next = neighbour(spot, ARROWS[event.key], board, isFlipped(page));
    } else if ((event.key === 'PageUp' || event.key === 'PageDown') && board.levels > 1) {
      const level = Math.min(board.levels - 1, Math.max(0, spot[0] + (event.key === 'PageUp' ? 1 : -1)));
      next = [level, spot[1], spot[2]];
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      pressSpot(spot);
      return;
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    page.focus = next;
    view.focusCell(next);
  }

  function onSubmit(event) {
    event.preventDefault();
    const text = view.input.value.trim();
    if (!text) return;
    // Cleared at once, so the next move can be typed while this one is on its way;
    // a refused move comes back to be corrected unless something new was typed.
    view.input.value = '';
    sendMove(text).then((ok) => {
      if (!ok && !view.input.value) view.input.value = text;
    });
  }

  /** Listens to the board, the move box and the document's keys until `signal`. */
  function listen() {
    view.form.addEventListener('submit', onSubmit, { signal });
    document.addEventListener('keydown', onDocumentKey, { signal });
    view.boards.addEventListener('keydown', onBoardKey, { signal });
    attachPointer(
      view.boards,
      {
        press: pressSpot,
        drop: (from, to) => {
          if (!same(page.selected || page.premoveFrom, from)) pressSpot(from);
          pressSpot(to);
        },
        canDrag: (spot) => (canMove(page) && movesFrom(page, spot).length > 0) || premovable(page, spot),
        annotate: (from, to) => {
          annotate(page, from, to);
          render();
        },
        clear: () => {
          if (!page.annotations.length) return;
          page.annotations = [];
          render();
        },
      },
      signal,
    );
  }

  /** Loads the game and follows it over the WebSocket; answers the function that
   * closes the socket. */
  function watch() {
    const stop = api.watch(page.id, apply, (connected) => {
      page.connected = connected;
      view.renderStatus(page, intents);
    });
    api.gameState(page.id).then(apply, (error) => {
      if (signal.aborted) return;
      view.showError(error.status === 404 ? t('game.notFound') : errorText(error));
      stop();
    });
    api.positionAt(page.id, 0).then(
      (start) => {
        if (signal.aborted) return;
        page.startBoard = start.board;
        render();
      },
      () => {},
    );
    return stop;
  }

  return { render, listen, watch };
}
