//! Small pieces of English that every ruleset's lines, boards and notices write alike.

/// `word` with its first letter in capitals: "the Defender moves" → "The Defender moves".
pub fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// Names joined as a sentence says them: "Anna", "Anna and Ben", "Anna, Ben and Cy"; empty for
/// none.
pub fn and_list<S: AsRef<str>>(names: &[S]) -> String {
    match names {
        [] => String::new(),
        [one] => one.as_ref().to_owned(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_letter_is_capitalised_in_any_script() {
        assert_eq!(capitalised("the Defender"), "The Defender");
        assert_eq!(capitalised("élan"), "Élan");
        assert_eq!(capitalised("李雷"), "李雷");
        assert_eq!(capitalised(""), "");
    }

    #[test]
    fn names_are_joined_as_a_sentence_says_them() {
        assert_eq!(and_list::<&str>(&[]), "");
        assert_eq!(and_list(&["Anna"]), "Anna");
        assert_eq!(and_list(&["Anna", "Ben"]), "Anna and Ben");
        assert_eq!(and_list(&["Anna", "Ben", "Cy"]), "Anna, Ben and Cy");
        assert_eq!(
            and_list(&["Anna".to_owned(), "李雷".to_owned()]),
            "Anna and 李雷"
        );
    }
}
