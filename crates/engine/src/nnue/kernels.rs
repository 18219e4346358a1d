//! The loops every network evaluation runs: adding and taking weight rows from an
//! accumulator and the output layer's clipped-square dot product.
//!
//! They are written over fixed-size lanes so the compiler turns them into vector
//! instructions on any target (SSE4.2 at the workspace's x86-64-v2 baseline) without
//! `unsafe`; an AVX2 copy picked at run time measured no faster (docs/nnue.md).
//! The slices are one view of an accumulator and rows of the network's width, a
//! multiple of [`HIDDEN_STEP`]; the loops walk them side by side, so they vectorise
//! as fixed-size arrays did.
//! Integer arithmetic makes the result independent of the order of the additions,
//! so [`output_scalar`], the plain one-element-at-a-time reference, must agree with
//! [`output`] bit for bit; the tests check that.

use super::{HIDDEN_STEP, MAX_HIDDEN, QA};

/// Elements summed side by side in [`output`]: each lane's partial sum stays within
/// `i32` for any network [`super::Network::from_bytes`] accepts (`2 × MAX_HIDDEN /
/// LANES` = 32 terms of at most `QA² × MAX_OUTPUT_WEIGHT` ≈ 6.5 × 10⁷).
const LANES: usize = HIDDEN_STEP;
const _: () = assert!(
    (2 * MAX_HIDDEN / LANES) as i64 * (QA * QA) as i64 * super::MAX_OUTPUT_WEIGHT as i64
        <= i32::MAX as i64
);

/// `acc += row`, wrapping (the network's weight limits keep real sums in range).
#[inline]
pub(crate) fn add_row(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

/// `acc -= row`, wrapping.
#[inline]
pub(crate) fn sub_row(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

/// `target = source + added − removed`, one pass over the rows: a quiet move.
#[inline]
pub(crate) fn add_sub(target: &mut [i16], source: &[i16], added: &[i16], removed: &[i16]) {
    for (((t, s), a), r) in target.iter_mut().zip(source).zip(added).zip(removed) {
        *t = s.wrapping_add(*a).wrapping_sub(*r);
    }
}

/// `target = source + added − removed − taken`, one pass: a capture.
#[inline]
pub(crate) fn add_sub_sub(
    target: &mut [i16],
    source: &[i16],
    added: &[i16],
    [removed, taken]: [&[i16]; 2],
) {
    let rows = added.iter().zip(removed).zip(taken);
    for ((t, s), ((a, r), x)) in target.iter_mut().zip(source).zip(rows) {
        *t = s.wrapping_add(*a).wrapping_sub(*r).wrapping_sub(*x);
    }
}

/// `Σ clamp(us, 0, QA)² × weights[..n] + Σ clamp(them, 0, QA)² × weights[n..]` for views
/// of `n` values, summed in lanes that vectorise.
#[inline]
pub(crate) fn output(us: &[i16], them: &[i16], weights: &[i16]) -> i64 {
    let (mine, theirs) = weights.split_at(us.len());
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
pub(crate) fn output_scalar(us: &[i16], them: &[i16], weights: &[i16]) -> i64 {
    let mut sum = 0i64;
    let hidden = us.len();
    for (i, &weight) in weights.iter().enumerate().take(2 * hidden) {
        let value = if i < hidden { us[i] } else { them[i - hidden] };
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

    /// A width a network may have, and that many values of each of `n` rows.
    fn rows(n: usize) -> impl Strategy<Value = (usize, Vec<i16>)> {
        (1..=MAX_HIDDEN / HIDDEN_STEP).prop_flat_map(move |steps| {
            let hidden = steps * HIDDEN_STEP;
            (
                Just(hidden),
                proptest::collection::vec(any::<i16>(), n * hidden),
            )
        })
    }

    proptest! {
        #[test]
        fn lanes_and_scalar_agree_bit_for_bit(
            (hidden, views) in rows(2),
            weights in proptest::collection::vec(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT, 2 * MAX_HIDDEN),
        ) {
            let (us, them) = views.split_at(hidden);
            let weights = &weights[..2 * hidden];
            prop_assert_eq!(output(us, them, weights), output_scalar(us, them, weights));
        }
    }

    proptest! {
        #[test]
        fn one_pass_updates_equal_row_by_row_ones((hidden, values) in rows(4)) {
            let (source, rows) = values.split_at(hidden);
            let rows: Vec<&[i16]> = rows.chunks_exact(hidden).collect();
            let mut expected = source.to_vec();
            add_row(&mut expected, rows[0]);
            sub_row(&mut expected, rows[1]);
            let mut target = vec![0; hidden];
            add_sub(&mut target, source, rows[0], rows[1]);
            prop_assert_eq!(&target, &expected);
            sub_row(&mut expected, rows[2]);
            add_sub_sub(&mut target, source, rows[0], [rows[1], rows[2]]);
            prop_assert_eq!(&target, &expected);
        }
    }

    #[test]
    fn the_extremes_do_not_overflow_a_lane() {
        let full = [i16::MAX; MAX_HIDDEN];
        let weights = vec![MAX_OUTPUT_WEIGHT; 2 * MAX_HIDDEN];
        let expected = 2 * MAX_HIDDEN as i64 * i64::from(QA * QA) * i64::from(MAX_OUTPUT_WEIGHT);
        assert_eq!(output(&full, &full, &weights), expected);
        assert_eq!(output_scalar(&full, &full, &weights), expected);
        let negative = vec![-MAX_OUTPUT_WEIGHT; 2 * MAX_HIDDEN];
        assert_eq!(output(&full, &full, &negative), -expected);
    }

    #[test]
    fn rows_add_and_subtract_back_to_the_start() {
        let start: Vec<i16> = [5, -7, 300, i16::MAX].repeat(HIDDEN_STEP);
        let row: Vec<i16> = (0..start.len()).map(|i| i as i16 * 3 - 200).collect();
        let mut acc = start.clone();
        add_row(&mut acc, &row);
        assert_ne!(acc, start);
        sub_row(&mut acc, &row);
        assert_eq!(acc, start);
    }
}
