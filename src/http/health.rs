//! `/health`: whether the service can do its work, part by part, for load balancers and
//! operators. `200` when the database answers; `503` with `Retry-After` when it does not, saying
//! which part is down and why. The check is one trivial query on the connections reads use
//! (on SQLite, a write lock held elsewhere does not stall it), bounded by `WAIT`.

use std::time::Duration;

use actix_web::HttpResponse;
use serde_json::json;

use super::error::UNAVAILABLE_RETRY_AFTER_SECS;
use crate::games::Games;

/// How long the database has to answer before it counts as down.
const WAIT: Duration = Duration::from_secs(3);

pub async fn report(games: &Games) -> HttpResponse {
    let database = match tokio::time::timeout(WAIT, games.ping()).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {} s", WAIT.as_secs())),
    };
    match database {
        Ok(()) => {
            // Cheap: a count over the outbox's index of unsent rows.
            let outbox = match tokio::time::timeout(WAIT, games.outbox_pending()).await {
                Ok(Ok(pending)) => json!({ "status": "ok", "pending": pending }),
                Ok(Err(e)) => json!({ "status": "unknown", "error": e.to_string() }),
                Err(_) => json!({ "status": "unknown", "error": "no answer in time" }),
            };
            HttpResponse::Ok().json(json!({
                "status": "ok",
                "database": { "status": "ok", "backend": games.backend() },
                "outbox": outbox,
            }))
        }
        Err(error) => {
            tracing::warn!(%error, "health: the database is down");
            HttpResponse::ServiceUnavailable()
                .insert_header(("Retry-After", UNAVAILABLE_RETRY_AFTER_SECS.to_string()))
                .json(json!({
                    "status": "down",
                    "error": "unavailable",
                    "message": format!("the database is unavailable: {error}"),
                    "database": { "status": "down", "backend": games.backend(), "error": error },
                }))
        }
    }
}
