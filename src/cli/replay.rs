//! `replay`: the sandbox. Runs a script of orders with dice given by hand, from a scenario's
//! set-up or a position set by hand; unverifiable by design.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use serde_json::Value;

use super::{Failure, ReplayArgs};
use crate::engine::replay::{self, Script};
use crate::engine::ruleset::{Ruleset, SeatDef, Setup};
use crate::rules;

pub(super) fn run(args: ReplayArgs) -> Result<ExitCode, Failure> {
    if args.list {
        print_out(&list())?;
        return Ok(ExitCode::SUCCESS);
    }
    let text = read_script(args.script.clone())?;
    let parsed = replay::parse_script(&text).map_err(|e| format!("script: {e}"))?;
    let dice = if args.dice.is_empty() {
        parsed.dice.clone()
    } else {
        args.dice.clone()
    };
    let (json, stop_on_refusal, position) =
        (args.json, args.stop_on_refusal, args.position.clone());
    let (rs, setup) = set_up(args, &parsed)?;
    let position = position
        .map(|p| {
            std::fs::read_to_string(&p)
                .map_err(|e| format!("cannot read the position {}: {e}", p.display()))
        })
        .transpose()?;
    let run = replay::RunOptions {
        stop_on_refusal,
        views: json,
    };
    let transcript = replay::run_script(rs, setup, &parsed, position.as_deref(), dice, run)
        .map_err(|e| format!("replay stopped: {e}"))?;
    if json {
        print_out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&transcript).expect("serialisable")
        ))?;
    } else {
        print_out(&replay::render(&transcript))?;
    }
    match transcript.stopped_at {
        Some(n) => Err(format!("replay stopped at step {n}: the rules refused it").into()),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// The script named on the command line, `-` for standard input.
fn read_script(script: Option<PathBuf>) -> Result<String, Failure> {
    let script = script.ok_or("name a script, or - for standard input")?;
    let text = if script.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| e.to_string())?
    } else {
        std::fs::read_to_string(&script)
            .map_err(|e| format!("cannot read {}: {e}", script.display()))?
    };
    Ok(text)
}

/// The ruleset and the set-up to play: the command line's choices, else the script's header,
/// else the defaults (open-table, the ruleset's first scenario, the scenario's seats).
fn set_up(args: ReplayArgs, parsed: &Script) -> Result<(Arc<dyn Ruleset>, Setup), Failure> {
    let ruleset = args
        .ruleset
        .or_else(|| parsed.ruleset.clone())
        .unwrap_or_else(|| rules::open_table::ID.to_owned());
    let rs = rules::find(&ruleset).ok_or_else(|| {
        format!("unknown ruleset '{ruleset}' (despatch replay --list shows them)")
    })?;
    let info = rs.info();
    let scenario = args
        .scenario
        .or_else(|| parsed.scenario.clone())
        .or_else(|| info.scenarios.first().map(|s| s.id.clone()))
        .unwrap_or_default();
    let sc = info
        .scenarios
        .iter()
        .find(|s| s.id == scenario)
        .ok_or_else(|| {
            format!("{ruleset} has no scenario '{scenario}' (despatch replay --list shows them)")
        })?;
    let seat_ids = match (args.seats.is_empty(), parsed.seats.is_empty()) {
        (false, _) => args.seats,
        (true, false) => parsed.seats.clone(),
        (true, true) => sc.seats.clone(),
    };
    let seats = SeatDef::named_by_id(&seat_ids)?;
    let options: Value =
        serde_json::from_str(&args.options).map_err(|e| format!("--options is not JSON: {e}"))?;
    let setup = Setup {
        game_id: "replay".into(),
        scenario,
        options,
        seats,
    };
    Ok((rs, setup))
}

/// The long help of `replay`: the script's format, and each ruleset's position format.
pub(super) fn help() -> String {
    let mut out = String::from(
        "A script is one step a line: `seat: order` (an indented line continues the order), \
`!timeout seat`, `!resign seat`; `#` starts a comment. A header of comments names what the \
script plays, so that the options are rarely needed:

  # ruleset: for-honor-and-glory
  # scenario: example-forest-fire
  # seats: american, british
  # dice: 4, 2
  position:
    turn 2
  american: fire C4 at C3

A `position:` block (its lines indented, before the first step) or --position FILE starts \
the script from a position set by hand: the scenario's set-up, changed one statement a line, \
checked as a scenario is; an error names the line. `# dice:` lines give the dice when \
--dice gives none (several add up, in order). A step the rules refuse is shown with its \
error and the position it met, and changes nothing; the script goes on (or stops, with \
--stop-on-refusal). `despatch replay --list` lists the rulesets and scenarios with their titles
and seats.

Rulesets, their scenarios and position formats:
",
    );
    for rs in rules::all() {
        let info = rs.info();
        let scenarios: Vec<&str> = info.scenarios.iter().map(|s| s.id.as_str()).collect();
        out.push_str(&format!(
            "\n{} (scenarios: {}):\n",
            info.id,
            scenarios.join(", ")
        ));
        for l in rs.position_format().lines() {
            out.push_str(&format!("  {l}\n"));
        }
    }
    out
}

/// `replay --list`: every ruleset, its scenarios and its position format.
fn list() -> String {
    let mut out = String::new();
    for rs in rules::all() {
        let info = rs.info();
        out.push_str(&format!("{} — {}\n  scenarios:\n", info.id, info.title));
        for s in &info.scenarios {
            let seats = if s.seats.is_empty() {
                format!("{}-{} seats named by the players", s.min_seats, s.max_seats)
            } else {
                s.seats.join(", ")
            };
            out.push_str(&format!("    {} — {} ({seats})\n", s.id, s.title));
        }
        out.push_str("  position format:\n");
        for l in rs.position_format().lines() {
            out.push_str(&format!("    {l}\n"));
        }
        out.push('\n');
    }
    out
}

/// Writes to standard output; a reader that went away (a closed pipe: `| head`) ends the
/// command quietly, as a filter's output is read no further.
fn print_out(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write the output: {e}").into()),
    }
}
