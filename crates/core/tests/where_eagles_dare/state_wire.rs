//! The state's wire form: what the activation waits for (`state::Wait`) is written as the
//! fields it replaced, so the canonical JSON — and the state hash recorded in released logs —
//! is the one earlier builds wrote, and a stored state that waits for two answers is refused.

use despatch_core::engine::canonical::hash_json;
use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::ruleset::{Rules, SeatDef, Setup};
use despatch_core::rules::where_eagles_dare::state::{Routing, Side, State, Wait};
use despatch_core::rules::where_eagles_dare::WhereEaglesDare;
use serde_json::{json, Value};

fn state() -> State {
    let setup = Setup {
        game_id: "wire".into(),
        scenario: "a-ride-in-the-country".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    WhereEaglesDare
        .setup(&setup, &mut hidden_stream(&[7; 32], "wire", 0))
        .unwrap()
}

/// Old fields by name, each with its value (none: absent, as a skipped field is).
type Fields = Vec<(&'static str, Option<Value>)>;

/// The old fields as a state with `wait` writes them.
fn old_fields(s: &State) -> Fields {
    let v = serde_json::to_value(s).unwrap();
    [
        "status_window",
        "intelligence",
        "rout",
        "routing",
        "lost_event",
        "placing",
        "lost",
    ]
    .into_iter()
    .map(|k| (k, v.get(k).cloned()))
    .collect()
}

#[test]
fn each_wait_is_written_as_the_field_it_replaced_and_read_back() {
    let routing = Routing {
        side: Side::Allied,
        formation: "502".into(),
        units: vec!["A/502".into()],
    };
    let cases: Vec<(Option<Wait>, Fields)> = vec![
        (None, vec![]),
        (
            Some(Wait::StatusCheck),
            vec![("status_window", Some(json!(true)))],
        ),
        (
            Some(Wait::Intelligence { side: Side::German }),
            vec![("intelligence", Some(json!("german")))],
        ),
        (
            Some(Wait::Rout { side: Side::Allied }),
            vec![("rout", Some(json!("allied")))],
        ),
        (
            Some(Wait::Routing(routing)),
            vec![(
                "routing",
                Some(json!({ "side": "allied", "formation": "502", "units": ["A/502"] })),
            )],
        ),
        (
            Some(Wait::Lost {
                unit: "G/1".into(),
                event: Some(Side::Allied),
            }),
            vec![
                ("lost", Some(json!("G/1"))),
                ("lost_event", Some(json!("allied"))),
            ],
        ),
        (
            Some(Wait::Lost {
                unit: "G/1".into(),
                event: None,
            }),
            vec![("lost", Some(json!("G/1")))],
        ),
        (
            Some(Wait::Placing {
                side: Side::German,
                event: "heroic".into(),
            }),
            vec![("placing", Some(json!(["german", "heroic"])))],
        ),
    ];
    for (wait, set) in cases {
        let mut s = state();
        s.wait = wait.clone();
        // Before Wait: status_window, intelligence and lost were always written (false, null),
        // the others only when set.
        let mut expected = vec![
            ("status_window", Some(json!(false))),
            ("intelligence", Some(Value::Null)),
            ("rout", None),
            ("routing", None),
            ("lost_event", None),
            ("placing", None),
            ("lost", Some(Value::Null)),
        ];
        for (k, v) in set {
            expected.iter_mut().find(|(e, _)| *e == k).unwrap().1 = v;
        }
        assert_eq!(old_fields(&s), expected, "{wait:?}");
        let text = serde_json::to_string(&s).unwrap();
        let back: State = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s, "{wait:?}");
        assert_eq!(hash_json(&back), hash_json(&s));
    }
}

#[test]
fn a_stored_state_waiting_for_two_answers_is_refused_by_name() {
    let mut v = serde_json::to_value(state()).unwrap();
    v["status_window"] = json!(true);
    v["placing"] = json!(["german", "heroic"]);
    let e = serde_json::from_value::<State>(v).unwrap_err().to_string();
    assert!(
        e.contains("status_window and placing at once"),
        "the error names both: {e}"
    );
    let mut v = serde_json::to_value(state()).unwrap();
    v["lost_event"] = json!("allied");
    let e = serde_json::from_value::<State>(v).unwrap_err().to_string();
    assert!(e.contains("no unit is lost"), "{e}");
}
