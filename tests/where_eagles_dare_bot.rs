//! Where Eagles Dare driven by the random-legal-move bot: games of each short scenario (with
//! and without sealed free drop plans) and campaigns play to an end without a panic, fold
//! identically twice, verify from their export, and never show a sealed choice (the Air Drop?
//! counters, a drop plan) in the other seat's view before it is revealed, nor the German's
//! off-map boxes or face-down flak in a view, a log line or a prompt the Allied seat reads.

use despatch::engine::bot::{self, check_no_sealed_leak, check_properties};
use despatch::engine::ruleset::{Outcome, Seat, SeatDef, Setup, Viewer};
use despatch::rules;
use despatch::rules::where_eagles_dare::data::DATA;
use despatch::rules::where_eagles_dare::state::State;
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
fn off_map_kept_secret(game: &despatch::engine::game::Game) -> Result<bool, String> {
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
fn flak_kept_secret(game: &despatch::engine::game::Game) -> Result<bool, String> {
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

/// The log lines and the prompts the Allied seat and a spectator read keep the German's
/// secrets (5.0, S5.4): every event of the game is folded again with its lines, and each line
/// either may read, and the Allied prompts at every step, are searched for what the German
/// alone knew after that event. Returns how many lines were searched (so the check bit).
fn lines_and_prompts_keep_secrets(bot: &bot::BotGame) -> Result<usize, String> {
    let (first, rest) = bot.events.split_first().ok_or("the game has no events")?;
    let mut game = despatch::engine::game::Game::fold(
        bot.game.ruleset.clone(),
        std::slice::from_ref(first),
        bot.secrets.hidden_seed,
    )
    .map_err(|e| e.to_string())?;
    let allied = Seat::parse("allied").unwrap();
    let readers = [Viewer::Seat(allied.clone()), Viewer::Spectator];
    let mut searched = 0;
    for event in rest {
        let applied = game.fold_event(event).map_err(|e| e.to_string())?;
        let s: &State = game.state.downcast().expect("a Where Eagles Dare state");
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
fn setup(scenario: &str, free_drop: bool, n: u64) -> Setup {
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
fn play_many(scenario: &str, games: u64, max_moves: usize) -> (usize, usize) {
    let ruleset = rules::find("where-eagles-dare").unwrap();
    let mut seen_open = 0;
    let mut numbered = 0;
    let mut flak_secret = 0;
    let mut days_played = Vec::new();
    let mut lines_searched = 0;
    for n in 0..games {
        let free_drop = n % 2 == 1;
        let mut check = |game: &despatch::engine::game::Game, secrets: &bot::MemorySecrets| {
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
        lines_searched += lines_and_prompts_keep_secrets(&game)
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
    assert!(
        games == 0 || lines_searched > 0,
        "no line or prompt was searched: the secrecy check checked nothing"
    );
    (seen_open, numbered)
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

#[test]
fn a_ride_in_the_country_bot_games_end_fold_verify_and_keep_secrets() {
    play_many("a-ride-in-the-country", games(), 5_000);
}

#[test]
fn the_best_laid_plans_bot_games_end_fold_verify_and_keep_the_air_drop_sealed() {
    let (seen, _) = play_many("the-best-laid-plans", games(), 5_000);
    assert!(
        seen > 0,
        "no sealed choice was ever open: the leak check checked nothing"
    );
}

#[test]
fn campaign_bot_games_of_nine_days_end_fold_verify_and_keep_secrets() {
    let (seen, numbered) = play_many("campaign", campaigns(), 20_000);
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
                despatch::rules::where_eagles_dare::oob::OOB
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
