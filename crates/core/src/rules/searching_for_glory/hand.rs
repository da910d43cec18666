//! A seat's own hand as cards on its page (`Rules::hand`, docs/rules/searching-for-glory.md,
//! "The hand on the seat's page"): each card by name, colour(s) and reactive mark (rules 1,
//! `data/deck.txt`) and what it does (`data/reactive.txt`, `data/faces.txt`, reconstructed),
//! with what pointing at it makes now — in the Planning Phase the cards are gathered into
//! `plan <positions>` (2., 1.b: only the sets of one colour each that `plan::check` accepts),
//! in a reactive window the seat's cards that can answer it make `react <card>` (1.e: only those
//! `reactive::playable` gives, when the seat is prompted). Also the seat's own options in a
//! window (`Rules::own_options`): `pass` and its answering cards, never the `react <card>` form.

use crate::engine::board::{Card, Gather, Hand};
use crate::engine::ruleset::Prompt;

use super::data::{self, Who};
use super::plan;
use super::reactive;
use super::state::{Phase, Plan, State};

/// The public prompt's form for a reactive card, which a seat's own options replace.
pub const REACT_FORM: &str = "react <card>";

/// Player `p`'s hand now, for his own page.
pub fn hand(state: &State, p: usize, to_act: bool) -> Hand {
    let player = &state.players[p];
    let answering = if to_act && state.window.is_some() {
        reactive::playable(state, p)
    } else {
        Vec::new()
    };
    let cards = player
        .hand
        .iter()
        .enumerate()
        .map(|(i, key)| card(i + 1, key, &answering))
        .collect();
    let planning = to_act
        && state.window.is_none()
        && state.phase == Phase::Plan
        && !player.entering
        && player.plan == Plan::Waiting;
    Hand {
        cards,
        gather: planning.then(|| Gather {
            head: "plan".into(),
            sets: plans(&player.hand),
            help: format!(
                "Choose up to {} cards, one colour each, to plan (sealed until every plan is in); the cards that cannot join the ones chosen are greyed.",
                plan::MAX_PLANNED
            ),
        }),
    }
}

/// The card at hand position `at` (1-based), with `react <key>` where it can answer now.
fn card(at: usize, key: &str, answering: &[String]) -> Card {
    let kind = data::card(key).expect("a hand holds cards of the deck");
    Card {
        id: at.to_string(),
        name: kind.name.clone(),
        colours: kind.colours().map(|c| c.name().to_owned()).collect(),
        reactive: kind.reactive,
        text: text(key),
        orders: if answering.iter().any(|k| k == key) {
            vec![format!("react {key}")]
        } else {
            Vec::new()
        },
    }
}

/// What the card does: a reactive card's window, who may play it and its effect; any other
/// card's faces, each as its clause and effect.
fn text(key: &str) -> String {
    if let Some(r) = data::reactive(key) {
        let when = if r.battle {
            "before a battle's dice"
        } else {
            "when an operation is announced"
        };
        let who = match r.who {
            Who::Any => "any player",
            Who::Enemy => "a player of the other side",
            Who::Attacker => "a player of the attacking side",
            Who::Defender => "a player of the defending side",
            Who::AtBattle => "a defender at the battle's LP",
            Who::NearBattle => "a player whose CU is one CL from the battle",
        };
        return format!(
            "Reactive (1.e), {when}, by {who}: {}. Or, in answer, it nullifies the last reactive card played.",
            r.effect
        );
    }
    let kind = data::card(key).expect("a card of the deck");
    kind.faces
        .iter()
        .filter_map(|f| data::face_text(&f.name))
        .collect::<Vec<_>>()
        .join("; or ")
}

/// Every plan of the hand `plan::check` accepts (2., 1.b), as hand positions in hand order: at
/// most 4 cards, one colour each, never Reap the Initiative!.
fn plans(hand: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut chosen = Vec::new();
    fn go(hand: &[String], from: usize, chosen: &mut Vec<usize>, out: &mut Vec<Vec<String>>) {
        for at in from..=hand.len() {
            chosen.push(at);
            if plan::check(hand, chosen).is_ok() {
                out.push(chosen.iter().map(usize::to_string).collect());
                if chosen.len() < plan::MAX_PLANNED {
                    go(hand, at + 1, chosen, out);
                }
            }
            chosen.pop();
        }
    }
    go(hand, 1, &mut chosen, &mut out);
    out
}

/// Player `p`'s own options for his prompt, as the seat itself is told them: in a reactive
/// window, the public prompt's `react <card>` form is replaced by `react <key>` for each card of
/// his hand that can answer now (none if he holds none); in the Planning Phase, the public
/// `plan <cards>` form by plans of his own hand that the rules accept (the most cards first,
/// then single cards); running an NPC (3.4), the public forms by the operations the NPC's hand
/// allows. Every other prompt's options as they are.
pub fn own_options(state: &State, p: usize, prompt: &Prompt) -> Vec<String> {
    let forms = [REACT_FORM, PLAN_FORM];
    if state.window.is_none() && state.runs_npc(p) {
        return super::bot::options(state, p);
    }
    if !prompt.options.iter().any(|o| forms.contains(&o.as_str())) {
        return prompt.options.clone();
    }
    let mut out: Vec<String> = Vec::new();
    if prompt.options.iter().any(|o| o == PLAN_FORM) {
        out.extend(own_plans(&state.players[p].hand));
    }
    out.extend(
        prompt
            .options
            .iter()
            .filter(|o| !forms.contains(&o.as_str()))
            .cloned(),
    );
    if state.window.is_some() {
        for key in reactive::playable(state, p) {
            let order = format!("react {key}");
            if !out.contains(&order) {
                out.push(order);
            }
        }
    }
    out
}

/// The public prompt's form for a plan, which a seat's own options replace by plans of its hand.
pub const PLAN_FORM: &str = "plan <cards>";

/// Up to three plans of `hand` the rules accept, as orders: the first of the most cards, then
/// the first two of one card.
fn own_plans(hand: &[String]) -> Vec<String> {
    let all = plans(hand);
    let most = all.iter().map(Vec::len).max().unwrap_or(0);
    let fullest = all.iter().filter(|p| p.len() == most && most > 1).take(1);
    let singles = all.iter().filter(|p| p.len() == 1).take(2);
    fullest
        .chain(singles)
        .map(|p| format!("plan {}", p.join(" ")))
        .collect()
}
