//! The pages' static files (CSS and JavaScript), compiled into the binary: the server needs no
//! files beside it and the pages load nothing from elsewhere.

use std::sync::LazyLock;

use actix_web::{web, HttpResponse};

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

pub async fn asset(name: web::Path<String>) -> HttpResponse {
    match ASSETS.iter().find(|(n, _, _)| *n == name.as_str()) {
        Some((_, content_type, body)) => HttpResponse::Ok()
            .content_type(*content_type)
            .insert_header(("Cache-Control", "public, max-age=300"))
            .insert_header(("X-Content-Type-Options", "nosniff"))
            .body(body()),
        None => HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body(format!("there is no static file '{name}'")),
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
}
