//! The input and output of a text-protocol engine (UCI, Hub): commands read one a
//! line, answers written and flushed one a line from a writer thread, so that a
//! search thread can answer while the next command is being read.

use std::io::{BufRead, Write};
use std::sync::mpsc::{Sender, channel};

/// Holds a conversation: a session made by `start` (answering through the sender
/// it is given) gets every line of `input` through `handle` until `handle` says
/// the conversation is over (`true`, a `quit`) or the input ends, when
/// `end_of_input` gets the session. Every answer is written to `output` and
/// flushed; this returns once the last one is written.
///
/// Bytes that are not UTF-8 make a malformed line for the session to refuse,
/// never an error.
///
/// ```
/// use tablero_games::converse;
///
/// let mut output = Vec::new();
/// converse(
///     &b"ping\nquit\nnever read\n"[..],
///     &mut output,
///     |out| out,
///     |out, line| {
///         let _ = out.send(format!("got {}", line.trim()));
///         line.trim() == "quit"
///     },
///     |_| {},
/// )
/// .unwrap();
/// assert_eq!(output, b"got ping\ngot quit\n");
/// ```
///
/// # Errors
///
/// Reading `input` or writing `output` failed.
pub fn converse<S>(
    input: impl BufRead,
    output: impl Write + Send,
    start: impl FnOnce(Sender<String>) -> S,
    mut handle: impl FnMut(&mut S, &str) -> bool,
    end_of_input: impl FnOnce(S),
) -> std::io::Result<()> {
    let (sender, receiver) = channel::<String>();
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> std::io::Result<()> {
            let mut output = output;
            for line in receiver {
                writeln!(output, "{line}")?;
                output.flush()?;
            }
            Ok(())
        });
        let read = (|| -> std::io::Result<()> {
            let mut input = input;
            let mut session = start(sender);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                if input.read_until(b'\n', &mut bytes)? == 0 {
                    break;
                }
                let line = String::from_utf8_lossy(&bytes);
                if handle(&mut session, &line) {
                    return Ok(());
                }
            }
            end_of_input(session);
            Ok(())
        })();
        // The session and its sender are dropped: the writer ends after the last line.
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the output thread panicked")));
        read.and(written)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_of_input_reaches_the_session_and_bad_bytes_are_a_line() {
        let mut output = Vec::new();
        converse(
            &b"a\n\xff\xfe\nlast without newline"[..],
            &mut output,
            |out| out,
            |out, line| {
                let _ = out.send(format!("[{}]", line.trim_end()));
                false
            },
            |out| {
                let _ = out.send("end".to_owned());
            },
        )
        .expect("in-memory input and output");
        assert_eq!(
            String::from_utf8(output).expect("UTF-8 answers"),
            "[a]\n[\u{fffd}\u{fffd}]\n[last without newline]\nend\n"
        );
    }

    struct Failing;

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_is_an_error() {
        let result = converse(
            &b"x\n"[..],
            Failing,
            |out| out,
            |out, line| {
                let _ = out.send(line.to_owned());
                false
            },
            |_| {},
        );
        assert!(result.is_err());
    }
}
