//! The mail commands a body may hold besides orders, each on a line of its own: `status`, `log`,
//! `help`, `vacation 3d`, `resign`, `undo-request`. Every other line is part of the orders.

/// One mail command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailCommand {
    Status,
    Log,
    Help,
    /// `vacation 3d`: the days as written, checked when it runs.
    Vacation(String),
    Resign,
    UndoRequest,
}

/// The mail command a line is, if it is one: the command word (any case) and exactly the
/// arguments it takes.
fn mail_command(line: &str) -> Option<MailCommand> {
    let mut words = line.split_whitespace();
    let first = words.next()?.to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    match (first.as_str(), rest.as_slice()) {
        ("status", []) => Some(MailCommand::Status),
        ("log", []) => Some(MailCommand::Log),
        ("help", []) => Some(MailCommand::Help),
        ("resign", []) => Some(MailCommand::Resign),
        ("undo-request", []) => Some(MailCommand::UndoRequest),
        ("vacation", [days]) => Some(MailCommand::Vacation((*days).to_owned())),
        _ => None,
    }
}

/// Splits a body into mail commands and the order text (every other line, in order).
pub fn split_body(text: &str) -> (Vec<MailCommand>, String) {
    let mut commands = Vec::new();
    let mut orders = Vec::new();
    for line in text.lines() {
        match mail_command(line.trim()) {
            Some(c) => commands.push(c),
            None => orders.push(line),
        }
    }
    (commands, orders.join("\n").trim().to_owned())
}

/// The days of `vacation 3d` (or `vacation 3`): from 1 to 365, else `None`.
pub fn vacation_days(days: &str) -> Option<i64> {
    days.trim_end_matches(['d', 'D'])
        .parse::<i64>()
        .ok()
        .filter(|n| (1..=365).contains(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_whole_lines_and_the_rest_are_orders() {
        let (commands, orders) =
            split_body("Status\nThe Guards advance\nvacation 3d\nroll 2d6\nlog please\n");
        assert_eq!(
            commands,
            vec![MailCommand::Status, MailCommand::Vacation("3d".into())]
        );
        assert_eq!(orders, "The Guards advance\nroll 2d6\nlog please");
    }

    #[test]
    fn vacation_days_are_one_to_a_year() {
        assert_eq!(vacation_days("3d"), Some(3));
        assert_eq!(vacation_days("365"), Some(365));
        for bad in ["0d", "366d", "soon", "-1d", ""] {
            assert_eq!(vacation_days(bad), None, "{bad}");
        }
    }
}
