//! What the tests of the training scripts need from outside the workspace: the
//! repository's root, and target/pyenv's Python with a module and a reference engine.

use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// target/pyenv's interpreter when it has `module` and `engine` is installed, or
/// `None` (said) when the test is skipped; under CI, where `scripts/test` installs
/// both, a missing one fails the test.
pub(crate) fn python_with(module: &str, engine: &str) -> Option<PathBuf> {
    let python = root().join("target/pyenv/bin/python");
    let ready = Path::new(engine).exists()
        && Command::new(&python)
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|out| out.status.success());
    if !ready {
        assert!(
            std::env::var_os("CI").is_none(),
            "{engine} or target/pyenv with {module} is missing under CI: scripts/test installs them"
        );
        eprintln!("skipped: {engine} or target/pyenv with {module} is missing");
    }
    ready.then_some(python)
}
