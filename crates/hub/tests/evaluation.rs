//! `set-param name=nnue` reaches the search: International draughts is judged by
//! its network unless the GUI turns it off, and the other rule sets, which have no
//! network, are judged the same either way.

use tablero_hub::run;

/// The score of the one-ply search of `variant`'s start, with `nnue` set to `nnue`
/// (or left at its default).
fn start_score(variant: &str, nnue: Option<bool>) -> String {
    let nnue = nnue.map_or(String::new(), |on| {
        format!("set-param name=nnue value={on}\n")
    });
    let input = format!(
        "hub\nset-param name=variant value={variant}\n{nnue}init\nnew-game\n\
         level depth=1\ngo think\n"
    );
    let mut output = Vec::new();
    run(input.as_bytes(), &mut output).expect("in-memory input and output");
    let output = String::from_utf8(output).expect("UTF-8 answers");
    assert!(!output.contains("error"), "{output}");
    assert!(output.contains("\ndone move="), "{output}");
    output
        .lines()
        .filter_map(|line| line.strip_prefix("info depth=1 score="))
        .find_map(|rest| rest.split(' ').next().map(str::to_owned))
        .unwrap_or_else(|| panic!("no depth-1 score in {output}"))
}

#[test]
fn the_nnue_parameter_switches_international_draughts_to_the_fitted_evaluation() {
    let default = start_score("normal", None);
    assert_eq!(start_score("normal", Some(true)), default);
    assert_ne!(start_score("normal", Some(false)), default);
    assert_eq!(
        start_score("russian", Some(true)),
        start_score("russian", Some(false))
    );
}
