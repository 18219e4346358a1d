//! The networks built into the binary, read once on first use.

use std::sync::OnceLock;

use super::{Network, NetworkError, NetworkInput};
use tablero_chess::Chess;
use tablero_draughts::Draughts;
use tablero_xiangqi::Xiangqi;

static CHESS_BYTES: &[u8] = include_bytes!("../../networks/chess.tbnn");
static XIANGQI_BYTES: &[u8] = include_bytes!("../../networks/xiangqi.tbnn");
static DRAUGHTS_BYTES: &[u8] = include_bytes!("../../networks/draughts.tbnn");

/// Names a file whose chess network replaces the built-in one in this process: for
/// trying a freshly trained network without rebuilding (docs/nnue.md, "Trying a network").
pub const CHESS_NETWORK_VARIABLE: &str = "TABLERO_CHESS_NETWORK";
/// As [`CHESS_NETWORK_VARIABLE`], for xiangqi.
pub const XIANGQI_NETWORK_VARIABLE: &str = "TABLERO_XIANGQI_NETWORK";
/// As [`CHESS_NETWORK_VARIABLE`], for International draughts.
pub const DRAUGHTS_NETWORK_VARIABLE: &str = "TABLERO_DRAUGHTS_NETWORK";

fn parse<P: NetworkInput>(bytes: &[u8]) -> Result<Network, NetworkError> {
    let network = Network::from_bytes(bytes)?;
    network.check_input::<P>()?;
    Ok(network)
}

/// The network in the file `variable` names if it is set, else the built-in `bytes`.
fn load<P: NetworkInput>(variable: &str, bytes: &[u8]) -> Option<Network> {
    let file = std::env::var_os(variable).map(std::path::PathBuf::from);
    match load_from::<P>(file.as_deref(), bytes) {
        Ok(network) => Some(network),
        Err(e) => {
            eprintln!("{variable}: {e}; evaluating without a network");
            None
        }
    }
}

/// The network in `file`, else the built-in `bytes`. A file that cannot be used is an
/// error, never the built-in network instead: an experiment must not silently measure
/// the wrong network.
fn load_from<P: NetworkInput>(
    file: Option<&std::path::Path>,
    bytes: &[u8],
) -> Result<Network, String> {
    match file {
        None => parse::<P>(bytes).map_err(|e| e.to_string()),
        Some(path) => std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| parse::<P>(&bytes).map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e}", path.display())),
    }
}

/// The network `cell` keeps for the process: loaded by [`load`] on first use.
fn once<P: NetworkInput>(
    cell: &'static OnceLock<Option<Network>>,
    variable: &str,
    bytes: &[u8],
) -> Option<&'static Network> {
    cell.get_or_init(|| load::<P>(variable, bytes)).as_ref()
}

/// The chess network: the one built into this binary, or the file that
/// [`CHESS_NETWORK_VARIABLE`] names. `None` only if that file cannot be used (the
/// built-in one is a chess network, which a test checks).
#[must_use]
pub fn chess_network() -> Option<&'static Network> {
    static NETWORK: OnceLock<Option<Network>> = OnceLock::new();
    once::<Chess>(&NETWORK, CHESS_NETWORK_VARIABLE, CHESS_BYTES)
}

/// The xiangqi network (see [`chess_network`]).
#[must_use]
pub fn xiangqi_network() -> Option<&'static Network> {
    static NETWORK: OnceLock<Option<Network>> = OnceLock::new();
    once::<Xiangqi>(&NETWORK, XIANGQI_NETWORK_VARIABLE, XIANGQI_BYTES)
}

/// The International draughts network (see [`chess_network`]); positions of the
/// other rule sets keep the hand evaluation.
#[must_use]
pub fn draughts_network() -> Option<&'static Network> {
    static NETWORK: OnceLock<Option<Network>> = OnceLock::new();
    once::<Draughts>(&NETWORK, DRAUGHTS_NETWORK_VARIABLE, DRAUGHTS_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_networks_load_for_their_games() {
        for (bytes, network) in [
            (CHESS_BYTES, chess_network()),
            (XIANGQI_BYTES, xiangqi_network()),
            (DRAUGHTS_BYTES, draughts_network()),
        ] {
            let read = Network::from_bytes(bytes).map_err(|e| e.to_string());
            assert!(read.is_ok(), "{read:?}");
            assert!(network.is_some());
            assert!(bytes.len() < 2 << 20, "a network must stay under 2 MB");
        }
    }

    #[test]
    fn a_network_file_replaces_the_built_in_one_or_is_an_error() {
        let dir = std::env::temp_dir().join(format!("tablero-nnue-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let good = dir.join("xiangqi.tbnn");
        std::fs::write(&good, XIANGQI_BYTES).expect("temporary file");
        let loaded = load_from::<Xiangqi>(Some(&good), CHESS_BYTES).map(|n| n.to_bytes());
        assert_eq!(loaded, Ok(XIANGQI_BYTES.to_vec()));

        // A xiangqi network for chess, a missing file: errors naming the file.
        let wrong_game = load_from::<Chess>(Some(&good), CHESS_BYTES).map(|n| n.to_bytes());
        assert!(wrong_game.is_err_and(|e| e.contains("xiangqi.tbnn")));
        let missing = dir.join("missing.tbnn");
        assert!(load_from::<Chess>(Some(&missing), CHESS_BYTES).is_err());
        let builtin = load_from::<Chess>(None, CHESS_BYTES).map(|n| n.to_bytes());
        assert_eq!(builtin, Ok(CHESS_BYTES.to_vec()));
        let _ = std::fs::remove_dir_all(dir);
    }
}
