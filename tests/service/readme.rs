//! What README.md promises a new user: every file it names is in the repository, it links
//! nothing outside it, and playing by email is set up from it alone.

use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md is readable")
}

/// The repository-relative paths README.md names in backticks: `docs/…`, `src/…` and the like.
fn named_paths(text: &str) -> Vec<String> {
    let roots = [
        "docs/",
        "src/",
        "crates/",
        "tests/",
        "scripts/",
        "static/",
        "templates/",
        "migrations/",
        "benches/",
        "examples/",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| roots.iter().any(|r| s.starts_with(r)))
        .map(|s| s.trim_end_matches(['/', ',', '.']).to_string())
        .filter(|s| !s.contains(['<', '*', '…', ' ']))
        .collect()
}

#[test]
fn the_readme_links_nothing_outside_the_repository() {
    let text = readme();
    let outside: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("../") || l.contains("/shared/"))
        .collect();
    assert!(
        outside.is_empty(),
        "README.md points outside the repository: {outside:?}"
    );
}

#[test]
fn every_path_the_readme_names_is_in_the_repository() {
    let text = readme();
    let paths = named_paths(&text);
    assert!(
        paths.iter().any(|p| p == "docs/mail.md"),
        "the path finder found {paths:?}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let missing: Vec<&String> = paths.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "README.md names missing files: {missing:?}"
    );
}

#[test]
fn the_readme_says_playing_by_email_needs_a_reply_domain() {
    let text = readme();
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("By email"))
        .expect("README.md has a section \"By email\"");
    for needed in [
        "DESPATCH_REPLY_DOMAIN",
        "DESPATCH_SMTP_URL",
        "mail-in",
        "docs/mail.md",
    ] {
        assert!(
            section.contains(needed),
            "README.md's \"By email\" does not say {needed}"
        );
    }
}
