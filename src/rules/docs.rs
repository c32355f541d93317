//! The rules of each game in words (`docs/rules/`), compiled in for `referee rules`.

/// The index page: what each game is and where its rules are.
pub const INDEX: &str = include_str!("../../docs/rules/README.md");

/// The rules page of game `id`, as in `docs/rules/ID.md`; `None` for an unknown game. The pages
/// come from the list of games (`games!` in `any.rs`): a game's page is its id's file.
pub fn page(id: &str) -> Option<&'static str> {
    crate::rules::any::rules_page(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::any::GAMES;

    #[test]
    fn every_game_has_a_page_that_names_its_id_and_the_index_links_it() {
        for id in GAMES {
            let text = page(id).unwrap_or_else(|| panic!("no rules page for {id}"));
            assert!(text.contains(&format!("game id `{id}`")), "{id}");
            assert!(INDEX.contains(&format!("({id}.md)")), "{id}");
        }
        assert_eq!(page("chess"), None);
    }
}
