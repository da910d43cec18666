//! Campaigns that survive upgrades (docs/rules/<game>.md, "Rules versions"): every golden log
//! of every version each ruleset plays folds to what it recorded and plays on with this build;
//! and a gated rules change, made here in a test build of each ruleset, reaches only the games
//! created after it — a game begun before plays on under the rules it began with, a new game
//! under the new ones, and both exports verify.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use despatch_core::engine::board::{Board, Pointed};
use despatch_core::engine::bot::{self, BotGame, MemorySecrets, Rng, TestWorld};
use despatch_core::engine::dice::DiceStream;
use despatch_core::engine::event::kind;
use despatch_core::engine::export;
use despatch_core::engine::golden;
use despatch_core::engine::position::{PositionError, Positioned};
use despatch_core::engine::ruleset::{
    BoardContext, BotRng, Ctx, Erased, Outcome, Prompt, RuleError, Rules, Ruleset, RulesetInfo,
    Seat, Setup, Viewer,
};
use despatch_core::engine::verify::verify;
use despatch_core::rules;
use despatch_core::rules::{
    for_honor_and_glory::ForHonorAndGlory, hour_of_glory::HourOfGlory, open_table::OpenTable,
    searching_for_glory::SearchingForGlory, where_eagles_dare::WhereEaglesDare,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Value};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden")
}

/// Checks every version's corpus of one ruleset, and that the corpus keeps no version the
/// ruleset no longer plays (a version never leaves the list).
fn golden_logs_of(id: &str) {
    let ruleset = rules::find(id).unwrap();
    for version in ruleset.versions() {
        let checked = golden::check(&ruleset, &corpus(), version).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            checked.finished > 0 && checked.played_on > 0,
            "{id} version {version}: {checked:?}"
        );
    }
    for dir in std::fs::read_dir(corpus().join(id)).unwrap() {
        let name = dir.unwrap().file_name().into_string().unwrap();
        let version = name.strip_prefix('v').unwrap_or(&name);
        assert!(
            ruleset.versions().contains(&version),
            "tests/golden/{id}/{name} is a version {id} no longer plays: {:?}",
            ruleset.versions()
        );
    }
}

#[test]
fn open_table_golden_logs_fold_verify_and_play_on() {
    golden_logs_of("open-table");
}

#[test]
fn for_honor_and_glory_golden_logs_fold_verify_and_play_on() {
    golden_logs_of("for-honor-and-glory");
}

#[test]
fn hour_of_glory_golden_logs_fold_verify_and_play_on() {
    golden_logs_of("hour-of-glory");
}

#[test]
fn searching_for_glory_golden_logs_fold_verify_and_play_on() {
    golden_logs_of("searching-for-glory");
}

#[test]
fn where_eagles_dare_golden_logs_fold_verify_and_play_on() {
    golden_logs_of("where-eagles-dare");
}

/// A ruleset with one rules change more, gated on the game's version the way a real change is:
/// from its new version on, the state counts the commands played and the view shows the count.
/// Under the versions before, it is the ruleset itself, state for state (and hash for hash).
struct Amended<R> {
    rules: R,
    versions: &'static [&'static str],
}

impl<R: Rules> Amended<R> {
    fn new(rules: R) -> Self {
        let mut versions = rules.versions().to_vec();
        let next = versions.last().unwrap().parse::<u32>().unwrap() + 1;
        versions.push(Box::leak(next.to_string().into_boxed_str()));
        Amended {
            rules,
            versions: Box::leak(versions.into_boxed_slice()),
        }
    }

    fn newest(&self) -> &'static str {
        self.versions[self.versions.len() - 1]
    }
}

/// The amended state: the counter exists only in games of the new version.
#[derive(Clone)]
struct Versioned<S> {
    commands: Option<u64>,
    inner: S,
}

impl<S: Serialize> Serialize for Versioned<S> {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        match self.commands {
            None => self.inner.serialize(s),
            Some(n) => json!({ "amended_commands": n, "inner": &self.inner }).serialize(s),
        }
    }
}

impl<'de, S: DeserializeOwned> Deserialize<'de> for Versioned<S> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let amended = v.as_object().filter(|o| o.len() == 2).and_then(|o| {
            Some((
                o.get("amended_commands")?.as_u64()?,
                o.get("inner")?.clone(),
            ))
        });
        let (commands, inner) = match amended {
            Some((n, inner)) => (Some(n), inner),
            None => (None, v),
        };
        let inner = serde_json::from_value(inner).map_err(serde::de::Error::custom)?;
        Ok(Versioned { commands, inner })
    }
}

impl<R: Rules> Rules for Amended<R> {
    type State = Versioned<R::State>;
    type Command = R::Command;

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            version: self.newest().into(),
            ..self.rules.info()
        }
    }
    fn id(&self) -> Cow<'static, str> {
        self.rules.id()
    }
    fn versions(&self) -> &'static [&'static str] {
        self.versions
    }
    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<Self::State, RuleError> {
        self.setup_version(self.newest(), setup, hidden)
    }
    fn setup_version(
        &self,
        version: &str,
        setup: &Setup,
        hidden: &mut DiceStream,
    ) -> Result<Self::State, RuleError> {
        let new = version == self.newest();
        let inner = self.rules.setup_version(version, setup, hidden)?;
        Ok(Versioned {
            commands: new.then_some(0),
            inner,
        })
    }
    fn prompts(&self, state: &Self::State) -> Vec<Prompt> {
        self.rules.prompts(&state.inner)
    }
    fn may_act(&self, state: &Self::State, seat: &Seat) -> bool {
        self.rules.may_act(&state.inner, seat)
    }
    fn apply(
        &self,
        state: &mut Self::State,
        seat: &Seat,
        command: &Self::Command,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        self.rules.apply(&mut state.inner, seat, command, ctx)?;
        // The gated change: only games of the new version count.
        if let Some(n) = &mut state.commands {
            *n += 1;
        }
        Ok(())
    }
    fn seal(&self, command: &Self::Command) -> Option<(Value, Self::Command)> {
        self.rules.seal(command)
    }
    fn reveal(
        &self,
        state: &mut Self::State,
        seat: &Seat,
        commitment: &str,
        choice: &Value,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        self.rules
            .reveal(&mut state.inner, seat, commitment, choice, ctx)
    }
    fn timeout(
        &self,
        state: &mut Self::State,
        seat: &Seat,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        self.rules.timeout(&mut state.inner, seat, ctx)
    }
    fn resign(&self, state: &mut Self::State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        self.rules.resign(&mut state.inner, seat, ctx)
    }
    fn view(&self, state: &Self::State, viewer: &Viewer) -> Value {
        let mut view = self.rules.view(&state.inner, viewer);
        if let (Some(n), Some(map)) = (state.commands, view.as_object_mut()) {
            map.insert("amended_commands".into(), json!(n));
        }
        view
    }
    fn parse(
        &self,
        state: &Self::State,
        seat: &Seat,
        text: &str,
    ) -> Result<Self::Command, RuleError> {
        self.rules.parse(&state.inner, seat, text)
    }
    fn describe(&self, command: &Self::Command) -> String {
        self.rules.describe(command)
    }
    fn outcome(&self, state: &Self::State) -> Outcome {
        self.rules.outcome(&state.inner)
    }
    fn board(&self, state: &Self::State, viewer: &Viewer, context: &BoardContext) -> Option<Board> {
        self.rules.board(&state.inner, viewer, context)
    }
    fn board_svg(
        &self,
        state: &Self::State,
        viewer: &Viewer,
        context: &BoardContext,
    ) -> Option<String> {
        self.rules.board_svg(&state.inner, viewer, context)
    }
    fn pointing(&self, state: &Self::State, seat: &Seat) -> Vec<Pointed> {
        self.rules.pointing(&state.inner, seat)
    }
    fn may_tell(&self, state: &Self::State, from: &Seat, to: &Seat) -> Result<(), RuleError> {
        self.rules.may_tell(&state.inner, from, to)
    }
    fn board_text(&self, state: &Self::State, viewer: &Viewer) -> Option<String> {
        self.rules.board_text(&state.inner, viewer)
    }
    fn random_command(
        &self,
        state: &Self::State,
        seat: &Seat,
        rng: BotRng,
    ) -> Option<Self::Command> {
        self.rules.random_command(&state.inner, seat, rng)
    }
    fn position(
        &self,
        setup: &Setup,
        text: &str,
        hidden: &mut DiceStream,
    ) -> Result<Positioned<Self::State>, PositionError> {
        let _ = (setup, text, hidden);
        unimplemented!("positions are not part of this test")
    }
    fn position_format(&self) -> &'static str {
        self.rules.position_format()
    }
}

/// The count the amended rules show a seat, if the game is of the new version.
fn amended_count(game: &BotGame) -> Option<u64> {
    let seat = game.game.created.seats[0].seat.clone();
    game.game
        .ruleset
        .view(&game.game.state, &Viewer::Seat(seat))["amended_commands"]
        .as_u64()
}

fn verifies_with(ruleset: &Arc<dyn Ruleset>, text: &str) -> Result<(), String> {
    let report = verify(text, &|id| (id == ruleset.id()).then(|| ruleset.clone()));
    if report.ok() {
        Ok(())
    } else {
        Err(report.render())
    }
}

/// The upgrade of one ruleset to its amended build, seen from a campaign begun before it and
/// from one begun after.
fn upgrade<R: Rules>(rules: R) {
    let old: Arc<dyn Ruleset> = rules::find(&rules.id()).unwrap();
    let id = old.id().into_owned();
    let version = old.info().version;
    let amended = Amended::new(rules);
    let new_version = amended.newest();
    let upgraded: Arc<dyn Ruleset> = Arc::new(Erased(amended));

    // A campaign begun before the upgrade: the golden mid-way log of its first scenario.
    let dir = golden::folder(&corpus(), &id, &version);
    let scenario = &old.info().scenarios[0].id;
    let log = dir.join(format!("{scenario}-midway.jsonl"));
    let (_, events) = export::read(&std::fs::read_to_string(&log).unwrap()).unwrap();
    let kept: Value =
        serde_json::from_str(&std::fs::read_to_string(log.with_extension("secrets.json")).unwrap())
            .unwrap();
    let secrets = MemorySecrets::from_json(&kept["secrets"]).unwrap();
    let mut running = BotGame::resume(upgraded.clone(), events, secrets).unwrap();
    assert_eq!(running.game.created.ruleset_version, version);
    let mut world = TestWorld::new(7);
    world.tick = running.events.len() as i64 * 60;
    running
        .play_on(&mut world, &mut Rng::new(7), 3_000, &mut |_, _| Ok(()))
        .unwrap();
    assert!(running.game.ended, "{id}: the running game did not end");
    assert_eq!(
        amended_count(&running),
        None,
        "{id}: a game begun under version {version} plays under the change of {new_version}"
    );
    // Hash for hash what the build before the upgrade folds the longer log to.
    let before =
        BotGame::resume(old.clone(), running.events.clone(), running.secrets.clone()).unwrap();
    assert_eq!(before.game.state_hash(), running.game.state_hash(), "{id}");
    verifies_with(&upgraded, &running.export()).unwrap_or_else(|e| panic!("{id}: {e}"));

    // A campaign begun after it: the new version and the new behaviour.
    let setup = Setup {
        game_id: format!("upgrade-{id}"),
        scenario: scenario.clone(),
        options: json!({}),
        seats: running.game.created.seats.clone(),
    };
    let fresh = bot::play(upgraded.clone(), setup, 7, 3_000, &mut |_, _| Ok(())).unwrap();
    assert!(fresh.game.ended, "{id}: the new game did not end");
    assert_eq!(fresh.game.created.ruleset_version, new_version);
    let commands = fresh
        .events
        .iter()
        .filter(|e| e.kind == kind::COMMAND)
        .count() as u64;
    assert_eq!(amended_count(&fresh), Some(commands), "{id}");
    verifies_with(&upgraded, &fresh.export()).unwrap_or_else(|e| panic!("{id}: {e}"));
    // The build before does not play the new version: loading such a game is refused, naming
    // the versions it plays.
    let played = despatch_core::engine::game::versions_text(old.versions());
    let refused = BotGame::resume(old, fresh.events.clone(), fresh.secrets.clone())
        .err()
        .unwrap();
    assert!(
        refused.contains(&format!(
            "created under {id} rules version {new_version}, which this build does not play (it plays {played})"
        )),
        "{refused}"
    );
}

#[test]
fn an_open_table_game_keeps_its_rules_across_an_upgrade() {
    upgrade(OpenTable);
}

#[test]
fn a_for_honor_and_glory_game_keeps_its_rules_across_an_upgrade() {
    upgrade(ForHonorAndGlory);
}

#[test]
fn an_hour_of_glory_game_keeps_its_rules_across_an_upgrade() {
    upgrade(HourOfGlory);
}

#[test]
fn a_searching_for_glory_game_keeps_its_rules_across_an_upgrade() {
    upgrade(SearchingForGlory);
}

#[test]
fn a_where_eagles_dare_game_keeps_its_rules_across_an_upgrade() {
    upgrade(WhereEaglesDare);
}
