//! Checks every drawn board must pass, shared by the board tests (`#[path]`-included, so that
//! the rules-only tests build without the server's test support in `tests/common`).

/// Every `font-size` in the drawing is at least 11 px when it is shown 390 px wide.
pub fn legible_on_a_phone(svg: &str) -> Result<(), String> {
    let view_box = svg
        .split("viewBox=\"0 0 ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .ok_or("no viewBox")?;
    let width: f64 = view_box.parse().map_err(|_| "bad viewBox")?;
    for part in svg.split("font-size=\"").skip(1) {
        let size: f64 = part.split('"').next().unwrap_or("0").parse().unwrap_or(0.0);
        if size * 390.0 / width < 11.0 {
            return Err(format!("a text of {size} units in a drawing {width} wide"));
        }
    }
    Ok(())
}

/// One `<svg>` element with no script, link, external reference or inline style attribute.
pub fn self_contained(svg: &str) -> Result<(), String> {
    if !svg.starts_with("<svg ") || !svg.ends_with("</svg>") {
        return Err("not one svg element".into());
    }
    for bad in ["<script", "href=", "url(", "style=\"", "<foreignObject"] {
        if svg.contains(bad) {
            return Err(format!("the drawing holds {bad}"));
        }
    }
    Ok(())
}
