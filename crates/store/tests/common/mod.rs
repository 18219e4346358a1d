//! The store's tests run on both backends: an SQLite file in a temporary folder, and
//! a new database on the PostgreSQL cluster that `scripts/test` starts
//! (`scripts/postgres`), named by `TABLERO_TEST_POSTGRES`.
#![allow(dead_code, clippy::unwrap_used)] // each test file uses part of it

use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::Connection;

/// Which database a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Backend {
    Sqlite,
    Postgres,
}

/// A database of its own for one test.
#[derive(Debug)]
pub(crate) struct TestDb {
    pub(crate) backend: Backend,
    /// What `Store::open` takes.
    pub(crate) url: String,
    _dir: Option<tempfile::TempDir>,
}

/// The PostgreSQL cluster's URL, if this run has one. Under CI it must: a run
/// without it would skip half of the suite in silence.
pub(crate) fn postgres_cluster() -> Option<String> {
    match std::env::var("TABLERO_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "TABLERO_TEST_POSTGRES is not set: scripts/test starts a cluster and sets it"
            );
            eprintln!(
                "skipped on PostgreSQL: TABLERO_TEST_POSTGRES is not set (scripts/test sets it)"
            );
            None
        }
    }
}

impl TestDb {
    /// A new, empty database; `None` for PostgreSQL when no cluster was started.
    pub(crate) async fn new(backend: Backend) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().unwrap();
                let url = format!("sqlite://{}", dir.path().join("t.db").display());
                Some(TestDb {
                    backend,
                    url,
                    _dir: Some(dir),
                })
            }
            Backend::Postgres => {
                let cluster = postgres_cluster()?;
                static NEXT: AtomicU64 = AtomicU64::new(0);
                let name = format!(
                    "test_{}_{}_{}",
                    std::process::id(),
                    NEXT.fetch_add(1, Ordering::Relaxed),
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap()
                        .subsec_nanos()
                );
                let mut admin = sqlx::PgConnection::connect(&cluster).await.unwrap();
                sqlx::query(&format!("CREATE DATABASE {name}"))
                    .execute(&mut admin)
                    .await
                    .unwrap();
                admin.close().await.unwrap();
                let (server, _) = cluster.rsplit_once('/').unwrap();
                Some(TestDb {
                    backend,
                    url: format!("{server}/{name}"),
                    _dir: None,
                })
            }
        }
    }
}

/// For each `async fn name(db: TestDb)`, a module `name` with the tests `sqlite` and
/// `postgres`.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                use super::common::{Backend, TestDb};

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    if let Some(db) = TestDb::new(Backend::Sqlite).await {
                        super::$name(db).await;
                    }
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if let Some(db) = TestDb::new(Backend::Postgres).await {
                        super::$name(db).await;
                    }
                }
            }
        )*
    };
}
