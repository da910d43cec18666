//! `verify`: checks an export with no database and no server, against what the player was
//! shown (`--witness`) when given.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Failure, VerifyArgs};
use crate::engine::verify;
use crate::rules;

pub(super) fn run(args: VerifyArgs) -> Result<ExitCode, Failure> {
    let VerifyArgs {
        file,
        json,
        witness,
        files,
    } = args;
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let found = read_witnesses(&witness)?;
    let mut report = verify::verify_witnessed(&text, &rules::find, &found.witnesses);
    report.without_head = found.without_head;
    if let (Some(dir), true) = (&files, report.ok()) {
        check_files(&text, dir, &mut report);
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("serialisable")
        );
    } else {
        print!("{}", report.render());
    }
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Checks every file the log lists against the file named by its SHA-256 in `dir`.
fn check_files(text: &str, dir: &std::path::Path, report: &mut verify::Report) {
    let Ok((_, events)) = crate::engine::export::read(text) else {
        return; // the report says why already
    };
    let mut bytes_of = |sha256: &str| std::fs::read(dir.join(sha256)).ok();
    match crate::engine::files::check(&events, &mut bytes_of) {
        Ok(n) => report.files_checked = n,
        Err(finding) => report.failure = Some(finding),
    }
}

/// Reads `--witness` files: each a file, or a folder (a maildir) whose files are read in turn.
/// What carries no head — a sign-in mail, an answer, a mail folder's index files — is counted
/// and set aside, so a whole mailbox can be given; a malformed head is still an error.
fn read_witnesses(paths: &[PathBuf]) -> Result<crate::engine::witness::Found, String> {
    use crate::engine::witness;
    // Each file, and whether it was found in a folder (where only email is read).
    let mut files = Vec::new();
    let mut pending: Vec<(PathBuf, bool)> = paths.iter().map(|p| (p.clone(), false)).collect();
    while let Some((path, in_folder)) = pending.pop() {
        if path.is_dir() {
            let entries = std::fs::read_dir(&path)
                .map_err(|e| format!("cannot read the folder {}: {e}", path.display()))?;
            for entry in entries {
                let entry =
                    entry.map_err(|e| format!("cannot read the folder {}: {e}", path.display()))?;
                pending.push((entry.path(), true));
            }
        } else {
            files.push((path, in_folder));
        }
    }
    if files.is_empty() && !paths.is_empty() {
        return Err("--witness names no file to read: the folder is empty".into());
    }
    files.sort();
    let mut out = witness::Found::default();
    for (path, in_folder) in files {
        let text = std::fs::read(&path)
            .map_err(|e| format!("cannot read the witness {}: {e}", path.display()))?;
        let text = String::from_utf8_lossy(&text);
        if in_folder && !witness::looks_like_email(&text) {
            out.without_head += 1;
            continue;
        }
        let found = witness::read(&text, &path.display().to_string())?;
        out.witnesses.extend(found.witnesses);
        out.without_head += found.without_head;
    }
    Ok(out)
}
