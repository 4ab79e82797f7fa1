//! Why a request failed: [`ApiError`], its status and its JSON body.

use std::fmt;

#[cfg(feature = "http")]
use axum::http::{header, HeaderValue, StatusCode};
#[cfg(feature = "http")]
use axum::response::{IntoResponse, Response};
use nana_probe::ProbeError;
use serde::Serialize;

use crate::registry::Status;

/// The seconds a client is asked to wait (`Retry-After`) before asking again for a rule set
/// being solved, or after a request over the time limit.
pub const RETRY_AFTER: u32 = 5;

/// A failed request. Every one is answered with its status and the JSON body `{"error":
/// "...", "valid": [...]}` (`valid` for an unknown name only: the names that exist).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// A malformed position, query or path: 400.
    BadRequest(String),
    /// A query parameter the endpoint does not take: 400, with the ones it takes.
    UnknownParameter { name: String, valid: Vec<String> },
    /// No game of that name: 404.
    UnknownGame { name: String, valid: Vec<String> },
    /// The game has no rule set of that name: 404.
    UnknownRuleSet { game: String, name: String, valid: Vec<String> },
    /// The index has room for the position, but the table holds no value for it: 404.
    NotInTable(ProbeError),
    /// No route of that path: 404.
    NoSuchPage(String),
    /// `/api/{game}` without a rule set: 404, with the game's rule sets.
    NoRuleSet { game: String, valid: Vec<String> },
    /// A method other than GET or HEAD: 405.
    MethodNotAllowed(String),
    /// A request line or header line too long to read: 414.
    TooLong(usize),
    /// The rule set's table is not served (yet): 503, with its state, and `Retry-After` while
    /// it is being solved.
    NotReady { game: String, rules: String, status: Box<Status> },
    /// A damaged or mismatched table met by a lookup (a block of its file that does not match
    /// its checksum, a value that disagrees with its moves'): 500, never a wrong answer.
    Table(ProbeError),
    /// A table whose file was found damaged where a request read it whole: 500, with the damage
    /// in words (naming the file, never its folder).
    Damaged(String),
    /// The request ran over the server's time limit, the duration: 503, with `Retry-After`.
    TimedOut(std::time::Duration),
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

    #[cfg(feature = "http")]
    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.code()).expect("a status code")
    }

    /// The HTTP status code of the answer.
    pub fn code(&self) -> u16 {
        match self {
            ApiError::BadRequest(_) | ApiError::UnknownParameter { .. } => 400,
            ApiError::UnknownGame { .. }
            | ApiError::UnknownRuleSet { .. }
            | ApiError::NotInTable(_)
            | ApiError::NoSuchPage(_)
            | ApiError::NoRuleSet { .. } => 404,
            ApiError::MethodNotAllowed(_) => 405,
            ApiError::TooLong(_) => 414,
            ApiError::NotReady { .. } | ApiError::TimedOut(_) => 503,
            ApiError::Table(_) | ApiError::Damaged(_) | ApiError::Internal(_) => 500,
        }
    }

    /// For an unknown name, the names that exist.
    pub fn valid(&self) -> Option<&[String]> {
        match self {
            ApiError::UnknownGame { valid, .. }
            | ApiError::UnknownRuleSet { valid, .. }
            | ApiError::UnknownParameter { valid, .. }
            | ApiError::NoRuleSet { valid, .. } => Some(valid),
            _ => None,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::BadRequest(message) | ApiError::Damaged(message) | ApiError::Internal(message) => {
                f.write_str(message)
            }
            ApiError::UnknownGame { name, .. } => write!(f, "unknown game \"{}\"", cut(name)),
            ApiError::UnknownParameter { name, valid } if valid.is_empty() => {
                write!(f, "unknown query parameter \"{}\": this endpoint takes none", cut(name))
            }
            ApiError::UnknownParameter { name, .. } => write!(f, "unknown query parameter \"{}\"", cut(name)),
            ApiError::UnknownRuleSet { game, name, .. } => {
                write!(f, "unknown rule set \"{}\" of {game}", cut(name))
            }
            ApiError::NotInTable(e) => write!(f, "the position is not in the table: {e}"),
            ApiError::NoSuchPage(path) => write!(
                f,
                "no such page: {}; the API is /api/health, /api/games and /api/{{game}}/{{rules}} \
                 (with /mainline, /view, /stats or /board), the page / and /{{game}}/{{rules}}",
                cut(path)
            ),
            ApiError::NoRuleSet { game, .. } => {
                write!(f, "no rule set named: ask /api/{game}/{{rules}}, rules one of `valid`")
            }
            ApiError::MethodNotAllowed(method) => {
                write!(f, "method {} not allowed: the server answers GET and HEAD", cut(method))
            }
            ApiError::TooLong(limit) => {
                write!(f, "request line too long: at most {limit} bytes are read")
            }
            ApiError::NotReady { game, rules, status } => f.write_str(&status.why_not(game, rules)),
            ApiError::Table(e) => write!(f, "{e}"),
            ApiError::TimedOut(limit) => {
                write!(
                    f,
                    "the request ran over the server's time limit of {limit:?}: given up, ask again later"
                )
            }
        }
    }
}

impl std::error::Error for ApiError {}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    valid: Option<&'a [String]>,
    /// For a rule set not served: its game, rule set and state.
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<&'a str>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    status: Option<&'a Status>,
}

impl ApiError {
    /// The JSON body of the error.
    pub fn body(&self) -> String {
        let error = self.to_string();
        let (game, rules, status) = match self {
            ApiError::NotReady { game, rules, status } => {
                (Some(game.as_str()), Some(rules.as_str()), Some(status.as_ref()))
            }
            _ => (None, None, None),
        };
        let body = ErrorBody { error: &error, valid: self.valid(), game, rules, status };
        serde_json::to_string(&body).expect("an error body serialises")
    }
}

#[cfg(feature = "http")]
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // Worth asking again: a table on its way, or a request over the time limit (whose
        // work, a table's statistics say, goes on and is kept for the next ask).
        let retry = matches!(&self, ApiError::NotReady { status, .. } if status.pending())
            || matches!(self, ApiError::TimedOut(_));
        let json = [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))];
        let mut response = (self.status(), json, self.body()).into_response();
        if retry {
            response.headers_mut().insert(header::RETRY_AFTER, RETRY_AFTER.into());
        }
        response
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
