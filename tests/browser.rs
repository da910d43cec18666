//! The web table in a real browser: headless Chromium driven through chromedriver (WebDriver)
//! against the real server on port 0. Two players, each in their own browser: one opens their
//! seat link and moves, the other's open page updates by itself; the audit page proves the roll;
//! the verify page checks the export in the browser with Web Crypto, and runs DESIGN.md's test
//! vectors there. Screenshots go to `tests/artifacts/` (gitignored) for a human to look at.
//!
//! `scripts/test` installs Debian's chromium and chromium-driver when they are missing and
//! exports their paths as `DESPATCH_CHROMIUM` and `DESPATCH_CHROMEDRIVER`; the defaults are
//! Debian's `/usr/bin/chromium` and `/usr/bin/chromedriver`.

#[macro_use]
mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::TestApp;
use despatch::engine::board::Pointed;
use despatch::games::GameId;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

struct Driver {
    child: Child,
    url: String,
    _profiles: Vec<tempfile::TempDir>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tool(var: &str, default: &str) -> String {
    let path = std::env::var(var).unwrap_or_else(|_| default.to_owned());
    assert!(
        std::path::Path::new(&path).exists(),
        "{path} is missing: the browser tests need Debian's chromium and chromium-driver. Run ./scripts/test, which installs them, or set {var}"
    );
    path
}

/// Starts chromedriver on a free port and waits until it answers.
async fn chromedriver() -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(tool("DESPATCH_CHROMEDRIVER", "/usr/bin/chromedriver"))
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let url = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(r) = http.get(format!("{url}/status")).send().await {
            if r.status().is_success() {
                break;
            }
        }
        assert!(Instant::now() < deadline, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Driver {
        child,
        url,
        _profiles: Vec::new(),
    }
}

/// A fresh headless Chromium with its own profile.
async fn browser(driver: &mut Driver) -> Client {
    browser_with(driver, &[]).await
}

/// A fresh headless Chromium with its own profile and `extra` command-line switches.
async fn browser_with(driver: &mut Driver, extra: &[&str]) -> Client {
    let profile = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--window-size=1200,1000",
    ]
    .iter()
    .chain(extra)
    .map(|a| a.to_string())
    .collect();
    args.push(format!("--user-data-dir={}", profile.path().display()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": tool("DESPATCH_CHROMIUM", "/usr/bin/chromium"),
            "args": args,
        }),
    );
    driver._profiles.push(profile);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a Chromium session")
}

fn artifacts() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Scrolls the page so that the drawn board is at the top of the window, for a screenshot of
/// it.
async fn show_board(c: &Client) {
    c.execute(
        "var f = document.getElementById('board-figure'); if (f) f.scrollIntoView({block: 'start'});",
        vec![],
    )
    .await
    .unwrap();
}

async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(artifacts().join(format!("{name}.png")), png).unwrap();
}

/// Waits until `css` matches an element whose text contains `text`.
async fn wait_for_text(c: &Client, css: &str, text: &str, within: Duration) -> String {
    let deadline = Instant::now() + within;
    loop {
        if let Ok(els) = c.find_all(Locator::Css(css)).await {
            for el in els {
                if let Ok(t) = el.text().await {
                    if t.contains(text) {
                        return t;
                    }
                }
            }
        }
        if Instant::now() > deadline {
            let source = c.source().await.unwrap_or_default();
            panic!("no '{css}' with text '{text}' within {within:?}; the page:\n{source}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The page's scroll width, the window's width and the width of the drawn board's frame (0
/// without one): a board whose squares are too small to tap at a phone's width is drawn wider
/// inside its frame, which scrolls sideways (`data-tap-width`).
async fn widths(c: &Client) -> (f64, f64, f64) {
    let sizes = c
        .execute(
            "var svg = document.querySelector('figure.board svg'); var f = svg && svg.closest('figure'); return [document.documentElement.scrollWidth, window.innerWidth, f ? f.getBoundingClientRect().width : 0];",
            vec![],
        )
        .await
        .unwrap();
    let width = |i: usize| sizes[i].as_f64().unwrap();
    (width(0), width(1), width(2))
}

/// No move rate: the pointing tests set their games up with bot moves faster than a player
/// may move, and the page's own orders must not be refused for the rate the set-up used up.
/// The rate is tested in `tests/service/api.rs`.
async fn spawn(backend: common::Backend) -> TestApp {
    common::spawn_app(backend).move_rate(None).spawn().await
}

on_both_backends!(
    two_players_play_audit_and_verify_in_real_browsers,
    a_wargame_order_is_made_by_pointing_at_the_board_on_a_phone,
    every_wargame_takes_an_order_by_pointing_on_a_phone,
    hour_of_glory_the_defender_orders_a_sentry_or_guard_by_pointing_on_a_phone,
    where_eagles_dare_a_path_and_a_fire_are_pointed_on_a_phone,
    a_player_signs_in_from_the_mail_and_sees_their_games,
    the_html_mail_reads_at_600_and_390_pixels,
    every_rulesets_seat_page_keeps_to_a_phones_width,
    every_rulesets_seat_page_turns_dark_when_the_reader_asks,
    the_lobby_names_the_seats_by_role_and_takes_the_options_from_fields,
    the_seat_page_counts_down_to_the_deadline_in_the_seats_time_zone,
    a_refused_order_is_answered_where_the_player_looks_at_390_and_1280,
    a_wargame_page_lays_the_board_beside_the_orders_at_390_and_1280,
    the_boards_show_their_roads_and_terrain_in_light_and_dark_at_390_and_1280,
    a_move_by_mail_reaches_the_opponent_s_open_page,
    the_lobby_reads_at_390_and_1280_and_names_every_wrong_field,
    searching_for_glory_a_seat_plans_and_reacts_with_its_hand_as_cards_at_390_and_1280,
    every_ruleset_is_played_by_two_seats_pointing_and_pressing_buttons,
);

/// Issue 38: the lobby at a phone's width and a desktop's: no sideways scrolling; seats by role
/// and side, options by label, the practice set-ups in their own group; a form wrong in
/// several fields comes back with every one listed and marked at its field.
async fn the_lobby_reads_at_390_and_1280_and_names_every_wrong_field(site: TestApp) {
    let backend = site.db.backend();
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    for width in [390u32, 1280] {
        c.set_window_size(width, 900).await.unwrap();
        c.goto(&format!("{}/", site.base)).await.unwrap();
        c.find(Locator::Id("ruleset"))
            .await
            .unwrap()
            .select_by_value("searching-for-glory/danube-1809")
            .await
            .unwrap();
        wait_for_text(
            &c,
            "#chosen",
            "Searching for Glory",
            Duration::from_secs(10),
        )
        .await;
        let label = c
            .find(Locator::Css("label[for=name_1]"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(label, "Archduke Charles (Austrian side): player name");
        let option = c
            .find(Locator::Css("label[for=opt-battle_cards]"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(option, "Battle cards");
        let groups = c
            .execute(
                "return Array.from(document.querySelectorAll('#ruleset optgroup')).map(g => g.label);",
                vec![],
            )
            .await
            .unwrap();
        let groups: Vec<&str> = groups
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.as_str().unwrap())
            .collect();
        assert_eq!(
            groups.last(),
            Some(&"For Honor and Glory — War of 1812 land battles: practice and drill set-ups"),
            "{groups:?}"
        );
        let (page, window, _) = widths(&c).await;
        assert!(
            page <= window,
            "the lobby at {width} px scrolls sideways: {page} > {window}"
        );
        screenshot(&c, &format!("{backend}-38-lobby-{width}")).await;
        // Two players, one address mistyped, and a number that is none: both named at once.
        for (id, text) in [
            ("name_0", "Anna"),
            ("email_0", "anna-at-example"),
            ("name_1", "Ben"),
            ("name_2", "Cleo"),
        ] {
            c.find(Locator::Id(id))
                .await
                .unwrap()
                .send_keys(text)
                .await
                .unwrap();
        }
        c.find(Locator::Id("clock"))
            .await
            .unwrap()
            .select_by_value("custom")
            .await
            .unwrap();
        let hours = c.find(Locator::Id("clock-hours")).await.unwrap();
        hours.clear().await.unwrap();
        hours.send_keys("soon").await.unwrap();
        c.find(Locator::Css("#new-game button[type=submit]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let alert =
            wait_for_text(&c, "#error", "2 things are wrong", Duration::from_secs(10)).await;
        assert!(
            alert.contains("'anna-at-example' is not an email address"),
            "{alert}"
        );
        assert!(alert.contains("'soon' is not a whole number"), "{alert}");
        for id in ["email_0", "clock-hours"] {
            let field = c.find(Locator::Id(id)).await.unwrap();
            assert_eq!(
                field.attr("aria-invalid").await.unwrap().as_deref(),
                Some("true"),
                "{id} is marked"
            );
        }
        let (page, window, _) = widths(&c).await;
        assert!(
            page <= window,
            "the refused lobby at {width} px scrolls sideways"
        );
        screenshot(&c, &format!("{backend}-38-lobby-refused-{width}")).await;
    }
    c.close().await.unwrap();
}

/// Issue 38: Ben has his seat page open while Anna moves by email — a real `despatch mail-in`,
/// a process of its own that ends once it has answered. Ben's page shows her move and asks for
/// his, without a reload, at a phone's width and a desktop's.
async fn a_move_by_mail_reaches_the_opponent_s_open_page(site: TestApp) {
    use common::mail_in::{mail_in, reply};
    let backend = site.db.backend();
    let mut driver = chromedriver().await;
    let ben = browser(&mut driver).await;
    for (round, width) in [390u32, 1280].into_iter().enumerate() {
        let created = site
            .games
            .create(despatch::games::NewGame {
                name: None,
                ruleset: "open-table".into(),
                scenario: "default".into(),
                options: json!({}),
                seats: ["Anna <anna@example.org>", "Ben <ben@example.org>"]
                    .iter()
                    .map(|s| {
                        let (name, email) = s.split_once(" <").unwrap();
                        despatch::games::NewSeat {
                            seat: None,
                            name: name.into(),
                            email: Some(email.trim_end_matches('>').into()),
                        }
                    })
                    .collect(),
                clock: None,
            })
            .await
            .unwrap();
        let game_id = &created.game_id;
        ben.set_window_size(width, 900).await.unwrap();
        ben.goto(&created.seats[1].link).await.unwrap();
        wait_for_text(&ben, "#move-h", "Not your turn", Duration::from_secs(10)).await;
        let message = reply(
            game_id,
            0,
            "Anna <anna@example.org>",
            &format!("live-{round}@example.org"),
            "The Guards cross the ford\nroll 2d6 to cross",
        );
        let out = tokio::task::block_in_place(|| mail_in(&site, &message));
        assert!(out.starts_with("answered anna@example.org"), "{out}");
        wait_for_text(
            &ben,
            "ol.events",
            "Anna rolls 2d6 (to cross)",
            Duration::from_secs(20),
        )
        .await;
        wait_for_text(&ben, "#move-h", "Your move", Duration::from_secs(10)).await;
        screenshot(&ben, &format!("{backend}-38-moved-by-mail-{width}")).await;
    }
    ben.close().await.unwrap();
}

/// Issue 21: the lobby in Chromium. Choosing Hour of Glory from the menu shows its seats by
/// role (Defender, Intruder 1 …) and its options as fields; the custom clock's fields show only
/// while "Custom" is chosen; the game made has exactly the options and clock set in them.
async fn the_lobby_names_the_seats_by_role_and_takes_the_options_from_fields(site: TestApp) {
    let (base, backend) = (&site.base, site.db.backend());
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    c.goto(&format!("{base}/")).await.unwrap();
    // The chooser is sent on as soon as the menu changes: its button is for pages without
    // JavaScript.
    let choose = c.find(Locator::Id("choose-button")).await.unwrap();
    assert!(!choose.is_displayed().await.unwrap(), "the script hides it");
    c.find(Locator::Id("ruleset"))
        .await
        .unwrap()
        .select_by_value("hour-of-glory/mission")
        .await
        .unwrap();
    wait_for_text(&c, "#chosen", "Hour of Glory", Duration::from_secs(10)).await;
    let mut roles = Vec::new();
    for label in c.find_all(Locator::Css("#seats .seat-row")).await.unwrap() {
        roles.push(label.attr("data-role").await.unwrap().unwrap());
    }
    assert_eq!(
        roles,
        ["Defender", "Intruder 1", "Intruder 2", "Intruder 3"]
    );
    let label = c
        .find(Locator::Css("label[for=name_0]"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(label.starts_with("Defender"), "{label}");
    for (id, name) in [("name_0", "José"), ("name_1", "Zoë Ångström")] {
        c.find(Locator::Id(id))
            .await
            .unwrap()
            .send_keys(name)
            .await
            .unwrap();
    }
    // Options from the ruleset's metadata: a menu for covering_fire, a number for minutes,
    // JSON for the structured ones.
    c.find(Locator::Id("opt-covering_fire"))
        .await
        .unwrap()
        .select_by_value("any")
        .await
        .unwrap();
    let minutes = c.find(Locator::Id("opt-minutes")).await.unwrap();
    assert_eq!(minutes.prop("value").await.unwrap().as_deref(), Some("60"));
    minutes.clear().await.unwrap();
    minutes.send_keys("90").await.unwrap();
    assert_eq!(
        c.find(Locator::Id("opt-loadouts"))
            .await
            .unwrap()
            .tag_name()
            .await
            .unwrap(),
        "textarea"
    );
    // The custom clock's fields appear with "Custom".
    let custom = c.find(Locator::Id("custom-clock")).await.unwrap();
    assert!(!custom.is_displayed().await.unwrap());
    c.find(Locator::Id("clock"))
        .await
        .unwrap()
        .select_by_value("custom")
        .await
        .unwrap();
    assert!(custom.is_displayed().await.unwrap());
    let hours = c.find(Locator::Id("clock-hours")).await.unwrap();
    hours.clear().await.unwrap();
    hours.send_keys("36").await.unwrap();
    let zone = c.find(Locator::Id("clock-time-zone")).await.unwrap();
    zone.clear().await.unwrap();
    zone.send_keys("Asia/Tokyo").await.unwrap();
    screenshot(&c, &format!("{backend}-20-lobby-hour-of-glory")).await;
    c.find(Locator::Css("#new-game button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(&c, "h1", "The game is ready", Duration::from_secs(10)).await;
    let link = c
        .find(Locator::Css("a.seat-link"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    let game_id = link
        .split("/games/")
        .nth(1)
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let events: Value = site
        .http
        .get(site.url(&format!("/api/games/{game_id}/events")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let events = events
        .as_array()
        .or_else(|| events["events"].as_array())
        .expect("a list of events")
        .clone();
    let created = &events[0]["payload"];
    assert_eq!(
        created["options"],
        json!({ "covering_fire": "any", "minutes": 90 }),
        "only what differs from the defaults: {created}"
    );
    let names: Vec<&str> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["José", "Zoë Ångström"]);
    let policy = events
        .iter()
        .find(|e| e["kind"] == "Clock")
        .map(|e| e["payload"]["policy"].clone())
        .expect("the clock's policy is logged");
    assert_eq!(policy["move_deadline_hours"], 36);
    assert_eq!(policy["time_zone"], "Asia/Tokyo");
    assert_eq!(policy["reminders_hours"], json!([12, 2]));
    c.close().await.unwrap();
}

/// Issue 21: a seat with a time zone reads its deadline in it, "… JST (in 59 minutes)" without
/// JavaScript, and the page counts down with it.
async fn the_seat_page_counts_down_to_the_deadline_in_the_seats_time_zone(site: TestApp) {
    let backend = site.db.backend();
    let created: Value = site
        .http
        .post(site.url("/api/games"))
        .json(
            &json!({ "ruleset": "open-table", "name": "Against the clock",
            "clock": { "move_deadline_hours": 1, "on_deadline": "remind" },
            "seats": [{ "name": "Kenji", "seat": "kenji" }, { "name": "Anna", "seat": "anna" }] }),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let game_id = created["game_id"].as_str().unwrap().to_owned();
    let link = created["seats"][0]["link"].as_str().unwrap().to_owned();
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    c.goto(&link).await.unwrap();
    wait_for_text(&c, "#move-h", "Your move", Duration::from_secs(10)).await;
    // Kenji sets his time zone on his settings page.
    c.goto(&format!("{}/games/{game_id}/settings", site.base))
        .await
        .unwrap();
    let zone = c.find(Locator::Id("time-zone")).await.unwrap();
    zone.send_keys("Asia/Tokyo").await.unwrap();
    c.find(Locator::Css("#zone-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(&c, "#current-zone", "Asia/Tokyo", Duration::from_secs(10)).await;
    c.goto(&format!("{}/games/{game_id}", site.base))
        .await
        .unwrap();
    let shown = wait_for_text(&c, "#deadline", "JST", Duration::from_secs(10)).await;
    let at = c
        .find(Locator::Id("deadline"))
        .await
        .unwrap()
        .attr("datetime")
        .await
        .unwrap()
        .unwrap();
    let expected = despatch::games::when::moment(
        chrono::DateTime::parse_from_rfc3339(&at).unwrap().into(),
        despatch::games::when::zone(Some("Asia/Tokyo")),
        None,
    );
    assert_eq!(shown, expected.at, "the seat's zone, not the browser's");
    // The countdown moves.
    let first = wait_for_text(&c, "#countdown", " s", Duration::from_secs(5)).await;
    assert!(
        first.starts_with("in 59 min") || first.starts_with("in 1 h"),
        "{first}"
    );
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let later = c
        .find(Locator::Id("countdown"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_ne!(first, later, "the countdown ticks");
    screenshot(&c, &format!("{backend}-21-countdown")).await;
    c.close().await.unwrap();
}

/// Issue 20: the seat page of every ruleset — a drawn board or a board in text — at 390 px: the
/// page never scrolls sideways (a text board scrolls in its own box), and a drawn board is
/// within the width. Screenshots of each, at 390 and 1200 px, go to tests/artifacts/.
async fn every_rulesets_seat_page_keeps_to_a_phones_width(site: TestApp) {
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    for ruleset in despatch::rules::all() {
        let id = ruleset.info().id;
        let created = site
            .games
            .create(common::bot::new_game(&ruleset, 0))
            .await
            .unwrap();
        let seat = &created.seats[0];
        let link = format!(
            "{}/games/{}?token={}",
            site.base, created.game_id, seat.token
        );
        for width in [1200, 390] {
            c.set_window_size(width, 900).await.unwrap();
            c.goto(&link).await.unwrap();
            wait_for_text(&c, "#board-h", "The board", Duration::from_secs(10)).await;
            let (page, window, board) = widths(&c).await;
            assert!(
                page <= window,
                "{id} at {width} px scrolls sideways: {page} > {window}"
            );
            assert!(
                board <= window,
                "{id}'s board at {width} px is wider than the window: {board}"
            );
            screenshot(&c, &format!("board-{id}-{width}")).await;
        }
    }
    c.close().await.unwrap();
}

/// The relative luminance (0 black … 1 white) of a CSS colour as `getComputedStyle` gives it
/// (`rgb(r, g, b)` or `rgba(…)`).
fn luminance(css: &str) -> f64 {
    let parts: Vec<f64> = css
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .take(3)
        .map(|p| {
            p.trim()
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("not a colour: {css}"))
        })
        .collect();
    let lin = |c: f64| {
        let c = c / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(parts[0]) + 0.7152 * lin(parts[1]) + 0.0722 * lin(parts[2])
}

/// Issue 20: "dark mode through `prefers-color-scheme`". Each ruleset's seat page, opened in a
/// Chromium that asks for dark pages and in one that does not: the dark page's background is
/// dark and its text light (contrast at least 4.5:1), the light page's the other way round, and
/// the drawn board's paper (and the open table's seat boxes) darken with the page. Screenshots at 390 px go to tests/artifacts/.
async fn every_rulesets_seat_page_turns_dark_when_the_reader_asks(site: TestApp) {
    let mut driver = chromedriver().await;
    let light = browser(&mut driver).await;
    let dark = browser_with(&mut driver, &["--blink-settings=preferredColorScheme=0"]).await;
    let colours = "var cs = getComputedStyle(document.body); \
        var fill = function (css) { var e = document.querySelector('figure.board svg ' + css); \
            return e ? getComputedStyle(e).fill : ''; }; \
        return [cs.backgroundColor, cs.color, fill('.b-paper'), fill('.b-box')];";
    for ruleset in despatch::rules::all() {
        let id = ruleset.info().id;
        let created = site
            .games
            .create(common::bot::new_game(&ruleset, 0))
            .await
            .unwrap();
        let link = format!(
            "{}/games/{}?token={}",
            site.base, created.game_id, created.seats[0].token
        );
        let mut read = Vec::new();
        for (c, name) in [(&light, "light"), (&dark, "dark")] {
            c.set_window_size(390, 900).await.unwrap();
            c.goto(&link).await.unwrap();
            wait_for_text(c, "#board-h", "The board", Duration::from_secs(10)).await;
            let got = c.execute(colours, vec![]).await.unwrap();
            let got: Vec<String> = (0..4)
                .map(|i| got[i].as_str().unwrap_or_default().to_owned())
                .collect();
            screenshot(c, &format!("board-{id}-390-{name}")).await;
            read.push(got);
        }
        let (bg_light, ink_light) = (luminance(&read[0][0]), luminance(&read[0][1]));
        let (bg_dark, ink_dark) = (luminance(&read[1][0]), luminance(&read[1][1]));
        let contrast = |a: f64, b: f64| (a.max(b) + 0.05) / (a.min(b) + 0.05);
        assert!(
            bg_light > 0.8 && ink_light < 0.1,
            "{id}: the light page is {:?}",
            read[0]
        );
        assert!(
            bg_dark < 0.05 && ink_dark > 0.6,
            "{id}: the dark page is {:?}",
            read[1]
        );
        assert!(
            contrast(bg_dark, ink_dark) >= 4.5,
            "{id}: the dark page's text has too little contrast: {:?}",
            read[1]
        );
        // The board's paper, and the open table's seat boxes, where the board has them.
        for (i, what) in [(2, "paper"), (3, "seat boxes")] {
            if !read[0][i].is_empty() {
                assert!(
                    luminance(&read[1][i]) < luminance(&read[0][i]) / 2.0,
                    "{id}: the board's {what} do not darken: light {}, dark {}",
                    read[0][i],
                    read[1][i]
                );
            }
        }
    }
    light.close().await.unwrap();
    dark.close().await.unwrap();
}

/// Issue 21: a wargame's invitation and turn notice, read back from the SMTP server, opened in
/// Chromium at a mail client's 600 px and a phone's 390 px: the text never makes the page scroll
/// sideways (the board scrolls in its own box, the order grammar and the log's hash wrap).
async fn the_html_mail_reads_at_600_and_390_pixels(site: TestApp) {
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).unwrap();
    let tag = hex::encode(b);
    let (anna, ben) = (
        format!("anna-{tag}@example.org"),
        format!("ben-{tag}@example.org"),
    );
    let created = site
        .http
        .post(site.url("/api/games"))
        .json(&json!({
            "name": "Chippawa by mail", "ruleset": "for-honor-and-glory", "scenario": "chippawa",
            "seats": [
                { "seat": "american", "name": "Anna", "email": anna },
                { "seat": "british", "name": "Ben", "email": ben },
            ],
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    // The dispatcher drains the outbox to the SMTP server; the mail is read back from its maildir.
    site.smtp_dispatcher().drain().await.unwrap();
    let mut mails = common::notify::wait_for_mail(&anna, 1).await;
    mails.extend(common::notify::wait_for_mail(&ben, 1).await);
    assert_eq!(mails.len(), 2, "an invitation and a turn notice");
    let files = tempfile::tempdir().unwrap();
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    for (i, mail) in mails.iter().enumerate() {
        let kind = if mail.subject.contains("Your turn") {
            "turn"
        } else {
            "invitation"
        };
        assert!(
            mail.html.contains("The board as you see it") || kind == "invitation",
            "{}",
            mail.html
        );
        let path = files.path().join(format!("mail-{i}.html"));
        std::fs::write(&path, &mail.html).unwrap();
        for width in [600, 390] {
            c.set_window_size(width, 900).await.unwrap();
            c.goto(&format!("file://{}", path.display())).await.unwrap();
            let sizes = c
                .execute(
                    "return [document.documentElement.scrollWidth, window.innerWidth];",
                    vec![],
                )
                .await
                .unwrap();
            let (page, window) = (sizes[0].as_f64().unwrap(), sizes[1].as_f64().unwrap());
            assert!(
                page <= window,
                "the {kind} mail scrolls sideways at {width} px: {page} > {window}"
            );
            // The board fits its box whole: a reader need not scroll it sideways either.
            let boxes = c
                .execute(
                    "return [...document.querySelectorAll('div > pre')].map(p => [p.parentElement.scrollWidth, p.parentElement.clientWidth]);",
                    vec![],
                )
                .await
                .unwrap();
            let boxes = boxes.as_array().unwrap();
            assert!(
                !boxes.is_empty() || kind == "invitation",
                "no board in the {kind} mail"
            );
            for b in boxes {
                assert!(
                    b[0].as_f64() <= b[1].as_f64(),
                    "the {kind} mail's board scrolls sideways at {width} px: {b}"
                );
            }
            screenshot(&c, &format!("mail-{kind}-{width}")).await;
        }
        // The grammar, where the mail has it, wraps instead of running off the side.
        if mail.html.contains("How to write orders") {
            let wraps = c
                .execute(
                    "return [...document.querySelectorAll('pre')].some(p => getComputedStyle(p).whiteSpace === 'pre-wrap');",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(wraps, json!(true), "the order grammar wraps");
        }
    }
    c.close().await.unwrap();
}

/// Issue 21: the sign-in form, the mail read back from the SMTP server, its link followed in
/// Chromium to My games, and the seat opened from there.
async fn a_player_signs_in_from_the_mail_and_sees_their_games(site: TestApp) {
    let (base, backend) = (&site.base, site.db.backend());
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).unwrap();
    let email = format!("zoe-{}@example.org", hex::encode(b));
    let created = site
        .http
        .post(site.url("/api/games"))
        .json(
            &json!({ "name": "Zoë’s 李雷 campaign", "ruleset": "open-table", "seats": [
            { "name": "Zoë Ångström", "seat": "zoe", "email": email },
            { "name": "李雷", "seat": "li" },
        ] }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let mut driver = chromedriver().await;
    let zoe = browser(&mut driver).await;
    zoe.goto(&format!("{base}/me")).await.unwrap();
    wait_for_text(&zoe, "h1", "Your games", Duration::from_secs(10)).await;
    zoe.find(Locator::Id("email"))
        .await
        .unwrap()
        .send_keys(&email)
        .await
        .unwrap();
    zoe.find(Locator::Id("send-sign-in"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(
        &zoe,
        "p.notice",
        "sign-in link is on its way",
        Duration::from_secs(10),
    )
    .await;
    // The outbox's mail is sent to the SMTP server and read back from its maildir.
    site.smtp_dispatcher().drain().await.unwrap();
    let mut link = None;
    for _ in 0..100 {
        link = common::notify::delivered_to(&email)
            .into_iter()
            .filter(|m| m.subject == "[Despatch] Your sign-in link")
            .find_map(|m| {
                m.text
                    .split_whitespace()
                    .find(|w| w.contains("/login/confirm?token="))
                    .map(str::to_owned)
            });
        if link.is_some() {
            break;
        }
        site.smtp_dispatcher().drain().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let link = link.expect("the sign-in mail arrived");
    zoe.goto(&link).await.unwrap();
    zoe.find(Locator::Id("confirm-sign-in"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(&zoe, "h1", "My games", Duration::from_secs(10)).await;
    let row = wait_for_text(
        &zoe,
        "#my-games li.your-turn",
        "Zoë’s 李雷 campaign",
        Duration::from_secs(5),
    )
    .await;
    assert!(row.contains("Your turn"), "{row}");
    // When the game last moved is told as a player says it, not as a timestamp.
    assert!(row.contains("Last move 1 minute ago"), "{row}");
    assert!(!row.contains(" UTC"), "{row}");
    // A phone reads the list without scrolling sideways.
    zoe.set_window_size(390, 900).await.unwrap();
    let (page, window, _) = widths(&zoe).await;
    assert!(
        page <= window,
        "My games scrolls sideways at 390 px: {page} > {window}"
    );
    screenshot(&zoe, &format!("{backend}-10-my-games-390")).await;
    // The session cookie is HttpOnly: no script reads it.
    let cookies = zoe.execute("return document.cookie", vec![]).await.unwrap();
    assert!(!cookies
        .as_str()
        .unwrap_or_default()
        .contains("despatch_session"));
    screenshot(&zoe, &format!("{backend}-10-my-games")).await;
    zoe.find(Locator::Css("#my-games a.seat-link"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(
        &zoe,
        "#game-name",
        "Zoë’s 李雷 campaign",
        Duration::from_secs(10),
    )
    .await;
    wait_for_text(&zoe, "#move-h", "Your move", Duration::from_secs(10)).await;
    zoe.close().await.unwrap();
}

/// For Honor and Glory on a 390-px phone: the drawn board fits the width (no sideways scroll of
/// the page), the seat's pieces that can act are marked; a tap on one marks where it may go, a
/// tap there puts the legal order in the order box, and the server accepts it.
async fn a_wargame_order_is_made_by_pointing_at_the_board_on_a_phone(site: TestApp) {
    let base = site.base.clone();
    let http = reqwest::Client::new();
    let created: Value = http
        .post(format!("{base}/api/games"))
        .json(&json!({
            "ruleset": "for-honor-and-glory",
            "scenario": "chippawa",
            "seats": [
                { "seat": "american", "name": "Anna" },
                { "seat": "british", "name": "Ben" },
            ],
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let game_id = created["game_id"].as_str().unwrap().to_owned();
    let summary: Value = http
        .get(format!("{base}/api/games/{game_id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let to_act = summary["waiting_for"][0]["seat"]
        .as_str()
        .unwrap()
        .to_owned();
    let seat = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == to_act.as_str())
        .unwrap();
    let link = format!(
        "{base}/games/{game_id}?token={}",
        seat["token"].as_str().unwrap()
    );

    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&link).await.unwrap();
    wait_for_text(&c, "#move-h", "Your move", Duration::from_secs(10)).await;
    let (page, window, board) = widths(&c).await;
    assert!(board > 0.0, "the seat page draws no board");
    assert!(
        page <= window,
        "the page scrolls sideways: {page} > {window}"
    );
    assert!(
        board <= window,
        "the board is wider than the phone: {board} > {window}"
    );
    screenshot(&c, "fhg-phone-01-board").await;

    // Zoom: + draws the board larger inside its own scrolling box; the page still does not
    // scroll sideways; Fit brings it back to the width.
    for _ in 0..2 {
        c.find(Locator::Css("button[data-zoom=in]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
    }
    wait_for_text(&c, "#zoom-level", "Zoom 200%", Duration::from_secs(5)).await;
    let zoomed = c
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth, document.querySelector('figure.board svg').getBoundingClientRect().width, document.getElementById('board-figure').scrollLeft];",
            vec![],
        )
        .await
        .unwrap();
    let (page, window, board, panned) = (
        zoomed[0].as_f64().unwrap(),
        zoomed[1].as_f64().unwrap(),
        zoomed[2].as_f64().unwrap(),
        zoomed[3].as_f64().unwrap(),
    );
    assert!(
        board > window,
        "zoomed in, the board is wider than the phone: {board}"
    );
    assert!(
        page <= window,
        "zoomed in, the page still does not scroll sideways: {page}"
    );
    assert!(panned > 0.0, "the box scrolled to keep the middle in view");
    screenshot(&c, "fhg-phone-01b-zoomed").await;
    c.find(Locator::Css("button[data-zoom=fit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let fitted = c
        .execute(
            "return document.querySelector('figure.board svg').getBoundingClientRect().width;",
            vec![],
        )
        .await
        .unwrap();
    assert!(fitted.as_f64().unwrap() <= window, "Fit: {fitted}");

    let pointable = c.find_all(Locator::Css("g.pointable")).await.unwrap();
    assert!(!pointable.is_empty(), "the seat's pieces are marked");
    pointable[0].click().await.unwrap();
    wait_for_text(&c, "#pointing-status", "Chosen:", Duration::from_secs(5)).await;
    let reach = c.find_all(Locator::Css("g.reach")).await.unwrap();
    assert!(!reach.is_empty(), "the piece's places are marked");
    show_board(&c).await;
    screenshot(&c, "fhg-phone-02-piece-chosen").await;
    reach[0].click().await.unwrap();
    let written = pointed_order(&c, "fhg").await;
    screenshot(&c, "fhg-phone-03-order-filled").await;
    c.find(Locator::Css("#move-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(
        &c,
        ".notice",
        "Your order is recorded",
        Duration::from_secs(10),
    )
    .await;
    let events = site.store.events(&game_id, 0, None).await.unwrap();
    let last = events.last().unwrap();
    assert_eq!(last.seat, to_act, "the order was played by the seat");
    // The board now draws the turn just played: the move's path, the fire line.
    let verb = written.split_whitespace().next().unwrap_or_default();
    for (kind, drawn) in [
        ("path", matches!(verb, "move" | "move-fire" | "fire-move")),
        (
            "fire",
            matches!(verb, "fire" | "move-fire" | "fire-move" | "close-combat"),
        ),
    ] {
        if drawn {
            c.find(Locator::Css(&format!(
                "figure.board svg g[data-highlight={kind}]"
            )))
            .await
            .unwrap_or_else(|_| panic!("'{written}' is not drawn as a {kind}"));
        }
    }
    show_board(&c).await;
    screenshot(&c, "fhg-phone-04-recorded").await;
    // The same board in a Chromium that asks for dark pages.
    let dark = browser_with(&mut driver, &["--blink-settings=preferredColorScheme=0"]).await;
    dark.set_window_size(390, 844).await.unwrap();
    dark.goto(&link).await.unwrap();
    wait_for_text(&dark, "#board-h", "The board", Duration::from_secs(10)).await;
    show_board(&dark).await;
    screenshot(&dark, "fhg-phone-05-last-turn-dark").await;
    // And in light at a desktop's width.
    c.set_window_size(1200, 1000).await.unwrap();
    show_board(&c).await;
    screenshot(&c, "fhg-1200-last-turn").await;
    dark.close().await.unwrap();
    c.close().await.unwrap();
}

/// Random legal moves in `game_id` (through the games service, as players would make them)
/// until a seat to act has orders to point at on its board (`Rules::pointing`): that seat.
/// After a tap on a place: picks the first choice the page offers (where a place takes several
/// orders), waits for the order box to fill, and checks that its order is one of the page's
/// pointing table. Returns the order written.
async fn pointed_order(c: &Client, name: &str) -> String {
    let order = c.find(Locator::Id("order")).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let choices = c
            .find_all(Locator::Css("#pointing-choices button"))
            .await
            .unwrap();
        if let Some(first) = choices.first() {
            first.click().await.unwrap();
        }
        let text = order.prop("value").await.unwrap().unwrap_or_default();
        if !text.trim().is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{name}: no order was put in the box"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let written = order.prop("value").await.unwrap().unwrap();
    let pointed = c
        .find(Locator::Id("pointing"))
        .await
        .unwrap()
        .prop("textContent")
        .await
        .unwrap()
        .unwrap();
    let pointed: Value = serde_json::from_str(&pointed).unwrap();
    assert!(
        pointed
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["order"] == written.trim()),
        "{name}: '{written}' is one of the pointing table's orders"
    );
    written
}

async fn play_until_a_seat_may_point(site: &TestApp, game_id: &GameId, seed: u64) -> String {
    play_until_pointing(site, game_id, seed, 600, |_, pointed| !pointed.is_empty())
        .await
        .unwrap_or_else(|| {
            panic!("in 600 moves of game {game_id} no seat had orders to point at before it ended")
        })
}

/// Random legal moves in `game_id` (through the games service, as players would make them),
/// at most `moves`, until a seat to act and its pointing table (`Rules::pointing`) are
/// `wanted`: that seat; `None` when the game ends first or the moves run out.
async fn play_until_pointing(
    site: &TestApp,
    game_id: &GameId,
    seed: u64,
    moves: usize,
    wanted: impl Fn(&str, &[Pointed]) -> bool,
) -> Option<String> {
    let mut rng = despatch::engine::bot::Rng::new(seed);
    for _ in 0..moves {
        let l = site.games.load(game_id).await.unwrap();
        for p in l.game.prompts() {
            if wanted(
                p.seat.as_str(),
                &l.game.ruleset.pointing(&l.game.state, &p.seat),
            ) {
                return Some(p.seat.to_string());
            }
        }
        if !common::bot::bot_move(&site.games, game_id, &mut rng)
            .await
            .unwrap()
        {
            return None;
        }
    }
    None
}

/// On the seat page open in `c`: a tap on the first of the seat's marked pieces, then on the
/// first place marked for it (and the first of the orders offered there, if several); the
/// order box then holds one of the page's pointing orders, which is sent. The order written.
async fn point_and_send(c: &Client, name: &str) -> String {
    point_and_send_with(c, name, "g.pointable").await
}

/// As `point_and_send`, tapping the first piece `piece` (a CSS selector) finds. Where every
/// place marked for it holds a piece (an enemy to attack), the tap is on that piece.
async fn point_and_send_with(c: &Client, name: &str, piece: &str) -> String {
    let pointable = c.find_all(Locator::Css(piece)).await.unwrap();
    assert!(
        !pointable.is_empty(),
        "{name}: the seat's pieces are marked ({piece})"
    );
    pointable[0].click().await.unwrap();
    wait_for_text(c, "#pointing-status", "Chosen:", Duration::from_secs(5)).await;
    let reach = c.find_all(Locator::Css("g.reach")).await.unwrap();
    assert!(!reach.is_empty(), "{name}: the piece's places are marked");
    // Issue 38: every place marked is ringed, whatever its shape (a location's circle as well
    // as a fortress's star), and the chosen piece's label is not stroked over.
    let unmarked = c
        .execute(
            "var out = []; document.querySelectorAll('g.reach').forEach(function (g) {                var ringed = Array.prototype.some.call(g.children, function (e) {                  return e.tagName !== 'title' && getComputedStyle(e).stroke === 'rgb(245, 196, 0)'; });                if (!ringed) out.push(g.getAttribute('data-cell')); });              document.querySelectorAll('g.selected text').forEach(function (t) {                if (getComputedStyle(t).stroke === 'rgb(245, 196, 0)') out.push('label ' + t.textContent); });              return out;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        unmarked,
        json!([]),
        "{name}: places marked but not ringed, or the chosen piece's label stroked over"
    );
    show_board(c).await;
    screenshot(c, &format!("{name}-02-piece-chosen")).await;
    // A place whose middle shows the place itself, not a piece standing on it (a tap on the
    // piece would do as well, but WebDriver clicks an element only where it is on top).
    let open = c
        .execute(
            "var cells = document.querySelectorAll('g.reach'); \
             for (var i = 0; i < cells.length; i++) { \
               cells[i].scrollIntoView({block: 'center', inline: 'center'}); \
               var r = cells[i].getBoundingClientRect(); \
               var e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); \
               if (e && cells[i].contains(e)) return i; \
             } return -1;",
            vec![],
        )
        .await
        .unwrap();
    match open.as_u64() {
        Some(i) => reach[i as usize].click().await.unwrap(),
        None => {
            // No place shows itself in its middle: where a piece stands on the first (an enemy
            // to attack), the one drawn on top there; else the place.
            let cell = reach[0]
                .attr("data-cell")
                .await
                .unwrap()
                .unwrap_or_default();
            let on = c
                .find_all(Locator::Css(&format!("g[data-piece][data-at=\"{cell}\"]")))
                .await
                .unwrap();
            match on.last() {
                Some(top) => top.click().await.unwrap(),
                None => reach[0].click().await.unwrap(),
            }
        }
    }
    let written = pointed_order(c, name).await;
    screenshot(c, &format!("{name}-03-order-filled")).await;
    c.find(Locator::Css("#move-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    written.trim().to_owned()
}

/// Issue 20, "a click on a piece and a hex fills a legal order that the server accepts", for
/// the wargames after For Honor and Glory (whose test is above): Hour of Glory's stronghold,
/// Searching for Glory's campaign map and Where Eagles Dare's hex map, each played by random
/// legal moves until a seat has orders to point at, then that seat's page on a 390-px phone in
/// Chromium — no sideways scroll, a piece tapped, a marked place tapped, the order box filled
/// with an order of the page's pointing table, sent, and recorded: the log grows by the
/// seat's event.
async fn every_wargame_takes_an_order_by_pointing_on_a_phone(site: TestApp) {
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    c.set_window_size(390, 844).await.unwrap();
    for (n, id) in ["hour-of-glory", "searching-for-glory", "where-eagles-dare"]
        .into_iter()
        .enumerate()
    {
        let ruleset = despatch::rules::find(id).unwrap();
        let created = site
            .games
            .create(common::bot::new_game(&ruleset, n))
            .await
            .unwrap();
        let game_id = created.game_id.clone();
        let seat = play_until_a_seat_may_point(&site, &game_id, 20 + n as u64).await;
        let token = &created
            .seats
            .iter()
            .find(|s| s.seat == seat)
            .expect("the seat was created")
            .token;
        c.goto(&format!("{}/games/{game_id}?token={token}", site.base))
            .await
            .unwrap();
        wait_for_text(&c, "#move-h", "Your move", Duration::from_secs(10)).await;
        let (page, window, board) = widths(&c).await;
        assert!(board > 0.0, "{id}: the seat page draws no board");
        assert!(page <= window, "{id}: the page scrolls sideways: {page}");
        assert!(board <= window, "{id}: the board is wider than the phone");
        screenshot(&c, &format!("pointing-{id}-01-board")).await;
        let before = site.store.events(&game_id, 0, None).await.unwrap().len();
        let written = point_and_send(&c, &format!("pointing-{id}")).await;
        wait_for_text(
            &c,
            ".notice",
            "Your order is recorded",
            Duration::from_secs(10),
        )
        .await;
        let events = site.store.events(&game_id, 0, None).await.unwrap();
        assert!(
            events.len() > before,
            "{id}: '{written}' was not recorded ({} events before, {} after)",
            before,
            events.len()
        );
        assert!(
            events[before..].iter().any(|e| e.seat == seat),
            "{id}: no event of {seat} after '{written}'"
        );
        show_board(&c).await;
        screenshot(&c, &format!("pointing-{id}-04-recorded")).await;
    }
    c.close().await.unwrap();
}

/// Issue 20 for Hour of Glory's Defender: his Sentries and Guards are ordered by pointing. Games
/// played by random legal moves until the Defender, to act, has an order for a Sentry or a
/// Guard to point at; then, on a 390-px phone in Chromium, the Intruder's page and the public
/// page carry no pointing table (the Defender's is his alone), and on the Defender's page a
/// tap on that Sentry or Guard and on a place marked for it fills the order box with his order
/// for that figure, which is sent and recorded: the log grows by the Defender's event.
async fn hour_of_glory_the_defender_orders_a_sentry_or_guard_by_pointing_on_a_phone(site: TestApp) {
    let ruleset = despatch::rules::find("hour-of-glory").unwrap();
    // A Sentry's or a Guard's: any of the Defender's figures but the Commander.
    let figure = |p: &Pointed| p.piece != "commander";
    let mut found = None;
    // Three Intruders: assaulters inside, Sentries to shoot them and Guards called, sooner.
    for n in 0..6 {
        let mut game = common::bot::new_game(&ruleset, 40 + n);
        game.seats = ["defender", "harris", "link", "volkov"]
            .into_iter()
            .map(|id| despatch::games::NewSeat {
                seat: Some(id.to_owned()),
                name: format!("{id} {n}"),
                email: None,
            })
            .collect();
        let created = site.games.create(game).await.unwrap();
        let wanted =
            |seat: &str, pointed: &[Pointed]| seat == "defender" && pointed.iter().any(figure);
        let seat = play_until_pointing(&site, &created.game_id, 60 + n as u64, 400, wanted).await;
        if let Some(seat) = seat {
            found = Some((created, seat));
            break;
        }
    }
    let (created, seat) =
        found.expect("in 6 games the Defender never had a Sentry or Guard to point with");
    let game_id = created.game_id.clone();
    let l = site.games.load(&game_id).await.unwrap();
    let seat_id = despatch::engine::ruleset::Seat::parse(&seat).unwrap();
    let pointed = l.game.ruleset.pointing(&l.game.state, &seat_id);
    let label = pointed.iter().find(|p| figure(p)).unwrap().piece.clone();
    let token_of = |seat: &str| {
        created
            .seats
            .iter()
            .find(|s| s.seat == seat)
            .expect("the seat was created")
            .token
            .clone()
    };
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    c.set_window_size(390, 844).await.unwrap();
    // Hidden information: no pointing table on the Intruder's page nor on the public one.
    let intruder = created
        .seats
        .iter()
        .find(|s| s.seat != seat)
        .expect("an Intruder");
    // The public page first, before any seat's link has set a seat cookie in this browser.
    for (page, url) in [
        ("the public page", format!("{}/games/{game_id}", site.base)),
        (
            "the Intruder's page",
            format!("{}/games/{game_id}?token={}", site.base, intruder.token),
        ),
    ] {
        c.goto(&url).await.unwrap();
        wait_for_text(&c, "#board-h", "The board", Duration::from_secs(10)).await;
        for css in ["#pointing", "g.pointable"] {
            assert!(
                c.find_all(Locator::Css(css)).await.unwrap().is_empty(),
                "{page} carries {css}"
            );
        }
    }
    c.goto(&format!(
        "{}/games/{game_id}?token={}",
        site.base,
        token_of(&seat)
    ))
    .await
    .unwrap();
    wait_for_text(&c, "#move-h", "Your move", Duration::from_secs(10)).await;
    let (page, window, board) = widths(&c).await;
    assert!(
        board > 0.0 && page <= window && board <= window,
        "{page} {window} {board}"
    );
    screenshot(&c, "pointing-hour-of-glory-defender-01-board").await;
    // Issue 38: a square is large enough to tap at 390 px without zooming first (32 CSS px,
    // docs/web.md): the board is drawn wider than the phone inside its own frame, which
    // scrolls sideways while the page does not.
    let square = c
        .execute(
            "var r = document.querySelector('figure.board svg g[data-cell] rect').getBoundingClientRect(); \
             var f = document.getElementById('board-figure'); \
             return [r.width, r.height, f.scrollWidth, f.clientWidth];",
            vec![],
        )
        .await
        .unwrap();
    let n = |i: usize| square[i].as_f64().unwrap();
    assert!(
        n(0) >= 31.5 && n(1) >= 31.5,
        "a square is {}×{} CSS px at 390 px",
        n(0),
        n(1)
    );
    assert!(
        n(2) > n(3),
        "the board's frame scrolls sideways: {square:?}"
    );
    // Keyboard-operable, with a text alternative: a focusable button named after the figure.
    let figure_el = c
        .find(Locator::Css(&format!(
            "g.pointable[data-piece=\"{label}\"]"
        )))
        .await
        .unwrap();
    assert_eq!(
        figure_el.attr("tabindex").await.unwrap().as_deref(),
        Some("0")
    );
    assert_eq!(
        figure_el.attr("role").await.unwrap().as_deref(),
        Some("button")
    );
    let name = figure_el
        .attr("aria-label")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(
        name.starts_with(&format!("Choose Sentry {label} at "))
            || name.starts_with(&format!("Choose Guard {label} at ")),
        "{label} is named '{name}'"
    );
    let before = site.store.events(&game_id, 0, None).await.unwrap().len();
    let written = point_and_send_with(
        &c,
        "pointing-hour-of-glory-defender",
        &format!("g.pointable[data-piece=\"{label}\"]"),
    )
    .await;
    assert!(
        written.starts_with(&format!("sentry {label} "))
            || written.starts_with(&format!("guard {label} ")),
        "'{written}' is not an order for {label}"
    );
    wait_for_text(
        &c,
        ".notice",
        "Your order is recorded",
        Duration::from_secs(10),
    )
    .await;
    let events = site.store.events(&game_id, 0, None).await.unwrap();
    assert!(
        events[before..].iter().any(|e| e.seat == seat),
        "'{written}' was not recorded ({before} events before, {} after)",
        events.len()
    );
    show_board(&c).await;
    screenshot(&c, "pointing-hour-of-glory-defender-04-recorded").await;
    c.close().await.unwrap();
}

async fn two_players_play_audit_and_verify_in_real_browsers(site: TestApp) {
    let (base, backend) = (&site.base, site.db.backend());
    let mut driver = chromedriver().await;
    let anna = browser(&mut driver).await;
    let ben = browser(&mut driver).await;
    let shot = |name: &str| format!("{backend}-{name}");

    // The lobby: a new game, and the seat links shown once.
    anna.goto(&format!("{base}/")).await.unwrap();
    anna.find(Locator::Id("name_0"))
        .await
        .unwrap()
        .send_keys("Anna")
        .await
        .unwrap();
    anna.find(Locator::Id("email_0"))
        .await
        .unwrap()
        .send_keys("anna@example.org")
        .await
        .unwrap();
    anna.find(Locator::Id("name_1"))
        .await
        .unwrap()
        .send_keys("Ben")
        .await
        .unwrap();
    screenshot(&anna, &shot("01-lobby")).await;
    anna.find(Locator::Css("#new-game button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(&anna, "h1", "The game is ready", Duration::from_secs(10)).await;
    let mut links = Vec::new();
    for a in anna.find_all(Locator::Css("a.seat-link")).await.unwrap() {
        links.push(a.attr("href").await.unwrap().unwrap());
    }
    assert_eq!(links.len(), 2);
    screenshot(&anna, &shot("02-links")).await;

    // Each player opens their own link.
    anna.goto(&links[0]).await.unwrap();
    ben.goto(&links[1]).await.unwrap();
    wait_for_text(&anna, "#move-h", "Your move", Duration::from_secs(10)).await;
    wait_for_text(&ben, "#move-h", "Not your turn", Duration::from_secs(10)).await;
    // Each link's token went into a cookie of its game: the address bar holds none.
    for browser in [&anna, &ben] {
        let url = browser.current_url().await.unwrap();
        assert!(!url.as_str().contains("token="), "{url}");
    }
    // The board is drawn, and times are shown in the reader's zone by script.
    anna.find(Locator::Css("figure.board svg")).await.unwrap();
    let time = anna.find(Locator::Css("time[data-local]")).await.unwrap();
    assert!(
        time.attr("title").await.unwrap().is_some(),
        "local time applied"
    );
    screenshot(&ben, &shot("03-ben-waiting")).await;

    // Anna builds an order with an example button, then writes her own and sends it.
    anna.find(Locator::Css("button.use-option"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let order = anna.find(Locator::Id("order")).await.unwrap();
    assert!(!order
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default()
        .is_empty());
    order.clear().await.unwrap();
    order
        .send_keys("The Guards advance to the ridge\nroll 2d6 to hit")
        .await
        .unwrap();
    anna.find(Locator::Css("#move-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(
        &anna,
        "#answer",
        "recorded as event 1",
        Duration::from_secs(10),
    )
    .await;
    // POST, redirect, GET: the address is the game's page, at the answer.
    let url = anna.current_url().await.unwrap();
    assert!(url.as_str().ends_with("#answer"), "{url}");
    assert!(!url.as_str().contains("moved="), "{url}");
    screenshot(&anna, &shot("04-anna-moved")).await;

    // Ben's page, left open, updates by itself (stream, or polling where there is none).
    wait_for_text(
        &ben,
        "ol.events",
        "Anna rolls 2d6 (to hit)",
        Duration::from_secs(20),
    )
    .await;
    wait_for_text(&ben, "#move-h", "Your move", Duration::from_secs(5)).await;
    screenshot(&ben, &shot("05-ben-updated")).await;

    // A bad order is shown inline and changes nothing.
    ben.find(Locator::Id("order"))
        .await
        .unwrap()
        .send_keys("roll 2x7")
        .await
        .unwrap();
    ben.find(Locator::Css("#move-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(&ben, "#error", "order language", Duration::from_secs(10)).await;
    assert_eq!(
        ben.find(Locator::Id("order"))
            .await
            .unwrap()
            .prop("value")
            .await
            .unwrap()
            .as_deref(),
        Some("roll 2x7")
    );
    screenshot(&ben, &shot("06-ben-bad-order")).await;

    // While Ben writes, the game moves on (his own move from his email, say): the page keeps his
    // order, refreshes the board, the log and the legal moves in place, and says so beside the
    // order box.
    let game = links[1].split("/games/").nth(1).unwrap();
    let (game_id, token) = game.split_once("?token=").unwrap();
    let next_seq = |v: &Value| v["next_seq"].as_u64().unwrap();
    let summary: Value = reqwest::get(format!("{base}/api/games/{game_id}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let moved: Value = reqwest::Client::new()
        .post(format!("{base}/api/games/{game_id}/moves"))
        .bearer_auth(token)
        .json(&json!({ "expected_seq": next_seq(&summary), "command": "Ben holds the bridge from his email", "client_entropy": "by-mail" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let note = wait_for_text(
        &ben,
        "#moved-on",
        "The game moved on while you wrote (1 new event)",
        Duration::from_secs(20),
    )
    .await;
    assert!(note.contains("legal moves are refreshed"), "{note}");
    wait_for_text(
        &ben,
        "ol.events",
        "Ben holds the bridge from his email",
        Duration::from_secs(5),
    )
    .await;
    let order = ben.find(Locator::Id("order")).await.unwrap();
    assert_eq!(
        order.prop("value").await.unwrap().as_deref(),
        Some("roll 2x7")
    );
    let expected = ben
        .find(Locator::Css("#move-form input[name=expected_seq]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        expected,
        next_seq(&moved).to_string(),
        "the form sends against the new state"
    );
    wait_for_text(&ben, "#move-h", "Not your turn", Duration::from_secs(5)).await;
    screenshot(&ben, &shot("06b-ben-moved-on-while-writing")).await;

    // The audit page of Anna's roll.
    anna.find(Locator::Css("#event-1 a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(
        &anna,
        "#faces-check",
        "Every recomputed face equals",
        Duration::from_secs(10),
    )
    .await;
    screenshot(&anna, &shot("07-audit")).await;

    // The export, verified in the browser: once as it is, once tampered with.
    let game_id = links[0]
        .split("/games/")
        .nth(1)
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let export = reqwest::get(format!("{base}/api/games/{game_id}/export"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let files = tempfile::tempdir().unwrap();
    let good = files.path().join("game.jsonl");
    std::fs::write(&good, &export).unwrap();
    let tampered = files.path().join("tampered.jsonl");
    std::fs::write(&tampered, export.replacen("to hit", "to miss", 1)).unwrap();

    anna.goto(&format!("{base}/verify")).await.unwrap();
    anna.find(Locator::Id("export-file"))
        .await
        .unwrap()
        .send_keys(good.to_str().unwrap())
        .await
        .unwrap();
    anna.find(Locator::Id("verify-button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(
        &anna,
        "#verdict",
        "✔ The export checks out (checked in your browser)",
        Duration::from_secs(15),
    )
    .await;
    let facts = anna
        .find(Locator::Id("verify-facts"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(facts.contains("3 events; 3 hashes recomputed"), "{facts}");
    assert!(
        facts.contains("2 dice recomputed in 1 rolling events"),
        "{facts}"
    );
    screenshot(&anna, &shot("08-verified")).await;

    anna.goto(&format!("{base}/verify")).await.unwrap();
    anna.find(Locator::Id("export-file"))
        .await
        .unwrap()
        .send_keys(tampered.to_str().unwrap())
        .await
        .unwrap();
    anna.find(Locator::Id("verify-button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(
        &anna,
        "#verdict",
        "✘ The export does not check out",
        Duration::from_secs(15),
    )
    .await;
    wait_for_text(
        &anna,
        ".findings",
        "Event 1: the hash does not match",
        Duration::from_secs(5),
    )
    .await;
    screenshot(&anna, &shot("09-tampered")).await;

    // DESIGN.md's test vectors, run by the page's own verifier with the browser's Web Crypto.
    let vectors = include_str!("../crates/core/tests/data/wire-formats.json");
    let failures = anna
        .execute_async(
            "const done = arguments[arguments.length - 1];
             DespatchVerify.checkVectors(JSON.parse(arguments[0])).then(done, e => done(['threw: ' + e]));",
            vec![Value::String(vectors.into())],
        )
        .await
        .unwrap();
    assert_eq!(
        failures,
        json!([]),
        "the in-browser verifier fails the test vectors"
    );

    // On a phone-sized screen the game page does not scroll sideways.
    ben.set_window_size(390, 844).await.unwrap();
    ben.goto(&format!("{base}/games/{game_id}/watch"))
        .await
        .unwrap();
    wait_for_text(&ben, "h1", "Watching", Duration::from_secs(10)).await;
    let overflow = ben
        .execute(
            "return document.documentElement.scrollWidth - window.innerWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        overflow.as_i64().unwrap() <= 0,
        "the page is {overflow}px too wide for a phone"
    );
    screenshot(&ben, &shot("10-phone-watch")).await;

    anna.close().await.unwrap();
    ben.close().await.unwrap();
}

/// Random legal moves in `game_id` until a seat to act has, in its pointing table, what `want`
/// looks for (given the game as loaded, the seat and its table): that seat and what was found.
async fn play_until_pointed<T>(
    site: &TestApp,
    game_id: &GameId,
    seed: u64,
    want: impl Fn(
        &despatch::engine::game::Game,
        &despatch::engine::ruleset::Seat,
        &[despatch::engine::board::Pointed],
    ) -> Option<T>,
) -> (String, T) {
    let mut rng = despatch::engine::bot::Rng::new(seed);
    for _ in 0..3_000 {
        let l = site.games.load(game_id).await.unwrap();
        for p in l.game.prompts() {
            let pointed = l.game.ruleset.pointing(&l.game.state, &p.seat);
            if let Some(found) = want(&l.game, &p.seat, &pointed) {
                return (p.seat.to_string(), found);
            }
        }
        assert!(
            common::bot::bot_move(&site.games, game_id, &mut rng)
                .await
                .unwrap(),
            "game {game_id} ended or stuck before a seat had such orders to point at"
        );
    }
    panic!("in 3,000 moves of game {game_id} no seat had such orders to point at");
}

/// Opens `seat`'s page of `game_id` in `c` and waits for it to ask for a move.
async fn open_seat(
    c: &Client,
    site: &TestApp,
    game_id: &GameId,
    tokens: &[(String, String)],
    seat: &str,
) {
    let token = &tokens
        .iter()
        .find(|(s, _)| s == seat)
        .expect("a seat of the game")
        .1;
    c.goto(&format!("{}/games/{game_id}?token={token}", site.base))
        .await
        .unwrap();
    wait_for_text(c, "#move-h", "Your move", Duration::from_secs(10)).await;
}

/// Clicks the drawn cell `label`, where its middle shows it (a piece standing on it would do
/// as well: the page reads the piece's cell).
async fn click_cell(c: &Client, label: &str) {
    let done = c
        .execute(
            "var want = arguments[0]; var cells = document.querySelectorAll('figure.board g[data-cell]'); \
             for (var i = 0; i < cells.length; i++) { \
               if (cells[i].getAttribute('data-cell') !== want) continue; \
               cells[i].scrollIntoView({block: 'center', inline: 'center'}); \
               var r = cells[i].getBoundingClientRect(); \
               var e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); \
               if (!e) return false; \
               e.dispatchEvent(new MouseEvent('click', {bubbles: true})); return true; \
             } return false;",
            vec![json!(label)],
        )
        .await
        .unwrap();
    assert_eq!(
        done,
        json!(true),
        "the cell {label} is drawn and takes a click"
    );
}

/// Clicks the drawn piece `id` (it is one of the seat's pointable pieces).
async fn click_piece(c: &Client, id: &str) {
    let done = c
        .execute(
            "var want = arguments[0]; var ps = document.querySelectorAll('figure.board g.pointable'); \
             for (var i = 0; i < ps.length; i++) { \
               if (ps[i].getAttribute('data-piece') !== want) continue; \
               ps[i].scrollIntoView({block: 'center', inline: 'center'}); \
               ps[i].dispatchEvent(new MouseEvent('click', {bubbles: true})); return true; \
             } return false;",
            vec![json!(id)],
        )
        .await
        .unwrap();
    assert_eq!(done, json!(true), "the piece {id} is marked for pointing");
}

async fn order_box(c: &Client) -> String {
    c.find(Locator::Id("order"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default()
}

/// Sends the order box and waits for the server to record it: the log grows by an event of
/// `seat`.
async fn send_and_check(c: &Client, site: &TestApp, game_id: &GameId, seat: &str, written: &str) {
    let before = site.store.events(game_id, 0, None).await.unwrap().len();
    c.find(Locator::Css("#move-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(
        c,
        ".notice",
        "Your order is recorded",
        Duration::from_secs(10),
    )
    .await;
    let events = site.store.events(game_id, 0, None).await.unwrap();
    assert!(
        events.len() > before && events[before..].iter().any(|e| e.seat == seat),
        "'{written}' was not recorded for {seat}"
    );
}

/// Issue 20 for Where Eagles Dare (issue 18's drawn board): on a 390-px phone in Chromium, a
/// unit tapped, a hex next to it tapped, then a hex next to that one: the order box grows into
/// `move <unit> <hex> <hex>`, which the server accepts; later a unit tapped, then a hex holding
/// an enemy unit: the order box fills with a fire in the order language (weapon class chosen
/// from those offered, the range filled in), which the server accepts.
async fn where_eagles_dare_a_path_and_a_fire_are_pointed_on_a_phone(site: TestApp) {
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    c.set_window_size(390, 844).await.unwrap();
    let ruleset = despatch::rules::find("where-eagles-dare").unwrap();
    let created = site
        .games
        .create(common::bot::new_game(&ruleset, 7))
        .await
        .unwrap();
    let game_id = created.game_id.clone();
    let tokens: Vec<(String, String)> = created
        .seats
        .iter()
        .map(|s| (s.seat.clone(), s.token.clone()))
        .collect();
    // A unit whose one-hex move the table offers and whose two-hex path, going on to a drawn
    // hex next to the first, the rules accept as well.
    let (seat, (unit, first, second)) =
        play_until_pointed(&site, &game_id, 31, |game, seat, pointed| {
            let svg = game.ruleset.board_svg(
                &game.state,
                &despatch::engine::ruleset::Viewer::Seat(seat.clone()),
                &Default::default(),
            )?;
            pointed.iter().filter(|p| p.path.is_some()).find_map(|p| {
                let path = p.path.as_ref()?;
                let cell = svg.split(&format!(r#"data-cell="{}""#, p.cell)).nth(1)?;
                let next = cell.split("data-next=\"").nth(1)?.split('"').next()?;
                next.split(' ')
                    .filter(|n| !n.is_empty() && *n != p.cell)
                    .find_map(|n| {
                        let order = path.order(&[&p.cell, n]);
                        let command = game.ruleset.parse(&game.state, seat, &order).ok()?;
                        let mut copy = game.state.clone();
                        let mut ctx = despatch::engine::ruleset::Ctx::new(
                            despatch::engine::ruleset::DiceSource::None,
                            None,
                        );
                        game.ruleset
                            .apply(&mut copy, seat, &command, &mut ctx)
                            .ok()
                            .map(|_| (p.piece.clone(), p.cell.clone(), n.to_owned()))
                    })
            })
        })
        .await;
    open_seat(&c, &site, &game_id, &tokens, &seat).await;
    click_piece(&c, &unit).await;
    wait_for_text(&c, "#pointing-status", "Chosen:", Duration::from_secs(5)).await;
    click_cell(&c, &first).await;
    wait_for_text(
        &c,
        "#pointing-status",
        "The path goes on",
        Duration::from_secs(5),
    )
    .await;
    assert!(order_box(&c)
        .await
        .trim()
        .starts_with(&format!("move {unit} {first}")));
    let marked: Vec<String> = {
        let mut out = Vec::new();
        for g in c.find_all(Locator::Css("g.reach")).await.unwrap() {
            out.push(g.attr("data-cell").await.unwrap().unwrap_or_default());
        }
        out
    };
    assert!(
        marked.contains(&second),
        "{second} is marked to go on to: {marked:?}"
    );
    screenshot(&c, "pointing-where-eagles-dare-path-01-first-hex").await;
    click_cell(&c, &second).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    let written = loop {
        let text = order_box(&c).await;
        if text.contains(&second) {
            break text.trim().to_owned();
        }
        assert!(Instant::now() < deadline, "the path did not grow: '{text}'");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        written.starts_with(&format!("move {unit} {first} {second}")),
        "{written}"
    );
    assert_eq!(
        written.lines().count(),
        1,
        "the path grew in place: {written}"
    );
    c.execute(
        "document.querySelector('figure.board svg').dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));",
        vec![],
    )
    .await
    .unwrap();
    screenshot(&c, "pointing-where-eagles-dare-path-02-two-hexes").await;
    send_and_check(&c, &site, &game_id, &seat, &written).await;
    // A fire at a hex holding an enemy unit.
    let (seat, (unit, target)) = play_until_pointed(&site, &game_id, 37, |_, _, pointed| {
        pointed
            .iter()
            .find(|p| p.order.starts_with("fire ") || p.order.starts_with("opfire "))
            .map(|p| (p.piece.clone(), p.cell.clone()))
    })
    .await;
    open_seat(&c, &site, &game_id, &tokens, &seat).await;
    click_piece(&c, &unit).await;
    wait_for_text(&c, "#pointing-status", "Chosen:", Duration::from_secs(5)).await;
    click_cell(&c, &target).await;
    let written = pointed_order(&c, "pointing-where-eagles-dare-fire").await;
    let written = written.trim().to_owned();
    assert!(
        (written.starts_with(&format!("fire {unit} {target} "))
            || written.starts_with(&format!("opfire {unit} {target} ")))
            && written.contains("-- range "),
        "{written}"
    );
    screenshot(&c, "pointing-where-eagles-dare-fire-01-order").await;
    send_and_check(&c, &site, &game_id, &seat, &written).await;
    c.close().await.unwrap();
}

/// Where an element stands in the window: `[top, bottom, left, right]` of its bounding box,
/// `window.innerHeight` and `window.scrollY`.
async fn placed(c: &Client, css: &str) -> (f64, f64, f64, f64, f64, f64) {
    let r = c
        .execute(
            "var e = document.querySelector(arguments[0]); if (!e) return null; var r = e.getBoundingClientRect(); \
             return [r.top, r.bottom, r.left, r.right, window.innerHeight, window.scrollY];",
            vec![json!(css)],
        )
        .await
        .unwrap();
    let n = |i: usize| {
        r[i].as_f64()
            .unwrap_or_else(|| panic!("no {css} on the page"))
    };
    (n(0), n(1), n(2), n(3), n(4), n(5))
}

async fn active_id(c: &Client) -> String {
    c.execute(
        "return document.activeElement ? document.activeElement.id : '';",
        vec![],
    )
    .await
    .unwrap()
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

/// Issue 38: a refused order (and the 409 of a game that moved on) is answered where the player
/// is looking — beside the order box, scrolled into view, the box focused and described by the
/// reason, the order kept — after POST, redirect, GET; a reload shows the page alone (no 405, no
/// message again). A recorded order says so once. The seat's address is shown where the seat can
/// be kept with an email, and opening a form's address is a page with a way back. At 390 and
/// 1280 px.
async fn a_refused_order_is_answered_where_the_player_looks_at_390_and_1280(site: TestApp) {
    let (base, backend) = (&site.base, site.db.backend());
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    for width in [390u32, 1280] {
        let created = site
            .games
            .create(despatch::games::NewGame {
                seats: vec![
                    despatch::games::NewSeat {
                        seat: Some("anna".into()),
                        name: "Anna".into(),
                        email: Some("anna@example.org".into()),
                    },
                    despatch::games::NewSeat {
                        seat: Some("ben".into()),
                        name: "Ben".into(),
                        email: None,
                    },
                ],
                ..common::bot::new_game(&despatch::rules::find("open-table").unwrap(), 0)
            })
            .await
            .unwrap();
        let game_id = created.game_id.clone();
        let token = |seat: &str| {
            created
                .seats
                .iter()
                .find(|s| s.seat == seat)
                .unwrap()
                .token
                .clone()
        };
        c.set_window_size(width, 844).await.unwrap();
        c.goto(&format!("{base}/games/{game_id}?token={}", token("anna")))
            .await
            .unwrap();
        wait_for_text(&c, "#move-h", "Your move", Duration::from_secs(10)).await;
        // The seat's address, where the seat is kept with an email.
        let current = wait_for_text(
            &c,
            "#claim-current",
            "anna@example.org",
            Duration::from_secs(5),
        )
        .await;
        assert!(current.contains("its notices go there"), "{current}");

        // A refused order: the reason beside the box, in view; the box focused, the order kept.
        let order = c.find(Locator::Id("order")).await.unwrap();
        order.send_keys("Charge!\nroll 2x7").await.unwrap();
        c.find(Locator::Css("#move-form button[type=submit]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for_text(
            &c,
            "#move-form #error",
            "order language",
            Duration::from_secs(10),
        )
        .await;
        let url = c.current_url().await.unwrap();
        assert_eq!(url.path(), format!("/games/{game_id}"), "{url}");
        let (top, bottom, _, _, window, _) = placed(&c, "#error").await;
        assert!(
            top >= -1.0 && bottom <= window + 1.0,
            "at {width} px the reason is out of view: {top}..{bottom} of {window}"
        );
        assert_eq!(
            active_id(&c).await,
            "order",
            "at {width} px the box has the focus"
        );
        assert_eq!(order_box(&c).await, "Charge!\nroll 2x7");
        let role = c
            .find(Locator::Id("error"))
            .await
            .unwrap()
            .attr("role")
            .await
            .unwrap();
        assert_eq!(role.as_deref(), Some("alert"));
        let described = c
            .find(Locator::Id("order"))
            .await
            .unwrap()
            .attr("aria-describedby")
            .await
            .unwrap()
            .unwrap_or_default();
        assert!(described.starts_with("error"), "{described}");
        screenshot(&c, &format!("{backend}-refused-{width}")).await;
        assert_eq!(site.store.events(&game_id, 0, None).await.unwrap().len(), 1);

        // A reload shows the page alone.
        c.refresh().await.unwrap();
        wait_for_text(&c, "#move-h", "Your move", Duration::from_secs(10)).await;
        assert!(
            c.find(Locator::Id("error")).await.is_err(),
            "the reason again after a reload"
        );
        let h1 = c
            .find(Locator::Css("h1"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(h1.contains("Anna"), "a reload opens the seat page: {h1}");
        assert_eq!(order_box(&c).await, "");

        // A page that moved on (Ben's order sent from another page first): the 409 is answered
        // the same way.
        let expected = c
            .find(Locator::Css("#move-form input[name=expected_seq]"))
            .await
            .unwrap()
            .attr("value")
            .await
            .unwrap()
            .unwrap();
        c.execute(
            "document.querySelector('#move-form input[name=expected_seq]').value = arguments[0];",
            vec![json!((expected.parse::<u64>().unwrap() - 1).to_string())],
        )
        .await
        .unwrap();
        c.find(Locator::Id("order"))
            .await
            .unwrap()
            .send_keys("roll 1d6 an old page")
            .await
            .unwrap();
        c.find(Locator::Css("#move-form button[type=submit]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for_text(
            &c,
            "#move-form #error",
            "the game moved on",
            Duration::from_secs(10),
        )
        .await;
        let (top, bottom, _, _, window, _) = placed(&c, "#error").await;
        assert!(
            top >= -1.0 && bottom <= window + 1.0,
            "{top}..{bottom} of {window}"
        );
        assert_eq!(order_box(&c).await, "roll 1d6 an old page");

        // A recorded order says so beside the box, once.
        c.find(Locator::Css("#move-form button[type=submit]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for_text(
            &c,
            "#answer",
            "Your order is recorded",
            Duration::from_secs(10),
        )
        .await;
        let (top, bottom, _, _, window, _) = placed(&c, "#answer").await;
        assert!(
            top >= -1.0 && bottom <= window + 1.0,
            "{top}..{bottom} of {window}"
        );
        screenshot(&c, &format!("{backend}-recorded-{width}")).await;
        c.refresh().await.unwrap();
        wait_for_text(&c, "#move-h", "Not your turn", Duration::from_secs(10)).await;
        assert!(
            c.find(Locator::Id("answer")).await.is_err(),
            "said again after a reload"
        );

        // A form's address opened in the browser: a page with a way back to the game.
        c.goto(&format!("{base}/games/{game_id}/resign"))
            .await
            .unwrap();
        let h1 = wait_for_text(&c, "h1", "not a page to open", Duration::from_secs(10)).await;
        assert!(!h1.is_empty());
        c.find(Locator::Css(&format!("a[href='/games/{game_id}']")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for_text(&c, "#move-h", "Not your turn", Duration::from_secs(10)).await;
        screenshot(&c, &format!("{backend}-back-from-405-{width}")).await;
    }
    c.close().await.unwrap();
}

/// Issue 38: a wargame's seat page laid out for playing. At 1280 px the board and, beside it,
/// what to do now, the order box and the log, the board above the fold; at 390 px what to do now
/// and the order box before the board. The help under the order box is the prompt's, short,
/// with the whole order language folded. Tapping a piece to point never moves the page. At both
/// widths; For Honor and Glory's Chippawa.
async fn a_wargame_page_lays_the_board_beside_the_orders_at_390_and_1280(site: TestApp) {
    let backend = site.db.backend();
    let mut driver = chromedriver().await;
    let c = browser(&mut driver).await;
    let ruleset = despatch::rules::find("for-honor-and-glory").unwrap();
    let created = site
        .games
        .create(common::bot::new_game(&ruleset, 0))
        .await
        .unwrap();
    let game_id = created.game_id.clone();
    let tokens: Vec<(String, String)> = created
        .seats
        .iter()
        .map(|s| (s.seat.clone(), s.token.clone()))
        .collect();
    let (seat, piece) = play_until_pointed(&site, &game_id, 7, |_, _, pointed| {
        pointed.first().map(|p| p.piece.clone())
    })
    .await;
    for width in [1280u32, 390] {
        c.set_window_size(width, 844).await.unwrap();
        open_seat(&c, &site, &game_id, &tokens, &seat).await;
        c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
        let (board_top, _, board_left, board_right, window, _) = placed(&c, "#board-figure").await;
        let (move_top, _, move_left, _, _, _) = placed(&c, "section.move").await;
        let (status_top, _, status_left, _, _, _) = placed(&c, "section.status").await;
        let (order_top, _, _, _, _, _) = placed(&c, "#order").await;
        let (width_now, _, _) = widths(&c).await;
        if width == 1280 {
            assert!(
                move_left >= board_right && status_left >= board_right,
                "at 1280 px what to do now and the order box stand beside the board: board ..{board_right}, move {move_left}, status {status_left}"
            );
            assert!(
                board_top + 400.0 < window,
                "at 1280 px the board starts above the fold, 400 px of it in view at least: {board_top} of {window}"
            );
            assert!(
                board_right - board_left > 600.0,
                "the board fills its column"
            );
            // The drawing itself uses the column's width, not a height cap's (it was ~390 px).
            let drawn = c
                .execute(
                    "return document.querySelector('figure.board svg').getBoundingClientRect().width;",
                    vec![],
                )
                .await
                .unwrap()
                .as_f64()
                .unwrap();
            assert!(
                drawn > 600.0 && drawn >= board_right - board_left - 2.0,
                "at 1280 px the drawn board is {drawn} px wide in a column of {}",
                board_right - board_left
            );
        } else {
            assert!(
                status_top < board_top && move_top < board_top && order_top < board_top,
                "at 390 px what to do now and the order box come before the board: status {status_top}, order {order_top}, board {board_top}"
            );
        }
        assert!(
            width_now <= f64::from(width),
            "no sideways scrolling at {width} px"
        );
        // The help under the box is the prompt's, with examples; the whole language is folded.
        let help = c
            .find(Locator::Id("grammar"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(help.len() < 400, "the help under the box is short: {help}");
        assert!(help.contains("For example"), "{help}");
        assert!(c.find(Locator::Css("details#grammar-all")).await.is_ok());
        screenshot(&c, &format!("{backend}-fhg-layout-{width}")).await;

        // Tapping a piece: the page stays where it is.
        c.execute(
            "var want = arguments[0]; document.querySelectorAll('figure.board g.pointable').forEach(function (g) { \
               if (g.getAttribute('data-piece') === want) g.scrollIntoView({block: 'center'}); });",
            vec![json!(piece)],
        )
        .await
        .unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (_, _, _, _, _, before) = placed(&c, "#board-figure").await;
        let el = c
            .find(Locator::Css(&format!(
                "figure.board g.pointable[data-piece='{piece}']"
            )))
            .await
            .unwrap();
        el.click().await.unwrap();
        wait_for_text(&c, "#pointing-status", "Chosen", Duration::from_secs(5)).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (_, _, _, _, _, after) = placed(&c, "#board-figure").await;
        assert!(
            (after - before).abs() < 2.0,
            "at {width} px tapping {piece} moved the page: scrollY {before} → {after}"
        );
        screenshot(&c, &format!("{backend}-fhg-pointed-{width}")).await;
    }
    c.close().await.unwrap();
}

/// The names of the cards on the seat page's hand, in order.
async fn hand_names(c: &Client) -> Vec<String> {
    let names = c
        .execute(
            "return Array.prototype.map.call(document.querySelectorAll('#hand .card-name'), function (e) { return e.textContent; });",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(names).unwrap()
}

/// Clicks the first card of the seat page's hand that can be pointed at now (a button not
/// greyed) besides those chosen already; its id.
async fn click_usable_card(c: &Client) -> String {
    let id = c
        .execute(
            "var bs = document.querySelectorAll('#hand button.card:not(.chosen)'); \
             for (var i = 0; i < bs.length; i++) { if (!bs[i].disabled) { \
               bs[i].scrollIntoView({block: 'center'}); bs[i].click(); return bs[i].getAttribute('data-card'); } } \
             return null;",
            vec![],
        )
        .await
        .unwrap();
    id.as_str().expect("a card can be pointed at").to_owned()
}

/// Issue 38, Searching for Glory: the hand on the seat page as cards — name, colour, reactive
/// or not, what it does — planned and played by pointing at them. Two seats in two browsers
/// (one light, one dark), at 390 and 1280 px: each page shows its own seat's cards, never the
/// other's (nor the public page any); pointing at two cards fills `plan <a> <b>`, a plan the
/// rules accept, which is sent and recorded. Then, played on by random legal moves until a
/// reactive window in which a seat holds a card that can answer: that seat's page offers it on
/// the card and in its own options (`react <card>` by its name, never the placeholder), a tap
/// on the card fills the order box, and the order is recorded.
async fn searching_for_glory_a_seat_plans_and_reacts_with_its_hand_as_cards_at_390_and_1280(
    site: TestApp,
) {
    let backend = site.db.backend();
    let mut driver = chromedriver().await;
    let light = browser(&mut driver).await;
    let dark = browser_with(&mut driver, &["--blink-settings=preferredColorScheme=0"]).await;
    let ruleset = despatch::rules::find("searching-for-glory").unwrap();
    let created = site
        .games
        .create(common::bot::new_game(&ruleset, 0))
        .await
        .unwrap();
    let game_id = created.game_id.clone();
    let tokens: Vec<(String, String)> = created
        .seats
        .iter()
        .map(|s| (s.seat.clone(), s.token.clone()))
        .collect();
    let (a, b) = (tokens[0].0.clone(), tokens[1].0.clone());
    let own_hand = |l: &despatch::games::Loaded, seat: &str| -> Vec<String> {
        l.game
            .ruleset
            .hand(
                &l.game.state,
                &despatch::engine::ruleset::Seat::parse(seat).unwrap(),
            )
            .cards
            .into_iter()
            .map(|c| c.name)
            .collect()
    };
    let l = site.games.load(&game_id).await.unwrap();
    let (hand_a, hand_b) = (own_hand(&l, &a), own_hand(&l, &b));
    assert!(
        !hand_a.is_empty() && hand_a != hand_b,
        "{hand_a:?} {hand_b:?}"
    );
    for width in [390u32, 1280] {
        for (c, seat, hand, scheme) in
            [(&light, &a, &hand_a, "light"), (&dark, &b, &hand_b, "dark")]
        {
            c.set_window_size(width, 900).await.unwrap();
            open_seat(c, &site, &game_id, &tokens, seat).await;
            assert_eq!(
                &hand_names(c).await,
                hand,
                "{seat}'s page shows its own hand"
            );
            // The page's hand is this seat's, card for card, and not the other's.
            let on_page = c
                .find(Locator::Id("hand-data"))
                .await
                .unwrap()
                .prop("textContent")
                .await
                .unwrap()
                .unwrap();
            let on_page: Value = serde_json::from_str(&on_page).unwrap();
            let hand_of = |s: &str| {
                serde_json::to_value(l.game.ruleset.hand(
                    &l.game.state,
                    &despatch::engine::ruleset::Seat::parse(s).unwrap(),
                ))
                .unwrap()
            };
            let other = if seat == &a { &b } else { &a };
            assert_eq!(on_page, hand_of(seat), "{seat}'s page carries its own hand");
            assert_ne!(
                on_page,
                hand_of(other),
                "{seat}'s page carries {other}'s hand"
            );
            let (page, window, _) = widths(c).await;
            assert!(page <= window, "{seat} at {width} px scrolls sideways");
            c.execute(
                "document.getElementById('hand').scrollIntoView({block: 'start'});",
                vec![],
            )
            .await
            .unwrap();
            screenshot(c, &format!("{backend}-sfg-hand-{width}-{scheme}")).await;
        }
    }
    let watch = format!("{}/games/{game_id}/watch", site.base);
    light.goto(&watch).await.unwrap();
    wait_for_text(&light, "#board-h", "The board", Duration::from_secs(10)).await;
    assert!(
        light.find(Locator::Css("#hand .card")).await.is_err(),
        "the public page shows no hand"
    );

    // Planning by pointing at cards: two cards of different colours make `plan <a> <b>`.
    light.set_window_size(390, 900).await.unwrap();
    open_seat(&light, &site, &game_id, &tokens, &a).await;
    let first = click_usable_card(&light).await;
    assert_eq!(order_box(&light).await.trim(), format!("plan {first}"));
    let second = click_usable_card(&light).await;
    let written = order_box(&light).await;
    let mut ids = [first.parse::<usize>().unwrap(), second.parse().unwrap()];
    ids.sort_unstable();
    assert_eq!(written.trim(), format!("plan {} {}", ids[0], ids[1]));
    wait_for_text(
        &light,
        "#hand-status",
        "Your order: plan",
        Duration::from_secs(5),
    )
    .await;
    screenshot(&light, &format!("{backend}-sfg-hand-planned-390")).await;
    send_and_check(&light, &site, &game_id, &a, &written).await;

    // A reactive window in which a seat holds a card that can answer.
    let (seat, order) = play_until_pointed(&site, &game_id, 5, |game, seat, _| {
        game.ruleset
            .hand(&game.state, seat)
            .cards
            .into_iter()
            .find_map(|c| c.orders.into_iter().find(|o| o.starts_with("react ")))
    })
    .await;
    for (c, width) in [(&light, 1280u32), (&dark, 390)] {
        c.set_window_size(width, 900).await.unwrap();
        open_seat(c, &site, &game_id, &tokens, &seat).await;
        let options = c
            .find(Locator::Id("prompts"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            options.contains(&order),
            "{seat}'s own options offer {order}: {options}"
        );
        assert!(
            !options.contains("react <card>"),
            "no placeholder: {options}"
        );
    }
    let c = &light;
    let card = c
        .execute(
            "var want = arguments[0]; var bs = document.querySelectorAll('#hand button.card'); \
             for (var i = 0; i < bs.length; i++) { if (bs[i].textContent.indexOf(want) >= 0) { \
               bs[i].scrollIntoView({block: 'center'}); bs[i].click(); return true; } } return false;",
            vec![json!(order)],
        )
        .await
        .unwrap();
    assert_eq!(card, json!(true), "the card offering {order} is a button");
    assert_eq!(order_box(c).await.trim(), order);
    screenshot(c, &format!("{backend}-sfg-hand-react-1280")).await;
    send_and_check(c, &site, &game_id, &seat, &order).await;
    light.close().await.unwrap();
    dark.close().await.unwrap();
}

/// Issue 38: a group plays each ruleset through the real seat pages alone — one Chromium per
/// seat (a cookie jar each), the first at a phone's width and the second at a desktop's — for
/// [`DRIVEN_TURNS`] orders, each made by pointing at the board or by pressing one of the
/// page's suggested orders and sending it: every order so made is recorded (a refusal fails the
/// test with the page's reason), and each seat's page is opened afresh for its turn, as a
/// player coming back to it would. Then the first seat's page is shot at 390 and 1280 px, light
/// and dark (`tests/artifacts/table-<ruleset>-<width>-<scheme>.png`, docs/web.md's gallery).
async fn every_ruleset_is_played_by_two_seats_pointing_and_pressing_buttons(site: TestApp) {
    let mut driver = chromedriver().await;
    let dark = browser_with(&mut driver, &["--blink-settings=preferredColorScheme=0"]).await;
    for (n, ruleset) in despatch::rules::all().into_iter().enumerate() {
        let id = ruleset.info().id;
        let created = site
            .games
            .create(common::bot::new_game(&ruleset, 40 + n))
            .await
            .unwrap();
        let game_id = created.game_id.clone();
        let mut seats = Vec::new();
        for (i, s) in created.seats.iter().enumerate() {
            let c = browser(&mut driver).await;
            if i == 0 {
                c.set_window_size(390, 844).await.unwrap();
            } else {
                c.set_window_size(1280, 900).await.unwrap();
            }
            c.goto(&format!("{}/games/{game_id}?token={}", site.base, s.token))
                .await
                .unwrap();
            seats.push((s.seat.clone(), c));
        }
        let mut made = Vec::new();
        for turn in 0..DRIVEN_TURNS {
            let l = site.games.load(&game_id).await.unwrap();
            if l.game.ended {
                break;
            }
            let prompts = l.game.prompts();
            let prompt = &prompts[turn % prompts.len()];
            let seat = prompt.seat.to_string();
            let (_, c) = seats.iter().find(|(s, _)| *s == seat).unwrap();
            let before = site.store.events(&game_id, 0, None).await.unwrap().len();
            c.goto(&format!("{}/games/{game_id}", site.base))
                .await
                .unwrap();
            wait_for_text(c, "#move-h", "Your move", Duration::from_secs(10)).await;
            let name = format!("drive-{id}-{turn:02}");
            // Pointing first on even turns, a suggested order first on odd ones: both are played.
            let points = !c
                .find_all(Locator::Css("g.pointable"))
                .await
                .unwrap()
                .is_empty();
            let button = first_suggestion(c).await;
            let (how, written) = if points && (turn % 2 == 0 || button.is_none()) {
                ("pointed", point_and_send(c, &name).await)
            } else if let Some(option) = button {
                press_suggestion(c, &option).await;
                assert_eq!(
                    order_box(c).await.trim(),
                    option,
                    "{name}: the button fills the box"
                );
                c.find(Locator::Css("#move-form button[type=submit]"))
                    .await
                    .unwrap()
                    .click()
                    .await
                    .unwrap();
                ("pressed", option)
            } else {
                panic!(
                    "{name}: {seat} has neither a piece to point at nor a suggested order to press"
                )
            };
            recorded_or_refused(c, &site, &game_id, &seat, before, &name, &written).await;
            if turn == 1 {
                screenshot(c, &name).await;
            }
            made.push(format!("{seat} {how} '{written}'"));
        }
        assert!(
            made.len() >= 4,
            "{id}: the game ended after {} orders: {made:?}",
            made.len()
        );
        // The game mid-way as its first seat sees it, for docs/web.md: at a phone's and a
        // desktop's width, light and dark.
        let link = format!(
            "{}/games/{game_id}?token={}",
            site.base, created.seats[0].token
        );
        for (c, scheme) in [(&seats[0].1, "light"), (&dark, "dark")] {
            for (width, height) in [(390, 844), (1280, 900)] {
                c.set_window_size(width, height).await.unwrap();
                c.goto(&link).await.unwrap();
                wait_for_text(c, "#board-h", "The board", Duration::from_secs(10)).await;
                screenshot(c, &format!("table-{id}-{width}-{scheme}")).await;
            }
        }
        for (_, c) in seats {
            c.close().await.unwrap();
        }
    }
    dark.close().await.unwrap();
}

/// How many orders `every_ruleset_is_played_by_two_seats_pointing_and_pressing_buttons` makes
/// in each ruleset.
const DRIVEN_TURNS: usize = 6;

/// The first suggested order on the page that is an order as it stands (not a pattern with a
/// `<placeholder>` to fill).
async fn first_suggestion(c: &Client) -> Option<String> {
    let options = c
        .execute(
            "return Array.prototype.map.call(document.querySelectorAll('#prompts button.use-option'), \
             function (b) { return b.getAttribute('data-option'); });",
            vec![],
        )
        .await
        .unwrap();
    options
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|o| o.as_str())
        .find(|o| !o.contains('<'))
        .map(str::to_owned)
}

/// Presses the suggested order `option` (its button fills the order box).
async fn press_suggestion(c: &Client, option: &str) {
    let pressed = c
        .execute(
            "var want = arguments[0]; var bs = document.querySelectorAll('#prompts button.use-option'); \
             for (var i = 0; i < bs.length; i++) { \
               if (bs[i].getAttribute('data-option') !== want) continue; \
               bs[i].scrollIntoView({block: 'center'}); bs[i].click(); return true; \
             } return false;",
            vec![json!(option)],
        )
        .await
        .unwrap();
    assert_eq!(pressed, json!(true), "the button '{option}' is on the page");
}

/// Waits for the order just sent from the page to be recorded: an event of `seat` after the
/// first `before` of the log. A refusal fails the test with the reason the page gives. (The
/// page's own "recorded" note is not waited for: a live update may replace it at once.)
async fn recorded_or_refused(
    c: &Client,
    site: &TestApp,
    game_id: &GameId,
    seat: &str,
    before: usize,
    name: &str,
    written: &str,
) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(e) = c.find(Locator::Css("#move-form #error")).await {
            let why = e.text().await.unwrap_or_default();
            screenshot(c, &format!("{name}-refused")).await;
            panic!("{name}: the page's own order '{written}' was refused: {why}");
        }
        let events = site.store.events(game_id, 0, None).await.unwrap();
        if events[before..].iter().any(|e| e.seat == seat) {
            return;
        }
        if Instant::now() > deadline {
            screenshot(c, &format!("{name}-unanswered")).await;
            panic!("{name}: '{written}' was not recorded for {seat} within 30 s");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// `#d9854a` as `getComputedStyle` gives it: `rgb(217, 133, 74)`.
fn rgb(hex: &str) -> String {
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    format!("rgb({}, {}, {})", c(1), c(3), c(5))
}

/// Issue 38, each game's board as a player needs it, in light and in dark at 390 and 1280 px:
/// Where Eagles Dare's board draws Club Route as a road (Hell's Highway) in the palette of the
/// reader's scheme, its hexes outlined so that they read in the dark; For Honor and Glory's
/// clear, fence, forest and swamp are each drawn in their own dark fill, all different.
/// Screenshots go to tests/artifacts/ (`boards-<game>-<width>-<scheme>`).
async fn the_boards_show_their_roads_and_terrain_in_light_and_dark_at_390_and_1280(site: TestApp) {
    use despatch::engine::board::{Ground, Line};
    let mut driver = chromedriver().await;
    let light = browser(&mut driver).await;
    let dark = browser_with(&mut driver, &["--blink-settings=preferredColorScheme=0"]).await;
    let read = "var q = function (css, prop) { var e = document.querySelector('figure.board svg ' + css); \
            return e ? getComputedStyle(e)[prop] : ''; }; \
        return [q('g[data-highlight=road] polyline.b-road', 'stroke'), q('g.b-cell > polygon', 'stroke'), \
            q('g.b-cell > .g-clear', 'fill'), q('g.b-cell > .g-fence', 'fill'), q('g.b-cell > .g-forest', 'fill'), \
            q('g.b-cell > .g-swamp', 'fill')];";
    for id in ["where-eagles-dare", "for-honor-and-glory"] {
        let ruleset = despatch::rules::find(id).unwrap();
        let created = site
            .games
            .create(common::bot::new_game(&ruleset, 0))
            .await
            .unwrap();
        let link = format!(
            "{}/games/{}?token={}",
            site.base, created.game_id, created.seats[0].token
        );
        for (c, scheme) in [(&light, "light"), (&dark, "dark")] {
            for width in [390u32, 1280] {
                c.set_window_size(width, 900).await.unwrap();
                c.goto(&link).await.unwrap();
                wait_for_text(c, "#board-h", "The board", Duration::from_secs(10)).await;
                let got = c.execute(read, vec![]).await.unwrap();
                let got: Vec<String> = (0..6)
                    .map(|i| got[i].as_str().unwrap_or_default().to_owned())
                    .collect();
                show_board(c).await;
                screenshot(c, &format!("boards-{id}-{width}-{scheme}")).await;
                let pick = |light_colour: &str, dark_colour: &str| {
                    rgb(if scheme == "dark" {
                        dark_colour
                    } else {
                        light_colour
                    })
                };
                if id == "where-eagles-dare" {
                    assert_eq!(
                        got[0],
                        pick(Line::ROAD.light, Line::ROAD.dark),
                        "{id} {scheme} {width}: Club Route's road"
                    );
                    if scheme == "dark" {
                        assert_eq!(
                            got[1],
                            rgb("#9a9078"),
                            "{id}: the hexes' outline in the dark"
                        );
                    }
                } else {
                    let grounds = [Ground::Clear, Ground::Fence, Ground::Forest, Ground::Swamp];
                    let mut seen: Vec<&String> = Vec::new();
                    for (g, fill) in grounds.iter().zip(&got[2..]) {
                        if fill.is_empty() {
                            continue;
                        }
                        let (_, l, d) = g.paint();
                        assert_eq!(*fill, pick(l, d), "{id} {scheme} {width}: {}", g.name());
                        assert!(
                            !seen.contains(&fill),
                            "{id} {scheme}: {} repeats a fill",
                            g.name()
                        );
                        seen.push(fill);
                    }
                    assert!(
                        seen.len() >= 3,
                        "{id}: the board shows {} of the four grounds: {got:?}",
                        seen.len()
                    );
                }
            }
        }
    }
    light.close().await.unwrap();
    dark.close().await.unwrap();
}
