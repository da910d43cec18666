//! Orders by pointing at the map drawn (`drawn`): what a seat may order by pointing a unit at
//! a drawn hex, or at the unit's own hex, or a marker at its hex — the legal orders (`legal`)
//! the drawn board offers, each written as the page fills it in.
//!
//! Imports: the drawing's window and cells (`drawn`), the list of legal orders (`legal`), and
//! the order and state below them.

use std::collections::BTreeSet;

use crate::engine::board::{PathOrder, Pointed};
use crate::engine::ruleset::{Rules, Seat};

use super::drawn::{cells, window};
use super::hex::Hex;
use super::legal::{self, Reach};
use super::order::Command;
use super::state::{Side, State};

pub use super::legal::MOST_FACES;

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
/// - the orders in place (`legal`): rallies, barrages, bridge engineering, road blocks …, a
///   check's passing faces offered as a choice of thresholds, `pass 0` to `pass 0-`
///   [`MOST_FACES`]: the engine knows no TQ (decision 2), so the player picks, and may still
///   change the order in the box.
pub fn pointing<R>(rules: &R, s: &State, seat: &Seat) -> Vec<Pointed>
where
    R: Rules<State = State, Command = Command>,
{
    let Some(side) = Side::of(seat) else {
        return Vec::new();
    };
    if s.over || !rules.may_act(s, seat) {
        return Vec::new();
    }
    let w = window(s);
    let drawn: BTreeSet<Hex> = cells(s, &w).into_keys().collect();
    let reach = Reach::Drawn {
        window: &w,
        drawn: &drawn,
    };
    legal::orders(rules, s, side, reach)
        .into_iter()
        .filter_map(|l| {
            let (piece, cell) = l.point?;
            let path = match &l.command {
                // A routed unit moves one hex (S3.1, decision 30): no path.
                Command::Move { unit, column, .. } if s.routing().is_none() => Some(PathOrder {
                    head: format!("move {unit}"),
                    tail: if *column {
                        "column".into()
                    } else {
                        String::new()
                    },
                }),
                _ => None,
            };
            Some(Pointed {
                piece,
                cell: cell.to_string(),
                order: rules.describe(&l.command),
                path,
            })
        })
        .collect()
}
