//! The routes: each handler reads its request ([`crate::request`]), asks the registry's table
//! and answers JSON ([`crate::response`]) or the page; one log line per request.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue, Method};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use nana_probe::Answer;
use tower_http::cors::{Any, CorsLayer};

use crate::error::ApiError;
use crate::registry::Registry;
use crate::request::{names, no_params, position_param, Names, QueryPairs};
use crate::response::{BoardView, GameInfo, Health, Mainline, TableStats, View};

type Shared = Arc<Registry>;

async fn health(State(registry): State<Shared>, query: QueryPairs) -> Result<Json<Health>, ApiError> {
    no_params(query)?;
    Ok(Json(registry.health()))
}

async fn games(State(registry): State<Shared>, query: QueryPairs) -> Result<Json<Vec<GameInfo>>, ApiError> {
    no_params(query)?;
    Ok(Json(registry.games()))
}

/// `/api/{game}` names no rule set: a 404 listing the game's rule sets (or the games).
async fn game_alone(State(registry): State<Shared>, path: Result<Path<String>, PathRejection>) -> ApiError {
    // A name whose escapes are not UTF-8 is refused in JSON, as on every other API path.
    let game = match path {
        Ok(Path(game)) => game,
        Err(e) => return ApiError::BadRequest(format!("malformed path: {}", e.body_text())),
    };
    match registry.exists(&game, "") {
        Err(ApiError::UnknownRuleSet { game, valid, .. }) => ApiError::NoRuleSet { game, valid },
        Err(e) => e,
        Ok(()) => ApiError::NoSuchPage(format!("/api/{game}")),
    }
}

/// Runs work on the blocking pool: every read of a table, so that a slow device or a whole
/// table's count holds a blocking thread, never an async worker, and the request's time limit
/// can answer while it runs.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ApiError::Internal(format!("the lookup failed: {e}")))?
}

async fn answer(
    State(registry): State<Shared>,
    path: Names,
    query: QueryPairs,
) -> Result<Json<Answer>, ApiError> {
    let (game, rules) = names(path)?;
    let position = position_param(query)?;
    blocking(move || registry.get_for(&game, &rules, position.as_deref())?.answer(position.as_deref()))
        .await
        .map(Json)
}

async fn mainline(
    State(registry): State<Shared>,
    path: Names,
    query: QueryPairs,
) -> Result<Json<Mainline>, ApiError> {
    let (game, rules) = names(path)?;
    let position = position_param(query)?;
    blocking(move || registry.get_for(&game, &rules, position.as_deref())?.mainline(position.as_deref()))
        .await
        .map(Json)
}

async fn view(
    State(registry): State<Shared>,
    path: Names,
    query: QueryPairs,
) -> Result<Json<View>, ApiError> {
    let (game, rules) = names(path)?;
    let position = position_param(query)?;
    blocking(move || {
        registry.get_for(&game, &rules, position.as_deref())?.view(&game, &rules, position.as_deref())
    })
    .await
    .map(Json)
}

async fn board(
    State(registry): State<Shared>,
    path: Names,
    query: QueryPairs,
) -> Result<Json<BoardView>, ApiError> {
    let (game, rules) = names(path)?;
    let position = position_param(query)?;
    registry.board(&game, &rules, position.as_deref()).map(Json)
}

async fn stats(
    State(registry): State<Shared>,
    path: Names,
    query: QueryPairs,
) -> Result<Json<TableStats>, ApiError> {
    let (game, rules) = names(path)?;
    no_params(query)?;
    registry.get(&game, &rules)?;
    blocking(move || registry.stats(&game, &rules)).await.map(Json)
}

/// The page: one HTML file with its script and style, the only file the server serves.
const PAGE: &str = include_str!("../assets/explorer.html");

fn page_response() -> Response {
    ([(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))], Html(PAGE)).into_response()
}

async fn index_page() -> Response {
    page_response()
}

async fn table_page(State(registry): State<Shared>, path: Names) -> Result<Response, ApiError> {
    let (game, rules) = names(path)?;
    // A rule set not ready yet has its page too: the page shows how far its solve has got.
    registry.exists(&game, &rules)?;
    Ok(page_response())
}

async fn not_found(request: Request) -> ApiError {
    ApiError::NoSuchPage(request.uri().path().to_string())
}

async fn method_not_allowed(request: Request) -> ApiError {
    ApiError::MethodNotAllowed(request.method().to_string())
}

/// One log line per request: method, path, status and time taken.
async fn log_request(request: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = request.method().clone();
    let uri = request.uri().clone();
    let response = next.run(request).await;
    tracing::info!(
        target: "nana_server",
        "{method} {uri} {} {}us",
        response.status().as_u16(),
        start.elapsed().as_micros()
    );
    response
}

/// Answers a request that runs over `limit` with a JSON 503 (what it started on the blocking
/// pool runs to its end, its result dropped).
async fn time_limit(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::TimedOut(limit).into_response(),
    }
}

/// The server's routes over `registry`: the API, the page, open CORS for GET, one log line per
/// request.
pub fn router(registry: Arc<Registry>) -> Router {
    routes(registry).layer(middleware::from_fn(log_request))
}

/// [`router`], each request answered within `limit` (a JSON 503 past it).
pub fn router_within(registry: Arc<Registry>, limit: Duration) -> Router {
    routes(registry)
        .layer(middleware::from_fn_with_state(limit, time_limit))
        .layer(middleware::from_fn(log_request))
}

fn routes(registry: Arc<Registry>) -> Router {
    let cors = CorsLayer::new().allow_origin(Any).allow_methods([Method::GET]);
    Router::new()
        .route("/api/health", get(health))
        .route("/api/games", get(games))
        .route("/api/{game}", get(game_alone))
        .route("/api/{game}/{rules}", get(answer))
        .route("/api/{game}/{rules}/mainline", get(mainline))
        .route("/api/{game}/{rules}/view", get(view))
        .route("/api/{game}/{rules}/stats", get(stats))
        .route("/api/{game}/{rules}/board", get(board))
        .route("/", get(index_page))
        .route("/{game}/{rules}", get(table_page))
        .route("/{game}/{rules}/stats", get(table_page))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(registry)
        .layer(cors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{to_bytes, Body};
    use axum::http::StatusCode;
    use tower::ServiceExt;

    /// Found by the fuzz target `server_request`: `/api/{game}` alone, its name's escapes not
    /// UTF-8, answered axum's plain-text 400 rather than JSON.
    #[tokio::test]
    async fn a_path_that_is_not_utf8_is_a_json_400_on_every_route() {
        for uri in ["/api/%FF", "/api/%%%%%ccc%%%g", "/api/nana/%FF", "/api/%FF/current/view", "/%FF/current"]
        {
            let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
            let response = router(Arc::new(Registry::new())).oneshot(request).await.unwrap();
            assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{uri}");
            let body = to_bytes(response.into_body(), 1 << 16).await.unwrap();
            let json: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
            assert!(json["error"].as_str().unwrap().contains("malformed path"), "{uri}: {json}");
        }
    }
}
