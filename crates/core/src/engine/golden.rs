//! Golden logs: for every rules version a ruleset plays, exports of games the bot played under
//! it, kept in the repository (tests/golden/<ruleset>/v<version>/) so that every later build
//! is checked against them. A finished game must verify, its final state hash the one its
//! `GameEnded` recorded; a game stopped mid-way comes with the secrets the server would keep
//! for it (hidden seed, dice chain tips, sealed choices not yet revealed) and the hash of its
//! state, must fold to that hash, and must play on to its end, its export verifying — a campaign
//! running when a server is upgraded goes on. A change that folds any of them differently fails
//! the suite; the only way to change a released version's behaviour is a new version
//! (docs/rules/<game>.md, "Rules versions"). `cargo run -p despatch-core --example golden_logs`
//! makes them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value};

use super::bot::{self, check_properties, BotGame, MemorySecrets, Rng, TestWorld};
use super::export;
use super::ruleset::{Ruleset, ScenarioInfo, SeatDef, Setup};
use super::verify;

/// Moves a golden game may take before it is kept as it stands, running.
const MOVE_CAP: usize = 3_000;
/// The seed of every golden game: one game per scenario and kind is enough to pin a fold, and a
/// fixed seed lets anyone remake the corpus exactly.
const SEED: u64 = 1;

/// The folder of one rules version's corpus under `root` (tests/golden).
pub fn folder(root: &Path, ruleset: &str, version: &str) -> PathBuf {
    root.join(ruleset).join(format!("v{version}"))
}

/// Seats for a scenario that names none of its own (any ids, named by the players): as many
/// generic names as it needs. A scenario with its own ids is given all of them, unless the
/// maker says otherwise (`make`'s `seats`).
pub fn default_seats(scenario: &ScenarioInfo) -> Vec<SeatDef> {
    let ids: Vec<String> = if scenario.seats.is_empty() {
        ["alice", "bob", "carol", "dave", "erin", "frank"]
            .iter()
            .take(scenario.min_seats.max(2))
            .map(|s| s.to_string())
            .collect()
    } else {
        scenario.seats.clone()
    };
    SeatDef::named_by_id(&ids).expect("scenario seat ids are seat ids")
}

fn setup(ruleset: &str, scenario: &ScenarioInfo, kind: &str, seats: Vec<SeatDef>) -> Setup {
    Setup {
        game_id: format!("golden-{ruleset}-{}-{kind}", scenario.id),
        scenario: scenario.id.clone(),
        options: options(ruleset),
        seats,
    }
}

/// The options of a corpus's games: the defaults, but the open table's components (from its
/// rules version 3), so that its corpus pins how decks, hands and cups fold. A corpus already
/// made is never made again, so this changes only corpora made from now on.
fn options(ruleset: &str) -> serde_json::Value {
    match ruleset {
        "open-table" => json!({ "components": OPEN_TABLE_COMPONENTS }),
        _ => json!({}),
    }
}

const OPEN_TABLE_COMPONENTS: &str = "\
deck strategy
card 3x Reinforcements | Add two steps
card 2x Forced March
card Ambush
card Blockade
set late
card 2x Tanks
deck events
card Bad Weather
card Revolution
card Spy Scandal
cup reserves
chit 3x Steady
chit 2x Shaken
";

/// Makes the corpus of the newest version `ruleset` plays in `root`: for each scenario a game
/// played to its end (or [`MOVE_CAP`] moves) and one stopped a third of the way, where a
/// sealed choice is open if the game has one then, each seated by `seats`. Returns the files
/// written.
pub fn make(
    ruleset: &Arc<dyn Ruleset>,
    root: &Path,
    seats: &dyn Fn(&ScenarioInfo) -> Vec<SeatDef>,
) -> Result<Vec<PathBuf>, String> {
    let info = ruleset.info();
    let dir = folder(root, &info.id, &info.version);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for scenario in &info.scenarios {
        let whole = bot::play(
            ruleset.clone(),
            setup(&info.id, scenario, "finished", seats(scenario)),
            SEED,
            MOVE_CAP,
            &mut |_, _| Ok(()),
        )
        .map_err(|e| format!("{} {}: {e}", info.id, scenario.id))?;
        written.extend(keep(&dir, &format!("{}-finished", scenario.id), &whole)?);

        // The same game again, stopped a third of the way (at a sealed choice, if one is open
        // after that point).
        let third = (whole.moves / 3).max(1);
        let mut moves = 0;
        let mut cut = None;
        bot::play(
            ruleset.clone(),
            setup(&info.id, scenario, "midway", seats(scenario)),
            SEED,
            whole.moves,
            &mut |game, _| {
                if cut.is_none() && moves >= third && !game.open_seals.is_empty() {
                    cut = Some(moves);
                }
                moves += 1;
                Ok(())
            },
        )
        .map_err(|e| format!("{} {} mid-way: {e}", info.id, scenario.id))?;
        let cut = cut.unwrap_or(third);
        let midway = bot::play(
            ruleset.clone(),
            setup(&info.id, scenario, "midway", seats(scenario)),
            SEED,
            cut,
            &mut |_, _| Ok(()),
        )
        .map_err(|e| format!("{} {} mid-way: {e}", info.id, scenario.id))?;
        written.extend(keep(&dir, &format!("{}-midway", scenario.id), &midway)?);
    }
    Ok(written)
}

/// Writes a bot game's export, and for a game still running the secrets to play it on.
fn keep(dir: &Path, name: &str, game: &BotGame) -> Result<Vec<PathBuf>, String> {
    let log = dir.join(format!("{name}.jsonl"));
    std::fs::write(&log, game.export()).map_err(|e| format!("{}: {e}", log.display()))?;
    let mut written = vec![log];
    if !game.game.ended {
        let kept = dir.join(format!("{name}.secrets.json"));
        let body = json!({
            "state_hash": game.game.state_hash(),
            "secrets": game.secrets.to_json(),
        });
        std::fs::write(&kept, format!("{body:#}\n"))
            .map_err(|e| format!("{}: {e}", kept.display()))?;
        written.push(kept);
    }
    Ok(written)
}

/// What checking one version's corpus found.
#[derive(Debug, Default)]
pub struct Checked {
    pub finished: usize,
    pub played_on: usize,
}

/// Checks the corpus of `version` of `ruleset` in `root` with this build (see the module's
/// doc). An error names the file and what is wrong.
pub fn check(ruleset: &Arc<dyn Ruleset>, root: &Path, version: &str) -> Result<Checked, String> {
    let id = ruleset.id().into_owned();
    let dir = folder(root, &id, version);
    let mut logs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    logs.sort();
    if logs.is_empty() {
        return Err(format!("{} holds no golden log", dir.display()));
    }
    let mut checked = Checked::default();
    for log in logs {
        let fail = |problem: String| format!("{}: {problem}", log.display());
        let text = std::fs::read_to_string(&log).map_err(|e| fail(e.to_string()))?;
        let (header, events) = export::read(&text).map_err(|e| fail(e.to_string()))?;
        if header.ruleset != id || header.ruleset_version != version {
            return Err(fail(format!(
                "a {} version {} log in the corpus of {id} version {version}",
                header.ruleset, header.ruleset_version
            )));
        }
        let report = verify::verify(&text, &|asked| (asked == id).then(|| ruleset.clone()));
        if !report.ok() {
            return Err(fail(format!("does not verify:\n{}", report.render())));
        }
        let kept = log.with_extension("secrets.json");
        if !kept.exists() {
            if !header.complete {
                return Err(fail("a running game's log without its secrets".into()));
            }
            checked.finished += 1;
            continue;
        }
        let kept: Value = std::fs::read_to_string(&kept)
            .map_err(|e| fail(e.to_string()))
            .and_then(|t| serde_json::from_str(&t).map_err(|e| fail(e.to_string())))?;
        let secrets = MemorySecrets::from_json(&kept["secrets"]).map_err(fail)?;
        let mut game = BotGame::resume(ruleset.clone(), events, secrets).map_err(fail)?;
        let recorded = kept["state_hash"].as_str().unwrap_or_default();
        if game.game.state_hash() != recorded {
            return Err(fail(format!(
                "folds to state {}, not the {recorded} it was kept with",
                game.game.state_hash()
            )));
        }
        let mut world = TestWorld::new(SEED ^ 0x60_1D);
        world.tick = game.events.len() as i64 * 60;
        game.play_on(
            &mut world,
            &mut Rng::new(SEED),
            MOVE_CAP,
            &mut |_, _| Ok(()),
        )
        .map_err(|e| fail(format!("does not play on: {e}")))?;
        if !game.game.ended {
            return Err(fail(format!("did not end in {MOVE_CAP} more moves")));
        }
        check_properties(&game).map_err(|e| fail(format!("played on: {e}")))?;
        checked.played_on += 1;
    }
    Ok(checked)
}
