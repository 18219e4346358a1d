//! `tablero serve` as a child process, and a plain HTTP/1.1 client for it: shared by
//! the tests that kill and restart the server.
// Each test file uses the part it needs.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// A running `tablero serve`.
pub(crate) struct Server {
    child: Child,
    pub(crate) addr: String,
}

impl Server {
    /// Starts the server on `db` with one engine thread, and waits until it listens.
    pub(crate) fn start(db: &Path) -> Server {
        Server::start_with(db, &[], &[], Stdio::null())
            .unwrap_or_else(|e| panic!("the server did not start: {e}"))
    }

    /// Starts the server on `db` with `args` and `env` added; its standard error goes
    /// to `stderr`. The error is what it printed when it did not start.
    pub(crate) fn start_with(
        db: &Path,
        args: &[&str],
        env: &[(&str, &str)],
        stderr: Stdio,
    ) -> Result<Server, String> {
        Server::start_on(&format!("sqlite://{}", db.display()), args, env, stderr)
    }

    /// Starts the server on the database at `url` (SQLite or PostgreSQL), as
    /// [`Server::start_with`].
    pub(crate) fn start_on(
        url: &str,
        args: &[&str],
        env: &[(&str, &str)],
        stderr: Stdio,
    ) -> Result<Server, String> {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tablero"));
        command
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--engine-threads",
                "1",
                "--db",
            ])
            .arg(url)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(stderr);
        // The tests send bursts far above a person's pace from one address.
        for flag in ["--limit-creates", "--limit-moves"] {
            if !args.contains(&flag) {
                command.args([flag, "off"]);
            }
        }
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("the binary runs");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        let Some(Ok(first)) = lines.next() else {
            let status = child.wait().expect("reaped");
            return Err(format!("it printed nothing and ended with {status}"));
        };
        let addr = first
            .strip_prefix("tablero listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
            .to_owned();
        let second = lines.next().expect("a second line").expect("text");
        assert!(second.starts_with("database: "), "{second}");
        Ok(Server { child, addr })
    }

    /// Sends one request and reads the whole answer: status and JSON body.
    pub(crate) fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        send(&self.addr, method, path, token, body.as_ref())
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// Kills the server with SIGKILL: no shutdown code runs.
    pub(crate) fn kill(mut self) {
        self.child.kill().expect("killed");
        self.child.wait().expect("reaped");
    }

    /// The process id, for a kill from another thread.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A failed test must not leave a server running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request to `addr` on a new connection. An error means that no whole
/// answer came (the server died, or refused the connection).
pub(crate) fn send(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let incomplete = || std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "no whole answer");
    let status = response
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or_else(incomplete)?;
    let (_, body) = response.split_once("\r\n\r\n").ok_or_else(incomplete)?;
    Ok((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

/// The moves of a game state, in the move format.
pub(crate) fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().expect("a move").to_owned())
        .collect()
}
