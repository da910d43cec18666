//! The pages' static files (CSS and JavaScript), compiled into the binary: the server needs no
//! files beside it and the pages load nothing from elsewhere.

use std::sync::LazyLock;

use actix_web::http::header::{ETAG, IF_NONE_MATCH};
use actix_web::{web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};

use crate::engine::board;

/// The pages' stylesheet: static/style.css, then the drawn boards' palette. The palette
/// follows the page's own rules: the pages' security policy drops the `<style>` inside an SVG,
/// so the page's stylesheet carries it.
static STYLESHEET: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{}\n/* Drawn boards (crates/core/src/engine/board/board.css): the palette, and darker at night. */\n{}",
        include_str!("../../static/style.css"),
        board::STYLE
    )
});

/// An asset's body: a file compiled in, or the stylesheet put together once.
type Body = fn() -> &'static str;

/// `(name, content type, body)` of every asset.
pub const ASSETS: &[(&str, &str, Body)] = &[
    ("style.css", "text/css; charset=utf-8", || &STYLESHEET),
    ("table.js", "text/javascript; charset=utf-8", || {
        include_str!("../../static/table.js")
    }),
    ("lobby.js", "text/javascript; charset=utf-8", || {
        include_str!("../../static/lobby.js")
    }),
    ("countdown.js", "text/javascript; charset=utf-8", || {
        include_str!("../../static/countdown.js")
    }),
    ("verify.js", "text/javascript; charset=utf-8", || {
        include_str!("../../static/verify.js")
    }),
];

/// Each asset's fingerprint: the first 16 hex digits of the SHA-256 of its body, in the order
/// of [`ASSETS`].
static FINGERPRINTS: LazyLock<Vec<String>> = LazyLock::new(|| {
    ASSETS
        .iter()
        .map(|(_, _, body)| hex::encode(&Sha256::digest(body().as_bytes())[..8]))
        .collect()
});

fn fingerprint(name: &str) -> Option<&'static str> {
    let i = ASSETS.iter().position(|(n, _, _)| *n == name)?;
    Some(FINGERPRINTS[i].as_str())
}

/// The address the pages load an asset from: `/static/style.css?v=<fingerprint>`. A new build
/// whose file changed gives a new address, so a browser may keep the one it has for a year
/// without asking (`immutable`), and a page a player returns to loads nothing but itself.
/// Panics on a name that is not an asset: templates name them, and their test renders each.
pub fn url(name: &str) -> String {
    let v = fingerprint(name).unwrap_or_else(|| panic!("'{name}' is not a static file"));
    format!("/static/{name}?v={v}")
}

#[derive(Debug, serde::Deserialize)]
pub struct AssetQuery {
    v: Option<String>,
}

/// `GET /static/{name}`: at its fingerprinted address (`url`), cached for good; at its bare
/// address (a link to read `verify.js`, an old page), revalidated by its `ETag`, answered
/// `304 Not Modified` while it holds.
pub async fn asset(
    name: web::Path<String>,
    query: web::Query<AssetQuery>,
    req: HttpRequest,
) -> HttpResponse {
    let Some((_, content_type, body)) = ASSETS.iter().find(|(n, _, _)| *n == name.as_str()) else {
        return HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body(format!("there is no static file '{name}'"));
    };
    let print = fingerprint(&name).expect("an asset");
    let etag = format!("\"{print}\"");
    let cache = if query.v.as_deref() == Some(print) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let unchanged = req
        .headers()
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut answer = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    answer
        .insert_header(("Cache-Control", cache))
        .insert_header((ETAG, etag))
        .insert_header(("X-Content-Type-Options", "nosniff"));
    if unchanged {
        answer.finish()
    } else {
        answer.content_type(*content_type).body(body())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_page_stylesheet_carries_the_board_palette() {
        let css = (super::ASSETS[0].2)();
        assert!(css.contains(crate::engine::board::STYLE.trim()));
        assert!(css.contains(".live-status"), "and the page's own rules");
    }

    #[test]
    fn an_assets_address_changes_with_its_content() {
        let style = super::url("style.css");
        assert!(style.starts_with("/static/style.css?v="), "{style}");
        assert_eq!(style.len(), "/static/style.css?v=".len() + 16);
        assert_ne!(
            style.rsplit_once('=').unwrap().1,
            super::url("table.js").rsplit_once('=').unwrap().1
        );
    }
}
