//! Action points (6.): the RANDOM ACTION POINT CHART added to the command AP (6.1.1), less one a
//! leader lost (9.3.1–9.3.2, never below 0), as changed by 11.13 and 11.14; and the AP each
//! action costs (6.2).

/// RANDOM ACTION POINT CHART: die roll 1–2 → 1, 3–4 → 2, 5–6 → 3.
pub const RANDOM_AP: [u8; 6] = [1, 1, 2, 2, 3, 3];

/// 6.1.1 The random AP for a die roll.
pub fn random_ap(die: u32) -> u8 {
    RANDOM_AP[(die.clamp(1, 6) - 1) as usize]
}

/// 6.1 / 9.3.2 The command AP a side has this turn: the scenario's (or the 11.13 / 11.14
/// value), less its lost leaders, never below 0.
pub fn command_ap(base: u8, leaders_lost: u8) -> u8 {
    base.saturating_sub(leaders_lost)
}

/// 6.2.1 Move or fire; 9.4 rally; 7.5 formation change; 9.1 a leader alone.
pub const ACTION: u8 = 1;
/// 6.2.2 Close combat.
pub const CLOSE_COMBAT: u8 = 2;
/// 6.2.3–6.2.4 Dragoons' and Indians' move and fire.
pub const MOVE_AND_FIRE: u8 = 2;
/// 6.2.5 / 9.1.2 The leader's extra hex.
pub const LEADER_BONUS: u8 = 1;
/// 2.3.3 Entering a waterway costs 2 AP: one more than the move.
pub const WATERWAY: u8 = 1;
