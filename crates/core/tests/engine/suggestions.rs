//! Every order a page suggests is one the rules accept at that moment (issue 38), for every
//! ruleset: over bot games, at each step, each example of each prompt as its seat is told it
//! (`Game::own_prompts`: the buttons a seat page offers and a turn mail lists) and, every few steps, each order pointing at the board offers
//! are played on a copy of the game (`Game::play` leaves the game as it was) and must be
//! accepted. An example is an order as it stands: no `<placeholder>` for the player to fill.
//! (Where Eagles Dare's own test, `where_eagles_dare::suggestions`, plays every scenario with
//! its options.)

use despatch_core::engine::bot;
use despatch_core::engine::ruleset::{Seat, SeatDef, Setup};
use despatch_core::rules;
use serde_json::json;

use crate::suggested::accepted;

use crate::sfg_seats;

/// The game `n` of a ruleset: its first scenario that is not a practice set-up, with as few
/// seats as it takes (two at least); Searching for Glory's at three characters of both sides.
fn setup(ruleset: &str, n: u64) -> Setup {
    let r = rules::find(ruleset).unwrap();
    let info = r.info();
    let (scenario, seats): (String, Vec<String>) = if ruleset == "searching-for-glory" {
        let (scenario, seats) = sfg_seats::danube(3, n);
        (
            scenario.into(),
            seats.iter().map(|s| s.to_string()).collect(),
        )
    } else {
        let sc = info
            .scenarios
            .iter()
            .find(|s| !s.practice)
            .unwrap_or(&info.scenarios[0]);
        let count = sc.min_seats.max(2).min(sc.max_seats);
        let seats = (0..count)
            .map(|i| sc.seats.get(i).cloned().unwrap_or(format!("p{i}")))
            .collect();
        (sc.id.clone(), seats)
    };
    Setup {
        game_id: format!("suggested-{ruleset}-{n}"),
        scenario,
        options: json!({}),
        seats: SeatDef::named_by_id(&seats).unwrap(),
    }
}

#[test]
fn every_rulesets_examples_and_pointed_orders_are_accepted_when_suggested() {
    for ruleset in rules::all() {
        let id = ruleset.info().id;
        let (mut examples, mut pointed) = (0, 0);
        for n in 0..3u64 {
            let mut step = 0u64;
            bot::play(
                ruleset.clone(),
                setup(&id, n),
                n * 7_919 + 11,
                120,
                &mut |game, secrets| {
                    step += 1;
                    if game.ended {
                        return Ok(());
                    }
                    let seats: Vec<Seat> = game.prompts().into_iter().map(|p| p.seat).collect();
                    for p in seats.iter().flat_map(|s| game.own_prompts(s)) {
                        for o in &p.options {
                            if o.contains('<') {
                                return Err(format!(
                                    "the example '{o}' for {} at seq {} is a pattern, not an order a button can send",
                                    p.seat, game.next_seq
                                ));
                            }
                            accepted(game, secrets, &p.seat, o, "the example")?;
                            examples += 1;
                        }
                    }
                    if step.is_multiple_of(5) {
                        for sd in &game.created.seats {
                            for p in game.ruleset.pointing(&game.state, &sd.seat) {
                                accepted(game, secrets, &sd.seat, &p.order, "the pointed order")?;
                                pointed += 1;
                            }
                        }
                    }
                    Ok(())
                },
            )
            .unwrap_or_else(|e| panic!("{id}, game {n}: {e}"));
        }
        eprintln!("{id}: {examples} examples, {pointed} pointed orders accepted");
        assert!(examples > 0, "{id}: no prompt ever gave an example");
    }
}
