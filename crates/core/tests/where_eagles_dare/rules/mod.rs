//! One test per section of the Where Eagles Dare exclusive rules implemented so far, named
//! after the section. Each sets a scenario up, puts the state where the rule bites, and plays
//! orders through the ruleset with scripted dice (a d10 face 10 reads 0).
//!
//! A file per chapter of the text, named after it; what they share is in `support`.

mod allied_special_rules;
mod artillery_parks;
mod club_route;
mod components;
mod german_special_rules;
mod night_and_weather;
mod off_map_movement;
mod optional_rules;
mod paradrops_and_glider_landings;
mod piggyback_mode;
mod play_by_email;
mod random_events;
mod road_blocks_and_rearguards;
mod series_rules;
mod support;
mod terrain;
mod the_1900_turn;
