//! The database file on disk: created readable by its owner only, since it holds
//! the players' names and the seats' token hashes, and SQLite gives its `-wal` and
//! `-shm` files the database file's permissions.

use std::io;
use std::path::{Path, PathBuf};

/// Makes the folder (0700 for the folders made here) and the file (0600), or
/// narrows an existing file's permissions to 0600.
///
/// # Errors
///
/// When the folder or file cannot be created, or the permissions not set (the cause
/// names the path).
pub(crate) fn prepare(path: &Path) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.exists()
    {
        private_dir_builder()
            .create(dir)
            .map_err(|e| named(dir, "cannot create the folder", &e))?;
    }
    if path.exists() {
        restrict(path)?;
        // SQLite's own word for any of these is "unable to open database file": the
        // system's names the cause (read-only file system, permission denied).
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot write it: {e}")))?;
        check_folder(path)
    } else {
        private_file_options()
            .open(path)
            .map(drop)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot create it: {e}")))
    }
}

/// SQLite creates the `-wal` and `-shm` files beside the database: its folder must
/// take new files.
fn check_folder(path: &Path) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut probe = dir.join(".tablero-write-check-");
    probe
        .as_mut_os_string()
        .push(std::process::id().to_string());
    private_file_options()
        .open(&probe)
        .map_err(|e| named(dir, "cannot create files in the folder", &e))?;
    std::fs::remove_file(&probe).map_err(|e| named(&probe, "cannot remove", &e))
}

/// Narrows the `-wal` and `-shm` files of an older version (0644) to 0600. A failure
/// is logged: the database works all the same.
pub(crate) fn restrict_companions(path: &Path) {
    for suffix in ["-wal", "-shm"] {
        let mut companion = PathBuf::from(path.as_os_str());
        companion.as_mut_os_string().push(suffix);
        if companion.exists()
            && let Err(e) = restrict(&companion)
        {
            tracing::warn!(error = %e, "the database's permissions could not be narrowed");
        }
    }
}

fn named(path: &Path, what: &str, error: &io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{what} {}: {error}", path.display()))
}

#[cfg(unix)]
fn private_dir_builder() -> std::fs::DirBuilder {
    use std::os::unix::fs::DirBuilderExt;
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true).mode(0o700);
    builder
}

#[cfg(not(unix))]
fn private_dir_builder() -> std::fs::DirBuilder {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    builder
}

#[cfg(unix)]
fn private_file_options() -> std::fs::OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true).mode(0o600);
    options
}

#[cfg(not(unix))]
fn private_file_options() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    options
}

#[cfg(unix)]
fn restrict(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let metadata = std::fs::metadata(path)?;
    if metadata.permissions().mode() & 0o077 == 0 {
        return Ok(());
    }
    tracing::info!(path = %path.display(), "narrowing the database's permissions to 0600");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| named(path, "cannot set the permissions of", &e))
}

#[cfg(not(unix))]
fn restrict(_path: &Path) -> io::Result<()> {
    Ok(())
}
