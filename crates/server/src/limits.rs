//! Rate limits per client address (`tower_governor`): how many games one address may
//! create, how many moves it may send and how many files it may import. A request
//! over its limit gets `429` with `Retry-After` and nothing happens.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Request, Response, StatusCode, header};
use axum::routing::MethodRouter;
use governor::clock::QuantaInstant;
use governor::middleware::NoOpMiddleware;
use tower_governor::GovernorLayer;
use tower_governor::errors::GovernorError;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;

use crate::AppState;

/// At most `requests` per `period` from one address, the whole quota usable at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Requests in one period (and the burst).
    pub requests: u32,
    /// The period over which they refill.
    pub period: Duration,
}

impl RateLimit {
    /// `requests` a minute.
    #[must_use]
    pub const fn per_minute(requests: u32) -> RateLimit {
        RateLimit {
            requests,
            period: Duration::from_secs(60),
        }
    }
}

impl std::fmt::Display for RateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.period.as_secs() {
            1 => write!(f, "{}/s", self.requests),
            60 => write!(f, "{}/min", self.requests),
            3600 => write!(f, "{}/h", self.requests),
            secs => write!(f, "{}/{secs}s", self.requests),
        }
    }
}

/// Parses `30/min`, `10/s`, `100/h` (or `off` as `None`, through [`parse_limit`]).
impl FromStr for RateLimit {
    type Err = String;

    fn from_str(text: &str) -> Result<RateLimit, String> {
        let bad = || format!("rate limit {text:?}: expected N/s, N/min or N/h (or off)");
        let (count, unit) = text.trim().split_once('/').ok_or_else(bad)?;
        let requests: u32 = count.trim().parse().map_err(|_| bad())?;
        let period = match unit.trim() {
            "s" => Duration::from_secs(1),
            "min" => Duration::from_secs(60),
            "h" => Duration::from_secs(3600),
            _ => return Err(bad()),
        };
        if requests == 0 {
            return Err(bad());
        }
        Ok(RateLimit { requests, period })
    }
}

/// A limit as `tablero serve` takes it: `N/s`, `N/min`, `N/h`, or `off`.
///
/// # Errors
///
/// The text names what is wrong.
pub fn parse_limit(text: &str) -> Result<Option<RateLimit>, String> {
    if text.trim().eq_ignore_ascii_case("off") {
        Ok(None)
    } else {
        text.parse().map(Some)
    }
}

/// The limits per client address; `None` turns one off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// `POST /api/games`.
    pub creates: Option<RateLimit>,
    /// Moves and the other seat actions over HTTP.
    pub moves: Option<RateLimit>,
    /// `POST /api/games/import` and `POST /api/players/import`.
    pub imports: Option<RateLimit>,
    /// `POST /api/analyse`.
    pub analyses: Option<RateLimit>,
}

impl Default for RateLimits {
    /// 30 games a minute, 600 moves a minute (10 a second, far above a person's
    /// pace), 10 imports a minute, 60 analyses a minute (one a second: stepping
    /// through a game's moves).
    fn default() -> RateLimits {
        RateLimits {
            creates: Some(RateLimit::per_minute(30)),
            moves: Some(RateLimit::per_minute(600)),
            imports: Some(RateLimit::per_minute(10)),
            analyses: Some(RateLimit::per_minute(60)),
        }
    }
}

impl RateLimits {
    /// No limits.
    #[must_use]
    pub const fn off() -> RateLimits {
        RateLimits {
            creates: None,
            moves: None,
            imports: None,
            analyses: None,
        }
    }
}

/// The client's address: the connection's peer. Requests without one (a router
/// called in-process) share one key.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ClientAddress;

impl KeyExtractor for ClientAddress {
    type Key = IpAddr;

    fn extract<T>(&self, request: &Request<T>) -> Result<IpAddr, GovernorError> {
        Ok(request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip()))
    }
}

/// One limit, shared by every route it is applied to (one quota for all of them).
#[derive(Clone)]
pub(crate) struct Limiter(Option<Shared>);

/// The layer for HTTP routes and its configuration (whose limiter the WebSocket
/// checks by hand for the messages of a socket).
#[derive(Clone)]
struct Shared {
    layer: GovernorLayer<ClientAddress, NoOpMiddleware<QuantaInstant>, Body>,
    config: Arc<GovernorConfig<ClientAddress, NoOpMiddleware<QuantaInstant>>>,
    limit: RateLimit,
    what: &'static str,
}

impl std::fmt::Debug for Limiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(shared) => write!(f, "Limiter({} {})", shared.limit, shared.what),
            None => f.write_str("Limiter(off)"),
        }
    }
}

/// The limiters of one server, made once and shared by its routes and sockets.
#[derive(Debug, Clone)]
pub(crate) struct Limiters {
    pub(crate) creates: Limiter,
    pub(crate) moves: Limiter,
    pub(crate) imports: Limiter,
    pub(crate) analyses: Limiter,
}

impl Limiters {
    pub(crate) fn new(limits: RateLimits) -> Limiters {
        Limiters {
            creates: Limiter::new(limits.creates, "games created"),
            moves: Limiter::new(limits.moves, "moves and seat actions"),
            imports: Limiter::new(limits.imports, "imports"),
            analyses: Limiter::new(limits.analyses, "analyses"),
        }
    }
}

impl Limiter {
    /// A limiter for `limit` (none: no limit); its refusals name `what`.
    pub(crate) fn new(limit: Option<RateLimit>, what: &'static str) -> Limiter {
        let Some(limit) = limit else {
            return Limiter(None);
        };
        let Some(config) = GovernorConfigBuilder::default()
            .key_extractor(ClientAddress)
            .period(limit.period / limit.requests.max(1))
            .burst_size(limit.requests)
            .finish()
        else {
            tracing::error!(%limit, "a rate limit could not be set up; it is off");
            return Limiter(None);
        };
        let config = Arc::new(config);
        // Forget addresses that have been quiet for a while, so that the table of
        // addresses does not grow for ever.
        let weak = Arc::downgrade(&config);
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_secs(60));
                match weak.upgrade() {
                    Some(config) => config.limiter().retain_recent(),
                    None => break,
                }
            }
        });
        let layer = GovernorLayer::new(Arc::clone(&config))
            .error_handler(move |error| too_many(&error, limit, what));
        Limiter(Some(Shared {
            layer,
            config,
            limit,
            what,
        }))
    }

    /// `route` with this limit applied.
    pub(crate) fn on(&self, route: MethodRouter<AppState>) -> MethodRouter<AppState> {
        match &self.0 {
            Some(shared) => route.layer(shared.layer.clone()),
            None => route,
        }
    }

    /// Takes one request of `address`'s quota, for what arrives outside HTTP routes (a
    /// WebSocket's messages).
    ///
    /// # Errors
    ///
    /// 429 naming the limit when the quota is spent.
    pub(crate) fn check(&self, address: Option<IpAddr>) -> Result<(), crate::ApiError> {
        let Some(shared) = &self.0 else {
            return Ok(());
        };
        let key = address.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        shared.config.limiter().check_key(&key).map_err(|_| {
            crate::ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many {} from this address (at most {})",
                    shared.what, shared.limit
                ),
            )
        })
    }
}

fn too_many(error: &GovernorError, limit: RateLimit, what: &str) -> Response<Body> {
    let (status, wait) = match error {
        GovernorError::TooManyRequests { wait_time, .. } => {
            (StatusCode::TOO_MANY_REQUESTS, (*wait_time).max(1))
        }
        _ => (StatusCode::INTERNAL_SERVER_ERROR, 1),
    };
    let body = serde_json::json!({
        "error": format!("too many {what} from this address (at most {limit}): retry in {wait} s"),
        "code": "rate_limited",
        "params": {"limit": limit.to_string(), "retry_after_s": wait},
    });
    let mut response = Response::new(Body::from(body.to_string()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if let Ok(value) = HeaderValue::from_str(&wait.to_string()) {
        headers.insert(header::RETRY_AFTER, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse_and_print() {
        assert_eq!(parse_limit("30/min"), Ok(Some(RateLimit::per_minute(30))));
        assert_eq!(parse_limit("off"), Ok(None));
        assert_eq!(
            parse_limit("5/s").map(|l| l.map(|l| l.to_string())),
            Ok(Some("5/s".to_owned()))
        );
        for bad in ["", "30", "0/min", "x/min", "30/day"] {
            assert!(parse_limit(bad).is_err(), "{bad}");
        }
    }
}
