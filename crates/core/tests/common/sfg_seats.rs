//! The Searching for Glory games the bot tests play (`#[path]`-included, so that the rules-only
//! tests build without the server's test support in `tests/common`).

/// The scenario and seats of game `n` at `players` (3 or 6): both scenarios in turn, with and
/// without Napoleon.
pub fn danube(players: usize, n: u64) -> (&'static str, &'static [&'static str]) {
    match (players, n % 2) {
        (3, 0) => ("danube-1809", &["napoleon", "davout", "charles"]),
        (3, _) => ("danube-1809-berthier", &["lannes", "hiller", "louis"]),
        (_, 0) => (
            "danube-1809",
            &["napoleon", "davout", "lannes", "charles", "hiller", "louis"],
        ),
        (_, _) => (
            "danube-1809-berthier",
            &[
                "berthier", "davout", "massena", "charles", "hiller", "louis",
            ],
        ),
    }
}
