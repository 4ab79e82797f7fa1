//! The API's routes as the server has them (`crates/server/src/routes.rs`), over a URL string.

use nana_server::request::{no_params_of_pairs, position_of_pairs};
use nana_server::{ApiError, Registry};

/// A path segment, its `%XX` escapes decoded as the server's router decodes them: an escape
/// that is not one is kept as it is, bytes that are not UTF-8 are a 400.
fn segment(s: &str) -> Result<String, ApiError> {
    percent_encoding::percent_decode_str(s).decode_utf8().map(|s| s.into_owned()).map_err(|_| {
        ApiError::BadRequest(format!(
            "malformed path: \"{}\" is not UTF-8 once decoded",
            s.chars().take(40).collect::<String>()
        ))
    })
}

/// A query string's keys and values, decoded as the server's `Query` extractor decodes them
/// (`application/x-www-form-urlencoded`: `+` a space, bytes that are not UTF-8 replaced).
fn pairs(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes()).into_owned().collect()
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::Internal(e.to_string()))
}

/// The JSON body of the answer to `url`, or the API's error.
pub fn answer(registry: &Registry, url: &str) -> Result<String, ApiError> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let query = pairs(query);
    let parts: Vec<String> =
        path.split('/').filter(|s| !s.is_empty()).map(segment).collect::<Result<_, _>>()?;
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    match parts.as_slice() {
        ["api", "health"] => {
            no_params_of_pairs(&query)?;
            json(&registry.health())
        }
        ["api", "games"] => {
            no_params_of_pairs(&query)?;
            json(&registry.games())
        }
        ["api", game] => Err(match registry.exists(game, "") {
            Err(ApiError::UnknownRuleSet { game, valid, .. }) => ApiError::NoRuleSet { game, valid },
            Err(e) => e,
            Ok(()) => ApiError::NoSuchPage(format!("/api/{game}")),
        }),
        ["api", game, rules] => {
            let position = position_of_pairs(query)?;
            json(&registry.get_for(game, rules, position.as_deref())?.answer(position.as_deref())?)
        }
        ["api", game, rules, "mainline"] => {
            let position = position_of_pairs(query)?;
            json(&registry.get_for(game, rules, position.as_deref())?.mainline(position.as_deref())?)
        }
        ["api", game, rules, "view"] => {
            let position = position_of_pairs(query)?;
            json(&registry.get_for(game, rules, position.as_deref())?.view(
                game,
                rules,
                position.as_deref(),
            )?)
        }
        ["api", game, rules, "board"] => {
            let position = position_of_pairs(query)?;
            json(&registry.board(game, rules, position.as_deref())?)
        }
        ["api", game, rules, "stats"] => {
            no_params_of_pairs(&query)?;
            json(&registry.stats(game, rules)?)
        }
        _ => Err(ApiError::NoSuchPage(format!("/{}", parts.join("/")))),
    }
}

/// The game, rule set and position of a view's URL (`/api/{game}/{rules}/view?fen=...`), if it
/// is one that parses.
pub fn view_request(url: &str) -> Option<(String, String, Option<String>)> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let parts: Vec<String> =
        path.split('/').filter(|s| !s.is_empty()).map(segment).collect::<Result<_, _>>().ok()?;
    match parts.as_slice() {
        [api, game, rules, view] if api == "api" && view == "view" => {
            let position = position_of_pairs(pairs(query)).ok()?;
            Some((game.clone(), rules.clone(), position))
        }
        _ => None,
    }
}
