//! Orders by pointing at the map drawn (`drawn`): what a seat may order by pointing a unit at
//! a drawn hex, or at the unit's own hex, each order tried on a copy of the state and offered
//! only if the rules accept it.
//!
//! Imports: the drawing's window and cells (`drawn`), the data and state below it, and the
//! `Rules` impl it tries the orders on.

use std::collections::BTreeSet;

use crate::engine::board::{PathOrder, Pointed};
use crate::engine::ruleset::{Ctx, DiceSource, Rules, Seat};

use super::data::DATA;
use super::drawn::{cells, window, Window};
use super::hex::Hex;
use super::oob::{Class, OOB};
use super::order::Command;
use super::state::{Side, State};
use super::WhereEaglesDare;

/// Orders by pointing (docs/web.md), each checked by playing it on a copy of the game, for the
/// seat that may act:
///
/// - a unit on the drawn board that the rules let move now, pointed at a drawn hex next to it,
///   makes `move <unit> <hex>` (keeping its Column, else out of it); the order is a path
///   ([`PathOrder`]): each further hex pointed next to the last goes on the end,
///   `move <unit> <hex> <hex> … [column]`. The engine referees no movement allowance (the
///   series'), so the page offers every drawn neighbour and the rules check the whole path
///   when it is sent;
/// - a unit pointed at a drawn hex holding an enemy unit makes a fire for each weapon class the
///   rules accept there (`opfire` in the opponent's window), with what the engine knows filled
///   in — the terrain of the target hex where the loaded map gives it (`on <terrain>`), the
///   range in hexes (`-- range <n>`) — and the rest left to the player to state (the CRT's
///   facts: the Fire Rating, Fire Zones …); and an assault where the rules accept one;
/// - the orders in place of [`in_place`]: rallies, barrages, bridge engineering, road blocks …
pub fn pointing(rules: &WhereEaglesDare, s: &State, seat: &Seat) -> Vec<Pointed> {
    let Some(side) = Side::of(seat) else {
        return Vec::new();
    };
    if s.over || !rules.may_act(s, seat) {
        return Vec::new();
    }
    let w = window(s);
    let drawn: BTreeSet<Hex> = cells(s, &w).into_keys().collect();
    let accepted = |c: &Command| {
        let mut copy = s.clone();
        let mut ctx = Ctx::new(DiceSource::None, None);
        rules.apply(&mut copy, seat, c, &mut ctx).is_ok()
    };
    let targets: BTreeSet<Hex> = s
        .units
        .values()
        .filter(|u| u.side != side && w.contains(u.hex))
        .map(|u| u.hex)
        .collect();
    let mut out = Vec::new();
    for (name, u) in &s.units {
        if !w.contains(u.hex) {
            continue;
        }
        for n in u.hex.neighbours() {
            if !drawn.contains(&n) {
                continue;
            }
            for column in [u.column, !u.column] {
                let c = Command::Move {
                    cohesion: false,
                    unit: name.clone(),
                    path: vec![n],
                    column,
                    transport: None,
                };
                if accepted(&c) {
                    out.push(Pointed {
                        piece: name.clone(),
                        cell: n.to_string(),
                        order: rules.describe(&c),
                        // A routed unit moves one hex (S3.1, decision 30): no path.
                        path: s.routing.is_none().then(|| PathOrder {
                            head: format!("move {name}"),
                            tail: if column {
                                "column".into()
                            } else {
                                String::new()
                            },
                        }),
                    });
                    break;
                }
            }
        }
        if u.side == side {
            out.extend(attacks(rules, s, name, u.hex, &targets, &accepted));
        }
    }
    out.extend(in_place(rules, s, side, &w, &drawn, &targets, &accepted));
    out
}

/// The fires and the assault `unit` at `from` may be pointed at, at each of `targets` (the
/// drawn hexes holding an enemy unit).
fn attacks(
    rules: &WhereEaglesDare,
    s: &State,
    unit: &str,
    from: Hex,
    targets: &BTreeSet<Hex>,
    accepted: &dyn Fn(&Command) -> bool,
) -> Vec<Pointed> {
    let mut out = Vec::new();
    let fire = |hex: Hex, class: &str, opportunity: bool| Command::Fire {
        unit: unit.to_owned(),
        hex,
        class: class.to_owned(),
        opportunity,
        on: s
            .map
            .as_ref()
            .and_then(|m| m.map.hexes.get(&hex))
            .map(|h| h.terrain),
        facts: format!("range {}", from.distance(hex)),
        covered: false,
    };
    // A unit that may not fire where no line of sight is asked (indirect HE at the first
    // target) fires nowhere now: not its activation, in a park's box, riding piggyback …
    let Some(first) = targets.iter().next() else {
        return out;
    };
    let opportunity = s.window.is_some();
    if !accepted(&fire(*first, "indirect-he", opportunity))
        && !accepted(&fire(*first, "small-arms", opportunity))
    {
        return out;
    }
    for &hex in targets {
        for class in super::order::CLASSES.iter().filter(|c| **c != "airstrike") {
            let c = fire(hex, class, opportunity);
            if accepted(&c) {
                out.push(Pointed {
                    piece: unit.to_owned(),
                    cell: hex.to_string(),
                    order: rules.describe(&c),
                    path: None,
                });
            }
        }
        let c = Command::Assault {
            unit: unit.to_owned(),
            hex,
            facts: String::new(),
        };
        if accepted(&c) {
            out.push(Pointed {
                piece: unit.to_owned(),
                cell: hex.to_string(),
                order: rules.describe(&c),
                path: None,
            });
        }
    }
    out
}

/// The highest of the passing-face thresholds a pointed check offers: `pass 0`, `pass 0-1` …
/// `pass 0-8` (decision 14: the faces are the series' TQ or the firer's, the player's to choose;
/// `pass 0-9` would pass on any face and is written if meant).
pub const MOST_FACES: u32 = 8;

/// The orders pointed at a place rather than along a path or at an enemy (decision 14), each
/// kept only if the rules accept it on a copy of the game:
///
/// - a unit of the seat's side with a Suppression or Cohesion Hits (or a Bailey out of action, a
///   Suppressed ferry, 2.15.7, 2.18.3), pointed at its own hex: `rally <unit> pass <faces>`;
/// - an Artillery unit of the order of battle (or a unit outside it, whose class the engine does
///   not know, decision 12), pointed at a drawn hex holding an enemy unit (and, for the German,
///   at a drawn Club Route hex, 4.3.3): `barrage <unit> <hex> light|heavy pass <faces>`;
/// - an engineer of the order of battle in one of a bridge's two hexes, pointed at the other:
///   `tq <unit> wire|improve|ferry <bridge> pass <faces>` (2.15.6 — not in Column —, 2.15.3,
///   2.18.1); a Bailey pointed across its bridge, `tq <unit> repair <bridge> pass <faces>`
///   (2.15.7); a unit at a ferry pointed across it, `ferry <unit> <bridge> [abandon]` (2.18.2);
/// - the wired bridge marker of the seat's side, pointed at its hex: `demolish <bridge> [fz]`
///   (2.15.6); a destroyed bridge's marker: `bailey <unit> <bridge>` for each Bailey Bridge unit
///   (2.15.7); an unstable stream bridge's marker: `bulldozer <unit> <bridge>` for each
///   Bulldozer and `bulldoze <bridge>` (2.11);
/// - a routed Allied unit still to settle, pointed at its own hex: `entrench <unit>` (S3.1 Rout,
///   decision 30; its one-hex move is the move pointed as any other);
/// - a unit pointed at its own hex: `roadblock <hex>` (S2), `place heroic <unit>` while the
///   Heroic marker is to be placed (S3.1), `unmark <unit>` (3.4.2), `dismount <unit>
///   [abandon]` (S4.2, S5.3), `enterpark <unit> <park>` in a park's hex (S1); a road block of the
///   seat's side pointed at its hex: `roadblock <hex> remove`.
///
/// A check's passing faces are offered as a choice of thresholds, `pass 0` to `pass 0-`
/// [`MOST_FACES`]: the engine knows no TQ (decision 2), so the player picks, and may still change
/// the order in the box.
fn in_place(
    rules: &WhereEaglesDare,
    s: &State,
    side: Side,
    w: &Window,
    drawn: &BTreeSet<Hex>,
    targets: &BTreeSet<Hex>,
    accepted: &dyn Fn(&Command) -> bool,
) -> Vec<Pointed> {
    let mut out = Vec::new();
    let pointed = |piece: &str, cell: Hex, c: &Command| Pointed {
        piece: piece.to_owned(),
        cell: cell.to_string(),
        order: rules.describe(c),
        path: None,
    };
    let offer = |out: &mut Vec<Pointed>, piece: &str, cell: Hex, c: Command| {
        if accepted(&c) {
            out.push(pointed(piece, cell, &c));
        }
    };
    // A check: accepted once (the faces are not checked before the die), then each threshold.
    let check =
        |out: &mut Vec<Pointed>, piece: &str, cell: Hex, make: &dyn Fn(Vec<u32>) -> Command| {
            if accepted(&make((0..=MOST_FACES).collect())) {
                for n in 0..=MOST_FACES {
                    out.push(pointed(piece, cell, &make((0..=n).collect())));
                }
            }
        };
    let barrage_hexes: BTreeSet<Hex> = targets
        .iter()
        .copied()
        .chain(
            s.club_route
                .iter()
                .copied()
                .filter(|h| side == Side::German && drawn.contains(h)),
        )
        .collect();
    for (name, u) in s.units.iter().filter(|(_, u)| u.side == side) {
        if !w.contains(u.hex) {
            continue;
        }
        let def = OOB.unit(name);
        let marks = s.marks.get(name).cloned().unwrap_or_default();
        let out_of_action = s.bridges.values().any(|b| {
            b.bailey
                .as_ref()
                .is_some_and(|x| &x.unit == name && x.disabled)
                || b.ferry
                    .as_ref()
                    .is_some_and(|f| &f.unit == name && f.suppressed)
        });
        if marks.suppressed || marks.cohesion > 0 || out_of_action {
            check(&mut out, name, u.hex, &|pass| Command::Rally {
                unit: name.clone(),
                pass,
            });
        }
        // Artillery of the order of battle, or a counter outside it (decision 12: its class is
        // the players').
        if def.is_none_or(|d| d.class == Class::Artillery) {
            for &hex in &barrage_hexes {
                for heavy in [false, true] {
                    check(&mut out, name, hex, &|pass| Command::Barrage {
                        unit: name.clone(),
                        hex,
                        heavy,
                        pass,
                    });
                }
            }
        }
        for d in &DATA.bridges {
            let across = if u.hex == d.hexes.0 {
                d.hexes.1
            } else if u.hex == d.hexes.1 {
                d.hexes.0
            } else {
                continue;
            };
            if !drawn.contains(&across) {
                continue;
            }
            let engineer = def.is_some_and(|d| d.engineer || d.class == Class::Engineer);
            let mut reasons: Vec<&str> = vec!["repair"];
            if engineer {
                reasons.extend(["improve", "ferry"]);
                // 2.15.6: "the Unit cannot be in Column" (the written order is refused too).
                if !u.column {
                    reasons.push("wire");
                }
            }
            for what in reasons {
                check(&mut out, name, across, &|pass| Command::Tq {
                    unit: name.clone(),
                    reason: vec![what.to_owned(), d.name.clone()],
                    pass,
                });
            }
            let transport = def.is_some_and(|d| d.transport.is_some())
                && !s.abandoned.iter().any(|a| a == name);
            for abandon in [false, true].into_iter().take(1 + usize::from(transport)) {
                offer(
                    &mut out,
                    name,
                    across,
                    Command::Ferry {
                        unit: name.clone(),
                        bridge: d.name.clone(),
                        abandon,
                    },
                );
            }
        }
        offer(
            &mut out,
            name,
            u.hex,
            Command::RoadBlock {
                hex: u.hex,
                remove: false,
            },
        );
        if s.placing
            .as_ref()
            .is_some_and(|(who, e)| *who == side && e == "heroic")
        {
            offer(
                &mut out,
                name,
                u.hex,
                Command::Place {
                    event: "heroic".into(),
                    target: name.clone(),
                    at: None,
                    units: Vec::new(),
                },
            );
        }
        if s.routing.as_ref().is_some_and(|r| r.units.contains(name)) {
            offer(
                &mut out,
                name,
                u.hex,
                Command::Entrench { unit: name.clone() },
            );
        }
        if s.drop_markers.get(name).is_some_and(|n| *n > 0) {
            offer(
                &mut out,
                name,
                u.hex,
                Command::Unmark { unit: name.clone() },
            );
        }
        if s.piggyback.contains_key(name) || s.riding.contains_key(name) {
            for abandon in [false, true]
                .into_iter()
                .take(1 + usize::from(s.riding.contains_key(name)))
            {
                offer(
                    &mut out,
                    name,
                    u.hex,
                    Command::Dismount {
                        unit: name.clone(),
                        abandon,
                        cohesion: false,
                    },
                );
            }
        }
        for p in s
            .parks
            .iter()
            .filter(|p| p.side == side && p.hex == Some(u.hex))
        {
            offer(
                &mut out,
                name,
                u.hex,
                Command::EnterPark {
                    unit: name.clone(),
                    park: p.id.clone(),
                },
            );
        }
    }
    for (i, (h, x)) in s.roadblocks.iter().enumerate() {
        if *x == side && w.contains(*h) {
            offer(
                &mut out,
                &format!("m-roadblock-{i}"),
                *h,
                Command::RoadBlock {
                    hex: *h,
                    remove: true,
                },
            );
        }
    }
    for (name, b) in &s.bridges {
        let Some(d) = DATA.bridges.iter().find(|d| &d.name == name) else {
            continue;
        };
        let h = d.hexes.0;
        if !w.contains(h) {
            continue;
        }
        if b.wired_by == Some(side) {
            for fire_zone in [false, true] {
                offer(
                    &mut out,
                    &format!("m-bridge-{name}-wired"),
                    h,
                    Command::Demolish {
                        bridge: name.clone(),
                        fire_zone,
                    },
                );
            }
        }
        if b.destroyed {
            for (unit, _) in &DATA.baileys {
                offer(
                    &mut out,
                    &format!("m-bridge-{name}-destroyed"),
                    h,
                    Command::Bailey {
                        unit: unit.clone(),
                        bridge: name.clone(),
                    },
                );
            }
        }
    }
    for d in &DATA.stream_bridges {
        let h = d.hexes.0;
        let unstable = s
            .stream_bridges
            .get(&d.name)
            .is_some_and(|x| x.checked && x.unstable);
        if !unstable || !w.contains(h) {
            continue;
        }
        let piece = format!("m-stream-{}", d.name);
        for (unit, _) in &DATA.bulldozers {
            offer(
                &mut out,
                &piece,
                h,
                Command::Bulldozer {
                    unit: unit.clone(),
                    bridge: d.name.clone(),
                },
            );
        }
        offer(
            &mut out,
            &piece,
            h,
            Command::Bulldoze {
                bridge: d.name.clone(),
            },
        );
    }
    out
}
