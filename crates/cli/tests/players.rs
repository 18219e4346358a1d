//! `tablero players` and `tablero report` on a temporary database.

mod common;

use common::{stderr, stdout, tablero};

fn db(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}", dir.path().join("t.db").display())
}

#[test]
fn import_list_and_delete() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = db(&dir);
    let good = dir.path().join("good.txt");
    std::fs::write(
        &good,
        "juanca77_10_4; carlosfp81_7_6; amaya92_12_1; jdark96_11_0;",
    )
    .expect("write");
    let good = good.to_str().expect("UTF-8 path");
    let out = tablero(&["players", "import", good, "--db", &url]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "imported 4 records: 4 added, 0 updated\n");

    // A bad file: non-zero exit, one line naming the record, nothing imported.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "nuevo_1_1; amaya92_99_0; x_1;").expect("write");
    let bad = bad.to_str().expect("UTF-8 path");
    let out = tablero(&["players", "import", bad, "--db", &url]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out),
        format!(
            "error: {bad}: nothing imported: record 3 \"x_1\": expected Name_Won_Lost (3 fields separated by '_'), found 2 field(s)\n"
        )
    );
    let out = tablero(&["players", "list", "--standings", "--db", &url]);
    assert!(out.status.success(), "{}", stderr(&out));
    let names: Vec<String> = stdout(&out)
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap_or("").to_owned())
        .collect();
    assert_eq!(names, ["amaya92", "jdark96", "juanca77", "carlosfp81"]);
    assert!(stdout(&out).contains("   3  amaya92"), "{}", stdout(&out));

    // Importing again updates, never duplicates.
    let out = tablero(&["players", "import", good, "--db", &url]);
    assert_eq!(stdout(&out), "imported 4 records: 0 added, 4 updated\n");
    let out = tablero(&["players", "list", "--search", "CARLOS", "--db", &url]);
    assert_eq!(stdout(&out).lines().count(), 2, "{}", stdout(&out));

    let out = tablero(&["players", "delete", "carlosfp81", "--db", &url]);
    assert_eq!(stdout(&out), "deleted carlosfp81\n");
    let out = tablero(&["players", "delete", "carlosfp81", "--db", &url]);
    assert!(!out.status.success());
    assert_eq!(stderr(&out), "error: no player named \"carlosfp81\"\n");
    let out = tablero(&["players", "import", "/nonexistent/file", "--db", &url]);
    assert!(!out.status.success());
    assert!(stderr(&out).starts_with("error: cannot read /nonexistent/file"));
}

#[test]
fn reports_from_the_database_and_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = db(&dir);
    let file = dir.path().join("p.txt");
    std::fs::write(&file, "m_1_0; f_2_0; t_3_0; a_4_0; h_5_0; p_6_0; z_7_0;").expect("write");
    let out = tablero(&[
        "players",
        "import",
        file.to_str().expect("path"),
        "--db",
        &url,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));

    let out = tablero(&["report", "players", "--db", &url]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dot = stdout(&out);
    assert!(dot.starts_with("digraph \"players\" {"), "{dot}");
    assert!(dot.contains("height 3 (one node = 1), leaves 4, branch nodes 3"));

    let svg_file = dir.path().join("top.svg");
    let out = tablero(&[
        "report",
        "top10",
        "--svg",
        "--out",
        svg_file.to_str().expect("path"),
        "--db",
        &url,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let svg = std::fs::read_to_string(&svg_file).expect("written");
    assert!(svg.contains("<svg") && svg.contains("1. z") && svg.contains("7. m"));

    let out = tablero(&["report", "board", "chess", "e2e4", "e7e5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("label=\"pawn\\nwhite\\ne4\""));
    let out = tablero(&[
        "report",
        "linear",
        "xiangqi",
        "--order",
        "column",
        "--fen",
        "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("d0 e9 e1"), "{}", stdout(&out));
    let out = tablero(&["report", "board", "chess3d", "--level", "1", "--svg"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("chess3d standard, level 1"));

    for (args, message) in [
        (
            vec!["report", "board", "chess", "--level", "2"],
            "error: level 2: chess has one level (0 to 0)\n",
        ),
        (
            vec!["report", "board"],
            "error: give a game (chess, xiangqi, draughts, chess3d) or --game-id ID\n",
        ),
        (
            vec!["report", "linear", "chess", "--order", "zigzag"],
            "error: unknown order \"zigzag\" (orders: row, column)\n",
        ),
    ] {
        let out = tablero(&args);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stderr(&out), message, "{args:?}");
    }
    let out = tablero(&["report", "board", "--game-id", "nope", "--db", &url]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).starts_with("error: no game with id \"nope\""),
        "{}",
        stderr(&out)
    );
    let out = tablero(&["report", "board", "chess", "e2e5"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("e2e5"), "{}", stderr(&out));
}
