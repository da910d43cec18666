//! The web table's pages over real HTTP (a server on port 0), without a browser: every page
//! renders, every form works without JavaScript (POST, then a redirect to GET), and every bad
//! form is answered with a clear page that changes nothing. Each test runs on PostgreSQL and on
//! SQLite.

use crate::common;

use common::TestApp;
use serde_json::{json, Value};

async fn spawn(backend: common::Backend) -> TestApp {
    // Pages are tested here, some with a hundred moves in a second; the per-seat move limit has
    // its own tests (tests/service/api.rs, tests/service/mail_in.rs). Redirects are looked at, not followed:
    // POST-redirect-GET is part of what is tested.
    common::spawn_app(backend)
        .move_rate(None)
        .no_redirects()
        .spawn()
        .await
}

struct Page {
    status: u16,
    location: Option<String>,
    headers: reqwest::header::HeaderMap,
    body: String,
    /// The seat cookie (`despatch_seat=…`) the page was opened or the form sent with.
    cookie: Option<String>,
}

/// The seat cookie a response sets, as the `name=value` a browser sends back.
fn seat_cookie(headers: &reqwest::header::HeaderMap) -> Option<String> {
    headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("despatch_seat="))
        .map(|v| v.split(';').next().unwrap().to_owned())
}

/// The flash cookie a response sets (`despatch_flash=…`, the answer to a seat's form carried
/// across its redirect), as the `name=value` a browser sends back; `Some("")` when it is removed.
fn flash_cookie(headers: &reqwest::header::HeaderMap) -> Option<String> {
    headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("despatch_flash="))
        .map(|v| {
            let pair = v.split(';').next().unwrap();
            if v.contains("Max-Age=0") {
                String::new()
            } else {
                pair.to_owned()
            }
        })
}

struct Table {
    game_id: String,
    links: Vec<String>,
    tokens: Vec<String>,
}

/// What this file's tests ask of the app (a trait, so that each test module keeps its own
/// helpers in the one service test binary).
trait WebCalls {
    async fn get(&self, path: &str) -> Page;
    async fn get_with(&self, path: &str, cookie: Option<&str>) -> Page;
    async fn open(&self, link: &str) -> Page;
    async fn post(&self, path: &str, form: &[(&str, &str)]) -> Page;
    async fn post_with(&self, path: &str, form: &[(&str, &str)], cookie: Option<&str>) -> Page;
    async fn post_raw(
        &self,
        path: &str,
        form: &[(String, String)],
        cookie: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Page;
    async fn events(&self, game_id: &str) -> usize;
    async fn lobby_game(&self, names: &[&str]) -> Table;
    async fn lobby_game_with(&self, names: &[&str], options: &str) -> Table;
    fn path_of(&self, link: &str) -> String;
    async fn move_form(&self, t: &Table, seat: usize) -> (Vec<(String, String)>, String);
    async fn send_order(&self, t: &Table, seat: usize, order: &str) -> Page;
    async fn play(&self, t: &Table, seat: usize, order: &str);
    async fn follow(&self, p: &Page) -> Page;
}

impl WebCalls for TestApp {
    async fn get(&self, path: &str) -> Page {
        self.get_with(path, None).await
    }

    /// A GET sending the seat cookie, as the browser that opened the seat's link does.
    async fn get_with(&self, path: &str, cookie: Option<&str>) -> Page {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(c) = cookie {
            req = req.header("Cookie", c);
        }
        let mut p = page(req.send().await.unwrap()).await;
        p.cookie = cookie.map(str::to_owned);
        p
    }

    /// Opens a seat link as a browser does: the link answers a redirect that sets the seat
    /// cookie, and the page is read with that cookie.
    async fn open(&self, link: &str) -> Page {
        let first = self.get(&self.path_of(link)).await;
        assert_eq!(first.status, 303, "{link}: {}", first.body);
        let cookie = seat_cookie(&first.headers).expect("the link sets the seat cookie");
        self.get_with(&first.location.unwrap(), Some(&cookie)).await
    }

    async fn post(&self, path: &str, form: &[(&str, &str)]) -> Page {
        self.post_with(path, form, None).await
    }

    /// A form sent as its page sends it: with the page's token (`common::forms`).
    async fn post_with(&self, path: &str, form: &[(&str, &str)], cookie: Option<&str>) -> Page {
        let fields: Vec<(String, String)> = form
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let (fields, sent_cookie) = self.as_the_page_sends(path, &fields, cookie).await;
        let mut p = self
            .post_raw(path, &fields, sent_cookie.as_deref(), &[])
            .await;
        p.cookie = cookie.map(str::to_owned);
        p
    }

    /// A form sent exactly as given: no token added, with `headers` (an `Origin`).
    async fn post_raw(
        &self,
        path: &str,
        form: &[(String, String)],
        cookie: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Page {
        let mut req = self.http.post(format!("{}{path}", self.base)).form(form);
        if let Some(c) = cookie {
            req = req.header("Cookie", c);
        }
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        let mut p = page(req.send().await.unwrap()).await;
        p.cookie = cookie.map(str::to_owned);
        p
    }

    async fn events(&self, game_id: &str) -> usize {
        self.store.events(game_id, 0, None).await.unwrap().len()
    }

    /// A game made through the lobby form.
    async fn lobby_game(&self, names: &[&str]) -> Table {
        self.lobby_game_with(names, "{}").await
    }

    async fn lobby_game_with(&self, names: &[&str], options: &str) -> Table {
        let mut form = vec![
            ("game".to_owned(), "open-table/default".to_owned()),
            ("options".to_owned(), options.to_owned()),
        ];
        for (i, n) in names.iter().enumerate() {
            form.push((format!("name_{i}"), n.to_string()));
            form.push((format!("email_{i}"), format!("{n}@example.org")));
            form.push((format!("seat_{i}"), String::new()));
        }
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let p = self.post("/games", &form).await;
        assert_eq!(p.status, 201, "{}", p.body);
        let links: Vec<String> = p
            .body
            .split("class=\"seat-link\"")
            .skip(1)
            .map(|s| {
                let href = s.split("href=\"").nth(1).unwrap();
                href[..href.find('"').unwrap()]
                    .replace("&amp;", "&")
                    .replace("&#x2f;", "/")
            })
            .collect();
        assert_eq!(links.len(), names.len(), "{}", p.body);
        let game_id = links[0]
            .split("/games/")
            .nth(1)
            .unwrap()
            .split('?')
            .next()
            .unwrap()
            .to_owned();
        let tokens = links
            .iter()
            .map(|l| l.split("token=").nth(1).unwrap().to_owned())
            .collect();
        Table {
            game_id,
            links,
            tokens,
        }
    }

    fn path_of(&self, link: &str) -> String {
        link.strip_prefix(&self.base).unwrap().to_owned()
    }

    /// The hidden fields of a seat's move form, as its page gives them, and the seat cookie
    /// the page was opened with.
    async fn move_form(&self, t: &Table, seat: usize) -> (Vec<(String, String)>, String) {
        let p = self.open(&t.links[seat]).await;
        assert_eq!(p.status, 200, "{}", p.body);
        let fields = ["expected_seq", "client_entropy", "idempotency_key"]
            .iter()
            .map(|name| (name.to_string(), hidden(&p.body, name)))
            .collect();
        (fields, p.cookie.unwrap())
    }

    async fn send_order(&self, t: &Table, seat: usize, order: &str) -> Page {
        let (mut form, cookie) = self.move_form(t, seat).await;
        form.push(("order".into(), order.into()));
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        self.post_with(&format!("/games/{}/moves", t.game_id), &form, Some(&cookie))
            .await
    }

    async fn play(&self, t: &Table, seat: usize, order: &str) {
        let p = self.send_order(t, seat, order).await;
        assert_eq!(p.status, 303, "{order}: {}", p.body);
    }

    /// Follows a form's redirect as the browser that sent it does: with its seat cookie and the
    /// flash cookie the redirect set. The page answered is read with the seat cookie alone.
    async fn follow(&self, p: &Page) -> Page {
        assert_eq!(p.status, 303, "{}", p.body);
        let location = p.location.clone().expect("a redirect");
        let flash = flash_cookie(&p.headers).expect("the redirect carries its answer");
        let cookie = match &p.cookie {
            Some(seat) => format!("{seat}; {flash}"),
            None => flash,
        };
        let mut after = self.get_with(&location, Some(&cookie)).await;
        after.cookie = p.cookie.clone();
        after
    }
}

async fn page(resp: reqwest::Response) -> Page {
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let location = headers
        .get("location")
        .map(|l| l.to_str().unwrap().to_owned());
    Page {
        status,
        location,
        headers,
        body: resp.text().await.unwrap(),
        cookie: None,
    }
}

/// The value of a hidden form field.
fn hidden(body: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\"");
    let at = body
        .find(&marker)
        .unwrap_or_else(|| panic!("no field {name} in {body}"));
    let rest = &body[at..];
    let v = rest.split("value=\"").nth(1).unwrap();
    v[..v.find('"').unwrap()].to_owned()
}

on_both_backends!(
    a_page_refusing_its_query_answers_with_the_pages_security_headers,
    a_page_whose_path_is_no_game_id_says_no_such_game_and_what_a_game_id_is,
    a_wargame_seat_page_shows_the_board_in_text,
    the_lobby_creates_a_game_and_shows_each_seat_link_once,
    a_bad_lobby_form_is_answered_on_the_form_and_creates_nothing,
    an_unknown_seat_link_gets_a_clear_page_and_changes_nothing,
    an_order_from_the_form_is_recorded_and_redirects_to_the_seat_page,
    an_unparsable_order_is_shown_inline_with_the_order_kept_and_changes_nothing,
    the_answer_to_a_seats_form_is_shown_to_that_seat_only,
    a_stale_move_is_answered_with_the_latest_page_and_changes_nothing,
    an_oversized_order_is_refused_with_a_page_and_changes_nothing,
    a_resubmitted_form_is_recorded_once,
    a_sealed_note_shows_only_on_its_own_seat_page,
    the_audit_page_recomputes_the_dice_and_the_hash,
    the_proof_page_says_what_a_roll_was_for,
    a_finished_game_replays_step_by_step,
    the_verify_page_checks_a_pasted_export_and_refuses_oversized_ones,
    static_files_and_security_headers_are_served,
    a_long_log_shows_its_tail_with_a_link_to_the_whole,
    a_clocked_game_shows_the_deadline_of_the_seat_to_act,
    a_seat_link_moves_its_token_into_a_cookie_scoped_to_the_game,
    a_move_through_the_page_works_with_the_cookie_alone,
    a_wrong_token_gets_no_cookie_and_a_stale_cookie_is_removed,
    the_seat_cookie_is_secure_when_the_server_is_reached_over_https,
    a_finished_game_still_names_the_seat_on_its_page,
    the_log_says_what_each_clock_event_did,
    a_page_counts_one_event_in_the_singular,
    a_missing_event_is_called_so_with_a_link_back_to_the_game,
    a_finished_games_pages_offer_the_complete_export,
    an_error_page_links_where_it_sends_the_reader,
    resigning_from_the_page_needs_its_confirmation,
    the_audit_page_leads_back_to_the_seat_page,
    the_dice_tray_sums_each_expression_on_its_own,
    the_lobby_sets_the_clock_from_its_menu,
    the_lobby_names_each_scenarios_seats_by_role_and_offers_its_options_as_fields,
    the_lobbys_option_and_clock_fields_make_the_game_or_say_what_is_wrong,
    the_lobby_names_seats_by_role_and_side_options_by_label_and_lists_practice_apart,
    a_lobby_form_wrong_in_several_fields_names_and_marks_every_one_and_creates_nothing,
    a_seats_forms_are_refused_from_another_site_and_without_their_token,
    a_sign_in_link_is_refused_from_another_site_and_without_its_token,
    a_players_forms_and_signing_out_are_refused_from_another_site,
    behind_a_proxy_forms_come_from_the_configured_base_url,
    pages_and_assets_are_sent_compressed_to_a_client_that_accepts_it,
    a_browser_opening_a_forms_address_gets_a_page_with_a_way_back,
    the_seat_page_shows_the_address_the_seat_already_has,
    a_refused_talk_message_is_answered_beside_the_talk_form_with_the_message_kept,
    what_an_order_did_not_carry_out_is_said_once_on_the_page,
);

async fn the_lobby_names_each_scenarios_seats_by_role_and_offers_its_options_as_fields(
    app: TestApp,
) {
    // Hour of Glory's seat ids are the players' own: the rows are named by role.
    let hog = app.get("/?game=hour-of-glory/mission").await;
    assert_eq!(hog.status, 200);
    for (i, role) in ["Defender", "Intruder 1", "Intruder 2", "Intruder 3"]
        .iter()
        .enumerate()
    {
        assert!(
            hog.body.contains(&format!(
                "<label for=\"name_{i}\">{role}: player name</label>"
            )),
            "{role}: {}",
            hog.body
        );
        assert!(
            hog.body.contains(&format!("id=\"seat_{i}\"")),
            "a free seat id"
        );
    }
    // Its options as fields: a menu, a number, JSON for a structured one.
    assert!(hog
        .body
        .contains("<select id=\"opt-covering_fire\" name=\"opt_covering_fire\""));
    assert!(hog.body.contains("<option value=\"any\">any</option>"));
    assert!(hog
        .body
        .contains("name=\"opt_minutes\" inputmode=\"numeric\" value=\"60\""));
    assert!(hog
        .body
        .contains("<textarea id=\"opt-loadouts\" name=\"opt_loadouts\""));
    assert!(
        !hog.body.contains("opt_flat_line_of_sight"),
        "no other ruleset's"
    );
    // For Honor and Glory fixes its seats: named by their sides, and sent as their ids.
    let fhg = app.get("/?game=for-honor-and-glory/chippawa").await;
    for (i, (seat, side)) in [("american", "American side"), ("british", "British side")]
        .iter()
        .enumerate()
    {
        assert!(
            fhg.body.contains(&format!(
                "<label for=\"name_{i}\">{side}: player name</label>"
            )),
            "{}",
            fhg.body
        );
        assert!(fhg.body.contains(&format!(
            "<input type=\"hidden\" name=\"seat_{i}\" value=\"{seat}\">"
        )));
    }
    assert!(!fhg.body.contains("name_2"), "two seats, no more");
    assert!(fhg
        .body
        .contains("<input type=\"checkbox\" name=\"opt_flat_line_of_sight\" value=\"on\""));
    // Where Eagles Dare's option on by default is ticked.
    let wed = app
        .get("/?game=where-eagles-dare/the-best-laid-plans")
        .await;
    assert!(
        wed.body
            .contains("name=\"opt_last_chit_held\" value=\"on\" checked"),
        "{}",
        wed.body
    );
    // An unknown choice shows the first scenario; the menu lists them all.
    let unknown = app.get("/?game=nope/none").await;
    assert_eq!(unknown.status, 200);
    assert!(unknown.body.contains("open-table/default\" selected"));
    for r in despatch::rules::all() {
        for sc in r.info().scenarios {
            assert!(
                unknown
                    .body
                    .contains(&format!("value=\"{}/{}\"", r.info().id, sc.id)),
                "{}/{} in the menu",
                r.info().id,
                sc.id
            );
        }
    }
}

/// Issue 38: the lobby names each seat by its role and side, each option by its label (its
/// name in code beside it), and lists the practice and drill set-ups apart from the battles.
async fn the_lobby_names_seats_by_role_and_side_options_by_label_and_lists_practice_apart(
    app: TestApp,
) {
    let sfg = app.get("/?game=searching-for-glory/danube-1809").await;
    assert_eq!(sfg.status, 200);
    for (i, role) in [
        "Napoleon Bonaparte (French side)",
        "Archduke Charles (Austrian side)",
        "Louis-Nicolas Davout (French side)",
    ]
    .iter()
    .enumerate()
    {
        assert!(
            sfg.body.contains(&format!(
                "<label for=\"name_{i}\">{role}: player name</label>"
            )),
            "{role}: {}",
            sfg.body
        );
    }
    let wed = app
        .get("/?game=where-eagles-dare/the-best-laid-plans")
        .await;
    assert!(wed
        .body
        .contains("<label for=\"name_1\">German side: player name</label>"));
    // Options by label, the name beside it for those who write JSON.
    let hog = app.get("/?game=hour-of-glory/mission").await;
    assert!(
        hog.body
            .contains("<label for=\"opt-covering_fire\">Covering fire</label>"),
        "{}",
        hog.body
    );
    assert!(hog.body.contains("(<code>covering_fire</code>)"));
    assert!(
        wed.body.contains("> Last chit held</label>"),
        "{}",
        wed.body
    );
    // Practice and drill set-ups in a group of their own, after every ruleset's battles.
    let lobby = app.get("/").await;
    let body = unescaped(&lobby.body);
    let practice = body
        .find("For Honor and Glory — War of 1812 land battles: practice and drill set-ups\">")
        .expect("a group of practice set-ups");
    let battles = body
        .find("<optgroup label=\"For Honor and Glory — War of 1812 land battles\">")
        .expect("the battles' group");
    assert!(battles < practice);
    for battle in ["chippawa", "lundys-lane", "niagara-campaign"] {
        let at = body
            .find(&format!("value=\"for-honor-and-glory/{battle}\""))
            .unwrap();
        assert!(battles < at && at < practice, "{battle} among the battles");
    }
    for drill in ["drill", "example-forest-fire", "example-los"] {
        let at = body
            .find(&format!("value=\"for-honor-and-glory/{drill}\""))
            .unwrap();
        assert!(at > practice, "{drill} among the practice set-ups");
    }
}

/// Issue 38: a lobby form wrong in several fields comes back naming every one — the lobby's own
/// checks and the games service's together — each marked at its field, and makes nothing.
async fn a_lobby_form_wrong_in_several_fields_names_and_marks_every_one_and_creates_nothing(
    app: TestApp,
) {
    let games_before = app.db.count_rows("games").await;
    let p = app
        .post(
            "/games",
            &[
                ("game", "hour-of-glory/mission"),
                ("options_of", "hour-of-glory"),
                ("options_json", "{}"),
                ("name_0", "José"),
                ("email_0", "jose-at-example"),
                ("seat_0", ""),
                ("name_1", "Li"),
                ("seat_1", ""),
                ("opt_covering_fire", "line"),
                ("opt_minutes", "ninety"),
                ("opt_agents", ""),
                ("opt_loadouts", ""),
                ("opt_sentries", ""),
                ("opt_entry", ""),
                ("clock", "hourly"),
            ],
        )
        .await;
    assert_eq!(p.status, 400, "{}", p.body);
    let body = unescaped(&p.body);
    assert!(body.contains("3 things are wrong with the form"), "{body}");
    for (field, says) in [
        ("opt-minutes", "option Minutes: 'ninety' is not a number"),
        ("clock", "'hourly' is not a clock"),
        ("email_0", "'jose-at-example' is not an email address"),
    ] {
        assert!(
            body.contains(&format!("<li><a href=\"#{field}\">")),
            "{field} listed: {body}"
        );
        assert!(
            body.contains(&format!("<p class=\"field-error\" id=\"{field}-error\">")),
            "{field} marked: {body}"
        );
        assert!(
            body.contains(&format!("aria-errormessage=\"{field}-error\"")),
            "{field} invalid: {body}"
        );
        assert!(body.contains(says), "{says}: {body}");
    }
    // The form as it was sent, and nothing made.
    assert!(body.contains("value=\"José\""));
    assert!(!body.contains("seat-link"));
    assert_eq!(app.db.count_rows("games").await, games_before);
}

/// The id of the game a `created.html` page made.
fn created_game(body: &str) -> String {
    unescaped(body)
        .split("/games/")
        .nth(1)
        .unwrap()
        .split(['?', '"'])
        .next()
        .unwrap()
        .to_owned()
}

async fn the_lobbys_option_and_clock_fields_make_the_game_or_say_what_is_wrong(app: TestApp) {
    let hog = |extra: &[(&'static str, &'static str)]| {
        let mut form = vec![
            ("game", "hour-of-glory/mission"),
            ("options_of", "hour-of-glory"),
            ("options_json", "{}"),
            ("name_0", "José"),
            ("seat_0", ""),
            ("name_1", "李雷"),
            ("seat_1", ""),
            ("opt_covering_fire", "line"),
            ("opt_minutes", "60"),
            ("opt_agents", ""),
            ("opt_loadouts", ""),
            ("opt_sentries", ""),
            ("opt_entry", ""),
        ];
        for (k, v) in extra {
            form.retain(|(key, _)| key != k);
            form.push((k, v));
        }
        form
    };
    let clocked_before = app.store.clocked_games().await.unwrap().len();
    for (extra, says) in [
        (
            vec![("opt_minutes", "ninety")],
            "option Minutes: 'ninety' is not a number",
        ),
        (
            vec![("opt_loadouts", "{harris")],
            "option Loadouts: not valid JSON",
        ),
        (
            vec![("opt_covering_fire", "sideways")],
            "option Covering fire: 'sideways' is not one of line, any",
        ),
        (
            vec![
                ("opt_minutes", "90"),
                ("options_json", r#"{"minutes": 75}"#),
            ],
            "option Minutes is given twice",
        ),
        (
            vec![
                ("clock", "custom"),
                ("clock_hours", "0"),
                ("clock_reminders", ""),
                ("clock_time_zone", "UTC"),
                ("clock_vacation_days", "3"),
                ("clock_on_deadline", "remind"),
                ("clock_forfeit_after", "3"),
            ],
            "clock: move_deadline_hours must be between 1 and 1440",
        ),
        (
            vec![
                ("clock", "custom"),
                ("clock_hours", "24"),
                ("clock_reminders", "2"),
                ("clock_time_zone", "Mars/Olympus"),
                ("clock_vacation_days", "3"),
                ("clock_on_deadline", "remind"),
                ("clock_forfeit_after", "3"),
            ],
            "'Mars/Olympus' is not an IANA time zone",
        ),
    ] {
        let p = app.post("/games", &hog(&extra)).await;
        assert_eq!(p.status, 400, "{says}: {}", p.body);
        assert!(unescaped(&p.body).contains(says), "{says}: {}", p.body);
        // The form comes back filled in, by role.
        assert!(p.body.contains("value=\"José\""), "{}", p.body);
        assert!(p.body.contains("Defender: player name"));
        assert!(!p.body.contains("seat-link"), "no game is made");
    }
    assert_eq!(
        app.store.clocked_games().await.unwrap().len(),
        clocked_before,
        "no clocked game was made"
    );
    // Fields that differ from the defaults are the game's options; a custom clock from its
    // fields is its clock.
    let p = app
        .post(
            "/games",
            &hog(&[
                ("opt_covering_fire", "any"),
                ("opt_minutes", "90"),
                ("opt_entry", r#"{"harris": "m24"}"#),
                ("clock", "custom"),
                ("clock_hours", "36"),
                ("clock_reminders", "6, 1"),
                ("clock_weekends", "on"),
                ("clock_time_zone", "Europe/Paris"),
                ("clock_vacation_days", "10"),
                ("clock_on_deadline", "forfeit"),
                ("clock_forfeit_after", "2"),
            ]),
        )
        .await;
    assert_eq!(p.status, 201, "{}", p.body);
    let game_id = created_game(&p.body);
    let events = app.store.events(&game_id, 0, None).await.unwrap();
    assert_eq!(
        events[0].payload["options"],
        json!({ "covering_fire": "any", "minutes": 90, "entry": { "harris": "m24" } })
    );
    let policy = &events
        .iter()
        .find(|e| e.kind == "Clock")
        .expect("the clock's policy is logged")
        .payload["policy"];
    assert_eq!(
        *policy,
        json!({ "move_deadline_hours": 36, "reminders_hours": [6, 1], "pause_weekends": true,
                "time_zone": "Europe/Paris", "vacation_days_per_year": 10,
                "on_deadline": "forfeit", "forfeit_after": 2 })
    );
    // For Honor and Glory from its fixed rows and a ticked box.
    let p = app
        .post(
            "/games",
            &[
                ("game", "for-honor-and-glory/chippawa"),
                ("options_of", "for-honor-and-glory"),
                ("name_0", "Scott's player"),
                ("seat_0", "american"),
                ("name_1", "Riall's player"),
                ("seat_1", "british"),
                ("opt_flat_line_of_sight", "on"),
                ("opt_optional_rules", ""),
                ("opt_command_ap", ""),
            ],
        )
        .await;
    assert_eq!(p.status, 201, "{}", p.body);
    let events = app
        .store
        .events(&created_game(&p.body), 0, None)
        .await
        .unwrap();
    assert_eq!(
        events[0].payload["options"],
        json!({ "flat_line_of_sight": true })
    );
}

async fn the_lobby_sets_the_clock_from_its_menu(app: TestApp) {
    let lobby = app.get("/").await;
    for preset in ["relaxed", "standard", "brisk"] {
        assert!(
            lobby.body.contains(&format!("<option value=\"{preset}\">")),
            "{preset} in the menu"
        );
    }
    let form = |clock: &'static str, options: &'static str| {
        vec![
            ("game", "open-table/default"),
            ("options", options),
            ("clock", clock),
            ("name_0", "Anna"),
            ("email_0", ""),
            ("seat_0", ""),
            ("name_1", "Ben"),
            ("email_1", ""),
            ("seat_1", ""),
        ]
    };
    let clocked_before = app.store.clocked_games().await.unwrap().len();
    // A clock named twice, or one that is not in the menu: the form again, and no game.
    for (clock, options, says) in [
        (
            "brisk",
            r#"{"clock": "standard"}"#,
            "the clock is chosen twice",
        ),
        ("hourly", "{}", "'hourly' is not a clock"),
    ] {
        let p = app.post("/games", &form(clock, options)).await;
        assert_eq!(p.status, 400, "{}", p.body);
        assert!(unescaped(&p.body).contains(says), "{says}: {}", p.body);
        assert!(
            p.body.contains("<option value=\"brisk\""),
            "the form comes back"
        );
        assert!(!p.body.contains("seat-link"), "no game is made");
    }
    assert_eq!(
        app.store.clocked_games().await.unwrap().len(),
        clocked_before
    );
    // Brisk from the menu: the game is clocked, its log opens with the policy.
    let p = app.post("/games", &form("brisk", "{}")).await;
    assert_eq!(p.status, 201, "{}", p.body);
    let game_id = unescaped(&p.body)
        .split("/games/")
        .nth(1)
        .unwrap()
        .split(['?', '"'])
        .next()
        .unwrap()
        .to_owned();
    let events = app.store.events(&game_id, 0, None).await.unwrap();
    let policy = events
        .iter()
        .find(|e| e.kind == "Clock")
        .expect("the clock's policy is logged");
    assert_eq!(
        policy.payload["policy"]["move_deadline_hours"], 24,
        "{}",
        policy.payload
    );
}

/// A page's text with the entities minijinja writes for `/`, `'`, `&` and `"` read back.
fn unescaped(body: &str) -> String {
    body.replace("&#x2f;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The text of the page's `<h1>`.
fn heading(body: &str) -> &str {
    let start = body.find("<h1>").expect("a heading") + 4;
    &body[start..start + body[start..].find("</h1>").unwrap()]
}

async fn a_finished_game_still_names_the_seat_on_its_page(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    app.play(&t, 0, "result draw").await;
    app.play(&t, 1, "result draw").await;
    let page = app.open(&t.links[0]).await;
    assert!(page.body.contains("The game is over"), "{}", page.body);
    assert!(!page.body.contains("None"), "{}", page.body);
    assert!(
        heading(&page.body).starts_with("Anna"),
        "{}",
        heading(&page.body)
    );
    assert!(
        page.body.contains(" · Anna (anna) · "),
        "the title names the seat: {}",
        page.body
    );
}

async fn the_log_says_what_each_clock_event_did(app: TestApp) {
    let t = app
        .lobby_game_with(&["Anna", "Ben"], r#"{"clock": "standard"}"#)
        .await;
    let events = app.store.events(&t.game_id, 0, None).await.unwrap();
    let clock = events
        .iter()
        .find(|e| e.kind == "Clock")
        .expect("a clocked game's log opens with its policy");
    let page = app.open(&t.links[0]).await;
    let body = unescaped(&page.body);
    let entry = body
        .split(&format!("id=\"event-{}\"", clock.seq))
        .nth(1)
        .unwrap();
    let entry = &entry[..entry.find("</li>").unwrap()];
    assert!(
        entry.contains("<p>The game's clock is set: every decision has a deadline</p>"),
        "{entry}"
    );
}

async fn a_page_counts_one_event_in_the_singular(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    assert_eq!(app.events(&t.game_id).await, 1);
    let page = app.open(&t.links[0]).await;
    assert!(page.body.contains("· 1 event</p>"), "{}", page.body);
    assert!(!page.body.contains("1 events"));
    app.play(&t, 0, "a first move").await;
    let page = app.open(&t.links[0]).await;
    assert!(page.body.contains("· 2 events</p>"), "{}", page.body);
}

async fn a_missing_event_is_called_so_with_a_link_back_to_the_game(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let p = app.get(&format!("/games/{}/events/7", t.game_id)).await;
    assert_eq!(p.status, 404);
    assert_eq!(heading(&p.body), "No such event");
    assert!(p.body.contains("has no event 7 yet"), "{}", p.body);
    assert!(
        unescaped(&p.body).contains(&format!(
            "<a href=\"/games/{}\">Back to the game</a>",
            t.game_id
        )),
        "{}",
        p.body
    );
    let p = app.get("/games/no-such-game/events/0").await;
    assert_eq!(p.status, 404);
    assert_eq!(heading(&p.body), "No such game");
}

async fn a_finished_games_pages_offer_the_complete_export(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let running = app.open(&t.links[0]).await;
    assert!(running
        .body
        .contains("redacted: secrets are not in it until the end"));
    app.play(&t, 0, "roll 1d6\nresult draw").await;
    app.play(&t, 1, "result draw").await;
    let n = app.events(&t.game_id).await;
    for path in [
        format!("/games/{}/watch", t.game_id),
        format!("/games/{}/replay?step=1", t.game_id),
        format!("/games/{}/replay?step={}", t.game_id, n - 1),
    ] {
        let p = app.get(&path).await;
        assert_eq!(p.status, 200, "{path}: {}", p.body);
        assert!(!p.body.contains("redacted"), "{path}: {}", p.body);
        assert!(p.body.contains("complete with every secret"), "{path}");
    }
}

async fn an_error_page_links_where_it_sends_the_reader(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let bad = "0".repeat(64);
    let p = app.get(&format!("/games/{}?token={bad}", t.game_id)).await;
    assert_eq!(p.status, 403);
    assert!(
        unescaped(&p.body).contains(&format!(
            "<a href=\"/games/{}/watch\">Watch this game</a>",
            t.game_id
        )),
        "{}",
        p.body
    );
    assert!(p.body.contains("<a href=\"/\">Back to the start page</a>"));
}

async fn resigning_from_the_page_needs_its_confirmation(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben", "Cleo"]).await;
    let page = app.open(&t.links[1]).await;
    let resign = format!("/games/{}/resign", t.game_id);
    assert!(
        page.body.contains(&format!("action=\"{resign}\"")),
        "{}",
        page.body
    );
    assert!(page.body.contains("Resign this game"));
    let cookie = page.cookie.clone().unwrap();
    // Without the box ticked: the page says how, and nothing is recorded.
    let p = app.post_with(&resign, &[], Some(&cookie)).await;
    assert_eq!(p.status, 400, "{}", p.body);
    assert!(p.body.contains("you did not resign"), "{}", p.body);
    assert_eq!(app.events(&t.game_id).await, 1);
    // `resign` typed in the order box is not taken as table talk, and resigns nothing.
    let p = app.follow(&app.send_order(&t, 1, "resign").await).await;
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains("to resign, open"), "{}", p.body);
    assert!(p.body.contains("resign</textarea>"), "{}", p.body);
    assert_eq!(app.events(&t.game_id).await, 1);
    // Without a seat: refused.
    let p = app.post(&resign, &[("confirm", "yes")]).await;
    assert_eq!(p.status, 403, "{}", p.body);
    assert_eq!(app.events(&t.game_id).await, 1);
    // Confirmed: the resignation is recorded.
    let p = app
        .post_with(&resign, &[("confirm", "yes")], Some(&cookie))
        .await;
    assert_eq!(p.status, 303, "{}", p.body);
    let events = app.store.events(&t.game_id, 0, None).await.unwrap();
    let last = events.last().unwrap();
    assert_eq!(
        (last.kind.as_str(), last.seat.as_str()),
        ("Resigned", "ben")
    );
    let after = app.get_with(&p.location.unwrap(), Some(&cookie)).await;
    assert!(
        after.body.contains(&format!(
            "Your resignation is recorded as event {}.",
            last.seq
        )),
        "{}",
        after.body
    );
}

async fn the_audit_page_leads_back_to_the_seat_page(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    app.play(&t, 0, "roll 2d6").await;
    let seat = app.open(&t.links[0]).await;
    let cookie = seat.cookie.unwrap();
    let audit = app
        .get_with(&format!("/games/{}/events/1", t.game_id), Some(&cookie))
        .await;
    assert_eq!(audit.status, 200);
    let back = format!("/games/{}#event-1", t.game_id);
    assert!(
        unescaped(&audit.body).contains(&format!("<a href=\"{back}\">Back to the game</a>")),
        "{}",
        audit.body
    );
    // The browser sends the seat cookie with that link: it opens the seat's page again.
    let again = app
        .get_with(&format!("/games/{}", t.game_id), Some(&cookie))
        .await;
    assert!(heading(&again.body).starts_with("Anna"), "{}", again.body);
}

async fn the_dice_tray_sums_each_expression_on_its_own(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    app.play(&t, 0, "roll 3d6+1 attack\nroll d100").await;
    let page = app.open(&t.links[1]).await;
    let events = app.store.events(&t.game_id, 0, None).await.unwrap();
    let faces: Vec<u32> = events[1]
        .dice
        .as_ref()
        .unwrap()
        .rolls
        .iter()
        .map(|r| r.face)
        .collect();
    assert_eq!(faces.len(), 4);
    let attack = faces[..3].iter().sum::<u32>() + 1;
    let expected = format!("3d6+1 (attack) = {attack} · 1d100 = {}", faces[3]);
    assert!(page.body.contains(&expected), "{expected} in {}", page.body);
    assert!(!page.body.contains(" · sum "), "one sum per expression");
}

async fn the_lobby_creates_a_game_and_shows_each_seat_link_once(app: TestApp) {
    let lobby = app.get("/").await;
    assert_eq!(lobby.status, 200);
    assert!(lobby.body.contains("<label for=\"name_0\">"));
    assert!(lobby.body.contains("open-table/default"));
    assert_eq!(
        app.get("/?seats=7")
            .await
            .body
            .matches("name=\"name_")
            .count(),
        7
    );

    let t = app.lobby_game(&["Anna", "Ben"]).await;
    assert_eq!(app.events(&t.game_id).await, 1);
    let anna = app.open(&t.links[0]).await;
    assert_eq!(anna.status, 200);
    assert!(anna.body.contains("Anna"));
    assert!(anna.body.contains("Your move"));
    assert!(anna.body.contains("<svg"), "the open table draws its board");
    let ben = app.open(&t.links[1]).await;
    assert!(ben.body.contains("Not your turn"));
    // The public page shows no token, and no page but the creation answer lists the links.
    let watch = app.get(&format!("/games/{}/watch", t.game_id)).await;
    assert_eq!(watch.status, 200);
    for token in &t.tokens {
        assert!(!watch.body.contains(token.as_str()));
        assert!(!ben.body.contains(&t.tokens[0]));
    }
    assert!(!watch.body.contains("move-form"));
}

/// For Honor and Glory's `scenario` made in the lobby with the American seat `american` and the
/// British `british`: the American seat's link.
async fn fhg_from_the_lobby(
    app: &TestApp,
    scenario: &str,
    american: &str,
    british: &str,
) -> String {
    let game = format!("for-honor-and-glory/{scenario}");
    let form = [
        ("game", game.as_str()),
        ("options", "{}"),
        ("name_0", american),
        ("email_0", ""),
        ("seat_0", "american"),
        ("name_1", british),
        ("email_1", ""),
        ("seat_1", "british"),
    ];
    let created = app.post("/games", &form).await;
    assert_eq!(created.status, 201, "{}", created.body);
    created
        .body
        .split("class=\"seat-link\"")
        .nth(1)
        .and_then(|s| s.split("href=\"").nth(1))
        .map(|s| {
            s[..s.find('"').unwrap()]
                .replace("&amp;", "&")
                .replace("&#x2f;", "/")
        })
        .expect("a seat link")
}

async fn a_wargame_seat_page_shows_the_board_in_text(app: TestApp) {
    let link = fhg_from_the_lobby(
        &app,
        "queenston-heights",
        "Van Rensselaer's player",
        "Brock's player",
    )
    .await;
    let p = app.open(&link).await;
    assert_eq!(p.status, 200, "{}", p.body);
    let board = p
        .body
        .split("id=\"board-text\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .expect("the page shows the board in text")
        .replace("&#x2f;", "/");
    assert!(
        board.contains("K6  regular 4/4 MP  13th US Infantry"),
        "{board}"
    );
    assert!(board.contains("Queenston Heights"), "{board}");
}

async fn a_bad_lobby_form_is_answered_on_the_form_and_creates_nothing(app: TestApp) {
    let cases: &[(&[(&str, &str)], &str)] = &[
        (
            &[
                ("game", "open-table/default"),
                ("options", "{not json"),
                ("name_0", "Anna"),
            ],
            "the options are not valid JSON",
        ),
        (
            &[
                ("game", "open-table/default"),
                ("options", "{}"),
                ("name_0", ""),
            ],
            "name at least one seat",
        ),
        (
            &[
                ("game", "nope/default"),
                ("options", "{}"),
                ("name_0", "Anna"),
            ],
            "unknown ruleset",
        ),
        (
            &[
                ("game", "open-table/default"),
                ("options", "{}"),
                ("name_0", "Anna"),
                ("email_0", "not-an-address"),
            ],
            "is not an email address",
        ),
        (
            &[
                ("game", "open-table/default"),
                ("options", "{\"colour\": 1}"),
                ("name_0", "Anna"),
            ],
            "has no option",
        ),
    ];
    for (form, message) in cases {
        let p = app.post("/games", form).await;
        assert_eq!(p.status, 400, "{form:?}: {}", p.body);
        assert!(p.body.contains("role=\"alert\""), "{}", p.body);
        assert!(p.body.contains(message), "{message}: {}", p.body);
        assert!(!p.body.contains("seat-link"));
        // The form comes back as it was sent.
        assert!(p.body.contains("value=\"Anna\"") || form.iter().all(|(_, v)| *v != "Anna"));
    }
}

async fn an_unknown_seat_link_gets_a_clear_page_and_changes_nothing(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let bad = "0".repeat(64);
    let p = app.get(&format!("/games/{}?token={bad}", t.game_id)).await;
    assert_eq!(p.status, 403);
    assert!(
        p.body.contains("This link does not open a seat"),
        "{}",
        p.body
    );
    let p = app.get("/games/no-such-game?token=abc").await;
    assert_eq!(p.status, 404);
    assert!(p.body.contains("there is no game no-such-game"));
    let p = app.get("/games/no-such-game/watch").await;
    assert_eq!(p.status, 404);
    let p = app
        .post(
            &format!("/games/{}/moves", t.game_id),
            &[
                ("token", &bad),
                ("expected_seq", "1"),
                ("order", "roll 2d6"),
                ("client_entropy", "x"),
            ],
        )
        .await;
    assert_eq!(p.status, 403);
    assert!(p.body.contains("Nothing was changed"));
    assert_eq!(app.events(&t.game_id).await, 1);
}

async fn an_order_from_the_form_is_recorded_and_redirects_to_the_seat_page(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let p = app
        .send_order(&t, 0, "The Guards advance\nroll 2d6 to hit")
        .await;
    assert_eq!(p.status, 303, "{}", p.body);
    let location = p.location.clone().unwrap();
    assert_eq!(location, format!("/games/{}#answer", t.game_id));
    assert_eq!(app.events(&t.game_id).await, 2);
    let after = app.follow(&p).await;
    assert_eq!(after.status, 200);
    assert!(after.body.contains("Your order is recorded as event 1"));
    // Said once: the page removes the flash cookie, and reloading it says nothing more.
    assert_eq!(flash_cookie(&after.headers).as_deref(), Some(""));
    let again = app.get_with(&location, p.cookie.as_deref()).await;
    assert_eq!(again.status, 200);
    assert!(!again.body.contains("Your order is recorded"));
    assert!(again.body.contains("The Guards advance"));
    assert!(after.body.contains("The Guards advance"));
    assert!(after.body.contains("Anna rolls 2d6 (to hit)"));
    assert!(after
        .body
        .contains(&format!("/games/{}/events/1", t.game_id)));
    assert!(after.body.contains("proof of the dice"));
    // Ben's page now says it is his move.
    let ben = app.open(&t.links[1]).await;
    assert!(ben.body.contains("Your move"));
}

async fn an_unparsable_order_is_shown_inline_with_the_order_kept_and_changes_nothing(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let sent = app.send_order(&t, 0, "Charge!\nroll 2x7").await;
    // POST, redirect, GET: the address is the game's page, scrolled to the answer.
    assert_eq!(
        sent.location.as_deref(),
        Some(format!("/games/{}#error", t.game_id).as_str())
    );
    assert_eq!(app.events(&t.game_id).await, 1);
    let p = app.follow(&sent).await;
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains("id=\"error\""));
    assert!(p.body.contains("role=\"alert\""));
    // The box holding the order takes the focus, and is described by the reason.
    assert!(p.body.contains("aria-describedby=\"error grammar\""));
    assert!(p.body.contains("autofocus"));
    let error_at = p.body.find("id=\"error\"").unwrap();
    assert!(error_at > p.body.find("id=\"move-form\"").unwrap());
    assert!(
        p.body.contains("open table: order language: line 2"),
        "{}",
        p.body
    );
    assert!(p.body.contains("aria-invalid=\"true\""));
    assert!(
        p.body.contains("Charge!\nroll 2x7</textarea>"),
        "the order is kept"
    );
    assert_eq!(app.events(&t.game_id).await, 1);
    // Reloading shows the page alone: no 405, no message again, an empty box.
    assert_eq!(flash_cookie(&p.headers).as_deref(), Some(""));
    let reload = app
        .get_with(&format!("/games/{}", t.game_id), p.cookie.as_deref())
        .await;
    assert_eq!(reload.status, 200);
    assert!(!reload.body.contains("id=\"error\""));
    assert!(!reload.body.contains("Charge!"));
    // The form's own address, from a browser's history, leads to the page.
    let moves = app
        .get_with(&format!("/games/{}/moves", t.game_id), p.cookie.as_deref())
        .await;
    assert_eq!(moves.status, 303);
    assert_eq!(moves.location, Some(format!("/games/{}", t.game_id)));
    // Out of turn is refused the same way, naming the rule.
    let p = app.follow(&app.send_order(&t, 1, "roll 1d6").await).await;
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains("id=\"error\""), "{}", p.body);
    assert!(p.body.contains("roll 1d6</textarea>"));
    assert_eq!(app.events(&t.game_id).await, 1);
}

async fn the_answer_to_a_seats_form_is_shown_to_that_seat_only(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let sent = app.send_order(&t, 0, "roll 2x7 secret plan").await;
    let flash = flash_cookie(&sent.headers).unwrap();
    // The flash cookie is the game's, hidden from scripts, and short-lived.
    let set = sent
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|v| v.starts_with("despatch_flash="))
        .unwrap();
    assert!(
        set.contains(&format!(
            "; Path=/games/{}; Max-Age=120; HttpOnly; SameSite=Lax",
            t.game_id
        )),
        "{set}"
    );
    // Ben's seat, in a browser holding Anna's answer (a shared browser, a copied cookie), does
    // not read it, and the cookie is removed.
    let ben = app.open(&t.links[1]).await;
    let seen = app
        .get_with(
            &format!("/games/{}", t.game_id),
            Some(&format!("{}; {flash}", ben.cookie.unwrap())),
        )
        .await;
    assert_eq!(seen.status, 200);
    assert!(!seen.body.contains("secret plan"));
    assert!(!seen.body.contains("id=\"error\""));
    assert_eq!(flash_cookie(&seen.headers).as_deref(), Some(""));
    // A cookie changed by hand is not read either.
    let (payload, signature) = flash.split_once('=').unwrap().1.rsplit_once('.').unwrap();
    let forged = format!(
        "despatch_flash={}{}.{signature}",
        &payload[..payload.len() - 2],
        "41"
    );
    let anna = app.open(&t.links[0]).await;
    let seen = app
        .get_with(
            &format!("/games/{}", t.game_id),
            Some(&format!("{}; {forged}", anna.cookie.unwrap())),
        )
        .await;
    assert!(!seen.body.contains("id=\"error\""));
    assert_eq!(app.events(&t.game_id).await, 1);
}

async fn a_stale_move_is_answered_with_the_latest_page_and_changes_nothing(app: TestApp) {
    let t = app.lobby_game(&["Anna"]).await;
    // Anna opens her page in two tabs and moves from the first.
    let (old_form, cookie) = app.move_form(&t, 0).await;
    app.play(&t, 0, "first move").await;
    let mut form = old_form;
    form.push(("order".into(), "second move from an old tab".into()));
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let sent = app
        .post_with(&format!("/games/{}/moves", t.game_id), &form, Some(&cookie))
        .await;
    let p = app.follow(&sent).await;
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(
        p.body
            .contains("the game moved on while you wrote: 1 new event since"),
        "{}",
        p.body
    );
    assert!(
        !p.body.contains("expected_seq ") && !p.body.contains("expected_seq,"),
        "the player reads no field names: {}",
        p.body
    );
    // The answer stands beside the order box, where the player is writing, not at the top.
    let error_at = p.body.find("id=\"error\"").expect("an error on the page");
    assert!(
        error_at > p.body.find("id=\"move-form\"").unwrap(),
        "the error is inside the move form"
    );
    assert!(p.body.contains("second move from an old tab</textarea>"));
    assert!(
        p.body.contains("first move"),
        "the page shows the latest log"
    );
    assert_eq!(hidden(&p.body, "expected_seq"), "2");
    assert_eq!(app.events(&t.game_id).await, 2);
}

async fn an_oversized_order_is_refused_with_a_page_and_changes_nothing(app: TestApp) {
    let t = app.lobby_game(&["Anna"]).await;
    let huge = "x".repeat(100 * 1024);
    let p = app.send_order(&t, 0, &huge).await;
    assert_eq!(p.status, 413, "{}", &p.body[..p.body.len().min(500)]);
    assert!(p.body.contains("this page accepts at most"));
    assert!(p.body.contains("Nothing was changed"));
    assert_eq!(app.events(&t.game_id).await, 1);
}

async fn a_resubmitted_form_is_recorded_once(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let (mut form, cookie) = app.move_form(&t, 0).await;
    form.push(("order".into(), "roll 1d20".into()));
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let first = app
        .post_with(&format!("/games/{}/moves", t.game_id), &form, Some(&cookie))
        .await;
    let again = app
        .post_with(&format!("/games/{}/moves", t.game_id), &form, Some(&cookie))
        .await;
    assert_eq!(first.status, 303);
    assert_eq!(again.status, 303, "{}", again.body);
    assert_eq!(first.location, again.location);
    assert_eq!(app.events(&t.game_id).await, 2);
}

async fn a_sealed_note_shows_only_on_its_own_seat_page(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    app.play(&t, 0, "seal the ambush is at the ford").await;
    let anna = app.open(&t.links[0]).await;
    assert!(anna.body.contains("Your sealed choices"));
    assert!(anna.body.contains("the ambush is at the ford"));
    let ben = app.open(&t.links[1]).await;
    assert!(!ben.body.contains("the ambush is at the ford"));
    assert!(ben.body.contains("Anna seals note 1"));
    let watch = app.get(&format!("/games/{}/watch", t.game_id)).await;
    assert!(!watch.body.contains("the ambush is at the ford"));
}

async fn the_audit_page_recomputes_the_dice_and_the_hash(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    app.play(&t, 0, "roll 3d6 artillery").await;
    let events = app.store.events(&t.game_id, 0, None).await.unwrap();
    let dice = events[1].dice.as_ref().unwrap();
    let p = app.get(&format!("/games/{}/events/1", t.game_id)).await;
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p
        .body
        .contains("✔ Every recomputed face equals the recorded one."));
    assert!(p.body.contains("✔ equals the stored hash"));
    assert!(p.body.contains("✔ matches"));
    assert!(p.body.contains(&dice.link));
    assert!(p.body.contains(&events[1].hash));
    assert!(p
        .body
        .contains(&format!("{}:1:anna:{}:0", t.game_id, dice.client_entropy)));
    assert!(p.body.contains("Check it yourself"));
    let zero = app.get(&format!("/games/{}/events/0", t.game_id)).await;
    assert_eq!(zero.status, 200);
    assert!(zero.body.contains("rolled no public dice"));
    let missing = app.get(&format!("/games/{}/events/9", t.game_id)).await;
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("has no event 9 yet"));
    let junk = app.get(&format!("/games/{}/events/nine", t.game_id)).await;
    assert_eq!(junk.status, 400);
}

/// Issue 38, the open table: the proof page of a move says what its rolls were for, as the
/// player wrote it ("roll 2d6 to cross" → "to cross"), each expression with its own purpose.
async fn the_proof_page_says_what_a_roll_was_for(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    app.play(&t, 0, "roll 2d6 to cross\nroll 1d6 morale").await;
    let events = app.store.events(&t.game_id, 0, None).await.unwrap();
    let seq = events
        .iter()
        .rposition(|e| e.dice.is_some())
        .expect("the move rolled");
    let p = app.get(&format!("/games/{}/events/{seq}", t.game_id)).await;
    assert_eq!(p.status, 200, "{}", p.body);
    let body = unescaped(&p.body);
    let did = body
        .split(r#"<h2 id="did-h">What it did</h2>"#)
        .nth(1)
        .unwrap_or_else(|| panic!("no 'What it did' on the proof page: {body}"));
    let did = &did[..did.find("</ul>").unwrap()];
    assert!(did.contains("Anna rolls 2d6 (to cross): "), "{did}");
    assert!(did.contains("Anna rolls 1d6 (morale): "), "{did}");
    // It comes before the proof, where the reader starts.
    assert!(body.find("What it did").unwrap() < body.find("The dice").unwrap());
}

async fn a_finished_game_replays_step_by_step(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let early = app
        .get(&format!("/games/{}/replay?step=0", t.game_id))
        .await;
    assert_eq!(early.status, 400);
    assert!(early.body.contains("once it has ended"));
    app.play(&t, 0, "roll 1d6\nresult draw").await;
    app.play(&t, 1, "result draw").await;
    let n = app.events(&t.game_id).await;
    assert!(n >= 3, "{n} events");
    let watch = app.get(&format!("/games/{}/watch", t.game_id)).await;
    assert!(watch.body.contains("The game is over"));
    assert!(watch.body.contains("Replay the game"));
    let first = app
        .get(&format!("/games/{}/replay?step=0", t.game_id))
        .await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert!(first.body.contains("id=\"replay-forward\""));
    assert!(!first.body.contains("id=\"replay-back\""));
    assert!(first.body.contains("No dice rolled yet"));
    let second = app
        .get(&format!("/games/{}/replay?step=1", t.game_id))
        .await;
    assert!(second.body.contains("Anna rolls 1d6"));
    assert!(second.body.contains("id=\"replay-back\""));
    let last = app
        .get(&format!("/games/{}/replay?step={}", t.game_id, n - 1))
        .await;
    assert!(!last.body.contains("id=\"replay-forward\""));
    assert!(last.body.contains("The table agreed on a draw"));
}

async fn the_verify_page_checks_a_pasted_export_and_refuses_oversized_ones(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    app.play(&t, 0, "roll 2d6").await;
    let export = app
        .http
        .get(format!("{}/api/games/{}/export", app.base, t.game_id))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let p = app.get("/verify").await;
    assert_eq!(p.status, 200);
    assert!(p.body.contains("/static/verify.js"));
    let ok = app.post("/verify", &[("export", &export)]).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert!(ok.body.contains("✔ The export checks out"), "{}", ok.body);
    let (face_at, _) = export.match_indices("\"face\":").next().unwrap();
    let mut tampered = export.clone();
    let digit = &export[face_at + 7..face_at + 8];
    let other = if digit == "1" { "2" } else { "1" };
    tampered.replace_range(face_at + 7..face_at + 8, other);
    let bad = app.post("/verify", &[("export", &tampered)]).await;
    assert!(
        bad.body.contains("✘ The export does not check out"),
        "{}",
        bad.body
    );
    let empty = app.post("/verify", &[("export", "  ")]).await;
    assert_eq!(empty.status, 400);
    assert!(empty.body.contains("paste an export"));
    let huge = "x".repeat(3 * 1024 * 1024);
    let big = app.post("/verify", &[("export", &huge)]).await;
    assert_eq!(big.status, 413);
    assert!(
        big.body.contains("the server checks at most 2048 KB"),
        "{}",
        &big.body[..big.body.len().min(2000)]
    );
    assert_eq!(app.events(&t.game_id).await, 2);
}

async fn static_files_and_security_headers_are_served(app: TestApp) {
    for (name, kind) in [
        ("style.css", "text/css"),
        ("table.js", "text/javascript"),
        ("verify.js", "text/javascript"),
    ] {
        let p = app.get(&format!("/static/{name}")).await;
        assert_eq!(p.status, 200);
        assert!(p.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with(kind));
    }
    assert_eq!(app.get("/static/nope.js").await.status, 404);
    // Pages load their files at fingerprinted addresses, kept by the browser for good; the bare
    // address is revalidated by its ETag and answered 304 while unchanged.
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let seat = app.open(&t.links[0]).await;
    for name in ["style.css", "table.js"] {
        let marker = format!("\"/static/{name}?v=");
        let at = seat.body.find(&marker).unwrap_or_else(|| panic!("{name}"));
        let address = &seat.body[at + 1..];
        let address = &address[..address.find('"').unwrap()];
        let kept = app.get(address).await;
        assert_eq!(kept.status, 200, "{address}");
        assert_eq!(
            kept.headers["cache-control"],
            "public, max-age=31536000, immutable"
        );
        let bare = app.get(&format!("/static/{name}")).await;
        assert_eq!(bare.headers["cache-control"], "no-cache");
        let etag = bare.headers["etag"].to_str().unwrap().to_owned();
        assert_eq!(kept.headers["etag"].to_str().unwrap(), etag);
        let again = app
            .http
            .get(format!("{}/static/{name}", app.base))
            .header("If-None-Match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304);
        assert!(again.bytes().await.unwrap().is_empty());
        // An old page's address (another fingerprint) gets today's file, not kept for good.
        let old = app.get(&format!("/static/{name}?v=0123456789abcdef")).await;
        assert_eq!(old.status, 200);
        assert_eq!(old.headers["cache-control"], "no-cache");
        assert_eq!(old.body, bare.body);
    }
    let p = app.get("/").await;
    let csp = p.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'self'"));
    assert_eq!(p.headers["referrer-policy"], "no-referrer");
    // No page loads anything from another host.
    for body in [&p.body, &app.get("/verify").await.body] {
        assert!(!body.contains("src=\"http"), "{body}");
        assert!(!body.contains("href=\"http"), "{body}");
    }
}

async fn a_long_log_shows_its_tail_with_a_link_to_the_whole(app: TestApp) {
    let t = app.lobby_game(&["Anna"]).await;
    // Moves through the JSON API are quicker to make than through the form.
    let http = reqwest::Client::new();
    for seq in 1..=110u64 {
        let resp = http
            .post(format!("{}/api/games/{}/moves", app.base, t.game_id))
            .bearer_auth(&t.tokens[0])
            .json(&json!({ "expected_seq": seq, "command": format!("move {seq}") }))
            .send()
            .await
            .unwrap();
        assert_eq!(
            resp.status().as_u16(),
            201,
            "{:?}",
            resp.json::<Value>().await
        );
    }
    let p = app.open(&t.links[0]).await;
    assert!(p.body.contains("Showing the latest 100 of 111 events"));
    assert!(!p.body.contains("id=\"event-5\""));
    assert!(p.body.contains("href=\"?log=all\""), "{}", p.body);
    // The link to the whole log works from the cookie, and a seat link asking for it keeps
    // asking for it after the redirect.
    let path = format!("/games/{}?log=all", t.game_id);
    let all = app.get_with(&path, p.cookie.as_deref()).await;
    assert!(all.body.contains("id=\"event-5\""));
    assert!(
        all.body.contains("Your move"),
        "the seat page, not the public one"
    );
    let all = app.open(&format!("{}&log=all", t.links[0])).await;
    assert!(all.body.contains("id=\"event-5\""));
    assert!(!all.body.contains("Showing the latest"));
}

async fn a_clocked_game_shows_the_deadline_of_the_seat_to_act(app: TestApp) {
    let plain = app.lobby_game(&["Anna", "Ben"]).await;
    let page = app.open(&plain.links[0]).await;
    assert!(
        page.body.contains("none set for this game"),
        "{}",
        page.body
    );
    let clocked = app
        .lobby_game_with(&["Anna", "Ben"], r#"{"clock": "standard"}"#)
        .await;
    let page = app.open(&clocked.links[1]).await;
    let at = page
        .body
        .find("Deadline: <time datetime=\"")
        .unwrap_or_else(|| panic!("no deadline in {}", page.body));
    let stamp = &page.body[at + 26..at + 46];
    assert!(
        chrono::DateTime::parse_from_rfc3339(&format!("{stamp}Z")).is_ok()
            || stamp.starts_with("20"),
        "{stamp}"
    );
}

async fn a_seat_link_moves_its_token_into_a_cookie_scoped_to_the_game(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let link = app.get(&app.path_of(&t.links[0])).await;
    assert_eq!(link.status, 303, "{}", link.body);
    // The browser is sent to the page without the token, told to send no Referer.
    assert_eq!(
        link.location.as_deref(),
        Some(format!("/games/{}", t.game_id).as_str())
    );
    assert_eq!(link.headers["referrer-policy"], "no-referrer");
    let set = link.headers["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        set.starts_with(&format!("despatch_seat={};", t.tokens[0])),
        "{set}"
    );
    let attributes: Vec<&str> = set.split(';').map(str::trim).collect();
    for wanted in [
        format!("Path=/games/{}", t.game_id).as_str(),
        "HttpOnly",
        "SameSite=Lax",
    ] {
        assert!(attributes.contains(&wanted), "{wanted} in {set}");
    }
    assert!(!attributes.contains(&"Secure"), "plain http: {set}");

    // The page opened with the cookie is the seat's, and holds no token anywhere.
    let cookie = seat_cookie(&link.headers).unwrap();
    let page = app
        .get_with(link.location.as_deref().unwrap(), Some(&cookie))
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Your move"));
    assert!(page.body.contains("id=\"move-form\""));
    assert_eq!(page.headers["referrer-policy"], "no-referrer");
    assert!(
        !page.body.contains(&t.tokens[0]),
        "the token is not in the page"
    );
    assert!(!page.body.contains("token="), "no link carries a token");
    assert!(
        !page.body.contains("name=\"token\""),
        "no form carries a token"
    );
    // Without the cookie the same address is the public page.
    let public = app.get(&format!("/games/{}", t.game_id)).await;
    assert_eq!(public.status, 200);
    assert!(!public.body.contains("id=\"move-form\""));
    // The cookie is the seat's own: Ben's link gives Ben's cookie and Ben's page.
    let ben = app.open(&t.links[1]).await;
    assert!(ben.body.contains("Not your turn"));
    assert_ne!(ben.cookie, Some(cookie));
}

async fn a_move_through_the_page_works_with_the_cookie_alone(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let (mut form, cookie) = app.move_form(&t, 0).await;
    assert!(
        !cookie.contains(&t.game_id),
        "the cookie is the token alone"
    );
    form.push(("order".into(), "roll 2d6 to hit".into()));
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let path = format!("/games/{}/moves", t.game_id);
    // Without the cookie the form opens no seat, and nothing is recorded.
    let refused = app.post(&path, &form).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(app.events(&t.game_id).await, 1);
    // With it the move is recorded, and the page it leads to has no token in its address.
    let moved = app.post_with(&path, &form, Some(&cookie)).await;
    assert_eq!(moved.status, 303, "{}", moved.body);
    let location = moved.location.clone().unwrap();
    assert_eq!(location, format!("/games/{}#answer", t.game_id));
    assert!(!location.contains(&t.tokens[0]));
    assert_eq!(app.events(&t.game_id).await, 2);
    let after = app.follow(&moved).await;
    assert_eq!(after.status, 200);
    assert!(after.body.contains("Your order is recorded as event 1"));
    assert!(after.body.contains("Anna rolls 2d6 (to hit)"));
}

async fn a_wrong_token_gets_no_cookie_and_a_stale_cookie_is_removed(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let wrong = "0".repeat(64);
    let p = app
        .get(&format!("/games/{}?token={wrong}", t.game_id))
        .await;
    assert_eq!(p.status, 403, "{}", p.body);
    assert!(p.headers.get("set-cookie").is_none(), "{:?}", p.headers);
    // A signed seat link of another game opens nothing here either.
    let other = app.lobby_game(&["Cleo"]).await;
    let p = app
        .get(&format!("/games/{}?token={}", t.game_id, other.tokens[0]))
        .await;
    assert_eq!(p.status, 403);
    assert!(p.headers.get("set-cookie").is_none());
    // A cookie that opens no seat is refused and removed.
    let p = app
        .get_with(
            &format!("/games/{}", t.game_id),
            Some(&format!("despatch_seat={wrong}")),
        )
        .await;
    assert_eq!(p.status, 403, "{}", p.body);
    let cleared = p.headers["set-cookie"].to_str().unwrap();
    assert!(
        cleared.starts_with("despatch_seat=;") && cleared.contains("Max-Age=0"),
        "{cleared}"
    );
    assert!(cleared.contains(&format!("Path=/games/{}", t.game_id)));
    assert_eq!(app.events(&t.game_id).await, 1);
}

async fn the_seat_cookie_is_secure_when_the_server_is_reached_over_https(app: TestApp) {
    let base = app
        .another()
        .base_url("https://despatch.example")
        .move_rate(None)
        .serve()
        .await
        .base;
    let t = app.lobby_game(&["Anna"]).await;
    let resp = app
        .http
        .get(format!("{base}/games/{}?token={}", t.game_id, t.tokens[0]))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 303);
    let set = resp.headers()["set-cookie"].to_str().unwrap();
    assert!(set.split(';').any(|a| a.trim() == "Secure"), "{set}");
}

/// A page's path is parsed as a game id where it enters (`store::GameId`): one that cannot be
/// a game id is no game, and the page says what a game id is.
async fn a_page_whose_path_is_no_game_id_says_no_such_game_and_what_a_game_id_is(app: TestApp) {
    for path in [
        "/games/a.b",
        "/games/a.b/watch",
        "/games/a.b/replay",
        "/games/a.b/events/0",
        "/games/a.b/settings",
    ] {
        let p = app.get(path).await;
        assert_eq!(p.status, 404, "{path}: {}", p.body);
        assert!(p.body.contains("No such game"), "{path}: {}", p.body);
        assert!(
            p.body
                .contains("is not a game id: a game id is 1-64 ASCII letters, digits"),
            "{path}: {}",
            p.body
        );
    }
}

async fn a_page_refusing_its_query_answers_with_the_pages_security_headers(app: TestApp) {
    let t = app.lobby_game(&["Anna"]).await;
    for path in [
        "/?seats=many".to_owned(),
        "/?seats=-1".to_owned(),
        format!("/games/{}/replay?step=-1", t.game_id),
        format!("/games/{}/replay?step=first", t.game_id),
        "/no-such-page".to_owned(),
    ] {
        let p = app.get(&path).await;
        assert!(p.status >= 400, "{path}: {}", p.status);
        let csp = p
            .headers
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("{path} answered {} with no CSP", p.status))
            .to_str()
            .unwrap();
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(p.headers["referrer-policy"], "no-referrer", "{path}");
        assert_eq!(p.headers["x-content-type-options"], "nosniff", "{path}");
    }
    // A bad query of a page is answered with a page that says what was wrong.
    let p = app.get("/?seats=many").await;
    assert_eq!(p.status, 400);
    assert!(p.body.contains("could not be read"), "{}", p.body);
    assert!(p.body.contains("seats"), "{}", p.body);
    // The API's bad query still answers in JSON.
    let api = app
        .http
        .get(format!(
            "{}/api/games/{}/events?after=x",
            app.base, t.game_id
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(api.status().as_u16(), 400);
    let body: Value = api.json().await.unwrap();
    assert_eq!(body["error"], "bad_request", "{body}");
}

// ---------------------------------------------------------------------------------------------
// Cross-site requests (issue 35; src/http/csrf.rs): every form that acts with a cookie is
// refused from another site's page, and without its page's token, and changes nothing.

/// A foreign page's `Origin`.
const EVIL: &str = "https://evil.example";

/// A form sent three ways, `state` read after each: from another site (with the page's own
/// token, so that the origin check alone refuses it: by `Origin`, by `Sec-Fetch-Site` alone,
/// by both), without a token or with a wrong one, and as the page sends it. The first two answer
/// `403` with a page that says what happened and leads back, and leave `state` as it was; the
/// last answers `accepted` and changes it.
async fn only_the_page_itself_sends<F, Fut>(
    app: &TestApp,
    action: &str,
    fields: &[(&str, &str)],
    cookie: Option<&str>,
    accepted: u16,
    state: F,
) -> Page
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = String>,
{
    let fields: Vec<(String, String)> = fields
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let before = state().await;
    let (with_token, sent_cookie) = app.as_the_page_sends(action, &fields, cookie).await;
    assert!(
        with_token.iter().any(|(k, _)| k == "csrf"),
        "{action}: the page carries the form's field"
    );
    let cookie = sent_cookie.as_deref();
    let refusals = [
        (
            "another site's Origin",
            with_token.clone(),
            vec![("Origin", EVIL)],
        ),
        (
            "Sec-Fetch-Site: cross-site",
            with_token.clone(),
            vec![("Sec-Fetch-Site", "cross-site")],
        ),
        (
            "a null Origin from another site",
            with_token.clone(),
            vec![("Origin", "null"), ("Sec-Fetch-Site", "cross-site")],
        ),
        (
            "a null Origin from a sibling site",
            with_token.clone(),
            vec![("Origin", "null"), ("Sec-Fetch-Site", "same-site")],
        ),
        ("no token", fields.clone(), vec![]),
        (
            "no token, same origin",
            fields.clone(),
            vec![("Origin", app.base.as_str())],
        ),
        (
            "another form's token",
            with_token
                .iter()
                .map(|(k, v)| {
                    // Another token: its last byte changed (to 00, or ff where it was 00).
                    let v = if k == "csrf" {
                        let other = if v.ends_with("00") { "ff" } else { "00" };
                        format!("{}{other}", &v[..v.len().saturating_sub(2)])
                    } else {
                        v.clone()
                    };
                    (k.clone(), v)
                })
                .collect(),
            vec![],
        ),
    ];
    for (how, form, headers) in refusals {
        let p = app.post_raw(action, &form, cookie, &headers).await;
        assert_eq!(p.status, 403, "{action} with {how}: {}", p.body);
        assert!(
            with_token.iter().any(|(k, v)| k == "csrf" && v.len() == 64),
            "{action}: the page's form carries a token (HMAC-SHA256 in hex)"
        );
        assert!(p.body.contains("The form was refused"), "{how}: {}", p.body);
        assert!(p.body.contains("Nothing was changed"), "{how}: {}", p.body);
        assert!(p.body.contains("Reload the page"), "{how}: {}", p.body);
        assert!(p.body.contains("Back to the page"), "{how}: {}", p.body);
        if headers.iter().any(|(_, v)| *v == EVIL) {
            assert!(
                p.body.contains("evil.example"),
                "it names the site: {}",
                p.body
            );
        }
        assert!(
            !p.headers
                .get_all("set-cookie")
                .iter()
                .any(|c| c.to_str().unwrap().starts_with("despatch_session=")),
            "{how}: no session is opened"
        );
        assert_eq!(
            state().await,
            before,
            "{action} with {how} changed something"
        );
    }
    // As a browser sends a page's own form: the pages' `Referrer-Policy: no-referrer` makes it
    // say `Origin: null`, and `Sec-Fetch-Site` says the form is the site's own.
    let p = app
        .post_raw(
            action,
            &with_token,
            cookie,
            &[("Origin", "null"), ("Sec-Fetch-Site", "same-origin")],
        )
        .await;
    assert_eq!(
        p.status, accepted,
        "{action} as its page sends it: {}",
        p.body
    );
    assert_ne!(
        state().await,
        before,
        "{action} as its page sends it did nothing"
    );
    p
}

/// A seat's view of the game over the API (bearer: not a cookie, never checked for a token).
async fn api_text(app: &TestApp, path: &str, token: &str) -> String {
    let r = app
        .http
        .get(app.url(path))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{path}");
    r.text().await.unwrap()
}

async fn a_seats_forms_are_refused_from_another_site_and_without_their_token(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let game = t.game_id.clone();
    let anna = app.open(&t.links[0]).await;
    let cookie = anna.cookie.clone().unwrap();
    let token = t.tokens[0].clone();
    // A move, with the hidden fields its page gives.
    let moves = format!("/games/{game}/moves");
    let (mut form, _) = app.move_form(&t, 0).await;
    form.push(("order".into(), "roll 1d6".into()));
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let events = || async { app.events(&game).await.to_string() };
    only_the_page_itself_sends(&app, &moves, &fields, Some(&cookie), 303, events).await;
    // Table talk.
    let talk = format!("/games/{game}/talk");
    let said = || async { api_text(&app, &format!("/api/games/{game}/talk"), &token).await };
    only_the_page_itself_sends(
        &app,
        &talk,
        &[("to", ""), ("text", "meet me at the ford")],
        Some(&cookie),
        303,
        said,
    )
    .await;
    // The seat's settings: every channel off.
    let settings = format!("/games/{game}/settings");
    let channels =
        || async { api_text(&app, &format!("/api/games/{game}/channels"), &token).await };
    only_the_page_itself_sends(&app, &settings, &[], Some(&cookie), 303, channels).await;
    // A claim to the attacker's address: no confirmation link is queued for it.
    let claim = format!("/games/{game}/claim");
    let mailed = || async {
        let rows = app.store.outbox(&game).await.unwrap();
        serde_json::to_string(&rows)
            .unwrap()
            .matches("mallory@evil.example")
            .count()
            .to_string()
    };
    only_the_page_itself_sends(
        &app,
        &claim,
        &[("email", "mallory@evil.example")],
        Some(&cookie),
        303,
        mailed,
    )
    .await;
    // A game-wide webhook, added from the settings page.
    let hooks = format!("/games/{game}/settings/webhooks");
    let listed = || async { api_text(&app, &format!("/api/games/{game}/webhooks"), &token).await };
    only_the_page_itself_sends(
        &app,
        &hooks,
        &[
            ("url", "https://hooks.evil.example.org/collect"),
            ("scope", "game"),
            ("format", "json"),
        ],
        Some(&cookie),
        201,
        listed,
    )
    .await;
    // A resignation.
    let resign = format!("/games/{game}/resign");
    let events = || async { app.events(&game).await.to_string() };
    only_the_page_itself_sends(
        &app,
        &resign,
        &[("confirm", "yes")],
        Some(&cookie),
        303,
        events,
    )
    .await;
    // One seat's token does not carry another seat's form: Ben's page's token with Anna's
    // cookie (or none) is refused.
    let ben = app.open(&t.links[1]).await;
    let bens = common::forms::token_in(&ben.body, &talk).expect("Ben's talk form");
    let mine = common::forms::token_in(
        &app.get_with(&format!("/games/{game}"), Some(&cookie))
            .await
            .body,
        &talk,
    );
    assert_ne!(Some(bens.clone()), mine, "each seat's token is its own");
    let form = vec![
        ("text".to_owned(), "not from Anna".to_owned()),
        ("csrf".to_owned(), bens),
    ];
    for c in [Some(cookie.as_str()), None] {
        let p = app.post_raw(&talk, &form, c, &[]).await;
        assert_eq!(p.status, 403, "{}", p.body);
    }
    assert!(!api_text(&app, &format!("/api/games/{game}/talk"), &token)
        .await
        .contains("not from Anna"));
}

async fn a_sign_in_link_is_refused_from_another_site_and_without_its_token(app: TestApp) {
    // The attacker's own sign-in link: a foreign page that posts it signs its visitor in as the
    // attacker (login CSRF) unless the form is refused.
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).unwrap();
    let secret = hex::encode(secret);
    let now = chrono::Utc::now().timestamp();
    {
        use sha2::Digest;
        app.store
            .put_login(
                &hex::encode(sha2::Sha256::digest(secret.as_bytes())),
                "mallory@evil.example",
                now,
                now + 600,
            )
            .await
            .unwrap();
    }
    let fields = vec![("token".to_owned(), secret.clone())];
    // Taken from the attacker's own visit, the token is bound to the attacker's form cookie:
    // the visitor's browser, with a cookie of its own or none, cannot send it.
    let (attackers, _) = app.as_the_page_sends("/login/confirm", &fields, None).await;
    let (_, visitors_cookie) = app.form_token("/login/confirm", &fields, None).await;
    for c in [visitors_cookie.as_deref(), None] {
        let p = app.post_raw("/login/confirm", &attackers, c, &[]).await;
        assert_eq!(p.status, 403, "{}", p.body);
    }
    assert!(visitors_cookie.is_some(), "the page sets the form cookie");
    // Sessions opened so far: none until the page itself sends the link.
    let sessions = || async { app.db.count_rows("sessions").await.to_string() };
    let p = only_the_page_itself_sends(
        &app,
        "/login/confirm",
        &[("token", secret.as_str())],
        None,
        303,
        sessions,
    )
    .await;
    assert_eq!(p.location.as_deref(), Some("/me"));
    assert!(p
        .headers
        .get_all("set-cookie")
        .iter()
        .any(|c| c.to_str().unwrap().starts_with("despatch_session=")));
}

/// A session cookie (`despatch_session=…`) for `email`, from a sign-in link used as its page
/// sends it.
async fn signed_in(app: &TestApp, email: &str) -> String {
    use sha2::Digest;
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).unwrap();
    let secret = hex::encode(secret);
    let now = chrono::Utc::now().timestamp();
    app.store
        .put_login(
            &hex::encode(sha2::Sha256::digest(secret.as_bytes())),
            email,
            now,
            now + 600,
        )
        .await
        .unwrap();
    let p = app.post("/login/confirm", &[("token", &secret)]).await;
    assert_eq!(p.status, 303, "{}", p.body);
    p.headers
        .get_all("set-cookie")
        .iter()
        .map(|c| c.to_str().unwrap())
        .find(|c| c.starts_with("despatch_session="))
        .map(|c| c.split(';').next().unwrap().to_owned())
        .expect("a session cookie")
}

async fn a_players_forms_and_signing_out_are_refused_from_another_site(app: TestApp) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let session = signed_in(&app, "Anna@example.org").await;
    let me = || async {
        let r = app
            .http
            .get(app.url("/me/settings"))
            .header("Cookie", &session)
            .send()
            .await
            .unwrap();
        r.text()
            .await
            .unwrap()
            .contains("name=\"reminders\" value=\"on\" checked")
            .to_string()
    };
    // The player's settings for every seat: reminders off.
    only_the_page_itself_sends(
        &app,
        "/me/settings",
        &[("email", "on")],
        Some(&session),
        303,
        me,
    )
    .await;
    // `POST /api/logout` acts with the cookie and no body: another site may not send it.
    let still_in = || async {
        let r = app
            .http
            .get(app.url("/api/me"))
            .header("Cookie", &session)
            .send()
            .await
            .unwrap();
        r.status().as_u16()
    };
    for (name, value) in [("Origin", EVIL), ("Sec-Fetch-Site", "cross-site")] {
        let r = app
            .http
            .post(app.url("/api/logout"))
            .header("Cookie", &session)
            .header(name, value)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 403, "{name}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"], "forbidden", "{body}");
        assert!(
            body["message"].as_str().unwrap().contains("another site"),
            "{body}"
        );
        assert_eq!(still_in().await, 200, "still signed in");
    }
    // The page's Sign out.
    let signed_out = || async { still_in().await.to_string() };
    only_the_page_itself_sends(&app, "/logout", &[], Some(&session), 303, signed_out).await;
    let _ = t;
}

async fn behind_a_proxy_forms_come_from_the_configured_base_url(app: TestApp) {
    // The operator configured https://despatch.example; the proxy reaches the server at its
    // own address, which is the Host the server sees.
    let base = app
        .another()
        .base_url("https://despatch.example")
        .move_rate(None)
        .serve()
        .await
        .base;
    let lobby = app.http.get(format!("{base}/")).send().await.unwrap();
    let cookie = common::forms::with_form_cookie(None, lobby.headers()).unwrap_or_default();
    let set = lobby
        .headers()
        .get("set-cookie")
        .map(|c| c.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let token = common::forms::token_in(&lobby.text().await.unwrap(), "/games").unwrap_or_default();
    let form = [
        ("csrf", token.as_str()),
        ("game", "open-table/default"),
        ("name_0", "Anna"),
        ("seat_0", ""),
        ("name_1", "Ben"),
        ("seat_1", ""),
    ];
    let host_origin = base.clone();
    let create = |origin: String| {
        let req = app
            .http
            .post(format!("{base}/games"))
            .header("Cookie", &cookie)
            .header("Origin", origin)
            .form(&form);
        async move { req.send().await.unwrap().status().as_u16() }
    };
    assert_eq!(create(host_origin).await, 403, "not the configured origin");
    assert_eq!(
        create("http://despatch.example".into()).await,
        403,
        "another scheme"
    );
    assert_eq!(create("https://despatch.example".into()).await, 201);
    assert!(
        cookie.starts_with("despatch_csrf="),
        "the lobby sets a form cookie"
    );
    for attribute in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/"] {
        assert!(set.split(';').any(|a| a.trim() == attribute), "{set}");
    }
}

/// Issue 38: a page and an asset requested with `Accept-Encoding: gzip` come back gzipped, and
/// decode to what a client that asks for nothing gets as it is; brotli where it is asked for.
async fn pages_and_assets_are_sent_compressed_to_a_client_that_accepts_it(app: TestApp) {
    use std::io::Read;
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    app.play(&t, 0, "The Guards advance\nroll 2d6 to hit").await;
    for path in [
        format!("/games/{}/watch", t.game_id),
        "/static/style.css".to_owned(),
        "/static/table.js".to_owned(),
    ] {
        let plain = app
            .http
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(plain.status(), 200);
        assert!(plain.headers().get("content-encoding").is_none(), "{path}");
        let plain = plain.bytes().await.unwrap();
        let gz = app
            .http
            .get(format!("{}{path}", app.base))
            .header("Accept-Encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(gz.status(), 200);
        assert_eq!(
            gz.headers()
                .get("content-encoding")
                .map(|v| v.to_str().unwrap()),
            Some("gzip"),
            "{path}"
        );
        let gz = gz.bytes().await.unwrap();
        assert!(
            gz.len() < plain.len(),
            "{path}: {} ≥ {}",
            gz.len(),
            plain.len()
        );
        let mut decoded = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut decoded)
            .unwrap();
        assert_eq!(decoded, plain.to_vec(), "{path} decodes to the same page");
        let br = app
            .http
            .get(format!("{}{path}", app.base))
            .header("Accept-Encoding", "br, gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(
            br.headers()
                .get("content-encoding")
                .map(|v| v.to_str().unwrap()),
            Some("br"),
            "{path}"
        );
    }
}

/// Issue 38: a form's address opened in a browser (`Accept: text/html`) is a page that says so
/// with a way back to the game; an address no page has, a page too; API clients keep their
/// answers.
async fn a_browser_opening_a_forms_address_gets_a_page_with_a_way_back(app: TestApp) {
    let t = app.lobby_game(&["Anna"]).await;
    let browser = |path: &str| {
        app.http.get(format!("{}{path}", app.base)).header(
            "Accept",
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        )
    };
    let resign = format!("/games/{}/resign", t.game_id);
    let r = browser(&resign).send().await.unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(r.headers().get("allow").unwrap(), "POST");
    assert!(r
        .headers()
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let body = unescaped(&r.text().await.unwrap());
    assert!(
        body.contains("does not answer GET; it answers POST"),
        "{body}"
    );
    assert!(body.contains("Nothing was changed"), "{body}");
    assert!(
        body.contains(&format!("href=\"/games/{}\"", t.game_id)),
        "a way back to the game: {body}"
    );
    assert!(body.contains("href=\"/\""), "{body}");
    let r = browser(&format!("/games/{}/nowhere", t.game_id))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    let body = unescaped(&r.text().await.unwrap());
    assert!(body.contains("No such page"), "{body}");
    assert!(
        body.contains(&format!("href=\"/games/{}\"", t.game_id)),
        "{body}"
    );
    // Not a browser: the plain answers, as before.
    let r = app
        .http
        .get(format!("{}{resign}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    assert!(r
        .headers()
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    // The API keeps JSON, even for a browser.
    let r = browser(&format!("/api/games/{}/resign", t.game_id))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "method_not_allowed");
    assert_eq!(app.events(&t.game_id).await, 1);
}

/// Issue 38: "Keep this seat with your email" shows the address the seat already has, to that
/// seat only; a seat without one says so.
async fn the_seat_page_shows_the_address_the_seat_already_has(app: TestApp) {
    let created = app
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
            ..crate::common::bot::new_game(&despatch::rules::find("open-table").unwrap(), 0)
        })
        .await
        .unwrap();
    let link = |i: usize| {
        format!(
            "{}/games/{}?token={}",
            app.base, created.game_id, created.seats[i].token
        )
    };
    let anna = app.open(&link(0)).await;
    assert!(
        anna.body
            .contains("This seat's address is <strong>anna@example.org</strong>"),
        "{}",
        anna.body
    );
    assert!(anna.body.contains("value=\"anna@example.org\""));
    let ben = app.open(&link(1)).await;
    assert!(ben.body.contains("This seat has no email address yet."));
    assert!(
        !ben.body.contains("anna@example.org"),
        "another seat's address"
    );
    let watch = app.get(&format!("/games/{}/watch", created.game_id)).await;
    assert!(!watch.body.contains("anna@example.org"));
}

async fn a_refused_talk_message_is_answered_beside_the_talk_form_with_the_message_kept(
    app: TestApp,
) {
    let t = app.lobby_game(&["Anna", "Ben"]).await;
    let p = app.open(&t.links[0]).await;
    let anna = p.cookie.clone().unwrap();
    let talk = format!("/games/{}/talk", t.game_id);
    let sent = app
        .post_with(
            &talk,
            &[("to", "nobody"), ("text", "Meet me by the mill.")],
            Some(&anna),
        )
        .await;
    // POST, redirect, GET: the address is the game's page at the talk form's answer.
    assert_eq!(
        sent.location.as_deref(),
        Some(format!("/games/{}#talk-error", t.game_id).as_str()),
        "{}",
        sent.body
    );
    let p = app.follow(&sent).await;
    assert_eq!(p.status, 200, "{}", p.body);
    let error_at = p
        .body
        .find("id=\"talk-error\"")
        .expect("the reason is shown");
    let form_at = p.body.find("id=\"talk-form\"").unwrap();
    let move_form_end = p.body.find("id=\"talk-h\"").unwrap();
    assert!(
        error_at > form_at && form_at > move_form_end,
        "beside the talk form, not the order box"
    );
    assert!(p.body[error_at - 40..error_at].contains("role=\"alert\""));
    assert!(
        p.body
            .contains("there is no seat &#x27;nobody&#x27; at this table"),
        "{}",
        p.body
    );
    assert!(p.body.contains("Nothing was sent: your message is below."));
    assert!(
        p.body
            .contains("aria-describedby=\"talk-error\">Meet me by the mill.</textarea>"),
        "the message is kept in its box"
    );
    assert!(
        !p.body.contains("id=\"error\""),
        "the order box says nothing"
    );
    // Nothing was sent: Ben's page holds no such talk.
    let ben = app.open(&t.links[1]).await;
    assert!(!ben.body.contains("Meet me by the mill."));
    // Said once: a reload shows the form empty.
    assert_eq!(flash_cookie(&p.headers).as_deref(), Some(""));
    let reload = app
        .get_with(&format!("/games/{}", t.game_id), Some(&anna))
        .await;
    assert!(!reload.body.contains("id=\"talk-error\""));
    assert!(!reload.body.contains("Meet me by the mill."));

    // Every refusal is answered there, and sends nothing.
    for (to, text, why) in [("anna", "me", "that is your own seat"), ("", "  ", "empty")] {
        let sent = app
            .post_with(&talk, &[("to", to), ("text", text)], Some(&anna))
            .await;
        let p = app.follow(&sent).await;
        let error_at = p.body.find("id=\"talk-error\"").expect(why);
        assert!(p.body[error_at..].contains(why), "{to}: {}", p.body);
    }

    // To Ben, the same message goes, and the form says so once.
    let sent = app
        .post_with(
            &talk,
            &[("to", "ben"), ("text", "Meet me by the mill.")],
            Some(&anna),
        )
        .await;
    assert_eq!(
        sent.location.as_deref(),
        Some(format!("/games/{}#talk", t.game_id).as_str())
    );
    let p = app.follow(&sent).await;
    let sent_at = p.body.find("id=\"talk-sent\"").expect("sent, said");
    assert!(sent_at > p.body.find("id=\"talk-form\"").unwrap());
    let reload = app
        .get_with(&format!("/games/{}", t.game_id), Some(&anna))
        .await;
    assert!(!reload.body.contains("id=\"talk-sent\""));
    let ben = app.open(&t.links[1]).await;
    assert!(ben.body.contains("Meet me by the mill."));
}

/// Issue 38: For Honor and Glory's turn that rolled fewer AP than its order's actions plays what
/// the AP pay for (6.1) and drops the rest; the page says which actions were not carried out,
/// in the answering mail's words, once. On the drill ground a side has 2 command AP and 1 to 3
/// random ones (6.1.1): seven one-AP moves always outrun them.
async fn what_an_order_did_not_carry_out_is_said_once_on_the_page(app: TestApp) {
    let link = fhg_from_the_lobby(&app, "drill", "Anna", "Ben").await;
    let opened = app.open(&link).await;
    let cookie = opened.cookie.clone().unwrap();
    let game_id = link
        .split("/games/")
        .nth(1)
        .and_then(|s| s.split('?').next())
        .unwrap()
        .to_owned();
    let page = app
        .get_with(&format!("/games/{game_id}"), Some(&cookie))
        .await;
    let moves: Vec<String> = ["A", "B", "C", "D", "E", "F", "G"]
        .iter()
        .map(|c| format!("move {c}11 {c}10"))
        .collect();
    let order = moves.join("\n");
    let sent = app
        .post_with(
            &format!("/games/{game_id}/moves"),
            &[
                ("expected_seq", hidden(&page.body, "expected_seq").as_str()),
                ("client_entropy", "drill"),
                ("idempotency_key", "drill-1"),
                ("order", order.as_str()),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(
        sent.location.as_deref(),
        Some(format!("/games/{game_id}#answer").as_str()),
        "{}",
        sent.body
    );
    let after = app.follow(&sent).await;
    let said = after
        .body
        .split("id=\"not-done\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .expect("the page says what was not carried out");
    assert!(said.starts_with("Stopped: "), "{said}");
    assert!(said.contains("Not carried out:"), "{said}");
    // Five AP at most: the last two moves at least are dropped, and named.
    for dropped in &moves[5..] {
        assert!(said.contains(dropped.as_str()), "{dropped}: {said}");
    }
    assert!(
        !said.contains(moves[0].as_str()),
        "the first move was made: {said}"
    );
    let answer_at = after.body.find("id=\"answer\"").unwrap();
    assert!(answer_at > after.body.find("id=\"move-form\"").unwrap());
    // Once: the next view of the page no longer says it.
    let again = app
        .get_with(&format!("/games/{game_id}"), Some(&cookie))
        .await;
    assert!(!again.body.contains("id=\"not-done\""));
}
