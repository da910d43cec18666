//! Where Eagles Dare driven by the random-legal-move bot: games of each short scenario (with
//! and without sealed free drop plans) and campaigns play to an end without a panic, fold
//! identically twice, verify from their export, and never show a sealed choice (the Air Drop?
//! counters, a drop plan) in the other seat's view before it is revealed, nor the German's
//! off-map boxes or face-down flak in a view, a log line or a prompt the Allied seat reads.

use despatch_core::engine::bot::{self, check_no_sealed_leak, check_properties};
use despatch_core::engine::ruleset::{Outcome, Seat, SeatDef, Setup, Viewer};
use despatch_core::rules;
use despatch_core::rules::where_eagles_dare::data::DATA;
use despatch_core::rules::where_eagles_dare::german_lost;
use despatch_core::rules::where_eagles_dare::order::Command;
use despatch_core::rules::where_eagles_dare::state::{Side, State};
use serde_json::json;

/// Box names no corps track shows: where only the German may know a formation is.
fn secret_boxes() -> Vec<&'static str> {
    DATA.offmap
        .boxes
        .iter()
        .map(|b| b.name.as_str())
        .filter(|b| {
            !DATA
                .offmap
                .corps
                .iter()
                .any(|c| c.boxes.iter().any(|x| x == b))
        })
        .collect()
}

/// The German off-map display (5.0) and its private numbering stay out of the Allied and the
/// spectator's view; returns whether the German
/// view showed a numbering (so the check bit).
fn off_map_kept_secret(game: &despatch_core::engine::game::Game) -> Result<bool, String> {
    let secret = secret_boxes();
    for viewer in [
        Viewer::Seat(Seat::parse("allied").unwrap()),
        Viewer::Spectator,
    ] {
        let view = game.view(&viewer);
        if view["off_map"] != json!("secret (5.0)") {
            return Err(format!(
                "{viewer:?} sees the off-map display: {}",
                view["off_map"]
            ));
        }
        let text = view.to_string();
        if let Some(b) = secret.iter().find(|b| text.contains(**b)) {
            return Err(format!("{viewer:?} sees the off-map box {b}"));
        }
    }
    let german = game.view(&Viewer::Seat(Seat::parse("german").unwrap()));
    Ok(german["off_map"]["numbering"]
        .as_object()
        .is_some_and(|m| !m.is_empty()))
}

/// The flak's types (S5.4) stay out of the Allied and spectator views until flipped; returns
/// whether they were secret here (so the check bit).
fn flak_kept_secret(game: &despatch_core::engine::game::Game) -> Result<bool, String> {
    let german = game.view(&Viewer::Seat(Seat::parse("german").unwrap()));
    let mut secret = false;
    for viewer in [
        Viewer::Seat(Seat::parse("allied").unwrap()),
        Viewer::Spectator,
    ] {
        let view = game.view(&viewer);
        if view["flak"] == json!("secret until flipped (S5.4)") {
            secret = true;
            let text = view.to_string();
            if text.contains("20mm") || text.contains("\"88\"") {
                return Err(format!("{viewer:?} sees a flak type before the flip"));
            }
        } else if view["flak"] != german["flak"] {
            return Err(format!("{viewer:?} sees another flak: {}", view["flak"]));
        }
    }
    Ok(secret)
}

/// What only the German may know at a moment: the off-map boxes no corps track shows, and,
/// while the flak counters are face down (S5.4), each flak unit with its type as the German's
/// lines and board name it.
fn german_secrets(s: &State) -> Vec<String> {
    let mut secret: Vec<String> = secret_boxes().iter().map(|b| (*b).to_owned()).collect();
    if !s.flak_flipped {
        secret.extend(s.flak.iter().map(|(u, t)| format!("{u} {t}")));
    }
    secret
}

/// The paths of the rules added in ruleset version 16 (decisions 37–47) the bot's games reached,
/// counted from the lines their events print (all of them, whoever may read them) and from the
/// state each event leaves: the test asserts each is reached over the suite's run, so the bot
/// is not left playing around them.
#[derive(Debug, Default, Clone, Copy)]
struct Reached {
    /// Decision 37: an action in a hex the enemy does not watch opened no window.
    unwatched: usize,
    /// Decision 40: an enemy entry contested a wired bridge and opened the demolition window.
    window: usize,
    /// Decision 40: the wiring side answered the window with a demolition roll.
    demolished: usize,
    /// Decision 40: the wiring side passed (or let the deadline pass).
    not_demolished: usize,
    /// Decision 39: a bridge wired again by the side whose demolition had missed.
    rewired: usize,
    /// Decisions 38, 45: a ferry taken by abandoning the unit's vehicles.
    ferry_abandon: usize,
    /// Decision 42: a check whose stated faces the division's TQ modifiers changed.
    tq_modified: usize,
    /// Decision 43: a routed 59th Formation's die.
    rout_59th: usize,
    /// Decision 46: a drop roll naming the flak units projecting a Fire Zone.
    flak_named: usize,
    /// Decision 47: a German move O3.0 refuses without a passed lost check, made after one.
    lost_needed: usize,
    /// Decision 47: a German lost check passed.
    lost_passed: usize,
}

impl Reached {
    /// Asserts that each path named was reached over a run of the suite's length or more (a
    /// shorter run may miss some): the bot reaches it sometimes.
    fn assert_reached(&self, scenario: &str, full_run: bool, paths: &[&str]) {
        if !full_run {
            return;
        }
        for p in paths {
            let n = match *p {
                "unwatched" => self.unwatched,
                "window" => self.window,
                "demolished" => self.demolished,
                "not_demolished" => self.not_demolished,
                "rewired" => self.rewired,
                "ferry_abandon" => self.ferry_abandon,
                "tq_modified" => self.tq_modified,
                "rout_59th" => self.rout_59th,
                "flak_named" => self.flak_named,
                "lost_needed" => self.lost_needed,
                "lost_passed" => self.lost_passed,
                other => panic!("no path {other}"),
            };
            assert!(
                n > 0,
                "{scenario}: the bot never reached the path '{p}' of ruleset version 16 ({self:?}): its games no longer play that rule"
            );
        }
    }

    /// What must be read before `command` is folded on `before`: the bridges the side that
    /// missed their demolition had to regain (decision 39), and whether the command is a German
    /// move O3.0 refuses without the passed lost check the unit rolled (decision 47).
    fn before(before: &State, command: Option<&Command>) -> (Vec<String>, bool) {
        let regain = before
            .bridges
            .iter()
            .filter(|(_, b)| b.regain.is_some())
            .map(|(name, _)| name.clone())
            .collect();
        let mut needed = false;
        if let Some(Command::Move { unit, path, .. }) = command {
            if let Some(u) = before.units.get(unit).filter(|u| u.side == Side::German) {
                if before.lost_checked(unit) {
                    let mut unchecked = before.clone();
                    if let Some(a) = unchecked.activity.get_mut(unit) {
                        a.lost_checked = false;
                    }
                    needed = german_lost::check_move(&unchecked, Side::German, unit, u.hex, path)
                        .is_err();
                }
            }
        }
        (regain, needed)
    }

    /// Counts what `lines` say, printed by an event folded on a state `before` read (giving
    /// `after`).
    fn count(&mut self, before: (Vec<String>, bool), after: &State, lines: &[&str]) {
        let (regain, needed) = before;
        for l in lines {
            let has = |x: &str| l.contains(x);
            self.unwatched += usize::from(has("watch list: no opportunity fire window"));
            self.window += usize::from(has("is contested; he may demolish it now"));
            self.demolished += usize::from(has(" demolition of the ") && has(" bridge, "));
            self.not_demolished += usize::from(has("does not demolish the"));
            self.ferry_abandon += usize::from(has("it abandons its vehicles for ever"));
            self.tq_modified += usize::from(has("'s TQ modifiers in force: "));
            self.rout_59th +=
                usize::from(has(" of the 59th Infantry Division: ") && has("the die reads"));
            self.flak_named += usize::from(has("Flak projecting a Fire Zone into zone"));
            self.lost_passed += usize::from(
                has("german troop quality check: ") && has(" lost, passing on ") && has(": passed"),
            );
            if has("wired for demolition by the ") {
                self.rewired += regain
                    .iter()
                    .filter(|name| {
                        after
                            .bridges
                            .get(*name)
                            .is_some_and(|a| a.wired_by.is_some())
                    })
                    .count();
            }
        }
        self.lost_needed += usize::from(needed);
    }
}

/// The log lines and the prompts the Allied seat and a spectator read keep the German's
/// secrets (5.0, S5.4): every event of the game is folded again with its lines, and each line
/// either may read, and the Allied prompts at every step, are searched for what the German
/// alone knew after that event. Returns how many lines were searched (so the check bit).
fn lines_and_prompts_keep_secrets(
    bot: &bot::BotGame,
    reached: &mut Reached,
) -> Result<usize, String> {
    let (first, rest) = bot.events.split_first().ok_or("the game has no events")?;
    let mut game = despatch_core::engine::game::Game::fold(
        bot.game.ruleset.clone(),
        std::slice::from_ref(first),
        bot.secrets.hidden_seed,
    )
    .map_err(|e| e.to_string())?;
    let allied = Seat::parse("allied").unwrap();
    let readers = [Viewer::Seat(allied.clone()), Viewer::Spectator];
    let mut searched = 0;
    for event in rest {
        let command: Option<Command> = event
            .payload
            .get("command")
            .and_then(|c| serde_json::from_value(c.clone()).ok());
        let before = Reached::before(
            game.state.downcast().expect("a Where Eagles Dare state"),
            command.as_ref(),
        );
        let applied = game.fold_event(event).map_err(|e| e.to_string())?;
        let s: &State = game.state.downcast().expect("a Where Eagles Dare state");
        let lines: Vec<&str> = applied.lines.iter().map(|l| l.text.as_str()).collect();
        reached.count(before, s, &lines);
        let secret = german_secrets(s);
        let mut read: Vec<(String, &str)> = Vec::new();
        for line in &applied.lines {
            for r in &readers {
                if r.may_see(line.to.as_deref()) {
                    read.push((format!("{r:?} reads the line"), &line.text));
                }
            }
        }
        let prompts = game.prompts();
        for p in prompts.iter().filter(|p| p.seat == allied) {
            read.push(("the Allied prompt".into(), &p.decision));
            read.extend(
                p.options
                    .iter()
                    .map(|o| ("an Allied option".to_owned(), o.as_str())),
            );
        }
        searched += read.len();
        for (who, text) in read {
            if let Some(x) = secret.iter().find(|x| text.contains(x.as_str())) {
                return Err(format!(
                    "{who} '{text}' at seq {}: it names the German's secret {x}",
                    event.seq
                ));
            }
        }
    }
    Ok(searched)
}

/// A synthetic map around the bots' start hexes (41.230, 43.228): every terrain of the chart,
/// roads, a raised road, streams, crests and an impassable hexside, so moves, set-ups and
/// fire are checked against it (option `map`).
fn bot_map() -> String {
    const TERRAIN: [&str; 9] = [
        "clear",
        "polder",
        "orchard",
        "woods",
        "village",
        "town",
        "city",
        "fortified",
        "dunes",
    ];
    let mut text = String::new();
    for c in 36..=48u32 {
        for r in 220..=236u32 {
            let t = TERRAIN[((c * 7 + r * 3) % 9) as usize];
            let road = if c == 41 || r == 228 { " road" } else { "" };
            let raised = if c == 45 && r % 2 == 0 { " raised" } else { "" };
            text.push_str(&format!("hex {c}.{r} {t}{road}{raised}\n"));
            if (c + r) % 5 == 0 {
                text.push_str(&format!("side {c}.{r} {c}.{} crest\n", r + 1));
            }
            if (c * r) % 11 == 0 {
                text.push_str(&format!("side {c}.{r} {c}.{} stream\n", r + 1));
            }
        }
    }
    text.push_str("hex 40.232 impassable\nside 42.230 42.231 impassable\n");
    text
}

/// Every fourth game plays the optional rules (O1–O4) and, but in A Ride in the Country, a
/// lost A Ride in the Country (2.11); every fourth other game is played on a map.
pub fn setup(scenario: &str, free_drop: bool, n: u64) -> Setup {
    let mut options = json!({ "free_drop": free_drop });
    if n % 4 == 1 {
        options["map"] = json!(bot_map());
    }
    if n % 4 == 2 {
        options["covering_fire"] = json!(true);
        options["alternate_chits"] = json!(true);
        options["german_lost"] = json!(true);
        options["airborne_tanks"] = json!(["tetrarch", "locust"][(n / 4 % 2) as usize]);
        if scenario != "a-ride-in-the-country" {
            options["southern_bridge_unstable"] = json!(true);
        }
    }
    Setup {
        game_id: format!("wed-bot-{scenario}-{n}"),
        scenario: scenario.into(),
        options,
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    }
}

/// Plays `games` bot games; returns how many sealed choices were seen open (and checked), and
/// how many times the German view showed an off-map numbering the others did not see.
fn play_many(scenario: &str, games: u64, max_moves: usize) -> (usize, usize, Reached) {
    let ruleset = rules::find("where-eagles-dare").unwrap();
    let mut seen_open = 0;
    let mut numbered = 0;
    let mut flak_secret = 0;
    let mut days_played = Vec::new();
    let mut lines_searched = 0;
    let mut reached = Reached::default();
    for n in 0..games {
        let free_drop = n % 2 == 1;
        let mut check = |game: &despatch_core::engine::game::Game, secrets: &bot::MemorySecrets| {
            seen_open += game.open_seals.len();
            if !game.ended {
                numbered += usize::from(off_map_kept_secret(game)?);
                flak_secret += usize::from(flak_kept_secret(game)?);
            }
            check_no_sealed_leak(game, secrets)
        };
        let game = bot::play(
            ruleset.clone(),
            setup(scenario, free_drop, n),
            n * 7919 + 3,
            max_moves,
            &mut check,
        )
        .unwrap_or_else(|e| panic!("{scenario}, game {n}: {e}"));
        assert!(
            game.game.ended,
            "{scenario}, game {n} did not end in {} moves",
            game.moves
        );
        assert!(matches!(game.game.outcome(), Outcome::Finished { .. }));
        // Nobody resigned: the game was played to the scenario's last turn, every day of it
        // (the campaign's nine).
        let s: &State = game
            .game
            .state
            .downcast()
            .expect("a Where Eagles Dare state");
        let sc = DATA.scenario(scenario).expect("the scenario");
        assert!(
            s.resigned.is_none() && (s.day, s.time) == sc.last,
            "{scenario}, game {n} ended at day {} turn {}, not its last turn",
            s.day,
            s.time
        );
        days_played.push(u32::from(s.day - sc.first.0) + 1);
        check_properties(&game).unwrap_or_else(|e| panic!("{scenario}, game {n}: {e}"));
        lines_searched += lines_and_prompts_keep_secrets(&game, &mut reached)
            .unwrap_or_else(|e| panic!("{scenario}, game {n}: {e}"));
        for e in &game.events {
            let payload = e.payload.to_string();
            if let Some(b) = secret_boxes().iter().find(|b| payload.contains(**b)) {
                panic!(
                    "{scenario}, game {n}: event {} names the off-map box {b}",
                    e.seq
                );
            }
        }
    }
    if scenario != "a-ride-in-the-country" {
        assert!(
            flak_secret > 0,
            "the flak was never face down: the check checked nothing"
        );
    }
    println!(
        "{scenario}: {games} games played to their last turn, {} to {} days each; {lines_searched} Allied and spectator lines and prompts searched for the German's secrets",
        days_played.iter().min().unwrap_or(&0),
        days_played.iter().max().unwrap_or(&0)
    );
    println!("{scenario}: the paths of ruleset version 16 reached: {reached:?}");
    assert!(
        games == 0 || lines_searched > 0,
        "no line or prompt was searched: the secrecy check checked nothing"
    );
    (seen_open, numbered, reached)
}

/// A count from the environment variable `name`, or `default` (the suite's): the issue's
/// longer runs set them (docs/rules/where-eagles-dare.md, "Bot runs").
fn count(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .map(|n| {
            n.parse()
                .unwrap_or_else(|_| panic!("{name} is a number of games"))
        })
        .unwrap_or(default)
}

/// Games of each short scenario a test plays: 50, or `DESPATCH_BOT_GAMES` (the 500).
fn games() -> u64 {
    count("DESPATCH_BOT_GAMES", 50)
}

/// Campaigns (nine days) a test plays: 3, or `DESPATCH_BOT_CAMPAIGNS` (the 50).
fn campaigns() -> u64 {
    count("DESPATCH_BOT_CAMPAIGNS", 3)
}

/// Whether the run plays the suite's games or more (the paths' counts only grow with more).
fn full_run() -> bool {
    games() >= 50 && campaigns() >= 3
}

#[test]
fn a_ride_in_the_country_bot_games_end_fold_verify_and_keep_secrets() {
    let (_, _, reached) = play_many("a-ride-in-the-country", games(), 5_000);
    // Decisions 37, 40, 47 (the flak, the 59th and the divisions' modifiers are not in it).
    reached.assert_reached(
        "a-ride-in-the-country",
        full_run(),
        &["unwatched", "window", "demolished", "lost_passed"],
    );
}

#[test]
fn the_best_laid_plans_bot_games_end_fold_verify_and_keep_the_air_drop_sealed() {
    let (seen, _, reached) = play_many("the-best-laid-plans", games(), 5_000);
    // Decisions 37, 39, 40, 46, 47 (each path is asserted in the scenario that reaches it most;
    // the counts print for all).
    reached.assert_reached(
        "the-best-laid-plans",
        full_run(),
        &[
            "unwatched",
            "window",
            "demolished",
            "not_demolished",
            "rewired",
            "flak_named",
            "lost_needed",
            "lost_passed",
        ],
    );
    assert!(
        seen > 0,
        "no sealed choice was ever open: the leak check checked nothing"
    );
}

#[test]
fn campaign_bot_games_of_nine_days_end_fold_verify_and_keep_secrets() {
    let (seen, numbered, reached) = play_many("campaign", campaigns(), 20_000);
    // Decisions 37, 38 and 45, 40, 42 (KG Chill's +1 from the 21st), 43, 47.
    reached.assert_reached(
        "campaign",
        full_run(),
        &[
            "unwatched",
            "window",
            "demolished",
            "not_demolished",
            "ferry_abandon",
            "tq_modified",
            "rout_59th",
            "lost_passed",
        ],
    );
    let sc = DATA.scenario("campaign").unwrap();
    assert!(
        sc.last.0 - sc.first.0 + 1 >= 3,
        "the issue's campaigns are of three days or more"
    );
    assert!(seen > 0, "no sealed choice was ever open");
    assert!(
        numbered > 0,
        "the German view never showed an off-map numbering: the secrecy check checked nothing"
    );
}

/// 3.3.2, 3.4.1: in free-drop games the bot's plans name the real airborne Formations of the
/// order of battle, so its units drop where the opened plan puts them and roll on the Drop
/// Table; a count of accepted rolls keeps that coverage from vanishing unseen.
#[test]
fn s3_3_2_free_drop_bot_games_roll_on_the_drop_table_as_the_opened_plan_says() {
    let ruleset = rules::find("where-eagles-dare").unwrap();
    let mut rolled = 0;
    let mut plans = 0;
    for n in 0..20u64 {
        let game = bot::play(
            ruleset.clone(),
            setup("the-best-laid-plans", true, 2 * n + 1),
            n * 7919 + 11,
            5_000,
            &mut |game, secrets| check_no_sealed_leak(game, secrets),
        )
        .unwrap_or_else(|e| panic!("free drop game {n}: {e}"));
        let s: &State = game
            .game
            .state
            .downcast()
            .expect("a Where Eagles Dare state");
        // Units of the order of battle only: the plan binds those (3.3.2).
        rolled += s
            .drop_rolled
            .iter()
            .filter(|u| {
                despatch_core::rules::where_eagles_dare::oob::OOB
                    .unit(u)
                    .is_some()
            })
            .count();
        plans += s.drops.iter().filter(|d| d.plan.is_some()).count();
    }
    println!("free drop: {plans} plans opened, {rolled} drop rolls accepted");
    assert!(plans > 0, "no free drop plan was ever opened");
    assert!(
        rolled > 0,
        "no drop roll was accepted in the free drop games: the Drop Table went unplayed"
    );
}
