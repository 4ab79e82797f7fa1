//! The API's routes as the server has them (`crates/server/src/routes.rs`), over a URL string.

use nana_server::request::{no_params_of_pairs, position_of_pairs};
use nana_server::{ApiError, Registry};

/// Decodes a URL component: `%XX` escapes, and `+` as a space in a query.
fn decode(s: &str, plus: bool) -> Result<String, ApiError> {
    let bad = || {
        ApiError::BadRequest(format!("malformed escape in \"{}\"", s.chars().take(40).collect::<String>()))
    };
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex =
                    bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok()).ok_or_else(bad)?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 3;
            }
            b'+' if plus => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// A query string's keys and values, decoded.
fn pairs(query: &str) -> Result<Vec<(String, String)>, ApiError> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Ok((decode(k, true)?, decode(v, true)?))
        })
        .collect()
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::Internal(e.to_string()))
}

/// The JSON body of the answer to `url`, or the API's error.
pub fn answer(registry: &Registry, url: &str) -> Result<String, ApiError> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let query = pairs(query)?;
    let parts: Vec<String> =
        path.split('/').filter(|s| !s.is_empty()).map(|s| decode(s, false)).collect::<Result<_, _>>()?;
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
        path.split('/').filter(|s| !s.is_empty()).map(|s| decode(s, false)).collect::<Result<_, _>>().ok()?;
    match parts.as_slice() {
        [api, game, rules, view] if api == "api" && view == "view" => {
            let position = position_of_pairs(pairs(query).ok()?).ok()?;
            Some((game.clone(), rules.clone(), position))
        }
        _ => None,
    }
}
