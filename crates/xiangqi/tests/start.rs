//! The start position's published perft figures.

use tablero_xiangqi::{Xiangqi, perft};

#[test]
fn start_position_perft_1_to_4() {
    let pos = Xiangqi::new();
    let expected = [44, 1_920, 79_666, 3_290_240];
    for (depth, nodes) in (1..).zip(expected) {
        assert_eq!(perft(&pos, depth), nodes, "depth {depth}");
    }
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn start_position_perft_5() {
    assert_eq!(perft(&Xiangqi::new(), 5), 133_312_995);
}
