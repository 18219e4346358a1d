//! `tablero players import|list|delete`: the player registry in the database that
//! `tablero serve` uses.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::Subcommand;
use tablero_store::{PlayerRecord, Store, parse_player_file};

/// Options of `tablero players`.
#[derive(Debug, clap::Args)]
pub(crate) struct PlayersArgs {
    #[command(subcommand)]
    command: PlayersCommand,
    /// Database URL (`sqlite://PATH` or `postgres://USER@HOST/DATABASE`); default:
    /// tablero.db in the user's data directory, as for `tablero serve`.
    #[arg(long, global = true, env = "TABLERO_DB", hide_env_values = true)]
    db: Option<String>,
}

#[derive(Debug, Subcommand)]
enum PlayersCommand {
    /// Load players from a `Name_Won_Lost;` file (`-` for standard input): every
    /// record or none. Names already registered get the file's counts.
    Import {
        /// The player file.
        file: PathBuf,
    },
    /// List the players in registration order, with counts and ratings.
    List {
        /// Only names containing this text (ignoring case).
        #[arg(long)]
        search: Option<String>,
        /// Counts and rating of one game kind only (games played here).
        #[arg(long)]
        game: Option<String>,
        /// Sort by games won, then fewer losses, then name.
        #[arg(long)]
        standings: bool,
    },
    /// Delete a player; their finished games keep the name.
    Delete {
        /// The player's name.
        name: String,
    },
}

/// The database URL: `--db`, or the default one of `tablero serve`.
pub(crate) fn db_url(db: Option<String>) -> String {
    db.unwrap_or_else(|| Store::url_for(&Store::default_path()))
}

/// A runtime for the store's async calls.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))
}

pub(crate) fn run(args: PlayersArgs, out: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| format!("cannot write output: {e}");
    let url = db_url(args.db);
    let runtime = runtime()?;
    runtime.block_on(async {
        // Read the file before opening the database: a missing file changes nothing.
        let text = match &args.command {
            PlayersCommand::Import { file } => Some(read_file(file)?),
            _ => None,
        };
        let store = Store::open(&url).await.map_err(|e| e.to_string())?;
        let result = match args.command {
            PlayersCommand::Import { file } => {
                let text = text.unwrap_or_default();
                let entries = parse_player_file(&text)
                    .map_err(|e| format!("{}: nothing imported: {e}", file.display()))?;
                let summary = store
                    .import_players(&entries)
                    .await
                    .map_err(|e| format!("nothing imported: {e}"))?;
                writeln!(
                    out,
                    "imported {} records: {} added, {} updated",
                    entries.len(),
                    summary.added.len(),
                    summary.updated.len()
                )
                .map_err(io)
            }
            PlayersCommand::List {
                search,
                game,
                standings,
            } => {
                if let Some(game) = &game {
                    game.parse::<tablero_games::GameKind>()
                        .map_err(|e| e.to_string())?;
                }
                let mut players = match search {
                    Some(text) => store.search_players(&text).await,
                    None => store.players().await,
                }
                .map_err(|e| e.to_string())?;
                if standings {
                    players.sort_by(|a, b| {
                        let (ta, tb) = (a.totals(game.as_deref()), b.totals(game.as_deref()));
                        tb.won
                            .cmp(&ta.won)
                            .then(ta.lost.cmp(&tb.lost))
                            .then_with(|| a.name.cmp(&b.name))
                    });
                }
                write_list(out, &players, game.as_deref()).map_err(io)
            }
            PlayersCommand::Delete { name } => {
                if store
                    .delete_player(&name)
                    .await
                    .map_err(|e| e.to_string())?
                {
                    writeln!(out, "deleted {name}").map_err(io)
                } else {
                    Err(format!("no player named {name:?}"))
                }
            }
        };
        store.close().await;
        result
    })
}

fn read_file(file: &PathBuf) -> Result<String, String> {
    if file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(text)
    } else {
        std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))
    }
}

/// One line per player: number, name, won, lost, drawn, ratings.
fn write_list(
    out: &mut impl Write,
    players: &[PlayerRecord],
    game: Option<&str>,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4}  {:<32} {:>6} {:>6} {:>6}  rating",
        "#", "name", "won", "lost", "drawn"
    )?;
    for p in players {
        let t = p.totals(game);
        let ratings: Vec<String> = p
            .ratings
            .iter()
            .filter(|r| game.is_none_or(|g| g == r.game))
            .map(|r| {
                let value = format!(
                    "{:.0} ±{:.0} ({} games)",
                    r.rating.rating, r.rating.deviation, r.games
                );
                if game.is_some() {
                    value
                } else {
                    format!("{} {value}", r.game)
                }
            })
            .collect();
        let ratings = if ratings.is_empty() {
            "-".to_owned()
        } else {
            ratings.join(", ")
        };
        writeln!(
            out,
            "{:>4}  {:<32} {:>6} {:>6} {:>6}  {ratings}",
            p.number, p.name, t.won, t.lost, t.drawn
        )?;
    }
    Ok(())
}
