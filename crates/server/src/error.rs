//! Why a request failed: [`ApiError`], its status and its JSON body.

use std::fmt;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use nana_probe::ProbeError;
use serde::Serialize;

/// A failed request. Every one is answered with its status and the JSON body `{"error":
/// "...", "valid": [...]}` (`valid` for an unknown name only: the names that exist).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// A malformed position, query or path: 400.
    BadRequest(String),
    /// No game of that name: 404.
    UnknownGame { name: String, valid: Vec<String> },
    /// The game has no rule set of that name: 404.
    UnknownRuleSet { game: String, name: String, valid: Vec<String> },
    /// The index has room for the position, but the table holds no value for it: 404.
    NotInTable(ProbeError),
    /// No route of that path: 404.
    NoSuchPage(String),
    /// A damaged or mismatched table: 500, never a wrong answer.
    Table(ProbeError),
    /// The server failed otherwise: 500.
    Internal(String),
}

impl ApiError {
    /// A lookup's error: the position is not in the table (404), or the table is at fault (500).
    pub fn probe(e: ProbeError) -> ApiError {
        match e {
            ProbeError::Unused { .. } => ApiError::NotInTable(e),
            _ => ApiError::Table(e),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::UnknownGame { .. }
            | ApiError::UnknownRuleSet { .. }
            | ApiError::NotInTable(_)
            | ApiError::NoSuchPage(_) => StatusCode::NOT_FOUND,
            ApiError::Table(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// For an unknown name, the names that exist.
    pub fn valid(&self) -> Option<&[String]> {
        match self {
            ApiError::UnknownGame { valid, .. } | ApiError::UnknownRuleSet { valid, .. } => Some(valid),
            _ => None,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::BadRequest(message) | ApiError::Internal(message) => f.write_str(message),
            ApiError::UnknownGame { name, .. } => write!(f, "unknown game \"{}\"", cut(name)),
            ApiError::UnknownRuleSet { game, name, .. } => {
                write!(f, "unknown rule set \"{}\" of {game}", cut(name))
            }
            ApiError::NotInTable(e) => write!(f, "the position is not in the table: {e}"),
            ApiError::NoSuchPage(path) => write!(f, "no such page: {}", cut(path)),
            ApiError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ApiError {}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    valid: Option<&'a [String]>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let error = self.to_string();
        (self.status(), Json(ErrorBody { error: &error, valid: self.valid() })).into_response()
    }
}

/// A name from a URL, cut to a readable length for an error message.
pub(crate) fn cut(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}
