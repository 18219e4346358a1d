//! UCI conversations transcribed as data (`tests/sessions/*.txt`) and replayed
//! against an in-process [`Session`] by [`tablero_testkit::transcript`], which
//! describes the format. Search progress is `info depth ...`.

use std::path::Path;

use tablero_testkit::transcript::{Protocol, replay_folder};
use tablero_uci::{Flow, Session};

const UCI: Protocol<Session> = Protocol {
    progress: "info depth ",
    start: Session::new,
    handle: |session, line| session.handle_line(line) == Flow::Quit,
};

#[test]
fn transcripts_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sessions");
    replay_folder(&UCI, &dir, 8);
}
