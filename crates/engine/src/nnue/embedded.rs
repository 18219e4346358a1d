//! The networks built into the binary, read once on first use.

use std::sync::OnceLock;

use super::{Network, NetworkInput};
use tablero_chess::Chess;
use tablero_xiangqi::Xiangqi;

static CHESS_BYTES: &[u8] = include_bytes!("../../networks/chess.tbnn");
static XIANGQI_BYTES: &[u8] = include_bytes!("../../networks/xiangqi.tbnn");

fn load<P: NetworkInput>(bytes: &[u8]) -> Option<Network> {
    let network = Network::from_bytes(bytes).ok()?;
    network.check_input::<P>().ok()?;
    Some(network)
}

/// The chess network built into this binary. `None` only if the file embedded at
/// build time is not a chess network, which a test rules out.
#[must_use]
pub fn chess_network() -> Option<&'static Network> {
    static NETWORK: OnceLock<Option<Network>> = OnceLock::new();
    NETWORK.get_or_init(|| load::<Chess>(CHESS_BYTES)).as_ref()
}

/// The xiangqi network built into this binary (see [`chess_network`]).
#[must_use]
pub fn xiangqi_network() -> Option<&'static Network> {
    static NETWORK: OnceLock<Option<Network>> = OnceLock::new();
    NETWORK
        .get_or_init(|| load::<Xiangqi>(XIANGQI_BYTES))
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_networks_load_for_their_games() {
        for (bytes, network) in [
            (CHESS_BYTES, chess_network()),
            (XIANGQI_BYTES, xiangqi_network()),
        ] {
            let read = Network::from_bytes(bytes).map_err(|e| e.to_string());
            assert!(read.is_ok(), "{read:?}");
            assert!(network.is_some());
            assert!(bytes.len() < 2 << 20, "a network must stay under 2 MB");
        }
    }
}
