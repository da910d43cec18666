//! Positions set by hand, for `despatch replay` (docs/rules/searching-for-glory.md, "Positions
//! (despatch replay)"): the scenario as set up (the first round's cards drawn), then one
//! statement a line — the round and phase, each character's CU, lone SP, bridges blown, and
//! the face-down deal: each hand, the deck's order, the discards. Checked as a set-up is: LPs of
//! the scenario's map, one side to an LP, and no card dealt more often than the deck holds it.

pub mod card_battle;
pub mod under_way;
pub mod write;

use std::collections::BTreeMap;

use super::data::{self, Side};
use super::state::{bridge_key, Entry, LoneSp, Phase, Plan, Siege, State, Victory};
use super::SearchingForGlory;
use crate::engine::dice::DiceStream;
use crate::engine::position::{statements, unknown, PositionError, Positioned, Statement};
use crate::engine::ruleset::{Rules, Setup};

/// The statements, for `despatch replay --list`.
pub const FORMAT: &str = "\
round <n>
phase plan|initiative|ended        the phase the round is in
phase operations <seat> ... [done <seat> ...]   the operations: the first named acts now, then
                                   the rest; after 'done' those who operated already this round.
                                   Every player still in, once (the next round's draw order, 1.a)
phase npcs <character> ... [done <character> ...]   the NPCs' operations (3.4), likewise
draw <seat> ...                    the order the players draw in at the next Draw Phase (1.a)
player <seat> as <character>       the seat re-entered as that character (II.1.A.3)
plan <seat>: <card>[*] ...         the seat's plan, opened: its planned cards ('*': played)
plan <seat> sealed <commitment>    the seat's plan, sent sealed under that commitment
cu <character> at <lp>|off [sp <n>] [fatigue <n>] [trench <n>] [siege <n>] [glory <n>]
   [victories <n>] [strategic <n>] [reached <lp>]... [supplied|unsupplied] [captured]
                                   a character's combat unit (siege: its siege points;
                                   strategic: uses of his role's strategic characteristic;
                                   reached: the LP of his role's `enter` glory is had)
siege <lp> <side> [rolled]         the side is besieged in the fortress (2.l); rolled: the
                                   first attrition roll is made, it is shut in
lone <side> <lp> <sp>              strength points alone at an LP (the first `lone` line
                                   replaces the scenario's garrisons; sp 0 removes; an LP
                                   named twice holds two stacks, as a game's can)
lone none                          no lone SP anywhere
blown <lp> <lp>                    the bridge on that CL is blown
standing <side> refuse|fight       the side's standing order at fortresses (2.l)
entered <lp> ...                   the LPs entered already (first-entry glory is had); without
                                   it, those the position's CUs and lone SP stand at
entry <character> <lp> from <lp>   the enemy CU entered the LP along that CL this round (2.b)
truce <character>                  the character is under a Parlay this round
out <seat>                         the player is out (resigned, captured, off the map)
eliminated <seat>                  he was eliminated (II.1.A.3) and may re-enter
entering <seat>                    he is asked this round whether he re-enters
hand <seat>: <card> ...            the face-down deal: the seat's hand
keep <seat>: <card> ...            the cards he keeps at the round's end (1.d)
intel <seat>: <text>               what he alone learned (Intercepted Enemy Message)
discard: <card> ...                the discard pile
deck: <card> ...                   the deck, top first (default: the cards no hand or
                                   discard holds, in the set-up's shuffled order)
npc <character> runner <seat>: <card>[*] ...   the NPC operating now (3.4), its runner and
                                   the hand drawn for it ('*': played)
operation <seat> <character> [next <n>] [crossed <n>] [uncarded <k> ...] [effects <card> ...]:
   <order>                         the operation announced and held (3.2): the clauses carried
                                   out so far, CLs crossed, clauses played with no card, the
                                   reactive cards that stand against it
battle <lp> ordinary|brown|blue attackers <character> ... [decisive] [napoleon] [bonus <a> <d>]
   [lucky|courage|pursuit attacker|defender] ... [no-crossing]
                                   the operation's battle, waiting for its window (2.m)
window announcement|battle [react <seat> <card>] ... [passed <seat> ...]
                                   the open reactive window (1.e): its cards, bottom first
battle-cards unasked|asked|opening|opened|playing|ready [commanders <seat>|none <seat>|none]
                                   option battle_cards: where the battle's card play stands and
                                   the sides' commanders (4.f, 4.l.2), after its `battle` line
battle-plan attacker|defender waiting|sealed <commitment>|open: <plan>   a side's battle plan
                                   for this battle (4.f; the plan as `battle-plan` orders it)
card-battle attacker|defender attack|answer <card>|cancel <card> <card>|over
   [personal attacker|defender] ... [opened] exchanges <n> [withdrew attacker|defender]
                                   the battle being fought: the side whose attack the exchange
                                   is, and its step (4.f-4.i); a card is <key>/<deck>
card-side attacker|defender bp <n> start <n> [chooses]: <name>   a side's BP, and whether its
                                   commander chooses each card (battle_play=interactive)
card-deck|card-hand|card-discard attacker|defender: <card> ...   its battle deck (top last),
                                   hand and discards
card-plan attacker|defender: <plan>   the plan it fights by (the doctrine where it says nothing)
card-plays: <play>, ...            every card played or discarded so far, in order
victory <side>: <reason>           the immediate victory that ended the game (3)";

const KNOWN: [&str; 26] = [
    "round",
    "phase",
    "plan",
    "cu",
    "lone",
    "blown",
    "standing",
    "out",
    "hand",
    "discard",
    "deck",
    "siege",
    "player",
    "eliminated",
    "entering",
    "draw",
    "entered",
    "entry",
    "truce",
    "keep",
    "intel",
    "victory",
    "npc",
    "operation",
    "battle",
    "window",
];

pub(super) fn lp(state: &State, s: &Statement, w: &str) -> Result<String, PositionError> {
    if state.map().lp(w).is_some() {
        Ok(w.to_owned())
    } else {
        Err(s.error(format!("'{w}' is not an LP of the {} map", state.scenario)))
    }
}

pub(super) fn player(state: &State, s: &Statement, seat: &str) -> Result<usize, PositionError> {
    state
        .players
        .iter()
        .position(|p| p.seat.as_str() == seat)
        .ok_or_else(|| s.error(format!("'{seat}' plays no character here")))
}

/// A character of the scenario.
pub(super) fn character(state: &State, s: &Statement, ch: &str) -> Result<String, PositionError> {
    if state.cus.iter().any(|c| c.character == ch) {
        Ok(ch.to_owned())
    } else {
        Err(s.error(format!(
            "'{ch}' is not a character of {}: {}",
            state.scenario,
            state
                .cus
                .iter()
                .map(|c| c.character.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

fn cards(s: &Statement) -> Result<Vec<String>, PositionError> {
    s.after_colon()
        .ok_or_else(|| s.error(format!("write {} ...: <card> <card> ...", s.keyword())))?
        .split_whitespace()
        .map(|k| {
            data::card(k).map(|c| c.key.clone()).ok_or_else(|| {
                s.error(format!(
                    "'{k}' is not a card of the strategic deck (data/deck.txt names them)"
                ))
            })
        })
        .collect()
}

/// The scenario of `setup`, then the statements of `text`.
pub fn read(
    rules: &SearchingForGlory,
    setup: &Setup,
    text: &str,
    hidden: &mut DiceStream,
) -> Result<Positioned<State>, PositionError> {
    let mut st = rules
        .setup(setup, hidden)
        .map_err(|e| PositionError::new(0, format!("the set-up: {e}")))?;
    // Every card of the game: the deck, the discards and the hands as set up.
    let mut pool: Vec<String> = st.deck.clone();
    pool.extend(st.discard.iter().cloned());
    pool.extend(st.players.iter().flat_map(|p| p.hand.iter().cloned()));
    let mut deck_given = false;
    let mut entered_given = false;
    let mut lone_given = false;
    let mut deal_line = 0;
    let mut operations_line = 0;
    let mut lines: BTreeMap<String, usize> = BTreeMap::new();
    for s in statements(text) {
        let w = &s.words;
        match s.keyword() {
            "round" => {
                s.expect_words(2, "round <n>")?;
                st.round = s.number(1, "a round number")?;
                if st.round == 0 || st.round > st.rounds {
                    return Err(s.error(format!(
                        "{} is played in rounds 1 to {}",
                        st.scenario, st.rounds
                    )));
                }
            }
            "phase" => {
                st.phase =
                    match &w[1..] {
                        ["plan"] => Phase::Plan,
                        ["initiative"] => Phase::Initiative,
                        ["ended"] => Phase::Ended,
                        ["npcs", names @ ..] if !names.is_empty() => npcs(&st, &s, names)?,
                        ["operations", seats @ ..] if !seats.is_empty() => {
                            operations_line = s.line;
                            operations(&st, &s, seats)?
                        }
                        _ => return Err(s.error(
                            "write phase plan, phase initiative, phase operations <seat> ... [done <seat> ...], phase npcs <character> ... [done <character> ...] or phase ended",
                        )),
                    };
            }
            "plan" => {
                let p = player(&st, &s, s.word(1, "a seat")?.trim_end_matches(':'))?;
                if w.get(2) == Some(&"sealed") {
                    s.expect_words(4, "plan <seat> sealed <commitment>")?;
                    st.players[p].plan = Plan::Sealed {
                        commitment: w[3].to_owned(),
                    };
                } else {
                    st.players[p].planned = under_way::marked_cards(&s)?;
                    st.players[p].plan = Plan::Open;
                    deal_line = s.line;
                }
            }
            "player" => {
                s.expect_words(4, "player <seat> as <character>")?;
                if w[2] != "as" {
                    return Err(s.error("write player <seat> as <character>"));
                }
                let p = player(&st, &s, w[1])?;
                let ch = character(&st, &s, w[3])?;
                if let Some(q) = st
                    .players
                    .iter()
                    .find(|q| q.character == ch && q.seat != st.players[p].seat)
                {
                    return Err(s.error(format!(
                        "{ch} is played by {}: a character has one player",
                        q.seat
                    )));
                }
                let seat = st.players[p].seat.clone();
                let old = std::mem::replace(&mut st.players[p].character, ch.clone());
                st.cu_mut(&old).seat = None;
                st.cu_mut(&ch).seat = Some(seat);
            }
            "eliminated" | "entering" => {
                s.expect_words(2, &format!("{} <seat>", w[0]))?;
                let p = player(&st, &s, w[1])?;
                if w[0] == "eliminated" {
                    st.players[p].eliminated = true;
                } else {
                    st.players[p].entering = true;
                }
            }
            "draw" => {
                let order: Vec<usize> = w[1..]
                    .iter()
                    .map(|x| player(&st, &s, x))
                    .collect::<Result<_, _>>()?;
                if let Some(i) = order
                    .iter()
                    .find(|&&i| order.iter().filter(|&&j| j == i).count() > 1)
                {
                    return Err(s.error(format!(
                        "{} is named twice in the draw order",
                        st.players[*i].seat
                    )));
                }
                st.draw_order = order;
            }
            "entered" => {
                if !entered_given {
                    st.entered.clear();
                    entered_given = true;
                }
                for x in &w[1..] {
                    let at = lp(&st, &s, x)?;
                    if !st.entered.contains(&at) {
                        st.entered.push(at);
                    }
                }
            }
            "entry" => {
                s.expect_words(5, "entry <character> <lp> from <lp>")?;
                if w[3] != "from" {
                    return Err(s.error("write entry <character> <lp> from <lp>"));
                }
                let entry = Entry {
                    character: character(&st, &s, w[1])?,
                    lp: lp(&st, &s, w[2])?,
                    from: lp(&st, &s, w[4])?,
                };
                if st.map().cl(&entry.lp, &entry.from).is_none() {
                    return Err(s.error(format!("no CL joins {} and {}", entry.from, entry.lp)));
                }
                st.entries.push(entry);
            }
            "truce" => {
                s.expect_words(2, "truce <character>")?;
                let ch = character(&st, &s, w[1])?;
                st.truce.push(ch);
            }
            "keep" => {
                let p = player(&st, &s, s.word(1, "a seat")?.trim_end_matches(':'))?;
                st.players[p].keep = cards(&s)?;
            }
            "intel" => {
                let p = player(&st, &s, s.word(1, "a seat")?.trim_end_matches(':'))?;
                let text = s
                    .after_colon()
                    .filter(|t| !t.is_empty())
                    .ok_or_else(|| s.error("write intel <seat>: <what he learned>"))?;
                st.players[p].intel.push(text.to_owned());
            }
            "victory" => {
                let side = s.word(1, "a side")?.trim_end_matches(':');
                let side = Side::parse(side).ok_or_else(|| {
                    s.error(format!("'{side}' is not a side: french or austrian"))
                })?;
                let reason = s
                    .after_colon()
                    .filter(|t| !t.is_empty())
                    .ok_or_else(|| s.error("write victory <side>: <why>"))?;
                st.victory = Some(Victory {
                    side,
                    reason: reason.to_owned(),
                });
            }
            "npc" => under_way::npc(&mut st, &s)?,
            "operation" => under_way::operation(&mut st, &s)?,
            "battle" => under_way::battle(&mut st, &s)?,
            "window" => under_way::window(&mut st, &s)?,
            "cu" => {
                let ch = s.word(1, "a character")?;
                let i = st
                    .cus
                    .iter()
                    .position(|c| c.character == ch)
                    .ok_or_else(|| {
                        s.error(format!(
                            "'{ch}' is not a character of {}: {}",
                            st.scenario,
                            st.cus
                                .iter()
                                .map(|c| c.character.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })?;
                let (at, skip) = match (w.get(2), w.get(3)) {
                    (Some(&"at"), Some(l)) => (Some(lp(&st, &s, l)?), 4),
                    (Some(&"off"), _) => (None, 3),
                    _ => {
                        return Err(
                            s.error("write cu <character> at <lp> ... or cu <character> off")
                        )
                    }
                };
                let mut rest = w[skip..].iter();
                let map = st.map();
                let cu = &mut st.cus[i];
                cu.lp = at;
                while let Some(word) = rest.next() {
                    let mut n = |what: &str| -> Result<u32, PositionError> {
                        let v = rest
                            .next()
                            .ok_or_else(|| s.error(format!("{what} needs a number")))?;
                        v.parse()
                            .map_err(|_| s.error(format!("'{v}' is not a number of {what}")))
                    };
                    match *word {
                        "sp" => cu.sp = n("SP")?,
                        "fatigue" => cu.fatigue = n("fatigue")?,
                        "trench" => cu.trench = n("trench points")?,
                        "siege" => cu.siege_points = n("siege points")?,
                        "victories" => cu.victories = n("victories")?,
                        "strategic" => cu.strategic_used = n("uses of the strategic characteristic")?,
                        "glory" => {
                            let v = rest.next().ok_or_else(|| s.error("glory needs a number"))?;
                            cu.glory = v
                                .parse()
                                .map_err(|_| s.error(format!("'{v}' is not a number of glory")))?;
                        }
                        "reached" => {
                            let v = rest.next().ok_or_else(|| s.error("reached needs an LP"))?;
                            if map.lp(v).is_none() {
                                return Err(s.error(format!("'{v}' is not an LP of the map")));
                            }
                            cu.reached.push((*v).to_owned());
                        }
                        "supplied" => cu.supply = true,
                        "unsupplied" => cu.supply = false,
                        "captured" => cu.captured = true,
                        other => {
                            return Err(s.error(format!(
                                "'{other}' is not a CU's state: sp, fatigue, trench, siege, glory, victories, strategic, reached, supplied, unsupplied, captured"
                            )))
                        }
                    }
                }
                if cu.lp.is_some() && cu.sp == 0 {
                    return Err(
                        s.error("a CU on the map has SP; with none it is out of play: write off")
                    );
                }
                if let Some(l) = &cu.lp {
                    lines.insert(l.clone(), s.line);
                }
            }
            "standing" => {
                s.expect_words(3, "standing <side> refuse|fight")?;
                let side = Side::parse(w[1]).ok_or_else(|| {
                    s.error(format!("'{}' is not a side: french or austrian", w[1]))
                })?;
                st.standing_refuse.retain(|x| *x != side);
                match w[2] {
                    "refuse" => st.standing_refuse.push(side),
                    "fight" => {}
                    other => {
                        return Err(s.error(format!(
                            "'{other}' is not a standing order: refuse or fight"
                        )))
                    }
                }
            }
            "lone" if w.len() == 2 && w[1] == "none" => {
                st.lone.clear();
                lone_given = true;
            }
            "lone" => {
                s.expect_words(4, "lone <side> <lp> <sp>")?;
                let side = Side::parse(w[1]).ok_or_else(|| {
                    s.error(format!("'{}' is not a side: french or austrian", w[1]))
                })?;
                let at = lp(&st, &s, w[2])?;
                let sp: u32 = s.number(3, "a number of SP")?;
                if !lone_given {
                    st.lone.clear();
                    lone_given = true;
                }
                // sp 0 removes the LP's lone SP; an LP named again holds a second stack, as a
                // game's can (SP detached there apart from those left before).
                if sp == 0 {
                    st.lone.retain(|l| l.lp != at);
                } else {
                    st.lone.push(LoneSp {
                        lp: at.clone(),
                        side,
                        sp,
                    });
                }
                lines.insert(at, s.line);
            }
            "siege" => {
                let at = lp(&st, &s, s.word(1, "a fortress")?)?;
                if !st.map().lp(&at).is_some_and(|l| l.fortress) {
                    return Err(s.error(format!(
                        "{at} is not a fortress: only a fortress is besieged (2.l)"
                    )));
                }
                let side = match w.get(2).map(|x| Side::parse(x)) {
                    Some(Some(side)) => side,
                    _ => return Err(s.error("write siege <lp> <side> [rolled]")),
                };
                let rolled = match w.get(3) {
                    None => false,
                    Some(&"rolled") if w.len() == 4 => true,
                    _ => return Err(s.error("write siege <lp> <side> [rolled]")),
                };
                st.sieges.retain(|x| x.lp != at);
                st.sieges.push(Siege {
                    lp: at,
                    besieged: side,
                    rolled,
                });
            }
            "blown" => {
                s.expect_words(3, "blown <lp> <lp>")?;
                let (a, b) = (lp(&st, &s, w[1])?, lp(&st, &s, w[2])?);
                if st.map().cl(&a, &b).is_none() {
                    return Err(s.error(format!("no CL joins {a} and {b}")));
                }
                let key = bridge_key(&a, &b);
                if !st.blown.contains(&key) {
                    st.blown.push(key);
                }
            }
            "out" => {
                s.expect_words(2, "out <seat>")?;
                let p = player(&st, &s, w[1])?;
                st.players[p].out = true;
            }
            "hand" => {
                let p = player(&st, &s, s.word(1, "a seat")?.trim_end_matches(':'))?;
                st.players[p].hand = cards(&s)?;
                deal_line = s.line;
            }
            "discard" | "discard:" => {
                st.discard = cards(&s)?;
                deal_line = s.line;
            }
            "deck" | "deck:" => {
                st.deck = cards(&s)?;
                deck_given = true;
                deal_line = s.line;
            }
            _ if card_battle::read(&mut st, &s)? => {}
            _ => {
                let known: Vec<&str> = KNOWN
                    .iter()
                    .chain(card_battle::KNOWN.iter())
                    .copied()
                    .collect();
                return Err(unknown(&s, &known));
            }
        }
    }
    // The deal: no card more often than the game holds it; the deck, unless given, is what
    // is left, in the set-up's order.
    let mut left = pool;
    let mut dealt: Vec<&String> = st
        .players
        .iter()
        .flat_map(|p| p.hand.iter().chain(p.planned.iter().map(|(c, _)| c)))
        .collect();
    dealt.extend(st.discard.iter());
    if deck_given {
        dealt.extend(st.deck.iter());
    }
    for card in dealt {
        // From the end: a hand left as dealt takes back its own cards, not the deck's.
        match left.iter().rposition(|c| c == card) {
            Some(k) => {
                left.remove(k);
            }
            // A personal card is its character's, not the deck's: a player who re-entered
            // holds his new character's (II.1.A.3).
            None if data::is_personal(card) => {}
            None => {
                return Err(PositionError::new(
                    deal_line,
                    format!("the card {card} is dealt more often than the deck holds it"),
                ))
            }
        }
    }
    if !deck_given && deal_line > 0 {
        st.deck = left;
    }
    // One side to an LP.
    let mut held: BTreeMap<String, Side> = BTreeMap::new();
    let units = st
        .cus
        .iter()
        .filter_map(|c| c.lp.clone().map(|l| (l, c.side)))
        .chain(st.lone.iter().map(|l| (l.lp.clone(), l.side)));
    for (at, side) in units {
        // 2.l: a fortress under siege holds both sides; so does an LP whose battle waits for
        // its dice (2.m: the attackers entered it).
        let besieged = st.sieges.iter().any(|x| x.lp == at)
            || st
                .pending
                .as_ref()
                .and_then(|pd| pd.battle.as_ref())
                .is_some_and(|b| b.lp == at);
        if let Some(other) = held.insert(at.clone(), side) {
            if other != side && !besieged {
                return Err(PositionError::new(
                    lines.get(&at).copied().unwrap_or(0),
                    format!("{at} holds both sides; an LP is held by one side"),
                ));
            }
        }
        if !entered_given && !st.entered.contains(&at) {
            st.entered.push(at);
        }
    }
    if !entered_given {
        st.entered.sort();
    }
    check_operations(&st, operations_line)?;
    Ok(Positioned::new(st))
}

/// `phase operations <seat> … [done <seat> …]`: the seats still to operate this round, the
/// first acting now, then those who operated already. The round's operations order is the next
/// round's draw order (1.a), so the order is the one the round began with: those done first.
fn operations(st: &State, s: &Statement, seats: &[&str]) -> Result<Phase, PositionError> {
    let (to_act, done) = match seats.iter().position(|w| *w == "done") {
        Some(i) => (&seats[..i], &seats[i + 1..]),
        None => (seats, &[][..]),
    };
    if to_act.is_empty() {
        return Err(s.error(
            "name the seat acting now first: phase operations <seat> ... [done <seat> ...]",
        ));
    }
    let order: Vec<usize> = done
        .iter()
        .chain(to_act)
        .map(|x| player(st, s, x))
        .collect::<Result<_, _>>()?;
    Ok(Phase::Operations {
        order,
        next: done.len(),
    })
}

/// `phase npcs <character> … [done <character> …]`: the NPCs' operations (3.4), the first named
/// operating now, those after `done` having operated already.
fn npcs(st: &State, s: &Statement, names: &[&str]) -> Result<Phase, PositionError> {
    let (to_act, done) = match names.iter().position(|w| *w == "done") {
        Some(i) => (&names[..i], &names[i + 1..]),
        None => (names, &[][..]),
    };
    let order: Vec<String> = done
        .iter()
        .chain(to_act)
        .map(|x| character(st, s, x))
        .collect::<Result<_, _>>()?;
    Ok(Phase::Npcs {
        order,
        next: done.len(),
    })
}

/// 1.a, 3.1 (issue 39): the operations order holds every player still in, once — it is the
/// next round's draw order, and a seat left out would be dealt no cards at the next Draw Phase.
fn check_operations(st: &State, line: usize) -> Result<(), PositionError> {
    let Phase::Operations { order, .. } = &st.phase else {
        return Ok(());
    };
    let name = |i: usize| st.players[i].character.clone();
    if let Some(&twice) = order
        .iter()
        .find(|&&i| order.iter().filter(|&&j| j == i).count() > 1)
    {
        return Err(PositionError::new(
            line,
            format!("{} is named twice in the operations order", name(twice)),
        ));
    }
    let missing: Vec<String> = st
        .active()
        .filter(|i| !order.contains(i))
        .map(name)
        .collect();
    if !missing.is_empty() {
        return Err(PositionError::new(
            line,
            format!(
                "the operations order leaves out {} (still in the game): it is the next round's draw order (1.a), so a seat left out would be dealt no cards; name those who operated already after 'done'",
                missing.join(", ")
            ),
        ));
    }
    Ok(())
}
