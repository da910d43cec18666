//! Orders played with scripted dice: the one helper the rules tests share. An order is parsed
//! from the order language as the seat would send it and applied with the given dice in the
//! given order (`DiceSource::Scripted`), as the worked examples of the rules texts roll them.

// Each test binary uses what it needs of it.
#![allow(dead_code)]

use std::collections::VecDeque;

use despatch_core::engine::dice::DiceStream;
use despatch_core::engine::ruleset::{Ctx, DiceSource, RuleError, Rules, Seat};

/// Plays `seat`'s order `text` on `state` with `dice`; returns how many of them it drew.
pub fn order<R: Rules>(
    rules: &R,
    state: &mut R::State,
    seat: &str,
    text: &str,
    dice: &[u32],
) -> Result<usize, RuleError> {
    order_then(rules, state, seat, text, dice, None, |_, _| {})
}

/// As [`order`], with a hidden stream for the draws the order makes face down, and `then` run
/// after it with the same dice (to answer the windows the order opens, say).
pub fn order_then<R: Rules>(
    rules: &R,
    state: &mut R::State,
    seat: &str,
    text: &str,
    dice: &[u32],
    hidden: Option<&mut DiceStream>,
    then: impl FnOnce(&mut R::State, &mut Ctx),
) -> Result<usize, RuleError> {
    let seat = Seat::parse(seat).unwrap();
    let command = rules.parse(state, &seat, text)?;
    let mut queue: VecDeque<u32> = dice.iter().copied().collect();
    {
        let mut ctx = Ctx::new(DiceSource::Scripted(&mut queue), hidden);
        rules.apply(state, &seat, &command, &mut ctx)?;
        then(state, &mut ctx);
    }
    Ok(dice.len() - queue.len())
}

/// As [`order`], and the text of the lines the order wrote to the log.
pub fn order_lines<R: Rules>(
    rules: &R,
    state: &mut R::State,
    seat: &str,
    text: &str,
    dice: &[u32],
) -> Result<Vec<String>, RuleError> {
    let mut lines = Vec::new();
    order_then(rules, state, seat, text, dice, None, |_, ctx| {
        lines = ctx.lines().iter().map(|l| l.text.clone()).collect();
    })?;
    Ok(lines)
}
