//! The parts import one way (docs/architecture.md, "The parts"): engine ← rules ← games ←
//! {http, notify, mail_in} ← cli, with the store under games. The engine and the rules are the
//! core crate (`crates/core`), which cannot name the server at all: the compiler holds them, and
//! a test here holds the core's dependencies to crates that do no I/O. Within the server this
//! test reads every file under `src/`, finds each path it names through `crate::` (a `use`, a
//! `use crate::{…}` group or a path written inline) and fails, naming the file, the line and the
//! rule, when a part reaches one it may not. The graph is the data below; an edge added to it needs its reason in
//! docs/architecture.md.

use std::fmt;
use std::path::{Path, PathBuf};

/// Parts every server part may use: configuration and the counters of `/metrics`. They are
/// leaves: a shared part imports no other part, shared ones included (its row in `GRAPH` is
/// empty).
const SHARED: &[&str] = &["config", "metrics"];

/// What each part may import besides itself and `SHARED`: a part's name allows all of it,
/// `part::module` that module only (a narrow edge between two faces).
const GRAPH: &[(&str, &[&str])] = &[
    ("store", &["engine"]),
    ("games", &["engine", "rules", "store"]),
    ("notify", &["engine", "rules", "games"]),
    ("mail_in", &["engine", "rules", "games"]),
    (
        "http",
        &[
            "engine",
            "rules",
            "games",
            // The inbound-mail webhook (`POST /api/inbound/email`) hands a message to mail_in.
            "mail_in",
            // The live stream (`GET /api/games/{id}/stream`) subscribes to notify's hub.
            "notify::live",
            // TLS for outgoing webhook calls is installed before the server starts.
            "notify::webhook::install_crypto",
        ],
    ),
    (
        "cli",
        &[
            "engine", "rules", "games", "http", "notify", "mail_in",
            // Opening the database (connect, migrate, unlock) and rotating its key happen
            // before there is a games service.
            "store",
        ],
    ),
    // `/metrics` counts what the parts hand it, as its own labels (a move's outcome, an inbound
    // message's result, the outbox's gauges): the callers name them, it names no caller.
    ("metrics", &[]),
    // The settings of every part, the dispatcher's included, are read here and handed to
    // the parts: config names none of them.
    ("config", &[]),
];

/// Files that hold no part: the crate's root and the binary.
const ROOTS: &[&str] = &["lib", "main"];

/// One forbidden import.
#[derive(Debug, PartialEq, Eq)]
struct Violation {
    file: String,
    line: usize,
    part: String,
    path: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (allowed, shared) = allowed(&self.part).unwrap_or((&[], false));
        let mut may: Vec<&str> = allowed.to_vec();
        if shared {
            may.extend(SHARED);
        }
        write!(
            f,
            "{}:{}: {} may not import crate::{} (rule: {} may import {})",
            self.file,
            self.line,
            self.part,
            self.path,
            self.part,
            if may.is_empty() {
                "nothing outside itself".to_owned()
            } else {
                may.join(", ")
            }
        )
    }
}

/// What `part` may import, and whether the shared parts too; `None` for a part not in the graph.
fn allowed(part: &str) -> Option<(&'static [&'static str], bool)> {
    GRAPH
        .iter()
        .find(|(p, _)| *p == part)
        .map(|(_, a)| (*a, !SHARED.contains(&part)))
}

/// Whether `part` may name `crate::<path>`.
fn may_import(part: &str, path: &str) -> bool {
    let first = path.split("::").next().unwrap_or("");
    if first == part {
        return true;
    }
    let Some((allowed, shared)) = allowed(part) else {
        return false;
    };
    (shared && SHARED.contains(&first))
        || allowed
            .iter()
            .any(|a| path == *a || path.starts_with(&format!("{a}::")))
}

/// The source with comments and the insides of string and character literals blanked out
/// (newlines kept, so lines still count), leaving only code to search.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && matches!(next, Some('"') | Some('#'))
            && !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"…", r#"…"#, …
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let closing: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let rest: String = chars[j + 1..].iter().collect();
            let end = rest
                .find(&closing)
                .map(|e| j + 1 + rest[..e].chars().count() + closing.chars().count())
                .unwrap_or(chars.len());
            for &k in &chars[i..end] {
                out.push(blank(k));
            }
            i = end;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('"', '\n', '\''); a lifetime ('a) has no closing quote.
            let mut j = i + 1;
            if chars.get(j) == Some(&'\\') {
                j += 2;
            } else {
                j += 1;
            }
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            for _ in i..=j.min(chars.len() - 1) {
                out.push(' ');
            }
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Every full path a `use` tree names: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        // `path as name`: the path is what is imported.
        let path = tree.split_whitespace().next().unwrap_or("");
        return vec![path.trim_end_matches("::").to_owned()];
    };
    let prefix: String = tree[..open].split_whitespace().collect();
    let inner = tree[open + 1..].trim_end();
    let inner = inner.strip_suffix('}').unwrap_or(inner);
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(inner[start..k].trim());
                start = k + 1;
            }
            _ => {}
        }
    }
    items.push(inner[start..].trim());
    items
        .into_iter()
        .filter(|item| !item.is_empty())
        .flat_map(|item| {
            if item == "self" {
                vec![prefix.trim_end_matches("::").to_owned()]
            } else {
                expand(&format!("{prefix}{item}"))
            }
        })
        .collect()
}

/// The forbidden imports in one file of `part`.
fn violations(file: &str, part: &str, source: &str) -> Vec<Violation> {
    let code = code_only(source);
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        // `$crate::` is a macro's own crate, not a path of this one.
        if code[..at].ends_with('$')
            || code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        let tree = if rest.starts_with('{') {
            let mut depth = 0;
            let end = rest
                .char_indices()
                .find(|&(_, ch)| {
                    match ch {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                })
                .map(|(k, _)| k + 1)
                .unwrap_or(rest.len());
            &rest[..end]
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            &rest[..end]
        };
        let line = code[..at].matches('\n').count() + 1;
        for path in expand(tree) {
            if !may_import(part, &path) {
                found.push(Violation {
                    file: file.to_owned(),
                    line,
                    part: part.to_owned(),
                    path,
                });
            }
        }
    }
    found
}

/// The part a file under `src/` belongs to: its first folder, or its name for a file at the top.
fn part_of(relative: &Path) -> String {
    let first = relative
        .components()
        .next()
        .expect("a path under src")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_part_imports_only_what_the_graph_allows() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(
        files.len() > 50,
        "found only {} files under src/",
        files.len()
    );
    let mut problems = Vec::new();
    for path in files {
        let relative = path.strip_prefix(&src).expect("under src");
        let part = part_of(relative);
        if ROOTS.contains(&part.as_str()) {
            continue;
        }
        let shown = format!("src/{}", relative.display());
        if allowed(&part).is_none() {
            problems.push(format!(
                "{shown}: the part '{part}' is not in the graph of tests/architecture.rs; add it there and to docs/architecture.md"
            ));
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("a readable source file");
        problems.extend(
            violations(&shown, &part, &source)
                .iter()
                .map(|v| v.to_string()),
        );
    }
    assert!(
        problems.is_empty(),
        "imports against the direction of the parts (docs/architecture.md):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_checker_finds_a_forbidden_import_in_each_form_and_names_its_line() {
    let source = r#"//! A file of games. crate::notify in a comment is no import.
use std::sync::Arc;
use crate::engine::event::Event;
use crate::notify::live::Hub;
use crate::{
    rules,
    http::{api, error::ApiError},
};
const TEXT: &str = "crate::mail_in is only text";

fn f() {
    let c = '"';
    crate::notify::scheduler::seat_deadline();
}
"#;
    let found = violations("src/games/fake.rs", "games", source);
    let lines: Vec<(usize, &str)> = found.iter().map(|v| (v.line, v.path.as_str())).collect();
    assert_eq!(
        lines,
        vec![
            (4, "notify::live::Hub"),
            (5, "http::api"),
            (5, "http::error::ApiError"),
            (13, "notify::scheduler::seat_deadline"),
        ]
    );
    assert_eq!(
        found[0].to_string(),
        "src/games/fake.rs:4: games may not import crate::notify::live::Hub (rule: games may import engine, rules, store, config, metrics)"
    );
}

#[test]
fn a_narrow_edge_allows_its_module_only() {
    assert!(violations("src/http/x.rs", "http", "use crate::notify::live::Tick;").is_empty());
    assert!(violations(
        "src/http/x.rs",
        "http",
        "crate::notify::webhook::install_crypto();"
    )
    .is_empty());
    let found = violations(
        "src/http/x.rs",
        "http",
        "use crate::notify::dispatcher::EMAIL;",
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].path, "notify::dispatcher::EMAIL");
    // The store is under games alone.
    assert_eq!(
        violations("src/http/x.rs", "http", "use crate::store::Store;").len(),
        1
    );
    assert_eq!(
        violations(
            "crates/core/src/engine/x.rs",
            "engine",
            "use crate::metrics;"
        )
        .len(),
        1
    );
    assert!(violations("src/notify/x.rs", "notify", "use crate::metrics::delivery;").is_empty());
}

/// Crates that do I/O (a runtime, a socket, a database, a mail or HTTP client, a web server).
/// The core depends on none of them: a ruleset cannot reach the network, a database or a
/// runtime's clock, and `verify` builds from the core alone.
const IO_CRATES: &[&str] = &[
    "tokio",
    "actix-web",
    "actix-rt",
    "sqlx",
    "lettre",
    "reqwest",
    "hyper",
    "mio",
    "async-std",
    "smol",
    "ureq",
    "rusqlite",
    "postgres",
    "tokio-postgres",
    "mail-parser",
    "minijinja",
];

#[test]
fn the_core_depends_on_no_crate_that_does_io() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).expect("crates/core/Cargo.toml is readable");
    let mut section = String::new();
    let mut dependencies = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').to_owned();
        } else if section == "dependencies" {
            if let Some((name, _)) = line.split_once('=') {
                dependencies.push(name.trim().to_owned());
            }
        }
    }
    assert!(
        dependencies.iter().any(|d| d == "serde"),
        "read the core's dependencies: {dependencies:?}"
    );
    let io: Vec<&String> = dependencies
        .iter()
        .filter(|d| IO_CRATES.contains(&d.as_str()))
        .collect();
    assert!(
        io.is_empty(),
        "crates/core/Cargo.toml depends on {io:?}, which do I/O; the engine and the rules may \
         not (docs/architecture.md, \"The crates\")"
    );
}

#[test]
fn the_shared_parts_are_leaves() {
    // metrics counts labels its callers hand it: it names none of them.
    for path in [
        "use crate::games::ServiceError;",
        "use crate::mail_in::Receipt;",
        "use crate::store::Store;",
        "use crate::config::Settings;",
    ] {
        assert_eq!(
            violations("src/metrics.rs", "metrics", path).len(),
            1,
            "{path}"
        );
    }
    // config reads the settings of every part and names none of them.
    for path in [
        "use crate::notify::dispatcher::DispatchSettings;",
        "use crate::metrics::Exposure;",
        "use crate::games::Games;",
    ] {
        assert_eq!(
            violations("src/config/mod.rs", "config", path).len(),
            1,
            "{path}"
        );
    }
    let found = violations("src/metrics.rs", "metrics", "use crate::games::MoveResult;");
    assert_eq!(
        found[0].to_string(),
        "src/metrics.rs:1: metrics may not import crate::games::MoveResult (rule: metrics may import nothing outside itself)"
    );
}

// ---------------------------------------------------------------------------------------------
// Within a ruleset: no import loop among its files.
//
// A ruleset's files are its chapters and the types under them. A file imports a sibling by
// `super::<sibling>` (or `super::super::<sibling>` from a file a folder down) or by
// `crate::rules::<ruleset>::<sibling>`, in a `use` or inline. Two files that import each other,
// through any number of others, cannot be read one before the other: the shared types and
// helpers belong in a file both import. The ruleset's root (`mod.rs`), which declares and
// plays them all, is not counted.

/// The sibling modules each file of the ruleset `game` imports: `files` holds each file's path
/// under the ruleset's folder (`units.rs`, `board/layers.rs`) and its source.
fn sibling_imports(
    game: &str,
    files: &[(String, String)],
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let module = |file: &str| -> Option<(String, usize)> {
        let parts: Vec<&str> = file.trim_end_matches(".rs").split('/').collect();
        let depth = match parts.last() {
            Some(&"mod") => parts.len() - 1,
            _ => parts.len(),
        };
        (depth > 0).then(|| (parts[0].to_owned(), depth - 1))
    };
    let modules: std::collections::BTreeSet<String> = files
        .iter()
        .filter_map(|(f, _)| module(f).map(|(m, _)| m))
        .collect();
    let mut graph: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = modules
        .iter()
        .map(|m| (m.clone(), Default::default()))
        .collect();
    for (file, source) in files {
        let Some((me, depth)) = module(file) else {
            continue;
        };
        let code = code_only(source);
        let ups = "super::".repeat(depth + 1);
        let ruleset = format!("rules::{game}::");
        let mut paths = Vec::new();
        for start in ["super::", "crate::"] {
            for (at, _) in code.match_indices(start) {
                let before = &code[..at];
                if before.ends_with("::")
                    || before.ends_with('$')
                    || before
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
                {
                    continue;
                }
                let rest = &code[at..];
                let tree_end = path_tree_end(rest);
                paths.extend(expand(&rest[..tree_end]));
            }
        }
        for path in paths {
            let tail = if let Some(t) = path.strip_prefix(ups.as_str()) {
                t
            } else if let Some(t) = path
                .strip_prefix("crate::")
                .and_then(|p| p.strip_prefix(ruleset.as_str()))
            {
                t
            } else {
                continue;
            };
            let first = tail.split("::").next().unwrap_or("");
            if first != me && modules.contains(first) {
                graph
                    .get_mut(&me)
                    .expect("every module is in the graph")
                    .insert(first.to_owned());
            }
        }
    }
    graph
}

/// Where a path or `use` tree starting `rest` ends: `a::b::{c, d::{e}}` or `a::b::c`.
fn path_tree_end(rest: &str) -> usize {
    let mut depth = 0;
    for (k, ch) in rest.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            c if depth == 0 && !(c.is_alphanumeric() || c == '_' || c == ':') => return k,
            _ => {}
        }
    }
    rest.len()
}

/// The import loops of a graph: each strongly connected set of two or more files, as one
/// loop through all of it written `a → b → … → a`, with the set's files sorted.
fn import_loops(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<(Vec<String>, String)> {
    use std::collections::{BTreeMap, BTreeSet};
    // Two files are in one set when each reaches the other.
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(m) = todo.pop() {
            for n in graph.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut loops = Vec::new();
    for m in graph.keys() {
        if done.contains(m) || !reaches[m].contains(m) {
            continue;
        }
        let set: Vec<String> = graph
            .keys()
            .filter(|n| reaches[m].contains(*n) && reaches[*n].contains(m))
            .cloned()
            .collect();
        done.extend(set.iter().cloned());
        // The shortest way round from the set's first file back to it (breadth first).
        let mut came_from: BTreeMap<String, String> = BTreeMap::new();
        let mut todo = std::collections::VecDeque::from([m.clone()]);
        while let Some(at) = todo.pop_front() {
            if came_from.contains_key(m) {
                break;
            }
            for n in &graph[&at] {
                if set.contains(n) && !came_from.contains_key(n) {
                    came_from.insert(n.clone(), at.clone());
                    todo.push_back(n.clone());
                }
            }
        }
        let mut walk = vec![m.clone()];
        let mut at = came_from[m].clone();
        while at != *m {
            walk.push(at.clone());
            at = came_from[&at].clone();
        }
        walk.push(m.clone());
        walk.reverse();
        loops.push((set, walk.join(" → ")));
    }
    loops
}

fn ruleset_files(dir: &Path) -> Vec<(String, String)> {
    let mut paths = Vec::new();
    rust_files(dir, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let relative = p
                .strip_prefix(dir)
                .expect("under the ruleset")
                .to_string_lossy()
                .replace('\\', "/");
            (
                relative,
                std::fs::read_to_string(&p).expect("a readable source file"),
            )
        })
        .collect()
}

#[test]
fn no_ruleset_has_an_import_loop_among_its_files() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src/rules");
    let mut games: Vec<PathBuf> = std::fs::read_dir(&rules)
        .expect("crates/core/src/rules is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    games.sort();
    assert!(games.len() >= 4, "found only {} rulesets", games.len());
    let mut problems = Vec::new();
    for dir in games {
        let game = dir
            .file_name()
            .expect("a folder name")
            .to_string_lossy()
            .into_owned();
        let graph = sibling_imports(&game, &ruleset_files(&dir));
        for (set, walk) in import_loops(&graph) {
            problems.push(format!(
                "crates/core/src/rules/{game}: the files {} import each other: {walk}; move what they share into a file below them",
                set.join(", ")
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "import loops within a ruleset (docs/architecture.md, \"Within a ruleset\"):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_loop_finder_reads_every_form_of_sibling_import_and_names_the_loop() {
    let files = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(f, s)| ((*f).to_owned(), (*s).to_owned()))
            .collect()
    };
    let graph = sibling_imports(
        "game",
        &files(&[
            (
                "mod.rs",
                "pub mod a; pub mod b; pub mod c; pub mod d; use a::X;",
            ),
            (
                "a.rs",
                "use super::{b::Y, rule};\n// super::d in a comment\n",
            ),
            (
                "b.rs",
                "fn f() { super::c::go(); }\nconst T: &str = \"super::d\";",
            ),
            ("c.rs", "use crate::rules::game::a;"),
            ("d/mod.rs", "use super::a::X;"),
            ("d/deep.rs", "use super::super::c; use super::inner;"),
            (
                "e.rs",
                "use crate::rules::other::a; use crate::engine::dice;",
            ),
        ]),
    );
    let edges: Vec<String> = graph
        .iter()
        .flat_map(|(m, to)| to.iter().map(move |t| format!("{m}>{t}")))
        .collect();
    assert_eq!(edges, vec!["a>b", "b>c", "c>a", "d>a", "d>c"]);
    assert_eq!(
        import_loops(&graph),
        vec![(
            vec!["a".to_owned(), "b".to_owned(), "c".to_owned()],
            "a → b → c → a".to_owned()
        )]
    );
}
