//! The loops every network evaluation runs: adding and taking weight rows from an
//! accumulator and the output layer's clipped-square dot product.
//!
//! They are written over fixed-size lanes so the compiler turns them into vector
//! instructions on any target (SSE4.2 at the workspace's x86-64-v2 baseline) without
//! `unsafe`; an AVX2 copy picked at run time measured no faster (docs/nnue.md).
//! Integer arithmetic makes the result independent of the order of the additions,
//! so [`output_scalar`], the plain one-element-at-a-time reference, must agree with
//! [`output`] bit for bit; the tests check that.

use super::{HIDDEN, QA};

/// Elements summed side by side in [`output`]: each lane's partial sum stays within
/// `i32` for any network [`super::Network::from_bytes`] accepts (`2 × HIDDEN / LANES`
/// terms of at most `QA² × MAX_OUTPUT_WEIGHT`).
const LANES: usize = 16;

/// `acc += row`, wrapping (the network's weight limits keep real sums in range).
#[inline]
pub(crate) fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

/// `acc -= row`, wrapping.
#[inline]
pub(crate) fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

/// `target = source + added − removed`, one pass over the rows: a quiet move.
#[inline]
pub(crate) fn add_sub(
    target: &mut [i16; HIDDEN],
    source: &[i16; HIDDEN],
    added: &[i16; HIDDEN],
    removed: &[i16; HIDDEN],
) {
    for (((t, s), a), r) in target.iter_mut().zip(source).zip(added).zip(removed) {
        *t = s.wrapping_add(*a).wrapping_sub(*r);
    }
}

/// `target = source + added − removed − taken`, one pass: a capture.
#[inline]
pub(crate) fn add_sub_sub(
    target: &mut [i16; HIDDEN],
    source: &[i16; HIDDEN],
    added: &[i16; HIDDEN],
    [removed, taken]: [&[i16; HIDDEN]; 2],
) {
    let rows = added.iter().zip(removed).zip(taken);
    for ((t, s), ((a, r), x)) in target.iter_mut().zip(source).zip(rows) {
        *t = s.wrapping_add(*a).wrapping_sub(*r).wrapping_sub(*x);
    }
}

/// `Σ clamp(us, 0, QA)² × weights[..HIDDEN] + Σ clamp(them, 0, QA)² × weights[HIDDEN..]`,
/// summed in lanes that vectorise.
#[inline]
pub(crate) fn output(us: &[i16; HIDDEN], them: &[i16; HIDDEN], weights: &[i16]) -> i64 {
    let (mine, theirs) = weights.split_at(HIDDEN);
    let mut lanes = [0i32; LANES];
    for (view, weights) in [(us, mine), (them, theirs)] {
        for (values, weights) in view.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
            for lane in 0..LANES {
                let v = i32::from(values[lane]).clamp(0, QA);
                lanes[lane] += v * v * i32::from(weights[lane]);
            }
        }
    }
    lanes.iter().map(|&lane| i64::from(lane)).sum()
}

/// [`output`] one element at a time in 64-bit arithmetic: the reference the lane
/// version must match exactly.
pub(crate) fn output_scalar(us: &[i16; HIDDEN], them: &[i16; HIDDEN], weights: &[i16]) -> i64 {
    let mut sum = 0i64;
    for (i, &weight) in weights.iter().enumerate().take(2 * HIDDEN) {
        let value = if i < HIDDEN { us[i] } else { them[i - HIDDEN] };
        let v = i64::from(value).clamp(0, i64::from(QA));
        sum += v * v * i64::from(weight);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::MAX_OUTPUT_WEIGHT;
    use proptest::prelude::*;

    fn array(values: &[i16]) -> [i16; HIDDEN] {
        let mut out = [0; HIDDEN];
        for (o, v) in out.iter_mut().zip(values.iter().cycle()) {
            *o = *v;
        }
        out
    }

    proptest! {
        #[test]
        fn lanes_and_scalar_agree_bit_for_bit(
            us in proptest::collection::vec(any::<i16>(), HIDDEN),
            them in proptest::collection::vec(any::<i16>(), HIDDEN),
            weights in proptest::collection::vec(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT, 2 * HIDDEN),
        ) {
            let (us, them) = (array(&us), array(&them));
            prop_assert_eq!(output(&us, &them, &weights), output_scalar(&us, &them, &weights));
        }
    }

    proptest! {
        #[test]
        fn one_pass_updates_equal_row_by_row_ones(
            source in proptest::collection::vec(any::<i16>(), HIDDEN),
            rows in proptest::collection::vec(any::<i16>(), 3 * HIDDEN),
        ) {
            let source = array(&source);
            let (rows, _) = rows.as_chunks::<HIDDEN>();
            let mut expected = source;
            add_row(&mut expected, &rows[0]);
            sub_row(&mut expected, &rows[1]);
            let mut target = [0; HIDDEN];
            add_sub(&mut target, &source, &rows[0], &rows[1]);
            prop_assert_eq!(target, expected);
            sub_row(&mut expected, &rows[2]);
            add_sub_sub(&mut target, &source, &rows[0], [&rows[1], &rows[2]]);
            prop_assert_eq!(target, expected);
        }
    }

    #[test]
    fn the_extremes_do_not_overflow_a_lane() {
        let full = [i16::MAX; HIDDEN];
        let weights = vec![MAX_OUTPUT_WEIGHT; 2 * HIDDEN];
        let expected = 2 * HIDDEN as i64 * i64::from(QA * QA) * i64::from(MAX_OUTPUT_WEIGHT);
        assert_eq!(output(&full, &full, &weights), expected);
        assert_eq!(output_scalar(&full, &full, &weights), expected);
        let negative = vec![-MAX_OUTPUT_WEIGHT; 2 * HIDDEN];
        assert_eq!(output(&full, &full, &negative), -expected);
    }

    #[test]
    fn rows_add_and_subtract_back_to_the_start() {
        let start = array(&[5, -7, 300, i16::MAX]);
        let row: [i16; HIDDEN] = std::array::from_fn(|i| i as i16 * 3 - 200);
        let mut acc = start;
        add_row(&mut acc, &row);
        assert_ne!(acc, start);
        sub_row(&mut acc, &row);
        assert_eq!(acc, start);
    }
}
