//! The mail commands a body may hold besides orders, each on a line of its own: `status`, `log`,
//! `help`, `vacation 3d`, `resign`, `undo-request`, and table talk: `say <words>` and
//! `tell <seat> <words>`. Every other line is part of the orders.

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
    /// `say <words>`: table talk to every seat.
    Say(String),
    /// `tell <seat> <words>`: table talk to one seat (its id or its player's name, one word).
    Tell {
        to: String,
        text: String,
    },
}

/// The mail command a line is, if it is one: the command word (any case) and exactly the
/// arguments it takes.
fn mail_command(line: &str) -> Option<MailCommand> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    if word.eq_ignore_ascii_case("say") && !rest.is_empty() {
        return Some(MailCommand::Say(rest.to_owned()));
    }
    if word.eq_ignore_ascii_case("tell") {
        let (to, text) = rest.split_once(char::is_whitespace)?;
        let text = text.trim();
        return (!text.is_empty()).then(|| MailCommand::Tell {
            to: to.to_owned(),
            text: text.to_owned(),
        });
    }
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

/// A reply's body as read: its mail commands, its orders, and where reading stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    pub commands: Vec<MailCommand>,
    /// The order lines, in order, blank lines kept between them.
    pub orders: String,
    /// Where the orders ended before the body did, when something was left unread.
    pub stopped: Option<Stop>,
}

/// The line a reply's reading stopped at, with nothing after it read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    /// Its number among the body's lines, from 1.
    pub line: usize,
    pub text: String,
    /// `signoff` or `end` on a line of its own, rather than a line that is no order.
    pub by_word: bool,
}

/// Words that end a reply's orders when they stand on a line of their own.
const STOP_WORDS: [&str; 3] = ["end", "signoff", "sign-off"];

/// The closings a sign-off starts with, which end the orders even without a blank line above.
const CLOSINGS: [&str; 12] = [
    "cheers",
    "thanks",
    "thank you",
    "regards",
    "best",
    "kind regards",
    "best regards",
    "yours",
    "all the best",
    "bye",
    "cordially",
    "sincerely",
];

/// Whether a line is a closing ("Cheers,", "Thanks!", "Best regards").
fn is_closing(line: &str) -> bool {
    let words = line
        .trim_end_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace())
        .to_lowercase();
    CLOSINGS.contains(&words.as_str())
}

/// Reads a reply's body line by line: mail commands, orders (`is_order` says whether a line
/// reads as an order of the game on its own), and where the orders end — at `end` or `signoff`
/// on a line of their own, or at a sign-off: the first line that is neither an order nor a mail
/// command and either follows a blank line or is a closing ("Cheers,"), with no order or mail
/// command after it. Any other line that is no order is read as one and refused with its line
/// number, so that a mistyped order is never taken for a sign-off, nor drops those after it;
/// the first line is read as an order whatever it is.
pub fn read_body(text: &str, is_order: impl Fn(&str) -> bool) -> Body {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .iter()
        .position(|l| STOP_WORDS.contains(&l.trim().to_ascii_lowercase().as_str()))
        .unwrap_or(lines.len());
    // Whether a line after each one is an order or a mail command: each line read once.
    let mut later_counts = vec![false; end];
    for i in (0..end.saturating_sub(1)).rev() {
        let next = lines[i + 1].trim();
        later_counts[i] = later_counts[i + 1]
            || !next.is_empty() && (mail_command(next).is_some() || is_order(next));
    }
    let mut body = Body {
        commands: Vec::new(),
        orders: String::new(),
        stopped: None,
    };
    let mut orders: Vec<&str> = Vec::new();
    let mut started = false;
    for (i, line) in lines[..end].iter().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            orders.push(line);
            continue;
        }
        if let Some(c) = mail_command(trimmed) {
            body.commands.push(c);
        } else if !started
            || later_counts[i]
            || is_order(trimmed)
            || !(lines[i - 1].trim().is_empty() || is_closing(trimmed))
        {
            orders.push(line);
        } else {
            body.stopped = Some(Stop {
                line: i + 1,
                text: trimmed.to_owned(),
                by_word: false,
            });
            break;
        }
        started = true;
    }
    if body.stopped.is_none() && lines[end..].iter().skip(1).any(|l| !l.trim().is_empty()) {
        body.stopped = Some(Stop {
            line: end + 1,
            text: lines[end].trim().to_owned(),
            by_word: true,
        });
    }
    body.orders = orders.join("\n").trim().to_owned();
    body
}

/// Splits a body into mail commands and the order text, every line that is not a mail command
/// read as an order (up to `end` or `signoff`).
pub fn split_body(text: &str) -> (Vec<MailCommand>, String) {
    let body = read_body(text, |_| true);
    (body.commands, body.orders)
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

    /// For these tests an order is a line that starts with `move` or `fire`.
    fn order(line: &str) -> bool {
        line.starts_with("move ") || line.starts_with("fire ")
    }

    #[test]
    fn a_sign_off_below_the_orders_is_not_read() {
        let body = read_body("move A to B\nfire C at D\n\nCheers,\nAnna", order);
        assert_eq!(body.orders, "move A to B\nfire C at D");
        assert_eq!(
            body.stopped,
            Some(Stop {
                line: 4,
                text: "Cheers,".into(),
                by_word: false
            })
        );
    }

    #[test]
    fn end_or_signoff_on_a_line_of_its_own_ends_the_orders() {
        let body = read_body("move A to B\nEND\nmove C to D\nstatus", order);
        assert_eq!(body.orders, "move A to B");
        assert!(body.commands.is_empty(), "nothing after `end` is read");
        assert_eq!(
            body.stopped.as_ref().map(|s| (s.line, s.by_word)),
            Some((2, true))
        );
        // `end` as the last line leaves nothing unread.
        assert_eq!(read_body("move A to B\nsignoff\n\n", order).stopped, None);
    }

    #[test]
    fn a_line_that_is_no_order_before_a_later_order_is_read_and_refused() {
        // A typo must not drop the orders after it: the line stays in, to fail with its number.
        let body = read_body("move A to B\nmvoe C to D\nfire E at F\nThanks", order);
        assert_eq!(body.orders, "move A to B\nmvoe C to D\nfire E at F");
        assert_eq!(body.stopped.map(|s| s.line), Some(4));
        let body = read_body("move A to B\nno idea\nstatus", order);
        assert_eq!(body.orders, "move A to B\nno idea");
        assert_eq!(body.commands, vec![MailCommand::Status]);
    }

    #[test]
    fn a_last_line_that_is_no_order_is_a_sign_off_only_after_a_blank_line_or_as_a_closing() {
        // A mistyped last order is read, to be refused, not taken for a sign-off.
        let body = read_body("move A to B\nfrie C at D", order);
        assert_eq!(body.orders, "move A to B\nfrie C at D");
        assert_eq!(body.stopped, None);
        let body = read_body("move A to B\n\nAnna", order);
        assert_eq!(body.orders, "move A to B");
        assert_eq!(body.stopped.map(|s| s.text), Some("Anna".into()));
        let body = read_body("move A to B\nThanks!\nAnna", order);
        assert_eq!(body.orders, "move A to B");
        assert_eq!(body.stopped.map(|s| s.line), Some(2));
    }

    #[test]
    fn the_first_line_is_read_as_an_order_whatever_it_is() {
        let body = read_body("Dear opponent,\nCheers", order);
        assert_eq!(body.orders, "Dear opponent,");
        assert_eq!(body.stopped.map(|s| s.text), Some("Cheers".into()));
        let body = read_body("status\nCheers,\nAnna", order);
        assert_eq!(body.commands, vec![MailCommand::Status]);
        assert_eq!(body.orders, "");
        assert_eq!(body.stopped.map(|s| s.line), Some(2));
    }

    #[test]
    fn say_and_tell_lines_are_table_talk_with_their_words_kept() {
        let (commands, orders) = split_body(
            "The Guards advance\nSay  Well played, all!\ntell bert Hold the ford.\ntell bert\n",
        );
        assert_eq!(
            commands,
            vec![
                MailCommand::Say("Well played, all!".into()),
                MailCommand::Tell {
                    to: "bert".into(),
                    text: "Hold the ford.".into()
                },
            ]
        );
        // `tell` without words, or `say` alone, is no command: it is read as an order.
        assert_eq!(orders, "The Guards advance\ntell bert");
        assert_eq!(split_body("say").0, vec![]);
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
