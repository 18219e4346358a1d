// The game page: the board, the players and clocks, the move list with review, the
// move box, the buttons, offers and the game-over banner; live over the WebSocket.
// It wires the parts in game/: the state, the view that draws it and the controller
// that changes it.
import { createController } from './game/controller.js';
import { createPage } from './game/state.js';
import { createView } from './game/view.js';
import { onLangChange } from './i18n.js';

/** Shows game `id` in `root`; answers the function that takes the page down. */
export function gamePage(root, id) {
  const page = createPage(id);
  const view = createView(root);
  const leaving = new AbortController();
  const controller = createController(page, view, leaving.signal);
  controller.listen();
  const stopWatching = controller.watch();
  const clock = setInterval(() => view.tick(page), 100);
  const stopLanguage = onLangChange(controller.render);

  // Leaving the page: the listeners, the socket, the clock timer and the language
  // listener go with it, and answers still on their way are dropped.
  return function unmount() {
    leaving.abort();
    stopWatching();
    clearInterval(clock);
    stopLanguage();
  };
}
