//! What a request asks for: the game and rule set of its path, and the position of its query.

#[cfg(feature = "http")]
use axum::extract::rejection::{PathRejection, QueryRejection};
#[cfg(feature = "http")]
use axum::extract::{Path, Query};
use nana_probe::ProbeRules;

use crate::error::ApiError;

/// The longest position string read; longer input is refused before parsing.
pub const MAX_POSITION_LEN: usize = 256;

/// A query string as axum reads it: every key and value, in order.
#[cfg(feature = "http")]
pub type QueryPairs = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// A path's game and rule set names as axum reads them.
#[cfg(feature = "http")]
pub type Names = Result<Path<(String, String)>, PathRejection>;

/// The names a position request takes for its position: `fen`, as the Lichess API names it,
/// and `position`, the name of earlier versions.
pub const POSITION_PARAMETERS: [&str; 2] = ["fen", "position"];

#[cfg(feature = "http")]
fn pairs(query: QueryPairs) -> Result<Vec<(String, String)>, ApiError> {
    let Query(pairs) =
        query.map_err(|e| ApiError::BadRequest(format!("malformed query string: {}", e.body_text())))?;
    Ok(pairs)
}

fn unknown(key: &str, valid: &[&str]) -> ApiError {
    ApiError::UnknownParameter { name: key.to_string(), valid: valid.iter().map(|v| v.to_string()).collect() }
}

/// The query of a position request: its position, under `fen` or `position`, at most once; any
/// other parameter is refused.
#[cfg(feature = "http")]
pub fn position_param(query: QueryPairs) -> Result<Option<String>, ApiError> {
    position_of_pairs(pairs(query)?)
}

/// [`position_param`] of a query's keys and values, decoded.
pub fn position_of_pairs(pairs: Vec<(String, String)>) -> Result<Option<String>, ApiError> {
    let mut found = None;
    for (key, value) in pairs {
        if !POSITION_PARAMETERS.contains(&key.as_str()) {
            return Err(unknown(&key, &POSITION_PARAMETERS));
        }
        if found.is_some() {
            return Err(ApiError::BadRequest(
                "the position is given more than once (`fen` and `position` name the same thing)".to_string(),
            ));
        }
        found = Some(value);
    }
    Ok(found)
}

/// The query of a request that takes no parameter: empty.
#[cfg(feature = "http")]
pub fn no_params(query: QueryPairs) -> Result<(), ApiError> {
    no_params_of_pairs(&pairs(query)?)
}

/// [`no_params`] of a query's keys and values, decoded.
pub fn no_params_of_pairs(pairs: &[(String, String)]) -> Result<(), ApiError> {
    match pairs.first() {
        Some((key, _)) => Err(unknown(key, &[])),
        None => Ok(()),
    }
}

/// The game and rule set names of a path.
#[cfg(feature = "http")]
pub fn names(path: Names) -> Result<(String, String), ApiError> {
    path.map(|Path(p)| p).map_err(|e| ApiError::BadRequest(format!("malformed path: {}", e.body_text())))
}

/// The position a request names in the game's string form, with `_` accepted for spaces; the
/// start without one.
pub fn position<G: ProbeRules>(game: &G, position: Option<&str>) -> Result<G::Position, ApiError> {
    let Some(input) = position else { return Ok(game.start()) };
    if input.len() > MAX_POSITION_LEN {
        return Err(ApiError::BadRequest(format!(
            "position too long: {} bytes, at most {MAX_POSITION_LEN}",
            input.len()
        )));
    }
    // As Lichess does: underscores for spaces keep URLs readable.
    let text = input.replace('_', " ");
    if text.trim().is_empty() {
        return Err(ApiError::BadRequest("empty position; leave `fen` out for the start".to_string()));
    }
    // The game's error names the input and the problem.
    game.parse_position(&text).map_err(|e| ApiError::BadRequest(e.to_string()))
}
